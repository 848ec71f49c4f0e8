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
/* serial.c */
#define UART_PORT	0x3f8	/* COM1 */
#define UART_IRQ	4	/* COM1's interrupt line */
#define UART_RBR	0	/* read: the received byte */
#define UART_THR	0	/* write: a byte to send */
#define UART_IER	1	/* interrupt enable */
#define UART_IER_RDI	0x01	/* interrupt when a byte was received */
#define UART_LSR	5	/* line status */
#define UART_LSR_DR	0x01	/* a received byte is waiting */
#define UART_LSR_THRE	0x60	/* ready to send (THR and shifter empty) */
#define UART_IIR	2	/* read: the pending interrupt */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_MSR	6	/* modem status */
#define UART_SCR	7	/* scratch */
#define UART_IER_THRI	0x02	/* interrupt when the transmitter is empty */
#define UART_IIR_NONE	0x01	/* no interrupt pending */
#define UART_IIR_THRI	0x02	/* the transmitter is empty */
#define UART_LCR_DLAB	0x80	/* offsets 0 and 1 are the divisor */
#define UART_MCR_LOOP	0x10	/* loopback: MCR's outputs come back in MSR */
#define UART_MSR_LINES	0xb0	/* carrier, data set ready, clear to send */
struct serial {
	int vmfd;		/* for its interrupt line */
	__u8 ier, lcr, mcr, scr, dll, dlm;
	bool thr_empty;		/* "transmitter empty" raised, IIR not yet read */
	bool line;		/* the level last given to KVM */
	unsigned long sent;	/* bytes transmitted */
};

struct device serial_device(struct serial *uart, int vmfd);
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
__u32 load_linux(const struct vm *vm, const char *kernel, const char *initrd,
		 const char *cmdline);
void start_linux(const struct vm *vm, __u32 entry);
/* The virtio console's place in the PC */
#define VIRTIO_CONSOLE_BASE	0xd0000000	/* its window, above RAM */
#define VIRTIO_CONSOLE_IRQ	5		/* its interrupt line */
/* The same two, for the kernel's command line */
#define VIRTIO_CONSOLE_PARAMETER	" virtio_mmio.device=4K@0xd0000000:5"
#endif
