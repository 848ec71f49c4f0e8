// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Saving its devices", book/44-saving-the-devices.nw. */
/* virtio-state.c: a virtio device saved, restored and resumed. */
#include <string.h>
#include <linux/virtio_blk.h>
#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include "virtio-state.h"
#include "virtio.h"

/* The device's identity, registers and queues, for a stream; the device is still. */
void virtio_save(const struct virtio_mmio *t, struct virtio_state *s)
{
	unsigned int i;

	_Static_assert(sizeof(struct virtio_blk_config) <= VIRTIO_CONFIG_MAX &&
		       sizeof(struct virtio_net_config) <= VIRTIO_CONFIG_MAX,
		       "a device's configuration must fit in its record");
	memset(s, 0, sizeof(*s));
	s->id = t->dev.id;
	s->config_size = t->dev.config_size;
	s->base = t->base;
	s->features = t->dev.features;
	if (t->dev.config_size)
		memcpy(s->config, t->dev.config, t->dev.config_size);
	s->driver_features = t->driver_features;
	s->device_features_sel = t->device_features_sel;
	s->driver_features_sel = t->driver_features_sel;
	s->queue_sel = t->queue_sel;
	s->status = t->status;
	s->interrupt_status = t->interrupt_status;
	for (i = 0; i < t->dev.queues; i++) {
		const struct virtq *q = &t->queue[i];

		s->queue[i] = (struct virtq_state) {
			.desc = q->desc, .avail = q->avail, .used = q->used, .num = q->num,
			.next_avail = q->next_avail, .next_used = q->next_used, .ready = q->ready,
		};
	}
}

/* Put the record s into t, a device of this VMM not yet running: NULL, or
 * why the record is not one t could have written. */
const char *virtio_restore(struct virtio_mmio *t, const struct virtio_state *s)
{
	unsigned int i;

	if (s->id != t->dev.id || s->base != t->base)
		return "a record of another device";
	if (s->features != t->dev.features || s->config_size != t->dev.config_size ||
	    (t->dev.config_size && memcmp(s->config, t->dev.config, t->dev.config_size)))
		return "a device that offered otherwise (another disk image's size, or -r)";
	t->driver_features = s->driver_features;
	t->device_features_sel = s->device_features_sel;
	t->driver_features_sel = s->driver_features_sel;
	t->queue_sel = s->queue_sel;
	t->status = s->status;
	t->interrupt_status = s->interrupt_status;
	t->line = false;
	for (i = 0; i < t->dev.queues; i++) {
		const struct virtq_state *saved = &s->queue[i];
		struct virtq *q = &t->queue[i];

		if (saved->num > VIRTQ_SIZE)
			return "a queue larger than QUEUE_NUM_MAX";
		*q = (struct virtq) {
			.num = saved->num, .desc = saved->desc, .avail = saved->avail,
			.used = saved->used,
		};
		if (!saved->ready)
			continue;
		if (virtq_start(t->vm, q) < 0)
			return q->error;
		q->next_avail = saved->next_avail;
		q->next_used = saved->next_used;
	}
	return NULL;
}

/* The restored device goes on, its thread running and the machine's lock held:
 * each ready queue served, for a doorbell the old process had not answered,
 * and the line raised if it was up. */
void virtio_resume(struct virtio_mmio *t)
{
	unsigned int i;

	for (i = 0; i < t->dev.queues; i++)
		if (t->status & VIRTIO_CONFIG_S_DRIVER_OK && t->queue[i].ready)
			t->dev.notify(t, i);
	virtio_update_line(t);
}

