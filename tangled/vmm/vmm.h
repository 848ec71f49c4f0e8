/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* vmm: what the files of the VMM that boots Linux share. */
#ifndef VMM_H
#define VMM_H
#include <time.h>
#include "kvmbook.h"

#define LINUX_TIMEOUT	30	/* seconds of the guest's life, boot to reset */
/* vm.c */
void create_pc(struct vm *vm);
/* cpu.c */
void create_cpu(struct vm *vm);
unsigned long tsc_khz(const struct vm *vm);
void run_pc(struct machine *m);
/* pc.c */
struct rtc {
	__u8 index;		/* the register 0x71 reads */
};

struct boot_timer {
	struct timespec start;	/* when the devices were made */
	long init_ms;		/* ms from then to init's write; -1 before */
};

struct pc {
	struct rtc rtc;
	struct boot_timer timer;
};

#define PC_DEVICES	5	/* entries pc_devices writes */
size_t pc_devices(struct pc *pc, bool *done, struct device *devices);
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
/* The virtio console's place in the PC */
#define VIRTIO_CONSOLE_BASE	0xd0000000	/* its window, above RAM */
#define VIRTIO_CONSOLE_IRQ	5		/* its interrupt line */
/* The same two, for the kernel's command line */
#define VIRTIO_CONSOLE_PARAMETER	" virtio_mmio.device=4K@0xd0000000:5"
#endif
