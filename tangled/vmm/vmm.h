/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* vmm: what the files of the VMM that boots Linux share. */
#ifndef VMM_H
#define VMM_H
#include <time.h>
#include "kvmbook.h"

/* vm.c */
void create_pc(struct vm *vm, size_t ram);
/* cpu.c */
void create_cpu(struct vm *vm);
unsigned long tsc_khz(const struct vm *vm);
void run_pc(struct machine *m, pthread_mutex_t *mutex, unsigned int life);
/* rtc.c */
#define RTC_PORT	0x70	/* index; data at 0x71 */

struct rtc {
	__u8 index;		/* the register 0x71 reads */
};

__u8 rtc_read(void *state, __u64 offset);
void rtc_write(void *state, __u64 offset, __u8 value);
/* pc.c */
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
/* The virtio devices' places in the PC: a window each, above RAM, and a line */
#define VIRTIO_DEVICES		3		/* the console, the disk, the network card */
#define VIRTIO_CONSOLE_BASE	0xd0000000	/* the console's window */
#define VIRTIO_CONSOLE_IRQ	5		/* and its interrupt line */
/* The same two, as the kernel's command line gives them */
#define VIRTIO_CONSOLE_PARAMETER	" virtio_mmio.device=4K@0xd0000000:5"
/* console.c */
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
};

void start_console(struct console_input *in, struct console_io *io, pthread_mutex_t *mutex,
		   bool typed, const char *prompt);
#define VIRTIO_DISK_BASE	0xd0001000	/* the disk's window */
#define VIRTIO_DISK_IRQ		10		/* and its interrupt line */
#define VIRTIO_NET_BASE		0xd0002000	/* the network card's window */
#define VIRTIO_NET_IRQ		11		/* and its interrupt line */
#endif
