// SPDX-License-Identifier: GPL-2.0 OR MIT
/* fuzz/virtio-console.c: the virtio console's registers, then its queues. */
#include "fuzz.h"

#define RAM_SIZE	0x2000	/* two pages of guest memory */
#define CONSOLE_IRQ	5

enum access_kind { READ, WRITE, STORE, KINDS };

/* One access of the guest's, before an offset and a value or a store. */
struct access {
	__u8 kind;	/* % KINDS */
	__u8 width;	/* 1 << (width % 3) bytes */
};

static void give_access(const struct device *dev, const struct access *a,
			struct fuzz_input *in)
{
	__u32 len = 1u << (a->width % 3);
	__u16 offset;
	__u8 value[4];

	fuzz_take(in, &offset, sizeof(offset));
	offset %= VIRTIO_MMIO_SIZE - len + 1;
	if (a->kind % KINDS == WRITE)
		fuzz_take(in, value, len);
	access_device(dev, offset, len, a->kind % KINDS == WRITE, value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct virtio_console console;
	struct device dev;
	struct access a;
	struct vm vm;

	fuzz_start(&vm, RAM_SIZE);
	dev = virtio_console_device(&console, &vm, VIRTIO_CONSOLE_BASE, CONSOLE_IRQ);
	while (fuzz_take(&in, &a, sizeof(a))) {
		if (a.kind % KINDS == STORE)
			fuzz_store(vm.mem, vm.mem_size, &in);
		else
			give_access(&dev, &a, &in);
		if (fuzz_level(CONSOLE_IRQ) != console.mmio.line)
			abort();
	}
	fuzz_end(&vm);
	return 0;
}

