// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Exercises", book/17-exercises.nw. */
#include "kvm.h"
/* ex-regs: the 2+2 guest, and its registers after it halted. */
#include "guests/kvmtest.h"
static void print_registers(int vcpufd)
{
	struct kvm_regs regs;

	kvm_ioctl(vcpufd, KVM_GET_REGS, &regs, "KVM_GET_REGS");
	printf("rax 0x%llx rbx 0x%llx rdx 0x%llx rip 0x%llx\n",
	       (unsigned long long)regs.rax, (unsigned long long)regs.rbx,
	       (unsigned long long)regs.rdx, (unsigned long long)regs.rip);
	flush_stdout();
}

int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	print_registers(vm.vcpu);
	return 0;
}
