// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "When things go wrong", book/08-failures.nw. */
#include "kvm.h"
/* rflags-zero: RFLAGS written as 0, which KVM no longer passes on. */
#include "guests/kvmtest.h"
static void change_initial_state(struct vm *vm)
{
	struct kvm_regs regs;

	kvm_ioctl(vm->vcpu, KVM_GET_REGS, &regs, "KVM_GET_REGS");
	regs.rflags = 0;
	kvm_ioctl(vm->vcpu, KVM_SET_REGS, &regs, "KVM_SET_REGS");
	kvm_ioctl(vm->vcpu, KVM_GET_REGS, &regs, "KVM_GET_REGS");
	printf("wrote rflags 0x0, read back 0x%llx\n", (unsigned long long)regs.rflags);
}
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), change_initial_state);
	return 0;
}
