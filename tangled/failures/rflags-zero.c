// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* rflags-zero: RFLAGS written as 0, which KVM no longer passes on. */
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
	struct kvm_regs regs;

	if (ioctl(vm->vcpu, KVM_GET_REGS, &regs) == -1)
		err(1, "KVM_GET_REGS");
	regs.rflags = 0;
	if (ioctl(vm->vcpu, KVM_SET_REGS, &regs) == -1)
		err(1, "KVM_SET_REGS");
	if (ioctl(vm->vcpu, KVM_GET_REGS, &regs) == -1)
		err(1, "KVM_GET_REGS");
	printf("wrote rflags 0x0, read back 0x%llx\n", (unsigned long long)regs.rflags);
}
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	change_initial_state(&vm);
	run_until_halt(&vm);
	return 0;
}
