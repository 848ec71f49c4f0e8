// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A virtio device", book/37-virtio-console.nw. */
/* virtio-console.c: a virtio console with one port. */
#include <err.h>
#include <unistd.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include "machine.h"
#include "serial.h"
#include "virtio-console.h"
#include "virtio.h"

#define CONSOLE_RECEIVE		0	/* the receive queue: buffers for input */
#define CONSOLE_TRANSMIT	1	/* the transmit queue: the guest's output */

static __u32 print_buffer(void *state, void *data, __u32 len, bool writable)
{
	struct virtio_console *console = state;
	const __u8 *bytes = data;
	__u32 i;

	if (writable)
		return 0;
	if (write(STDOUT_FILENO, data, len) != (ssize_t)len)
		err(1, "stdout");
	console->sent += len;
	for (i = 0; i < len && console->io.transmitted; i++)
		console->io.transmitted(console->io.owner, bytes[i]);
	return 0;
}

static __u32 fill_buffer(void *state, void *data, __u32 len, bool writable)
{
	struct console_io *io = state;
	size_t n = io->len - io->pos;

	if (!writable)
		return 0;
	if (n > len)
		n = len;
	memcpy(data, io->bytes + io->pos, n);
	io->pos += n;
	return n;
}

/* Put what the console holds into the receive queue's chains, while there are any. */
static void deliver(struct virtio_console *console)
{
	struct virtio_mmio *t = &console->mmio;
	struct console_io *io = &console->io;
	size_t before = io->pos;
	int served = 1;

	if (!(t->status & VIRTIO_CONFIG_S_DRIVER_OK))
		return;
	while (io->pos < io->len && served > 0) {
		served = virtq_serve(t->vm, &t->queue[CONSOLE_RECEIVE], fill_buffer, io, 1);
		if (served)
			virtio_used(t, CONSOLE_RECEIVE, served);
	}
	console->received += io->pos - before;
	if (io->pos == io->len && io->refill)
		io->refill(io->owner);
}

static void console_arrived(struct console_io *io)
{
	deliver(container_of(io, struct virtio_console, io));
}

static void console_notify(struct virtio_mmio *t, unsigned int queue)
{
	if (queue == CONSOLE_TRANSMIT)
		virtio_used(t, queue, virtq_serve(t->vm, &t->queue[queue], print_buffer,
						  t->dev.state, VIRTQ_SIZE));
	else
		deliver(t->dev.state);
}

static void console_report(const struct virtio_mmio *t)
{
	const struct virtio_console *console = t->dev.state;

	printf("%-20s %lu\n", "bytes on virtio", console->sent);
	printf("%-20s %lu\n", "bytes received", console->received);
	printf("%-20s %lu\n", "notifications", t->notifications);
	printf("%-20s %lu\n", "interrupts", t->interrupts);
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
		.report = console_report,
	};

	*console = (struct virtio_console) { .io.arrived = console_arrived };
	return virtio_mmio_device(&console->mmio, vm, base, irq, dev);
}

