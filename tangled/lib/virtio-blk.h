/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A disk", book/40-disk.nw. */
/* virtio-blk.h: a virtio block device whose sectors are a file's. */
#ifndef VIRTIO_BLK_H
#define VIRTIO_BLK_H
#include "virtio.h"
#include <linux/virtio_blk.h>	/* a request's header, the configuration */

#define SECTOR		512	/* bytes: the unit of a request's sector and of capacity */
#define DISK_SEGMENT	4096	/* size_max: the most bytes of data in one buffer */
#define DISK_SEGMENTS	15	/* seg_max: the most buffers of data in one request */

/* The requests the disk counts, by type. */
enum disk_request { DISK_READ, DISK_WRITE, DISK_FLUSH, DISK_GET_ID, DISK_OTHER, DISK_TYPES };

struct virtio_disk {
	struct virtio_mmio mmio;
	int fd;					/* the image */
	bool read_only;
	char id[VIRTIO_BLK_ID_BYTES];		/* the name T_GET_ID gives: NUL-padded */
	struct virtio_blk_config config;	/* capacity, size_max, seg_max */
	unsigned long requests[DISK_TYPES];	/* answered, by type */
	unsigned long failed;			/* of those, not with VIRTIO_BLK_S_OK */
	unsigned long refused;			/* chains that are no request */
	unsigned long long read, written;	/* bytes, from the image and to it */
};

void open_disk(struct virtio_disk *disk, const char *path, bool read_only);
struct device virtio_disk_device(struct virtio_disk *disk, const struct vm *vm, __u64 base,
				 __u32 irq);
#endif
