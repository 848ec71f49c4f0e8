/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A virtio device", book/37-virtio-console.nw. */
/* virtio-console.h: a virtio console with one port. */
#ifndef VIRTIO_CONSOLE_H
#define VIRTIO_CONSOLE_H
#include "serial.h"
#include "virtio.h"
struct virtio_console {
	struct virtio_mmio mmio;
	struct console_io io;		/* its input */
	unsigned long sent;		/* bytes written by the guest */
	unsigned long received;		/* bytes put in its buffers */
};

struct device virtio_console_device(struct virtio_console *console, const struct vm *vm,
				    __u64 base, __u32 irq);
#endif
