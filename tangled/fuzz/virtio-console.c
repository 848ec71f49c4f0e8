// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the devices", book/a-fuzzing-the-devices.nw. */
/* fuzz/virtio-console.c: the virtio console's registers, then its queues. */
#include "fuzz.h"

#define RAM_SIZE	0x2000	/* two pages of guest memory */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct virtio_console console;
	struct device dev;
	struct vm vm;

	fuzz_start(&vm, RAM_SIZE);
	dev = virtio_console_device(&console, &vm, VIRTIO_CONSOLE_BASE, VIRTIO_CONSOLE_IRQ);
	fuzz_virtio(&vm, &dev, &console.mmio, &in, NULL);
	fuzz_end(&vm);
	return 0;
}
