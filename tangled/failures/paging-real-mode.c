// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "When things go wrong", book/08-failures.nw. */
#include "kvm.h"
/* paging-real-mode: CR0.PG without CR0.PE, which KVM_SET_SREGS refuses. */
#include <asm/processor-flags.h>
#include "guests/kvmtest.h"
static void change_initial_state(struct vm *vm)
{
	struct kvm_sregs sregs;

	get_sregs(vm->vcpu, &sregs);
	sregs.cr0 |= X86_CR0_PG;	/* paging, while CR0.PE stays 0 */
	set_sregs(vm->vcpu, &sregs);
}
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), change_initial_state);
	return 0;
}
