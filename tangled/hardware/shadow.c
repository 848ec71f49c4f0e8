// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Shadow paging against EPT and NPT", book/86-shadow-paging.nw. */
#include "kvmbook.h"
/* shadow: a long-mode guest heavy on page tables, and what KVM's MMU counted. */
#define EFER_LME	(1 << 8)	/* long mode enable */
#define EFER_LMA	(1 << 10)	/* long mode active */
#define PAGE_TABLE_SLOT	1		/* slot 0 is the code's page */
#define PAGE_TABLE_ADDR	0x10000		/* guest-physical: PML4, PDPT, PD */
#define PAGE_TABLE_SIZE	(3 * 0x1000)
#define PTE_PRESENT	(1ULL << 0)
#define PTE_WRITABLE	(1ULL << 1)
#define PTE_LARGE	(1ULL << 7)	/* in a PD entry: a 2 MiB page */

static void build_page_tables(__u64 *tables)
{
	__u64 *pml4 = tables, *pdpt = tables + 512, *pd = tables + 1024;

	pml4[0] = (PAGE_TABLE_ADDR + 0x1000) | PTE_PRESENT | PTE_WRITABLE;
	pdpt[0] = (PAGE_TABLE_ADDR + 0x2000) | PTE_PRESENT | PTE_WRITABLE;
	pd[0] = PTE_PRESENT | PTE_WRITABLE | PTE_LARGE;	/* the page at 0: 0 to 2 MiB */
}

static void change_initial_state(struct vm *vm)
{
	struct kvm_sregs sregs;

	build_page_tables(add_memory_slot(vm->fd, PAGE_TABLE_SLOT, PAGE_TABLE_ADDR,
					  PAGE_TABLE_SIZE, 0));
	get_sregs(vm->vcpu, &sregs);
	set_flat_segments(&sregs, 1);
	sregs.cr3 = PAGE_TABLE_ADDR;
	sregs.cr4 |= X86_CR4_PAE;
	sregs.efer |= EFER_LME | EFER_LMA;
	sregs.cr0 |= X86_CR0_PG;
	set_sregs(vm->vcpu, &sregs);
}
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
	change_initial_state(&vm);
	add_memory_slot(vm.fd, SHADOW_SLOT, SHADOW_ADDR, SHADOW_SIZE, 0);
	run_until_halt(&vm);
	print_vcpu_stats(vm.vcpu, vcpu_stats, ARRAY_SIZE(vcpu_stats));
	print_vcpu_stats(vm.fd, vm_stats, ARRAY_SIZE(vm_stats));
	return 0;
}
