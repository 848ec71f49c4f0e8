// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/96-library.nw. */
/* modes.c: flat segments, for a vCPU that starts in protected or long mode. */
#include "kvmbook.h"

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

