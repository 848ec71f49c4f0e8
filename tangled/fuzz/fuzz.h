/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: fuzzing the devices", book/a-fuzzing-the-devices.nw. */
/* fuzz.h: what the fuzz targets share: guest memory, interrupt lines, a VMM that stops. */
#ifndef FUZZ_H
#define FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include "vmm.h"

#define FUZZ_VMFD	-1	/* the VM the devices are given: none */

void fuzz_start(struct vm *vm, size_t mem_size);
void fuzz_end(struct vm *vm);
void fuzz_check_in_memory(const struct vm *vm, const void *data, __u64 len);

/* What is left of the input. */
struct fuzz_input {
	const __u8 *data;
	size_t size;
};

bool fuzz_take(struct fuzz_input *in, void *to, size_t len);
void fuzz_store(void *mem, size_t mem_size, struct fuzz_input *in);
int fuzz_level(__u32 irq);
unsigned int fuzz_pauses(void);
/* What a device's world outside the VM does between the guest's accesses:
 * an event the input describes (a frame arrives), and a check after each. */
struct fuzz_world {
	void (*event)(void *state, struct fuzz_input *in);
	void (*check)(void *state);
	void *state;
};

/* fuzz/virtio.c: the input's accesses to the device t in the window dev, and
 * its world's events, if it has a world. */
void fuzz_virtio(struct vm *vm, const struct device *dev, const struct virtio_mmio *t,
		 struct fuzz_input *in, const struct fuzz_world *world);
/* Run step(arg); false if the VMM stopped in it, with err or errx. */
bool fuzz_survives(void (*step)(void *arg), void *arg);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
