// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Beyond real mode: protected and long mode", book/65-protected-and-long-mode.nw. */
#include "kvmbook.h"
/* longmode: a vCPU that starts in 64-bit mode, on identity-mapped page tables. */
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

#include "guests/longmode.h"
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
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), change_initial_state);
	return 0;
}
