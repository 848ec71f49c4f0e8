// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* dirty-log.c: two VMs' slots, the dirty log's rounds, the vCPU moved between them. */
#include "dirty-log.h"
#include "state.h"

/* Run the guest until it ticks (true) or halts (false). */
bool run_to_tick(const struct vm *vm)
{
	const struct kvm_run *run = vm->run;
	bool ticked = false;

	start_timer(vm->run);
	for (;;) {
		enter_guest(vm);
		if (run->exit_reason == KVM_EXIT_IO && run->io.port == TICK_PORT &&
		    run->io.direction == KVM_EXIT_IO_OUT) {
			ticked = true;
			break;
		}
		if (respond_to_exit(run))
			break;
	}
	stop_timer();
	return ticked;
}

void set_slot(int vmfd, const struct slot *slot, void *mem, __u32 flags)
{
	set_memory_slot(vmfd, slot->id, slot->addr, (__u64)slot->pages * PAGE_SIZE, mem, flags);
}

/* Memory for the data slot of one VM, zeroed, and the slot made. */
__u8 *add_data_slot(int vmfd, const struct slot *slot)
{
	return add_memory_slot(vmfd, slot->id, slot->addr, (__u64)slot->pages * PAGE_SIZE, 0);
}

void read_dirty_logs(int vmfd, struct slot *slots, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		struct kvm_dirty_log log = { .slot = slots[i].id, .dirty_bitmap = &slots[i].dirty };

		if (slots[i].pages > 64)
			errx(1, "slot %u: too many pages for one word of bitmap", slots[i].id);
		if (ioctl(vmfd, KVM_GET_DIRTY_LOG, &log) == -1)
			err(1, "KVM_GET_DIRTY_LOG slot %u", slots[i].id);
	}
}

/* How many pages the slots' bitmaps mark, after marking every page if all. */
unsigned int count_marked_pages(struct slot *slots, size_t count, bool all)
{
	unsigned int marked = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		if (all)
			slots[i].dirty = slots[i].pages == 64 ? ~0ULL : (1ULL << slots[i].pages) - 1;
		marked += __builtin_popcountll(slots[i].dirty);
	}
	return marked;
}

/* Copy the pages that the last read of the logs marked, to the other VM. */
void copy_marked_pages(const struct slot *slots, size_t count)
{
	size_t i, page;

	for (i = 0; i < count; i++)
		for (page = 0; page < slots[i].pages; page++)
			if (slots[i].dirty >> page & 1)
				memcpy(slots[i].dst + page * PAGE_SIZE,
				       slots[i].src + page * PAGE_SIZE, PAGE_SIZE);
}

void move_vcpu(const struct vm *from, const struct vm *to)
{
	static struct snapshot snapshot;

	take_snapshot(from, &snapshot, false);
	restore_snapshot(to, &snapshot, "", false);
}

unsigned int count_differing_pages(const struct slot *slots, size_t count)
{
	unsigned int differ = 0;
	size_t i;
	__u32 page;

	for (i = 0; i < count; i++)
		for (page = 0; page < slots[i].pages; page++)
			differ += memcmp(slots[i].src + (size_t)page * PAGE_SIZE,
					 slots[i].dst + (size_t)page * PAGE_SIZE, PAGE_SIZE) != 0;
	return differ;
}

