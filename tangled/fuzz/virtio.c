// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the devices", book/a-fuzzing-the-devices.nw. */
/* fuzz/virtio.c: a virtio device's registers and guest memory, as the input writes them. */
#include <linux/virtio_mmio.h>
#include "fuzz.h"

enum access_kind { READ, WRITE, STORE, EVENT };

/* One access of the guest's, before an offset and a value or a store; or an
 * event of the device's world, before what the world takes of the input. */
struct access {
	__u8 kind;	/* % 3, or % 4 for a device with a world */
	__u8 width;	/* 1 << (width % 3) bytes */
};

static void give_access(const struct device *dev, const struct virtio_mmio *t, bool write,
			__u8 width, struct fuzz_input *in)
{
	__u32 len = 1u << (width % 3);
	struct virtio_mmio before = *t;
	__u16 offset;
	__u8 value[4];

	fuzz_take(in, &offset, sizeof(offset));
	offset %= VIRTIO_MMIO_SIZE - len + 1;
	if (write)
		fuzz_take(in, value, len);
	access_device(dev, offset, len, write, value);
	if (!write || (len == 4 && !(offset & 3) && offset < VIRTIO_MMIO_CONFIG))
		return;
	if (memcmp(&before, t, sizeof(before)))
		abort();
}

void fuzz_virtio(struct vm *vm, const struct device *dev, const struct virtio_mmio *t,
		 struct fuzz_input *in, const struct fuzz_world *world)
{
	int kinds = world ? EVENT + 1 : STORE + 1;
	struct access a;

	while (fuzz_take(in, &a, sizeof(a))) {
		int kind = a.kind % kinds;

		if (kind == STORE)
			fuzz_store(vm->mem, vm->mem_size, in);
		else if (kind == EVENT)
			world->event(world->state, in);
		else
			give_access(dev, t, kind == WRITE, a.width, in);
		if (fuzz_level(t->irq) != t->line)
			abort();
		if (world)
			world->check(world->state);
	}
}

