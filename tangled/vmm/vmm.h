/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* vmm.h: the machine, and the headers of the VMM's files, which all include it. */
#ifndef VMM_H
#define VMM_H
#include <time.h>
#include "cpuid.h"
#include "machine.h"
#include "modes.h"
#include "serial.h"
#include "vcpus.h"

#include "vm.h"
#include "cpu.h"
#include "boot.h"
#include "rtc.h"
#include "pci.h"
#include "pc.h"
#include "virtio.h"
#include "virtio-console.h"
#include "places.h"
/* main.c */
struct vmm;
void plug_virtio(struct vmm *v, struct device window, struct virtio_mmio *t);
#include "irq.h"
#include "terminal.h"
#include "virtio-blk.h"
#include "virtio-net.h"
#include "mptable.h"
#include "aps.h"
#include "dirty-log.h"
#include "state.h"
#include "snapshot.h"
#include "virtio-state.h"
#include "migrate.h"
#include "debug.h"
#include "gdb.h"
#include "acpi.h"
#include "power.h"
/* main.c: the options, and the machine with the parts they plugged in */
struct options {
	size_t ram;		/* -m: bytes of RAM; 0 before the default */
	unsigned int life;	/* -l: seconds the guest may run; 0: until it resets */
	const char *kernel, *initrd, *cmdline;
	bool timed;		/* -t */
	const char *without;	/* -w: the device to leave out */
	bool virtio;		/* -v */
	bool exits;		/* -x: virtio's doorbells and interrupts as exits */
	bool typed;		/* -i: input as typed on this terminal */
	const char *prompt;	/* -p: input a line at a time, each after this prompt */
	const char *disk;	/* -d: the disk's image */
	bool read_only;		/* -r: the disk is read-only */
	const char *tap;	/* -n: the TAP device of a network card */
	int cpus;		/* -c: processors; 0: one */
	const char *save;	/* -S: the file to save the machine to when the input ends */
	const char *restore;	/* -R: the file of a machine to go on from, not a boot */
	bool leaves;		/* -S or -M: the machine leaves where the input ends */
	bool goes_on;		/* -R or -I: a machine comes to go on from */
	const char *migrate;	/* -M: where to move the machine when it ends */
	const char *incoming;	/* -I: where to receive the machine to go on from */
	const char *gdb;	/* -g: where to wait for gdb */
	__u32 withheld;		/* -k: KVM's paravirtual features kept from the guest, a bit each */
};

struct vmm {
	struct options o;		/* what the command line asked for */
	struct machine m;		/* the VM, its buses and its counts */
	pthread_mutex_t mutex;		/* held while a device is used */
	struct serial uart;		/* COM1, the console */
	struct pc pc;			/* the clock, PCI and the boot timer */
	struct virtio_mmio *virtio[VIRTIO_DEVICES];	/* the memory bus's devices */
	size_t in_memory;				/* how many */
	struct virtio_console console;			/* -v */
	struct console_input input;	/* -i or -p */
	struct virtio_disk disk;	/* -d */
	struct virtio_net net;	/* -n */
	struct vcpu_thread cpus[MAX_VCPUS];	/* vCPU 0 on the main thread; -c: the others */
	struct pause pause;	/* of vCPU 0, from another thread */
	struct snapshot_reader from;	/* -R or -I: the machine to go on from */
	struct migration migration;	/* -M */
	struct gdb_stub stub;	/* -g */
	struct power power;	/* ACPI's PM1 registers */
};
#endif
