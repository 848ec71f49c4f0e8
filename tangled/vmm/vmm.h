/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* vmm: what the files of the VMM that boots Linux share. */
#ifndef VMM_H
#define VMM_H
#include <time.h>
#include "cpuid.h"
#include "machine.h"
#include "modes.h"
#include "serial.h"
#include "vcpus.h"

/* vm.c */
void create_pc(struct vm *vm, size_t ram);
void register_ram(const struct vm *vm, __u32 flags);
/* cpu.c */
struct vmm;
struct kvm_cpuid2 *machine_cpuid(const struct vmm *v);
void create_cpu(struct vmm *v);
unsigned long tsc_khz(const struct vm *vm);
void start_bound(const struct vm *vm, unsigned int life);
void run_pc(struct vmm *v);
/* boot.c */
struct boot_file {
	const char *path;	/* for messages */
	const __u8 *data;
	size_t size;
};

__u32 load_bzimage(const struct vm *vm, const struct boot_file *kernel,
		   const struct boot_file *initrd, const char *cmdline);
__u32 load_linux(const struct vm *vm, const char *kernel, const char *initrd,
		 const char *cmdline);
void start_linux(const struct vm *vm, __u32 entry);
/* rtc.c */
#define RTC_PORT	0x70	/* index; data at 0x71 */

struct rtc {
	__u8 index;		/* the register 0x71 reads */
};

void rtc_read(void *state, __u64 offset, __u8 *data, __u32 len);
void rtc_write(void *state, __u64 offset, const __u8 *data, __u32 len);
/* pci.c */
#define PCI_CONFIG_PORT	0xcf8	/* the address register; data at 0xcfc */
#define PCI_DATA	4	/* the data port's offset */

struct pci {
	__u32 address;		/* the last address written to 0xcf8 */
};
void pci_read(void *state, __u64 offset, __u8 *data, __u32 len);
void pci_write(void *state, __u64 offset, const __u8 *data, __u32 len);
/* pc.c */
struct boot_timer {
	struct timespec start;	/* when the devices were made */
	long init_ms;		/* ms from then to init's write; -1 before */
};

struct pc {
	struct rtc rtc;
	struct pci pci;
	struct boot_timer timer;
};

#define PC_DEVICES	4	/* entries pc_devices writes */
size_t pc_devices(struct pc *pc, bool *done, struct device *devices);
size_t remove_device(struct device *devices, size_t count, const char *name);
#include "virtio.h"
#include "virtio-console.h"
/* The virtio devices' places in the PC: a window each, above RAM, and a line */
#define VIRTIO_DEVICES		3		/* the console, the disk, the network card */
#define VIRTIO_CONSOLE_BASE	0xd0000000	/* the console's window */
#define VIRTIO_CONSOLE_IRQ	5		/* and its interrupt line */
/* The same two, as the kernel's command line gives them */
#define VIRTIO_CONSOLE_PARAMETER	" virtio_mmio.device=4K@0xd0000000:5"
/* main.c */
struct vmm;
void plug_virtio(struct vmm *v, struct device window, struct virtio_mmio *t);
#include "irq.h"
/* terminal.c */
#define TYPED_MAX	256	/* bytes typed and not yet received */

/* The VMM's standard input, for the guest's console: the serial port's or
 * the virtio console's. */
struct console_input {
	struct console_io *io;
	pthread_mutex_t *mutex;		/* the machine's, held while a device is used */
	const char *prompt;		/* paced: a line after each of these; else NULL */
	size_t matched;			/* bytes of the prompt the guest has just sent */
	bool prompted;			/* the prompt came since the last line */
	char *line;			/* paced: the line the receiver holds */
	size_t size;			/* and its buffer's size */
	char typed[TYPED_MAX];		/* typed: waiting for the receiver */
	size_t waiting;
	char receiving[TYPED_MAX];	/* typed: what the receiver holds */
	pthread_cond_t drained;		/* the receiver took what was waiting */
	void (*at_end)(void *arg);	/* paced: called when the input ends at a prompt */
	void *at_end_arg;
};

void start_console(struct console_input *in, struct console_io *io, pthread_mutex_t *mutex,
		   bool typed, const char *prompt);
void prompt_came(struct console_input *in);
#include "virtio-blk.h"
#define VIRTIO_DISK_BASE	0xd0001000	/* the disk's window */
#define VIRTIO_DISK_IRQ		10		/* and its interrupt line */
#include "virtio-net.h"
#define VIRTIO_NET_BASE		0xd0002000	/* the network card's window */
#define VIRTIO_NET_IRQ		11		/* and its interrupt line */
/* mptable.c */
#define MP_LAPIC_ADDR	0xfee00000	/* every local APIC's registers */
#define MP_IOAPIC_ADDR	0xfec00000	/* the I/O APIC's */

void number_ioapic(const struct vm *vm, __u8 id);
__u8 table_checksum(const void *entry, size_t n);
void write_mp_table(const struct vm *vm, int count);
/* aps.c: the application processors, vCPUs 1 and on, and the pause that stops vCPU 0 */
#define MAX_VCPUS	4	/* the nested kernel's CONFIG_NR_CPUS */

/* A request to vCPU 0's thread to leave KVM_RUN and stay out */
struct pause {
	const struct vcpu_thread *cpu;	/* vCPU 0, run by the main thread */
	bool requested;
};

void prepare_pause(struct pause *pause, struct vcpu_thread *cpu, const struct vm *vm);
void pause_vcpu(void *arg);
void create_aps(struct vmm *v);
#include "dirty-log.h"
#include "state.h"
/* snapshot.c */
#define FNV_OFFSET	0xcbf29ce484222325ULL	/* the checksum of nothing */

#define SNAPSHOT_MAGIC		"kvmbook"	/* and its NUL: 8 bytes */
#define PAGES_END		(~0ULL)	/* the page number after the last page */
#define SNAPSHOT_MSRS_MAX	1024	/* far more than KVM has */

struct snapshot_header {
	char magic[8];
	__u32 version;
	__u32 reserved;		/* zero: room for a later version */
	__u64 ram_size;		/* bytes: the machine that goes on gets as much */
};

/* A port device's record, after the virtio devices': which device, and its size. */
struct port_record {
	__u32 port;		/* the first port of the device's window */
	__u32 size;		/* bytes of the record that follow */
};

#define PORT_RECORD_MAX	16	/* bytes of the largest record a device keeps */

/* A port device's record as a restore read it, for the device it is of. */
struct saved_port {
	size_t device;			/* its place on the VMM's port bus */
	__u64 record[PORT_RECORD_MAX / 8];
};

/* What a restore reads, and checks, before it sets anything. */
struct saved_machine {
	struct virtio_mmio *const *virtio;	/* the VMM's devices, which the stream's must be */
	size_t count;
	struct virtio_mmio devices[VIRTIO_DEVICES];	/* the VMM's, as the stream has them */
	const struct bus *pio;		/* the VMM's port devices, which the stream's must be */
	struct saved_port ports[MAX_DEVICES];
	__u32 nports;
	struct snapshot state;		/* its MSRs apart, below */
	__u32 nmsrs;
	struct kvm_msr_entry msrs[SNAPSHOT_MSRS_MAX];
};

/* A stream being read: where from, and what it has said so far. */
struct snapshot_reader {
	int fd;
	const char *name;	/* for messages */
	__u64 hash;		/* of the bytes read so far */
	struct snapshot_header header;
};
struct snapshot_writer;
struct snapshot_writer *start_snapshot(int fd, const char *name, const char *path,
				       const struct vm *vm);
void put_page(struct snapshot_writer *w, const struct vm *vm, __u64 page);
unsigned long put_ram(struct snapshot_writer *w, const struct vm *vm);
void finish_snapshot(struct snapshot_writer *w, const struct vmm *v);
void save_machine(const struct vmm *v, const char *path);
__u64 fnv1a(__u64 hash, const void *data, size_t len);
void open_snapshot(struct snapshot_reader *r, int fd, const char *name, size_t ram_max);
void read_snapshot(struct snapshot_reader *r, const char *path, size_t ram_max);
void read_machine(struct snapshot_reader *r, const struct vm *vm, struct saved_machine *saved);
void restore_machine(struct snapshot_reader *r, struct vmm *v);
#include "virtio-state.h"
/* migrate.c */
#define ROUNDS_MAX	16	/* live rounds at most: then the guest stops whatever it writes */

struct migration {
	const struct vm *vm;
	struct pause *pause;
	struct snapshot_writer *w;
	__u64 *bitmap;			/* KVM_GET_DIRTY_LOG's: a bit a page */
	__u64 *written;			/* the devices' writes, logged by virtq.c: the same */
	pthread_t thread;
	unsigned int rounds;
	unsigned long pages[ROUNDS_MAX + 1];	/* sent in each round; the last, stopped */
	struct timespec stopped;	/* when the vCPU was paused */
};

void prepare_migration(struct migration *mg, const struct vm *vm, struct pause *pause,
		       const char *to);
void start_migration(void *arg);
void finish_migration(struct migration *mg, const struct vmm *v);
int accept_one(const char *at, const char *who, unsigned int life);
void receive_machine(struct snapshot_reader *r, const char *at, unsigned int life,
		     size_t ram_max);
#include "debug.h"
/* gdb.c */
#define PACKET_MAX	4096	/* bytes of a packet's data and its NUL: PacketSize=fff */
#define SW_BREAKS	64
#define HW_BREAKS	4	/* DR0 to DR3 */
#define INT3		0xcc
#define BP_VECTOR	3	/* #BP, the exception of an int3 */
#define WIDE_REGS	17	/* gdb's amd64 registers of 8 bytes: RAX to R15, RIP */
#define NARROW_REGS	7	/* and of 4: EFLAGS and the six selectors */

struct sw_break {
	__u64 addr;
	__u64 gpa;	/* where the int3 is: addr's page when it was planted */
	__u8 saved;	/* the byte the int3 replaced */
};

struct hw_break {
	__u64 addr;
	__u64 dr7;	/* its bits of DR7; 0: the register is free */
};

struct gdb_stub {
	const struct vm *vm;
	struct vcpu_thread *cpus;	/* the machine's vCPUs: gdb's threads 1 to ncpus */
	int ncpus;
	int g;				/* the vCPU whose registers and memory gdb reads (Hg) */
	int c;				/* the vCPU a step steps (Hc); -1: the one Hg chose */
	int owner;			/* the vCPU whose thread serves gdb, or steps; -1: all run */
	int parked;			/* threads held while the owner has the machine */
	pthread_mutex_t lock;		/* held while owner and parked change */
	pthread_cond_t changed;		/* signalled when they do */
	int fd;				/* the connection to gdb; -1 once it left */
	bool gone;			/* gdb detached, or the connection broke */
	char packet[PACKET_MAX];	/* the last packet's data */
	struct sw_break breaks[SW_BREAKS];
	size_t nbreaks;
	struct hw_break hw[HW_BREAKS];	/* DR0 to DR3 */
	struct kvm_regs before_step;
	unsigned int life;		/* -l: 0 when the guest has no bound */
};

void wait_for_gdb(struct gdb_stub *stub, const struct vm *vm, struct vcpu_thread *cpus,
		  int ncpus, const char *at, unsigned int life);
void gdb_stop(struct gdb_stub *stub, int cpu);
bool gdb_heard(struct gdb_stub *stub);
void gdb_end(struct gdb_stub *stub);
/* acpi.c */
void write_acpi_tables(const struct vm *vm, int count);
/* power.c: ACPI's PM1 registers, at the ports the FADT gives */
#define POWER_PORT	0x600	/* PM1a's event block, then its control block */
#define POWER_STATUS	0
#define POWER_ENABLE	2
#define POWER_CONTROL	4
#define POWER_PORTS	6
#define SCI_EN		0x0001	/* control: ACPI's events go to the SCI */
#define SLP_TYP_SHIFT	10
#define SLP_EN		0x2000
#define SLP_TYP_S5	5	/* SLP_TYP for "soft off", as the DSDT's \_S5 says */

struct power {
	__u16 enable;		/* the events the kernel enabled */
	__u16 sleep_type;	/* SLP_TYP, as last written */
	bool off;		/* the guest turned the machine off */
	struct pause *pause;	/* vCPU 0's, to end the run */
};

struct device power_device(struct power *p, struct pause *pause);
/* The PM1 registers the kernel wrote, in a stream. */
struct power_state {
	__u16 enable, sleep_type;
};

void power_save(const void *state, void *record);
void power_restore(void *state, const void *record);
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
