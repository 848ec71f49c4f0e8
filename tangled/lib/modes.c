// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* modes.c: flat segments, and a vCPU that starts in long mode on its page tables. */
#include "modes.h"

struct kvm_segment flat_segment(__u16 selector, __u8 type, int code64)
{
	return (struct kvm_segment) {
		.base = 0,
		.limit = 0xffffffff,
		.selector = selector,
		.type = type,
		.present = 1,
		.dpl = 0,
		.db = !code64,
		.s = 1,
		.l = code64,
		.g = 1,
	};
}

void set_flat_segments(struct kvm_sregs *sregs, int code64)
{
	struct kvm_segment data = flat_segment(BOOT_DS, DATA_TYPE, 0);

	sregs->cs = flat_segment(BOOT_CS, CODE_TYPE, code64);
	sregs->ds = data;
	sregs->es = data;
	sregs->fs = data;
	sregs->gs = data;
	sregs->ss = data;
	sregs->cr0 |= X86_CR0_PE;
}

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

/* Identity-map the first 2 MiB and set the special registers of 64-bit mode. */
void start_in_long_mode(struct vm *vm)
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

