// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the console's threads under ThreadSanitizer", book/d-threads.nw. */
/* fuzz/threads.c: the virtio console's three threads at once, for ThreadSanitizer. */
#include <sched.h>
#include <linux/virtio_config.h>
#include <linux/virtio_mmio.h>
#include <linux/virtio_ring.h>
#include "fuzz.h"

#define RAM_SIZE	0x10000
#define QUEUE_SIZE	8
#define RECEIVE		0
#define TRANSMIT	1
#define CHAINS		2000		/* sent by the guest, one at a time */
#define INPUT		"typed\n"	/* handed to the console by the input's thread */
#define INPUTS		1000

/* Where queue q's areas and buffers are in guest memory. */
#define DESC(q)		(0x1000 + (q) * 0x1000)
#define AVAIL(q)	(DESC(q) + 0x400)
#define USED(q)		(DESC(q) + 0x800)
#define BUFFER(q, i)	(0x8000 + (q) * 0x1000 + (i) * 0x100)

struct machine_under_test {
	struct vm vm;
	struct device dev;
	struct virtio_console console;
	pthread_mutex_t mutex;	/* the machine's lock, as the VMM's */
	__u16 next_avail[2];	/* the guest's: the avail index it writes next */
	__u16 seen_used[2];	/* the guest's: the used index it has read up to */
	unsigned long received;	/* bytes the guest found in its receive buffers */
};

static void *at(struct machine_under_test *t, __u64 addr)
{
	return (__u8 *)t->vm.mem + addr;
}

/* An access of the guest's to the device's window: an exit, handled under the lock. */
static __u32 mmio(struct machine_under_test *t, __u64 offset, bool write, __u32 value)
{
	lock(&t->mutex);
	access_device(&t->dev, offset, 4, write, (__u8 *)&value);
	unlock(&t->mutex);
	return value;
}

static void set_up_queue(struct machine_under_test *t, __u32 q)
{
	mmio(t, VIRTIO_MMIO_QUEUE_SEL, true, q);
	mmio(t, VIRTIO_MMIO_QUEUE_NUM, true, QUEUE_SIZE);
	mmio(t, VIRTIO_MMIO_QUEUE_DESC_LOW, true, DESC(q));
	mmio(t, VIRTIO_MMIO_QUEUE_AVAIL_LOW, true, AVAIL(q));
	mmio(t, VIRTIO_MMIO_QUEUE_USED_LOW, true, USED(q));
	mmio(t, VIRTIO_MMIO_QUEUE_READY, true, 1);
}

/* The guest offers one buffer on queue q, as Linux's driver does: the
 * descriptor, the ring's entry, then the index, released, and the doorbell. */
static void offer(struct machine_under_test *t, __u32 q, __u32 len, __u16 flags)
{
	__u16 slot = t->next_avail[q] % QUEUE_SIZE;
	struct vring_desc *desc = at(t, DESC(q));
	struct vring_avail *avail = at(t, AVAIL(q));

	desc[slot] = (struct vring_desc) { .addr = BUFFER(q, slot), .len = len, .flags = flags };
	avail->ring[slot] = slot;
	__atomic_store_n(&avail->idx, ++t->next_avail[q], __ATOMIC_RELEASE);
	mmio(t, VIRTIO_MMIO_QUEUE_NOTIFY, true, q);
}

/* The guest takes what the device gave back on queue q; how many chains. */
static int take_used(struct machine_under_test *t, __u32 q)
{
	struct vring_used *used = at(t, USED(q));
	__u16 end = __atomic_load_n(&used->idx, __ATOMIC_ACQUIRE);
	int n = 0;

	for (; t->seen_used[q] != end; t->seen_used[q]++, n++)
		if (q == RECEIVE)
			t->received += used->ring[t->seen_used[q] % QUEUE_SIZE].len;
	return n;
}

/* The input's thread: INPUT, INPUTS times, each once the guest took the last. */
static void *type(void *arg)
{
	struct machine_under_test *t = arg;
	struct console_io *io = &t->console.io;
	int i = 0;

	while (i < INPUTS) {
		lock(&t->mutex);
		if (io->pos == io->len) {
			console_receive(io, INPUT, sizeof(INPUT) - 1);
			i++;
		}
		unlock(&t->mutex);
		sched_yield();
	}
	return NULL;
}

int main(void)
{
	struct machine_under_test t = { .mutex = PTHREAD_MUTEX_INITIALIZER };
	__u32 status = VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER;
	unsigned long sent = 0;
	pthread_t input;
	int chains = 0, posted = 0;

	fuzz_start(&t.vm, RAM_SIZE);
	t.dev = virtio_console_device(&t.console, &t.vm, VIRTIO_CONSOLE_BASE, VIRTIO_CONSOLE_IRQ);
	mmio(&t, VIRTIO_MMIO_STATUS, true, status);
	mmio(&t, VIRTIO_MMIO_DRIVER_FEATURES_SEL, true, 1);
	mmio(&t, VIRTIO_MMIO_DRIVER_FEATURES, true, 1u << (VIRTIO_F_VERSION_1 - 32));
	mmio(&t, VIRTIO_MMIO_STATUS, true, status |= VIRTIO_CONFIG_S_FEATURES_OK);
	set_up_queue(&t, RECEIVE);
	set_up_queue(&t, TRANSMIT);
	mmio(&t, VIRTIO_MMIO_STATUS, true, status | VIRTIO_CONFIG_S_DRIVER_OK);
	serve_in_thread(&t.console.mmio, &t.mutex, true);
	input = start_thread(type, &t);

	/* The guest's vCPU: a chain sent at a time, receive buffers kept
	 * offered, the interrupt acknowledged, until all is through. */
	while (chains < CHAINS || t.received < INPUTS * (sizeof(INPUT) - 1)) {
		if (chains < CHAINS && t.seen_used[TRANSMIT] == chains) {
			__u32 len = 1 + chains % 64;

			memset(at(&t, BUFFER(TRANSMIT, chains % QUEUE_SIZE)), 'a', len);
			offer(&t, TRANSMIT, len, 0);
			sent += len;
			chains++;
		}
		posted -= take_used(&t, RECEIVE);
		if (posted < QUEUE_SIZE) {
			offer(&t, RECEIVE, 4, VRING_DESC_F_WRITE);
			posted++;
		}
		take_used(&t, TRANSMIT);
		mmio(&t, VIRTIO_MMIO_INTERRUPT_ACK, true,
		     mmio(&t, VIRTIO_MMIO_INTERRUPT_STATUS, false, 0));
		sched_yield();
	}
	errno = pthread_join(input, NULL);
	if (errno)
		err(1, "pthread_join");
	lock(&t.mutex);
	fprintf(stderr, "sent %d chains, %lu bytes; the device wrote %lu\n", chains, sent, t.console.sent);
	fprintf(stderr, "typed %d times %zu bytes; the guest received %lu\n", INPUTS, sizeof(INPUT) - 1,
	       t.received);
	unlock(&t.mutex);
	return t.console.sent != sent || t.console.received != t.received;
}
