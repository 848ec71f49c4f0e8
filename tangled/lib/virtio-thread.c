// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A virtio device", book/37-virtio-console.nw. */
/* virtio-thread.c: a virtio device served by a thread of its own. */
#include <poll.h>
#include <linux/virtio_config.h>
#include <linux/virtio_mmio.h>
#include "irq.h"
#include "vcpus.h"
#include "virtio.h"

/* The doorbell of queue rang: serve it, if the driver is running. */
static void ring(struct virtio_mmio *t, unsigned int queue)
{
	__u64 rings;

	if (read(t->doorbell[queue], &rings, sizeof(rings)) != sizeof(rings))
		err(1, "read doorbell");
	if (!(t->status & VIRTIO_CONFIG_S_DRIVER_OK))
		return;
	t->notifications += rings;
	t->dev.notify(t, queue);
}

/* What the thread waits for: each queue's doorbell, and the device's input
 * while it has room for it; how many. */
static nfds_t wait_for(struct virtio_mmio *t, struct pollfd *fds)
{
	nfds_t n;

	for (n = 0; n < t->dev.queues; n++)
		fds[n] = (struct pollfd) { .fd = t->doorbell[n], .events = POLLIN };
	if (t->dev.waits_on)
		fds[n++] = (struct pollfd) { .fd = t->dev.waits_on(t), .events = POLLIN };
	return n;
}

static void *serve_device(void *arg)
{
	struct virtio_mmio *t = arg;
	struct pollfd fds[VIRTIO_QUEUES + 1];
	unsigned int i;
	nfds_t n;

	lock(t->lock);
	for (;;) {
		n = wait_for(t, fds);
		unlock(t->lock);
		if (poll(fds, n, -1) == -1 && errno != EINTR)
			err(1, "poll");
		lock(t->lock);
		for (i = 0; i < t->dev.queues; i++)
			if (fds[i].revents & POLLIN)
				ring(t, i);
		if (n > t->dev.queues && fds[n - 1].revents & POLLIN)
			t->dev.readable(t);
	}
	return NULL;
}

/* Serve t on a thread of its own, which holds lock while it uses the device:
 * each queue's doorbell an ioeventfd, the interrupt an irqfd; or, with exits,
 * both exits, the doorbell handed to the thread by the exit's handler. */
void serve_in_thread(struct virtio_mmio *t, pthread_mutex_t *lock, bool exits)
{
	unsigned int i;

	t->lock = lock;
	for (i = 0; i < t->dev.queues; i++)
		t->doorbell[i] = exits ? new_eventfd() :
			bind_ioeventfd(t->vm, t->base + VIRTIO_MMIO_QUEUE_NOTIFY, 4,
				       KVM_IOEVENTFD_FLAG_DATAMATCH, i);
	if (t->irq != VIRTIO_NO_IRQ && !exits)
		t->irqfd = bind_irqfd(t->vm, t->irq);
	start_thread(serve_device, t);
}

