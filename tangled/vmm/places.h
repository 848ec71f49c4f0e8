/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A virtio device", book/37-virtio-console.nw. */
/* places.h: each virtio device's window above RAM, and its line. */
#ifndef PLACES_H
#define PLACES_H
#define VIRTIO_DEVICES		3		/* the console, the disk, the network card */
#define VIRTIO_CONSOLE_BASE	0xd0000000	/* the console's window */
#define VIRTIO_CONSOLE_IRQ	5		/* and its interrupt line */
/* The same two, as the kernel's command line gives them */
#define VIRTIO_CONSOLE_PARAMETER	" virtio_mmio.device=4K@0xd0000000:5"
#define VIRTIO_DISK_BASE	0xd0001000	/* the disk's window */
#define VIRTIO_DISK_IRQ		10		/* and its interrupt line */
#define VIRTIO_NET_BASE		0xd0002000	/* the network card's window */
#define VIRTIO_NET_IRQ		11		/* and its interrupt line */
#endif
