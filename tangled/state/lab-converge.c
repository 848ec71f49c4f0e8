// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Migration with the dirty log", book/35-migration.nw. */
#include "kvm.h"
/* lab-converge: migrate the ticking guest, stopping it at the first round of at most N pages. */
#include "dirty-log.h"
#include "state.h"
#include <stdlib.h>
#include "guests/migrate.h"
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
