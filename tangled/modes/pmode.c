// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Beyond real mode: protected and long mode", book/16-protected-and-long-mode.nw. */
#include "kvm.h"
/* pmode: a vCPU that starts in 32-bit protected mode, with flat segments. */
#include "modes.h"
#include "guests/pmode.h"
static void change_initial_state(struct vm *vm)
{
	struct kvm_sregs sregs;

	get_sregs(vm->vcpu, &sregs);
	set_flat_segments(&sregs, 0);
	set_sregs(vm->vcpu, &sregs);
}
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), change_initial_state);
	return 0;
}
