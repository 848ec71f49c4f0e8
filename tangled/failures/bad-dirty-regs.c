// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "When things go wrong", book/08-failures.nw. */
#include "kvm.h"
/* bad-dirty-regs: a run structure that asks for registers KVM does not sync. */
#include "guests/kvmtest.h"
static void change_initial_state(struct vm *vm)
{
	vm->run->kvm_dirty_regs = 1 << 3;	/* 6.1 knows bits 0 to 2 */
}
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), change_initial_state);
	return 0;
}
