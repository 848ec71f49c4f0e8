// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the devices", book/a-fuzzing-the-devices.nw. */
/* fuzz/virtq.c: the split virtqueue's walker over guest memory the input fills. */
#include <linux/virtio_ring.h>
#include "fuzz.h"

#define RAM_SIZE	0x2000	/* two pages of guest memory */

/* The queue as the driver set it up; then the guest's stores to memory. */
struct queue_input {
	__u16 num;
	__u16 doorbells;	/* the device serves the queue doorbells % 4 + 1 times */
	__u16 step;		/* added to avail->idx before each doorbell after the first */
	__u16 unused;
	__u64 desc, avail, used;
};

struct walk {
	const struct vm *vm;
	unsigned long bytes;	/* in the buffers given to the device */
	unsigned int sum;	/* of the bytes it read */
};

static __u32 use_buffer(void *state, void *data, __u32 len, bool writable)
{
	struct walk *w = state;
	__u8 *bytes = data;

	fuzz_check_in_memory(w->vm, data, len);
	w->bytes += len;
	if (!len)
		return 0;
	if (writable) {
		bytes[0] = bytes[len - 1] = 0xa5;
		return len;
	}
	w->sum += bytes[0] + bytes[len - 1];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input input = { data, size };
	struct queue_input in;
	struct vm vm;
	struct virtq q;
	struct walk w = { &vm, 0, 0 };
	unsigned int i;

	if (!fuzz_take(&input, &in, sizeof(in)))
		return 0;
	fuzz_start(&vm, RAM_SIZE);
	while (input.size)
		fuzz_store(vm.mem, vm.mem_size, &input);
	q = (struct virtq) { .num = in.num, .desc = in.desc, .avail = in.avail, .used = in.used };
	for (i = 0; i < in.doorbells % 4u + 1 && (i || virtq_start(&vm, &q) == 0); i++) {
		struct vring_avail *avail = guest_ptr(&vm, q.avail, sizeof(*avail));
		const struct vring_used *used = guest_ptr(&vm, q.used, sizeof(*used));
		int served;

		if (i)
			avail->idx += in.step;
		served = virtq_serve(&vm, &q, use_buffer, &w, VIRTQ_SIZE);
		if (served < 0)
			break;
		if (served > q.num || used->idx != q.next_used) {
			fprintf(stderr, "fuzz: %d chains served of %u, used->idx %u, not %u\n",
				served, q.num, used->idx, q.next_used);
			abort();
		}
		virtq_wants_interrupt(&vm, &q);
	}
	fuzz_end(&vm);
	return 0;
}

