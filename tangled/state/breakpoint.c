// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* breakpoint: stop Part I's guest at its first out, with int3 or with DR0. */
static const __u8 guest_code[] = {
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0x00, 0xd8,		/* add %bl, %al */
	0x04, '0',		/* add $'0', %al */
	0xee,			/* out %al, (%dx) */
	0xb0, '\n',		/* mov $'\n', %al */
	0xee,			/* out %al, (%dx) */
	0xf4,			/* hlt */
};

#define DR7_L0		0x1		/* DR7: enable the breakpoint in DR0 */
#define DR6_B0		0x1		/* DR6: the breakpoint in DR0 was hit */
#define DR6_BS		0x4000		/* DR6: a single step */
#define RFLAGS_RF	0x10000		/* RFLAGS: resume, ignoring instruction breakpoints */
/* Debug the guest with the flags in control; dr0 is the hardware breakpoint, if any. */
static void set_guest_debug(int vcpufd, __u32 control, __u64 dr0)
{
	struct kvm_guest_debug debug = { .control = KVM_GUESTDBG_ENABLE | control };

	if (control & KVM_GUESTDBG_USE_HW_BP) {
		debug.arch.debugreg[0] = dr0;
		debug.arch.debugreg[7] = DR7_L0;	/* on execution, one byte */
	}
	if (ioctl(vcpufd, KVM_SET_GUEST_DEBUG, &debug) == -1)
		err(1, "KVM_SET_GUEST_DEBUG");
}

static void get_regs(int vcpufd, struct kvm_regs *regs)
{
	if (ioctl(vcpufd, KVM_GET_REGS, regs) == -1)
		err(1, "KVM_GET_REGS");
}

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

static void set_regs(int vcpufd, const struct kvm_regs *regs)
{
	if (ioctl(vcpufd, KVM_SET_REGS, regs) == -1)
		err(1, "KVM_SET_REGS");
}

/* Let the guest go on past the breakpoint it stopped at. */
static void resume_past_breakpoint(struct vm *vm, struct kvm_regs *regs, __u8 saved)
{
	if (vm->run->debug.arch.exception == 3) {
		((__u8 *)vm->mem)[BREAK_ADDR - GUEST_ADDR] = saved;	/* int3 removed */
	} else {
		regs->rflags |= RFLAGS_RF;	/* DR0 stays armed */
		set_regs(vm->vcpu, regs);
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
	code = (__u8 *)vm.mem + (BREAK_ADDR - GUEST_ADDR);
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
