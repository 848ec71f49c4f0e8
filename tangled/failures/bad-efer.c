// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* bad-efer: a vCPU whose EFER has a reserved bit set. */
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
	struct kvm_sregs sregs;

	get_sregs(vm->vcpu, &sregs);
	sregs.efer |= 1 << 1;	/* reserved on AMD and on Intel */
	set_sregs(vm->vcpu, &sregs);
}
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	change_initial_state(&vm);
	run_until_halt(&vm);
	return 0;
}
