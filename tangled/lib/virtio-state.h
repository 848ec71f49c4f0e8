/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Saving its devices", book/44-saving-the-devices.nw. */
/* virtio-state.h: a virtio device saved, restored and resumed. */
#ifndef VIRTIO_STATE_H
#define VIRTIO_STATE_H
#include "virtio.h"
#define VIRTIO_CONFIG_MAX	128	/* bytes of configuration a device of the book's has */

/* A queue as its driver set it up, and how far the device has got in it. */
struct virtq_state {
	__u64 desc, avail, used;
	__u16 num, next_avail, next_used;
	__u8 ready;
	__u8 reserved;
};

/* A virtio device: what it is and offers, its transport's registers, its queues. */
struct virtio_state {
	__u32 id;			/* VIRTIO_ID_*: which kind of device */
	__u32 config_size;
	__u64 base;			/* its window */
	__u64 features;			/* offered besides VIRTIO_F_VERSION_1 */
	__u8 config[VIRTIO_CONFIG_MAX];	/* as the driver reads it */
	__u64 driver_features;
	__u32 device_features_sel, driver_features_sel, queue_sel;
	__u32 status, interrupt_status;
	__u32 reserved;
	struct virtq_state queue[VIRTIO_QUEUES];
};

void virtio_save(const struct virtio_mmio *t, struct virtio_state *s);
const char *virtio_restore(struct virtio_mmio *t, const struct virtio_state *s);
void virtio_resume(struct virtio_mmio *t);
#endif
