// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Shadow paging against EPT and NPT", book/29-shadow-paging.nw. */
#include "kvm.h"
/* shadow: a long-mode guest heavy on page tables, and what KVM's MMU counted. */
#include "modes.h"
#include "stats.h"
#define SHADOW_SLOT	2		/* after the code's and the tables' */
#define SHADOW_ADDR	0x1fe000	/* the guest's page table, its second root, */
#define SHADOW_SIZE	(2 * 0x1000 + 512 * 0x1000)	/* and the 512 pages they map */
#include "guests/shadow.h"
static const char * const vcpu_stats[] = {
	"exits", "pf_fixed", "pf_emulate", "tlb_flush", "invlpg",
};
static const char * const vm_stats[] = {
	"mmu_cache_miss", "mmu_shadow_zapped", "mmu_pte_write", "mmu_flooded", "mmu_unsync",
};

int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	start_in_long_mode(&vm);
	add_memory_slot(vm.fd, SHADOW_SLOT, SHADOW_ADDR, SHADOW_SIZE, 0);
	run_until_halt(&vm);
	print_vcpu_stats(vm.vcpu, vcpu_stats, ARRAY_SIZE(vcpu_stats));
	print_vcpu_stats(vm.fd, vm_stats, ARRAY_SIZE(vm_stats));
	return 0;
}
