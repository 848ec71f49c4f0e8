// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "When things go wrong", book/08-failures.nw. */
#include "kvm.h"
/* bad-efer: a vCPU whose EFER has a reserved bit set. */
#include "guests/kvmtest.h"
static void change_initial_state(struct vm *vm)
{
	struct kvm_sregs sregs;

	get_sregs(vm->vcpu, &sregs);
	sregs.efer |= 1 << 1;	/* reserved on AMD and on Intel */
	set_sregs(vm->vcpu, &sregs);
}
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), change_initial_state);
	return 0;
}
