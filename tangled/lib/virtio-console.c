// SPDX-License-Identifier: GPL-2.0 OR MIT
/* virtio-console.c: a virtio console with one port, output only. */
#include <err.h>
#include <unistd.h>
#include <linux/virtio_ids.h>
#include "kvmbook.h"

#define CONSOLE_RECEIVE		0	/* the receive queue: buffers for input */
#define CONSOLE_TRANSMIT	1	/* the transmit queue: the guest's output */

static __u32 print_buffer(void *state, void *data, __u32 len, bool writable)
{
	struct virtio_console *console = state;

	if (writable)
		return 0;
	if (write(STDOUT_FILENO, data, len) != (ssize_t)len)
		err(1, "stdout");
	console->sent += len;
	return 0;
}

static void console_notify(struct virtio_mmio *t, unsigned int queue)
{
	if (queue == CONSOLE_TRANSMIT)
		virtio_used(t, queue, virtq_serve(t->vm, &t->queue[queue], print_buffer,
						  t->dev.state, VIRTQ_SIZE));
}

/* The console, in a window at base, interrupting on irq. */
struct device virtio_console_device(struct virtio_console *console, const struct vm *vm,
				    __u64 base, __u32 irq)
{
	struct virtio dev = {
		.name = "virtio console",
		.id = VIRTIO_ID_CONSOLE,
		.queues = 2,
		.notify = console_notify,
		.state = console,
	};

	console->sent = 0;
	return virtio_mmio_device(&console->mmio, vm, base, irq, dev);
}

