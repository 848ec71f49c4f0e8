// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Migration with the dirty log", book/35-migration.nw. */
#include "kvm.h"
/* migrate: move a guest that keeps writing to a second VM, in rounds of dirty pages. */
#include "dirty-log.h"
#include "state.h"
#include <stdlib.h>
#include "guests/migrate.h"
static void print_dirty_ring_size(int vmfd)
{
	int bytes = ioctl(vmfd, KVM_CHECK_EXTENSION, KVM_CAP_DIRTY_LOG_RING);

	if (bytes == -1)
		err(1, "KVM_CHECK_EXTENSION KVM_CAP_DIRTY_LOG_RING");
	printf("dirty rings: up to %zu entries a vCPU\n", bytes / sizeof(struct kvm_dirty_gfn));
}

#define RING_ENTRIES	4096	/* a power of two, and above KVM's reserve */

/* The dirty ring of the VM's one vCPU, as the VMM reads it. */
struct dirty_ring {
	struct kvm_dirty_gfn *gfns;	/* RING_ENTRIES of them, shared with KVM */
	__u32 next;			/* the entry to read next, counting from 0 */
};

/* Give every vCPU of the VM a ring: before the first vCPU is created. */
static void enable_dirty_ring(int vmfd)
{
	struct kvm_enable_cap cap = {
		.cap = KVM_CAP_DIRTY_LOG_RING,
		.args[0] = RING_ENTRIES * sizeof(struct kvm_dirty_gfn),
	};

	kvm_ioctl(vmfd, KVM_ENABLE_CAP, &cap, "KVM_ENABLE_CAP KVM_CAP_DIRTY_LOG_RING");
}

static void map_dirty_ring(struct dirty_ring *ring, int vcpufd)
{
	ring->gfns = mmap(NULL, RING_ENTRIES * sizeof(*ring->gfns), PROT_READ | PROT_WRITE,
			  MAP_SHARED, vcpufd, KVM_DIRTY_LOG_PAGE_OFFSET * getpagesize());
	if (ring->gfns == MAP_FAILED)
		err(1, "mmap the dirty ring");
}

/* Mark the page a ring entry names in its slot's bitmap. */
static void mark_ring_entry(struct slot *slots, size_t count, const struct kvm_dirty_gfn *gfn)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (slots[i].id == gfn->slot && gfn->offset < slots[i].pages) {
			slots[i].dirty |= 1ULL << gfn->offset;
			return;
		}
	errx(1, "the dirty ring names page %llu of slot %u, which this VMM did not make",
	     (unsigned long long)gfn->offset, gfn->slot);
}

static void read_dirty_ring(int vmfd, struct dirty_ring *ring, struct slot *slots, size_t count)
{
	int reset;
	size_t i;

	for (i = 0; i < count; i++)
		slots[i].dirty = 0;
	printf("  the ring:");
	for (;;) {
		struct kvm_dirty_gfn *gfn = &ring->gfns[ring->next % RING_ENTRIES];

		if (!(__atomic_load_n(&gfn->flags, __ATOMIC_ACQUIRE) & KVM_DIRTY_GFN_F_DIRTY))
			break;
		mark_ring_entry(slots, count, gfn);
		printf(" %u:%llu", gfn->slot, (unsigned long long)gfn->offset);
		__atomic_store_n(&gfn->flags, KVM_DIRTY_GFN_F_RESET, __ATOMIC_RELEASE);
		ring->next++;
	}
	reset = kvm_ioctl(vmfd, KVM_RESET_DIRTY_RINGS, NULL, "KVM_RESET_DIRTY_RINGS");
	printf("; %d handed back\n", reset);
}

int main(int argc, char **argv)
{
	bool skip_last = false, use_ring = false;
	struct slot slots[] = {
		{ .id = 0, .addr = GUEST_ADDR, .pages = GUEST_MEM_SIZE / PAGE_SIZE },
		{ .id = 1, .addr = DATA_ADDR, .pages = DATA_PAGES },
	};
	unsigned int round, dirty, before = 0;
	struct dirty_ring ring = { 0 };
	struct vm src, dst;
	size_t i;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "skip-last"))
			skip_last = true;
		else if (!strcmp(argv[i], "ring"))
			use_ring = true;
		else
			errx(1, "usage: migrate [ring] [skip-last]");
	}
	create_machine(&src, guest_code, sizeof(guest_code));
	print_dirty_ring_size(src.fd);
	if (use_ring)
		enable_dirty_ring(src.fd);
	add_vcpu(&src);
	if (use_ring)
		map_dirty_ring(&ring, src.vcpu);
	create_empty_vm(&dst, false);
	slots[0].src = src.mem;
	slots[0].dst = dst.mem;
	slots[1].src = add_data_slot(src.fd, &slots[1]);
	slots[1].dst = add_data_slot(dst.fd, &slots[1]);
	for (i = 0; i < ARRAY_SIZE(slots); i++)
		set_slot(src.fd, &slots[i], slots[i].src, KVM_MEM_LOG_DIRTY_PAGES);
	for (round = 1;; round++) {
		if (!run_to_tick(&src))
			errx(1, "the guest finished before it could move");
		complete_exit(&src);
		if (use_ring)
			read_dirty_ring(src.fd, &ring, slots, ARRAY_SIZE(slots));
		else
			read_dirty_logs(src.fd, slots, ARRAY_SIZE(slots));
		dirty = count_marked_pages(slots, ARRAY_SIZE(slots), round == 1);
		if (round > 1 && dirty >= before)
			break;
		copy_marked_pages(slots, ARRAY_SIZE(slots));
		printf("round %u: %u pages copied, the guest running\n", round, dirty);
		before = dirty;
	}
	if (!skip_last)
		copy_marked_pages(slots, ARRAY_SIZE(slots));
	printf("round %u: %u pages %s, the guest stopped; then its vCPU\n", round, dirty,
	       skip_last ? "left behind" : "copied");
	move_vcpu(&src, &dst);
	printf("pages that differ between the VMs: %u\n",
	       count_differing_pages(slots, ARRAY_SIZE(slots)));
	puts("-- the guest goes on in the second VM");
	flush_stdout();
	while (run_to_tick(&dst))
		;
	return 0;
}
