// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* bad-dirty-regs: a run structure that asks for registers KVM does not sync. */
static const __u8 guest_code[] = {
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0x00, 0xd8,		/* add %bl, %al */
	0x04, '0',		/* add $'0', %al */
	0xee,			/* out %al, (%dx) */
	0xb0, '\n',		/* mov $'\n', %al */
	0xee,			/* out %al, (%dx) */
	0xf4,			/* hlt */
};

static void change_initial_state(struct vm *vm)
{
	vm->run->kvm_dirty_regs = 1 << 3;	/* 6.1 knows bits 0 to 2 */
}
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	change_initial_state(&vm);
	run_until_halt(&vm);
	return 0;
}
