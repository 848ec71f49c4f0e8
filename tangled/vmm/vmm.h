/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* vmm: what the files of the VMM that boots Linux share. */
#ifndef VMM_H
#define VMM_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <linux/kvm.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Put each name at its own number; numbers nobody defined stay NULL. */
#define NAME(value) \
	[value] = #value

#define SERIAL_PORT	0x3f8	/* COM1: the console */
#define RUN_TIMEOUT	30	/* seconds of the guest's life, boot to reset */

/* The VM: one vCPU and RAM from guest-physical 0. */
struct vm {
	int kvm;		/* /dev/kvm: system ioctls */
	int fd;			/* the VM */
	int vcpu;		/* its one vCPU */
	struct kvm_run *run;	/* why KVM_RUN returned */
	void *mem;		/* the guest's RAM, as this process sees it */
	size_t mem_size;	/* bytes of RAM */
};

/* A device as the bus sees it: a window and the two calls it answers. */
struct device {
	__u64 base;			/* first address of its window */
	__u64 size;			/* bytes in the window */
	void *state;			/* what read and write are given */
	__u8 (*read)(void *state, __u64 offset);
	void (*write)(void *state, __u64 offset, __u8 value);
	const char *name;		/* for the VMM's reports */
};

struct bus {
	const struct device *devices;
	size_t count;
};

#define MAX_DEVICES	8	/* on a bus, for the counts by device */

struct machine {
	struct vm vm;
	struct bus mmio;			/* devices by guest-physical address */
	struct bus pio;				/* devices by port */
	unsigned long exits;			/* times KVM_RUN returned to the VMM */
	unsigned long by_address[MAX_DEVICES];	/* MMIO exits, by device */
	unsigned long by_port[MAX_DEVICES];	/* port exits, by device */
	bool done;				/* set by a device when the guest has finished */
};

/* vm.c */
void create_pc(struct vm *vm);
void *guest_ptr(const struct vm *vm, __u64 addr, __u64 len);
void irq_line(int vmfd, __u32 irq, int level);
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
/* virtq.c */
#define VIRTQ_SIZE	64	/* the most entries a queue may have */

/* A split virtqueue as its device sees it: three areas of guest memory. */
struct virtq {
	__u16 num;		/* entries: a power of two the driver chose */
	__u64 desc;		/* guest-physical: the descriptor table */
	__u64 avail;		/* the available ring: chains for the device */
	__u64 used;		/* the used ring: chains given back */
	bool ready;		/* set up by the driver and checked by the VMM */
	const char *error;	/* why the device stopped using it, if it did */
	__u16 next_avail;	/* the next available entry to take */
	__u16 next_used;	/* the next used entry to fill */
};

/* One buffer of a chain, given to a device; returns the bytes written to it. */
typedef __u32 (*virtq_buffer)(void *state, void *data, __u32 len, bool writable);

int virtq_start(const struct vm *vm, struct virtq *q);
int virtq_serve(const struct vm *vm, struct virtq *q, virtq_buffer fn, void *state);
bool virtq_wants_interrupt(const struct vm *vm, const struct virtq *q);
/* virtio-mmio.c */
#define VIRTIO_QUEUES		2	/* the most queues a device of this VMM has */
#define VIRTIO_MMIO_SIZE	0x1000	/* each device's window */

struct virtio_mmio;

/* What a virtio device tells the transport about itself. */
struct virtio {
	const char *name;
	__u32 id;			/* VIRTIO_ID_*: which kind of device */
	__u64 features;			/* offered besides VIRTIO_F_VERSION_1 */
	unsigned int queues;		/* at most VIRTIO_QUEUES */
	void (*notify)(struct virtio_mmio *t, unsigned int queue);
	void *state;			/* the device's, for notify */
};

/* Version 2 of virtio's MMIO registers, and the device behind them. */
struct virtio_mmio {
	const struct vm *vm;
	__u32 irq;			/* its interrupt line */
	struct virtio dev;
	__u32 latch;			/* a register's bytes, as they are written */
	__u32 device_features_sel, driver_features_sel, queue_sel;
	__u64 driver_features;		/* accepted by the driver */
	__u32 status;			/* VIRTIO_CONFIG_S_*: the driver's progress */
	__u32 interrupt_status;		/* VIRTIO_MMIO_INT_*: why the line is up */
	bool line;			/* the level last given to KVM */
	struct virtq queue[VIRTIO_QUEUES];
	unsigned long notifications;	/* doorbells rung */
	unsigned long interrupts;	/* times the line went up */
};

struct device virtio_mmio_device(struct virtio_mmio *t, const struct vm *vm, __u64 base,
				 __u32 irq, struct virtio dev);
void virtio_used(struct virtio_mmio *t, unsigned int queue, int served);
/* virtio-console.c */
#define VIRTIO_CONSOLE_BASE	0xd0000000	/* its window, above RAM */
#define VIRTIO_CONSOLE_IRQ	5		/* its interrupt line */
/* The same two, for the kernel's command line */
#define VIRTIO_CONSOLE_PARAMETER	" virtio_mmio.device=4K@0xd0000000:5"
struct virtio_console {
	struct virtio_mmio mmio;
	unsigned long sent;	/* bytes written by the guest */
};

struct device virtio_console_device(struct virtio_console *console, const struct vm *vm,
				    __u64 base, __u32 irq);
#endif
