// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Virtqueues and the MMIO transport", book/36-virtio-buffers.nw. */
/* virtq.c: the device's side of a split virtqueue. */
#include <linux/virtio_ring.h>
#include "dirty-log.h"
#include "virtio.h"

/* A bit for each page of guest RAM a device wrote, while a migration runs; else NULL. */
static __u64 *written_pages;

/* Mark from now on, in log, the pages the devices write, a bit a page; NULL stops. */
void virtq_log_writes(__u64 *log)
{
	__atomic_store_n(&written_pages, log, __ATOMIC_SEQ_CST);
}

/* Mark the pages of len bytes of RAM at addr, checked, which a device wrote. */
static void log_written(__u64 addr, __u64 len)
{
	__u64 *log = __atomic_load_n(&written_pages, __ATOMIC_SEQ_CST);
	__u64 page;

	if (!log || !len)
		return;
	for (page = addr / PAGE_SIZE; page <= (addr + len - 1) / PAGE_SIZE; page++)
		__atomic_fetch_or(&log[page / 64], 1ull << page % 64, __ATOMIC_SEQ_CST);
}

/* Mark the buffers of a served chain that the device may have written. */
static void log_chain(const struct vring_desc *chain, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (chain[i].flags & VRING_DESC_F_WRITE)
			log_written(chain[i].addr, chain[i].len);
}

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

/* Stop using q, for the reason why; -1, for the caller to return. */
int virtq_refuse(struct virtq *q, const char *why)
{
	q->ready = false;
	q->error = why;
	return -1;
}

/* Take the queue into use if its size is one the device offers and its areas
 * lie in RAM, aligned: 0, or -1 and the reason in error. */
int virtq_start(const struct vm *vm, struct virtq *q)
{
	q->next_avail = 0;
	q->next_used = 0;
	if (!q->num || q->num > VIRTQ_SIZE || q->num & (q->num - 1))
		return virtq_refuse(q, "a size that is not a power of two up to QUEUE_NUM_MAX");
	if (q->desc % VRING_DESC_ALIGN_SIZE || q->avail % VRING_AVAIL_ALIGN_SIZE ||
	    q->used % VRING_USED_ALIGN_SIZE)
		return virtq_refuse(q, "an area not aligned");
	if (!guest_ptr(vm, q->desc, desc_size(q->num)) ||
	    !guest_ptr(vm, q->avail, avail_size(q->num)) ||
	    !guest_ptr(vm, q->used, used_size(q->num)))
		return virtq_refuse(q, "an area outside RAM");
	q->ready = true;
	return 0;
}

/* Copy the chain at head into chain; its length, or -1 if it leaves the
 * table or RAM, or loops. */
static int copy_chain(const struct vm *vm, struct virtq *q, __u16 head,
		      struct vring_desc *chain)
{
	const struct vring_desc *table = guest_ptr(vm, q->desc, desc_size(q->num));
	__u64 bytes = 0;
	__u16 i = head;
	int n;

	for (n = 0; n < q->num; n++) {
		if (i >= q->num)
			return virtq_refuse(q, "a descriptor past the table");
		chain[n] = table[i];
		if (chain[n].flags & VRING_DESC_F_INDIRECT)
			return virtq_refuse(q, "an indirect descriptor, a feature not offered");
		if (!guest_ptr(vm, chain[n].addr, chain[n].len))
			return virtq_refuse(q, "a buffer outside RAM");
		bytes += chain[n].len;
		if (bytes > VIRTQ_CHAIN_MAX)
			return virtq_refuse(q, "a chain of more than 64 KiB");
		if (!(chain[n].flags & VRING_DESC_F_NEXT))
			return n + 1;
		i = chain[n].next;
	}
	return virtq_refuse(q, "a chain longer than the queue, so a loop");
}

/* The buffers of a checked chain of n, where the VMM sees them. */
static void map_chain(const struct vm *vm, const struct vring_desc *chain, int n,
		      struct virtq_buf *buf)
{
	int i;

	for (i = 0; i < n; i++)
		buf[i] = (struct virtq_buf) { guest_ptr(vm, chain[i].addr, chain[i].len),
					      chain[i].len, chain[i].flags & VRING_DESC_F_WRITE };
}

/* Serve the chains made available since the last call, at most max, each
 * given whole to fn: how many, or -1 and the reason in error if the queue is
 * malformed. */
int virtq_serve_chains(const struct vm *vm, struct virtq *q, virtq_chain fn, void *state,
		       unsigned int max)
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
		return virtq_refuse(q, "more chains than the queue holds");
	while (q->next_avail != end && served < (int)max) {
		struct vring_desc chain[VIRTQ_SIZE];
		struct virtq_buf buf[VIRTQ_SIZE];
		__u16 head = avail->ring[q->next_avail++ % q->num];
		int n = copy_chain(vm, q, head, chain);
		struct vring_used_elem *elem;

		if (n < 0)
			break;
		map_chain(vm, chain, n, buf);
		elem = &used->ring[q->next_used++ % q->num];
		elem->id = head;
		elem->len = fn(state, buf, n);
		log_chain(chain, n);	/* for a migration: chapter "Moving it live" */
		served++;
	}
	__atomic_store_n(&used->idx, q->next_used, __ATOMIC_RELEASE);
	log_written(q->used, used_size(q->num));
	return q->ready ? served : -1;
}

/* Whether the driver asked to be interrupted for used chains. */
bool virtq_wants_interrupt(const struct vm *vm, const struct virtq *q)
{
	const struct vring_avail *avail = guest_ptr(vm, q->avail, avail_size(q->num));

	return !(avail->flags & VRING_AVAIL_F_NO_INTERRUPT);
}

/* Whether the driver has made a chain available that the device has not taken. */
bool virtq_has_chain(const struct vm *vm, const struct virtq *q)
{
	const struct vring_avail *avail;

	if (!q->ready)
		return false;
	avail = guest_ptr(vm, q->avail, avail_size(q->num));
	return __atomic_load_n(&avail->idx, __ATOMIC_ACQUIRE) != q->next_avail;
}

/* A buffer-at-a-time device's function and its state. */
struct each_buffer {
	virtq_buffer fn;
	void *state;
};

static __u32 give_each_buffer(void *state, const struct virtq_buf *buf, int n)
{
	const struct each_buffer *each = state;
	__u32 written = 0;
	int i;

	for (i = 0; i < n; i++)
		written += each->fn(each->state, buf[i].data, buf[i].len, buf[i].writable);
	return written;
}

/* The same, each buffer of each chain given to fn, in order. */
int virtq_serve(const struct vm *vm, struct virtq *q, virtq_buffer fn, void *state,
		unsigned int max)
{
	struct each_buffer each = { fn, state };

	return virtq_serve_chains(vm, q, give_each_buffer, &each, max);
}

