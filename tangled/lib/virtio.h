/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Virtqueues and the MMIO transport", book/36-virtio-buffers.nw. */
/* virtio.h: virtqueues and virtio's MMIO transport. */
#ifndef VIRTIO_H
#define VIRTIO_H
#include <pthread.h>
#include "machine.h"
/* virtq.c */
#define VIRTQ_SIZE	64	/* the most entries a queue may have */
#define VIRTQ_CHAIN_MAX	(64 << 10)	/* the most bytes a chain may hold */

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

/* One buffer of a checked chain, where the VMM sees it. */
struct virtq_buf {
	void *data;
	__u32 len;
	bool writable;		/* the device's to write: input for the driver */
};

/* One buffer of a chain, given to a device; returns the bytes written to it. */
typedef __u32 (*virtq_buffer)(void *state, void *data, __u32 len, bool writable);
/* A whole chain of n buffers, given to a device; the bytes written to them. */
typedef __u32 (*virtq_chain)(void *state, const struct virtq_buf *buf, int n);

int virtq_start(const struct vm *vm, struct virtq *q);
int virtq_serve_chains(const struct vm *vm, struct virtq *q, virtq_chain fn, void *state,
		       unsigned int max);
int virtq_serve(const struct vm *vm, struct virtq *q, virtq_buffer fn, void *state,
		unsigned int max);
bool virtq_wants_interrupt(const struct vm *vm, const struct virtq *q);
bool virtq_has_chain(const struct vm *vm, const struct virtq *q);
int virtq_refuse(struct virtq *q, const char *why);
void virtq_log_writes(__u64 *log);
/* virtio-mmio.c */
#define VIRTIO_QUEUES		2	/* the most queues a device of this VMM has */
#define VIRTIO_NO_IRQ		(~0u)	/* the line of a device its VMM gives none */
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
	const void *config;		/* its configuration, read from offset 0x100 */
	__u32 config_size;
	/* A device that also waits for input: the descriptor, or -1 while it
	 * has nowhere to put it, and what to do when it is readable */
	int (*waits_on)(struct virtio_mmio *t);
	void (*readable)(struct virtio_mmio *t);
	void (*report)(const struct virtio_mmio *t);	/* its counts, for the VMM's report */
};

/* Version 2 of virtio's MMIO registers, and the device behind them. */
struct virtio_mmio {
	const struct vm *vm;
	__u64 base;			/* its window's first address */
	__u32 irq;			/* its interrupt line */
	int irqfd;			/* an eventfd bound to irq, or -1 */
	int doorbell[VIRTIO_QUEUES];	/* with a thread: each queue's ioeventfd */
	pthread_mutex_t *lock;		/* with a thread: held while the device is used */
	struct virtio dev;
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
void virtio_update_line(struct virtio_mmio *t);
/* virtio-thread.c */
void serve_in_thread(struct virtio_mmio *t, pthread_mutex_t *lock, bool exits);
#endif
