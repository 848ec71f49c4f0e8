// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Debugging a guest", book/34-debugging.nw. */
#include "kvm.h"
/* breakpoint: stop Part I's guest at its first out, with int3 or with DR0. */
#include "debug.h"
#include "guests/kvmtest.h"
#define BREAK_ADDR	(GUEST_ADDR + 7)	/* the first out */
#define INT3		0xcc

/* Report where the guest stopped and why, and what it is about to print. */
static void report_stop(const struct vm *vm, const struct kvm_regs *regs)
{
	const struct kvm_debug_exit_arch *debug = &vm->run->debug.arch;

	if (debug->exception == 1)
		printf("stopped at 0x%llx by #DB, dr6 0x%llx (B0 %d, BS %d), al 0x%02llx\n",
		       (unsigned long long)debug->pc, (unsigned long long)debug->dr6,
		       !!(debug->dr6 & DR6_B0), !!(debug->dr6 & DR6_BS),
		       (unsigned long long)regs->rax & 0xff);
	else
		printf("stopped at 0x%llx by #BP, al 0x%02llx\n",
		       (unsigned long long)debug->pc, (unsigned long long)regs->rax & 0xff);
	flush_stdout();
}

/* Let the guest go on past the breakpoint it stopped at. */
static void resume_past_breakpoint(struct vm *vm, struct kvm_regs *regs, __u8 saved)
{
	if (vm->run->debug.arch.exception == 3) {
		*(__u8 *)guest_ptr(vm, BREAK_ADDR, 1) = saved;	/* int3 removed */
	} else {
		regs->rflags |= RFLAGS_RF;	/* DR0 stays armed */
		kvm_ioctl(vm->vcpu, KVM_SET_REGS, regs, "KVM_SET_REGS");
	}
}

int main(int argc, char **argv)
{
	__u8 *code, saved;
	unsigned int stops = 0;
	struct kvm_regs regs;
	struct vm vm;

	if (argc != 2 || (strcmp(argv[1], "int3") && strcmp(argv[1], "dr0")))
		errx(1, "usage: breakpoint int3|dr0");
	set_up_vm(&vm, guest_code, sizeof(guest_code));
	check_extension(vm.kvm, KVM_CAP_SET_GUEST_DEBUG, "KVM_CAP_SET_GUEST_DEBUG");
	code = guest_ptr(&vm, BREAK_ADDR, 1);
	saved = *code;
	if (!strcmp(argv[1], "int3")) {
		*code = INT3;
		set_guest_debug(vm.vcpu, KVM_GUESTDBG_USE_SW_BP, 0);
	} else {
		set_guest_debug(vm.vcpu, KVM_GUESTDBG_USE_HW_BP, BREAK_ADDR);
	}
	start_timer(vm.run);
	for (;;) {
		enter_guest(&vm);
		if (vm.run->exit_reason == KVM_EXIT_DEBUG) {
			stops++;
			get_regs(vm.vcpu, &regs);
			report_stop(&vm, &regs);
			resume_past_breakpoint(&vm, &regs, saved);
		} else if (respond_to_exit(vm.run)) {
			break;
		}
	}
	printf("stops: %u\n", stops);
	return 0;
}
