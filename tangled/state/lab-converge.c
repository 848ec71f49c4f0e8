// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* lab-converge: migrate the ticking guest, stopping it at the first round of at most N pages. */
#include <stdlib.h>
#include "guests/migrate.h"
#define PAGE_SIZE	0x1000
#define DATA_ADDR	0x2000	/* guest-physical: the data pages */
#define DATA_PAGES	8
#define TICK_PORT	0x80	/* the guest's "a pass is done" */
/* Run the guest until it ticks (true) or halts (false). */
static bool run_to_tick(const struct vm *vm)
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

/* A memory slot as both VMs have it: the same guest-physical range, two copies. */
struct slot {
	__u32 id;
	__u64 addr;		/* guest-physical */
	__u32 pages;
	__u8 *src;		/* in the VM the guest leaves */
	__u8 *dst;		/* in the VM it arrives in */
	__u64 dirty;		/* the pages its log marked last */
};

static void set_slot(int vmfd, const struct slot *slot, void *mem, __u32 flags)
{
	struct kvm_userspace_memory_region region = {
		.slot = slot->id,
		.flags = flags,
		.guest_phys_addr = slot->addr,
		.memory_size = (__u64)slot->pages * PAGE_SIZE,
		.userspace_addr = (unsigned long)mem,
	};

	if (ioctl(vmfd, KVM_SET_USER_MEMORY_REGION, &region) == -1)
		err(1, "KVM_SET_USER_MEMORY_REGION slot %u", slot->id);
}

/* Memory for the data slot of one VM, zeroed, and the slot made. */
static __u8 *add_data_slot(int vmfd, const struct slot *slot)
{
	__u8 *mem = mmap(NULL, (size_t)slot->pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		err(1, "mmap data pages");
	set_slot(vmfd, slot, mem, 0);
	return mem;
}

static void read_dirty_logs(int vmfd, struct slot *slots, size_t count)
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
static unsigned int count_marked_pages(struct slot *slots, size_t count, bool all)
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
static void copy_marked_pages(const struct slot *slots, size_t count)
{
	size_t i, page;

	for (i = 0; i < count; i++)
		for (page = 0; page < slots[i].pages; page++)
			if (slots[i].dirty >> page & 1)
				memcpy(slots[i].dst + page * PAGE_SIZE,
				       slots[i].src + page * PAGE_SIZE, PAGE_SIZE);
}

static void move_vcpu(const struct vm *from, const struct vm *to)
{
	static struct snapshot snapshot;
	size_t i;

	for (i = 0; i < nr_pieces; i++) {
		if (!strcmp(pieces[i].name, "memory") || pieces[i].chip)
			continue;
		pieces[i].save(from, &snapshot);
		pieces[i].restore(to, &snapshot);
	}
}

static unsigned int count_differing_pages(const struct slot *slots, size_t count)
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

/* Run rounds until one marks at most most pages; false if the guest finished first. */
static bool migrate_rounds(struct vm *src, struct slot *slots, size_t count, unsigned long most)
{
	unsigned int round, dirty;

	for (round = 1;; round++) {
		if (!run_to_tick(src))
			return false;
		complete_exit(src);
		read_dirty_logs(src->fd, slots, count);
		dirty = count_marked_pages(slots, count, round == 1);
		copy_marked_pages(slots, count);
		if (dirty <= most)
			break;
		printf("round %u: %u pages copied, the guest running\n", round, dirty);
	}
	printf("round %u: %u pages copied, the guest stopped; then its vCPU\n", round, dirty);
	return true;
}

int main(int argc, char **argv)
{
	struct slot slots[] = {
		{ .id = 0, .addr = GUEST_ADDR, .pages = GUEST_MEM_SIZE / PAGE_SIZE },
		{ .id = 1, .addr = DATA_ADDR, .pages = DATA_PAGES },
	};
	unsigned long most;
	struct vm src, dst;
	char *end;
	size_t i;

	if (argc != 2)
		errx(1, "usage: lab-converge PAGES");
	most = strtoul(argv[1], &end, 10);
	if (end == argv[1] || *end)
		errx(1, "%s: not a number of pages", argv[1]);
	set_up_vm(&src, guest_code, sizeof(guest_code));
	create_empty_vm(&dst, false);
	slots[0].src = src.mem;
	slots[0].dst = dst.mem;
	slots[1].src = add_data_slot(src.fd, &slots[1]);
	slots[1].dst = add_data_slot(dst.fd, &slots[1]);
	for (i = 0; i < ARRAY_SIZE(slots); i++)
		set_slot(src.fd, &slots[i], slots[i].src, KVM_MEM_LOG_DIRTY_PAGES);
	if (!migrate_rounds(&src, slots, ARRAY_SIZE(slots), most)) {
		printf("-- the guest finished in the first VM: no round had at most %lu pages\n",
		       most);
		return 1;
	}
	move_vcpu(&src, &dst);
	printf("pages that differ between the VMs: %u\n",
	       count_differing_pages(slots, ARRAY_SIZE(slots)));
	puts("-- the guest goes on in the second VM");
	flush_stdout();
	while (run_to_tick(&dst))
		;
	return 0;
}
