// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The guest is hostile", book/38-hostile-guest.nw. */
#include "kvm.h"
/* hostile: a guest that hands the virtio console malformed queues. */
#include "machine.h"
#include "state.h"
#include "virtio-console.h"
#include "virtio.h"
#include <sys/mman.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include <linux/virtio_mmio.h>
#include <linux/virtio_ring.h>
#include "guests/hostile.h"
#define WINDOW		0x8000	/* the console's registers */
#define QUEUE_WORDS	0x1f00	/* the queue's size and places, as the guest reads them */
#define DATA		0x1b00	/* the bytes a good buffer holds */
/* What a driver hands the device: the queue, its first descriptor, and the
 * available ring's index and first entry. */
struct attack {
	const char *what;
	__u32 queue[4];			/* size, table, available and used rings */
	struct vring_desc desc;		/* the table's first entry */
	__u16 avail_idx;
	__u16 head;
	__u16 avail_flags;		/* 0: the driver asks for an interrupt */
};

#define GOOD_QUEUE	{ 2, 0x1800, 0x1900, 0x1a00 }
#define GOOD_BUFFER	{ DATA, 6, 0, 0 }

#define NO_IRQ		VRING_AVAIL_F_NO_INTERRUPT

static const struct attack attacks[] = {
	{ "a buffer in memory", GOOD_QUEUE, GOOD_BUFFER, 1, 0, NO_IRQ },
	{ "a buffer past the end of memory", GOOD_QUEUE, { 0x1ffc, 6, 0, 0 }, 1, 0, NO_IRQ },
	{ "a buffer that wraps around", GOOD_QUEUE, { ~0ull - 1, 6, 0, 0 }, 1, 0, NO_IRQ },
	{ "a chain that loops", GOOD_QUEUE, { DATA, 6, VRING_DESC_F_NEXT, 0 }, 1, 0, NO_IRQ },
	{ "a head past the table", GOOD_QUEUE, GOOD_BUFFER, 1, 5, NO_IRQ },
	{ "more chains than the queue holds", GOOD_QUEUE, GOOD_BUFFER, 3, 0, NO_IRQ },
	{ "a table past the end of memory", { 2, 0x1ff0, 0x1900, 0x1a00 }, GOOD_BUFFER, 1, 0,
	  NO_IRQ },
	{ "a queue of three entries", { 3, 0x1800, 0x1900, 0x1a00 }, GOOD_BUFFER, 1, 0, NO_IRQ },
	{ "an interrupt the VMM cannot give", GOOD_QUEUE, GOOD_BUFFER, 1, 0, 0 },
};

/* Run one attack in a VM of its own: the device's status after it. */
static __u32 run_attack(const struct attack *a)
{
	struct machine m = { 0 };
	struct virtio_console console;
	struct device window = virtio_console_device(&console, &m.vm, WINDOW, VIRTIO_NO_IRQ);
	struct vring_avail *avail;
	struct vring_used *used;

	bus_add(&m.mmio, &window, 1);
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	memcpy(guest_ptr(&m.vm, QUEUE_WORDS, sizeof(a->queue)), a->queue, sizeof(a->queue));
	memcpy(guest_ptr(&m.vm, a->queue[1], sizeof(a->desc)), &a->desc, sizeof(a->desc));
	memcpy(guest_ptr(&m.vm, DATA, 6), "hello\n", 6);
	avail = guest_ptr(&m.vm, a->queue[2], sizeof(*avail) + sizeof(avail->ring[0]));
	avail->flags = a->avail_flags;
	avail->idx = a->avail_idx;
	avail->ring[0] = a->head;
	printf("%s:\n", a->what);
	fflush(stdout);
	run_machine(&m);
	used = guest_ptr(&m.vm, a->queue[3], sizeof(*used));
	printf("%-20s %#x\n", "device status", console.mmio.status);
	print_count("queue ready", console.mmio.queue[1].ready);
	print_count("chains used", used->idx);
	destroy_vm(&m.vm);
	return console.mmio.status;
}

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attacks); i++)
		run_attack(&attacks[i]);
	return 0;
}
