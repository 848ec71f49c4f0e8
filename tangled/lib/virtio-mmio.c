// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Virtqueues and the MMIO transport", book/36-virtio-buffers.nw. */
/* virtio-mmio.c: virtio's registers in a window of guest-physical memory. */
#include <err.h>
#include <string.h>
#include <unistd.h>
#include <linux/virtio_config.h>
#include <linux/virtio_mmio.h>
#include "irq.h"
#include "machine.h"
#include "vcpus.h"
#include "virtio.h"

#define VIRTIO_MAGIC	0x74726976	/* "virt", read as a little-endian word */
#define VIRTIO_VENDOR	0x626d766b	/* "kvmb": the book's, no one's registered id */

static struct virtq *selected_queue(struct virtio_mmio *t)
{
	return t->queue_sel < t->dev.queues ? &t->queue[t->queue_sel] : NULL;
}

static __u64 offered(const struct virtio_mmio *t)
{
	return t->dev.features | 1ull << VIRTIO_F_VERSION_1;
}

/* The value of the 32-bit register at reg. */
static __u32 virtio_register(struct virtio_mmio *t, __u64 reg)
{
	const struct virtq *q = selected_queue(t);

	switch (reg) {
	case VIRTIO_MMIO_MAGIC_VALUE:
		return VIRTIO_MAGIC;
	case VIRTIO_MMIO_VERSION:
		return 2;
	case VIRTIO_MMIO_DEVICE_ID:
		return t->dev.id;
	case VIRTIO_MMIO_VENDOR_ID:
		return VIRTIO_VENDOR;
	case VIRTIO_MMIO_DEVICE_FEATURES:
		return t->device_features_sel < 2 ? offered(t) >> 32 * t->device_features_sel : 0;
	case VIRTIO_MMIO_QUEUE_NUM_MAX:
		return q ? VIRTQ_SIZE : 0;
	case VIRTIO_MMIO_QUEUE_READY:
		return q && q->ready;
	case VIRTIO_MMIO_INTERRUPT_STATUS:
		return t->interrupt_status;
	case VIRTIO_MMIO_STATUS:
		return t->status;
	default:	/* write-only, or the generation: the configuration never changes */
		return 0;
	}
}

static void virtio_mmio_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	struct virtio_mmio *t = state;
	const __u8 *config = t->dev.config;
	__u32 i, value;

	if (offset >= VIRTIO_MMIO_CONFIG) {
		for (i = 0; i < len; i++)
			data[i] = offset + i - VIRTIO_MMIO_CONFIG < t->dev.config_size ?
				  config[offset + i - VIRTIO_MMIO_CONFIG] : 0;
	} else if (len == 4 && !(offset & 3)) {
		value = virtio_register(t, offset);
		memcpy(data, &value, sizeof(value));
	}
}

/* Add one to the eventfd fd's count, or the VMM stops with what. */
static void signal_eventfd(int fd, const char *what)
{
	__u64 one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one))
		err(1, "%s", what);
}

void virtio_update_line(struct virtio_mmio *t)
{
	bool level = t->interrupt_status != 0;

	if (level == t->line)
		return;
	if (t->irqfd != -1) {
		if (level)
			signal_eventfd(t->irqfd, "write irqfd");
	} else if (t->irq != VIRTIO_NO_IRQ) {
		irq_line(t->vm->fd, t->irq, level);
	}
	t->line = level;
	t->interrupts += level;
}

/* The device gave up on a queue: say so in the status, and once the driver
 * is running, with a configuration interrupt. */
static void needs_reset(struct virtio_mmio *t)
{
	t->status |= VIRTIO_CONFIG_S_NEEDS_RESET;
	if (t->status & VIRTIO_CONFIG_S_DRIVER_OK) {
		t->interrupt_status |= VIRTIO_MMIO_INT_CONFIG;
		virtio_update_line(t);
	}
}

/* A device served queue: interrupt the driver if it wants, or give up on a
 * malformed queue. */
void virtio_used(struct virtio_mmio *t, unsigned int queue, int served)
{
	if (served < 0) {
		warnx("%s: queue %u: %s; the device stops", t->dev.name, queue,
		      t->queue[queue].error);
		needs_reset(t);
	} else if (served && virtq_wants_interrupt(t->vm, &t->queue[queue])) {
		t->interrupt_status |= VIRTIO_MMIO_INT_VRING;
		virtio_update_line(t);
	}
}

static void reset(struct virtio_mmio *t)
{
	memset(t->queue, 0, sizeof(t->queue));
	t->device_features_sel = 0;
	t->driver_features_sel = 0;
	t->queue_sel = 0;
	t->driver_features = 0;
	t->status = 0;
	t->interrupt_status = 0;
	virtio_update_line(t);
}

static void set_status(struct virtio_mmio *t, __u32 status)
{
	bool acceptable = !(t->driver_features & ~offered(t)) &&
			  t->driver_features & 1ull << VIRTIO_F_VERSION_1;

	if (!status) {
		reset(t);
		return;
	}
	if (!(t->status & VIRTIO_CONFIG_S_FEATURES_OK) && !acceptable)
		status &= ~VIRTIO_CONFIG_S_FEATURES_OK;
	t->status = status | (t->status & VIRTIO_CONFIG_S_NEEDS_RESET);
	if (t->status & VIRTIO_CONFIG_S_NEEDS_RESET)
		needs_reset(t);
}

static void set_half(__u64 *addr, bool high, __u32 value)
{
	if (high)
		*addr = (*addr & 0xffffffffull) | (__u64)value << 32;
	else
		*addr = (*addr & ~0xffffffffull) | value;
}

/* A write to the queue registers of the selected, not yet ready queue q. */
static void set_queue(struct virtio_mmio *t, struct virtq *q, __u64 reg, __u32 value)
{
	switch (reg) {
	case VIRTIO_MMIO_QUEUE_NUM:
		q->num = value <= VIRTQ_SIZE ? value : 0;
		break;
	case VIRTIO_MMIO_QUEUE_DESC_LOW:
	case VIRTIO_MMIO_QUEUE_DESC_HIGH:
		set_half(&q->desc, reg == VIRTIO_MMIO_QUEUE_DESC_HIGH, value);
		break;
	case VIRTIO_MMIO_QUEUE_AVAIL_LOW:
	case VIRTIO_MMIO_QUEUE_AVAIL_HIGH:
		set_half(&q->avail, reg == VIRTIO_MMIO_QUEUE_AVAIL_HIGH, value);
		break;
	case VIRTIO_MMIO_QUEUE_USED_LOW:
	case VIRTIO_MMIO_QUEUE_USED_HIGH:
		set_half(&q->used, reg == VIRTIO_MMIO_QUEUE_USED_HIGH, value);
		break;
	case VIRTIO_MMIO_QUEUE_READY:
		if (value && virtq_start(t->vm, q) < 0) {
			warnx("%s: queue %u refused: %s", t->dev.name, t->queue_sel, q->error);
			needs_reset(t);
		}
		break;
	}
}

static void set_register(struct virtio_mmio *t, __u64 reg, __u32 value)
{
	struct virtq *q = selected_queue(t);

	switch (reg) {
	case VIRTIO_MMIO_DEVICE_FEATURES_SEL:
		t->device_features_sel = value;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES_SEL:
		t->driver_features_sel = value;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES:
		if (t->driver_features_sel < 2)
			set_half(&t->driver_features, t->driver_features_sel, value);
		break;
	case VIRTIO_MMIO_QUEUE_SEL:
		t->queue_sel = value;
		break;
	case VIRTIO_MMIO_QUEUE_NOTIFY:
		if (value >= t->dev.queues || !(t->status & VIRTIO_CONFIG_S_DRIVER_OK))
			break;
		if (t->lock) {	/* a thread serves the device: hand it the ring */
			signal_eventfd(t->doorbell[value], "write doorbell");
		} else {
			t->notifications++;
			t->dev.notify(t, value);
		}
		break;
	case VIRTIO_MMIO_INTERRUPT_ACK:
		t->interrupt_status &= ~value;
		virtio_update_line(t);
		break;
	case VIRTIO_MMIO_STATUS:
		set_status(t, value);
		break;
	default:
		if (q && q->ready && reg == VIRTIO_MMIO_QUEUE_READY && !value)
			q->ready = false;
		else if (q && !q->ready)
			set_queue(t, q, reg, value);
	}
}

static void virtio_mmio_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct virtio_mmio *t = state;
	__u32 value;

	if (offset >= VIRTIO_MMIO_CONFIG || len != 4 || offset & 3)
		return;
	memcpy(&value, data, sizeof(value));
	set_register(t, offset, value);
}

/* The transport for dev, in a window at base, interrupting on irq. */
struct device virtio_mmio_device(struct virtio_mmio *t, const struct vm *vm, __u64 base,
				 __u32 irq, struct virtio dev)
{
	*t = (struct virtio_mmio) { .vm = vm, .base = base, .irq = irq, .irqfd = -1, .dev = dev };
	return (struct device) {
		base, VIRTIO_MMIO_SIZE, t, virtio_mmio_read, virtio_mmio_write, dev.name
	};
}

