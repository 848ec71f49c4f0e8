// SPDX-License-Identifier: GPL-2.0 OR MIT
/* virtq.c: the device's side of a split virtqueue. */
#include <linux/virtio_ring.h>
#include "vmm.h"

static __u64 desc_size(__u16 num)
{
	return (__u64)num * sizeof(struct vring_desc);
}

static __u64 avail_size(__u16 num)
{
	return sizeof(struct vring_avail) + (__u64)num * sizeof(__u16) + sizeof(__u16);
}

static __u64 used_size(__u16 num)
{
	return sizeof(struct vring_used) + (__u64)num * sizeof(struct vring_used_elem) +
	       sizeof(__u16);
}

/* Take the queue into use if its areas lie in RAM, aligned; whether it was taken. */
bool virtq_start(const struct vm *vm, struct virtq *q)
{
	q->next_avail = 0;
	q->next_used = 0;
	q->ready = q->num && q->num <= VIRTQ_SIZE && !(q->num & (q->num - 1)) &&
		   !(q->desc % VRING_DESC_ALIGN_SIZE) && !(q->avail % VRING_AVAIL_ALIGN_SIZE) &&
		   !(q->used % VRING_USED_ALIGN_SIZE) &&
		   guest_ptr(vm, q->desc, desc_size(q->num)) &&
		   guest_ptr(vm, q->avail, avail_size(q->num)) &&
		   guest_ptr(vm, q->used, used_size(q->num));
	return q->ready;
}

/* Give each buffer of the chain at head to fn; the bytes written to them, or
 * -1 if the chain leaves the table or RAM, or loops. */
static long take_chain(const struct vm *vm, const struct virtq *q, __u16 head,
		       virtq_buffer fn, void *state)
{
	const struct vring_desc *table = guest_ptr(vm, q->desc, desc_size(q->num));
	long written = 0;
	__u16 i = head, n;

	for (n = 0; n < q->num && i < q->num; n++) {
		struct vring_desc d = table[i];
		void *data = guest_ptr(vm, d.addr, d.len);

		if (!data || d.flags & VRING_DESC_F_INDIRECT)
			return -1;
		written += fn(state, data, d.len, d.flags & VRING_DESC_F_WRITE);
		if (!(d.flags & VRING_DESC_F_NEXT))
			return written;
		i = d.next;
	}
	return -1;
}

/* Serve every chain made available since the last call: how many, or -1 if
 * the queue is malformed. */
int virtq_serve(const struct vm *vm, struct virtq *q, virtq_buffer fn, void *state)
{
	struct vring_avail *avail;
	struct vring_used *used;
	int served = 0;
	__u16 end;

	if (!q->ready)
		return 0;
	avail = guest_ptr(vm, q->avail, avail_size(q->num));
	used = guest_ptr(vm, q->used, used_size(q->num));
	end = __atomic_load_n(&avail->idx, __ATOMIC_ACQUIRE);
	if ((__u16)(end - q->next_avail) > q->num)
		return -1;
	while (q->next_avail != end) {
		__u16 head = avail->ring[q->next_avail++ % q->num];
		long written = take_chain(vm, q, head, fn, state);
		struct vring_used_elem *elem = &used->ring[q->next_used++ % q->num];

		if (written < 0)
			return -1;
		elem->id = head;
		elem->len = written;
		served++;
	}
	__atomic_store_n(&used->idx, q->next_used, __ATOMIC_RELEASE);
	return served;
}

/* Whether the driver asked to be interrupted for used chains. */
bool virtq_wants_interrupt(const struct vm *vm, const struct virtq *q)
{
	const struct vring_avail *avail = guest_ptr(vm, q->avail, avail_size(q->num));

	return !(avail->flags & VRING_AVAIL_F_NO_INTERRUPT);
}

