// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* trace: single-step Part I's guest and print what each instruction changed. */
#include <stddef.h>
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

/* The fields of struct kvm_regs but rip, by name, for a program that prints them. */
struct reg_name {
	const char *name;
	size_t offset;
};

#define REG(field)	{ #field, offsetof(struct kvm_regs, field) }

static const struct reg_name reg_names[] = {
	REG(rax), REG(rbx), REG(rcx), REG(rdx), REG(rsi), REG(rdi), REG(rsp), REG(rbp),
	REG(r8), REG(r9), REG(r10), REG(r11), REG(r12), REG(r13), REG(r14), REG(r15),
	REG(rflags),
};

static __u64 reg_value(const struct kvm_regs *regs, const struct reg_name *reg)
{
	__u64 value;

	memcpy(&value, (const char *)regs + reg->offset, sizeof(value));
	return value;
}

/* One line for a step: from which RIP to which, and what it changed on the way. */
static void print_step(const struct kvm_regs *before, const struct kvm_regs *after)
{
	bool changed = before->rip != after->rip;
	size_t i;

	printf("0x%04llx -> 0x%04llx", (unsigned long long)before->rip,
	       (unsigned long long)after->rip);
	for (i = 0; i < ARRAY_SIZE(reg_names); i++) {
		__u64 old = reg_value(before, &reg_names[i]);
		__u64 new = reg_value(after, &reg_names[i]);

		if (old != new) {
			printf("  %s 0x%llx -> 0x%llx", reg_names[i].name,
			       (unsigned long long)old, (unsigned long long)new);
			changed = true;
		}
	}
	puts(changed ? "" : "  (nothing)");
	flush_stdout();
}

static void print_serial_byte(const struct kvm_run *run)
{
	printf("                 out 0x%02x to port 0x%x\n",
	       *((const __u8 *)run + run->io.data_offset), run->io.port);
	flush_stdout();
}

int main(void)
{
	struct kvm_regs before, after;
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	check_extension(vm.kvm, KVM_CAP_SET_GUEST_DEBUG, "KVM_CAP_SET_GUEST_DEBUG");
	set_guest_debug(vm.vcpu, KVM_GUESTDBG_SINGLESTEP, 0);
	get_regs(vm.vcpu, &before);
	start_timer(vm.run);
	for (;;) {
		enter_guest(&vm);
		if (vm.run->exit_reason == KVM_EXIT_DEBUG) {
			get_regs(vm.vcpu, &after);
			print_step(&before, &after);
			before = after;
		} else if (vm.run->exit_reason == KVM_EXIT_IO && vm.run->io.size == 1 &&
			   vm.run->io.direction == KVM_EXIT_IO_OUT && vm.run->io.count == 1) {
			print_serial_byte(vm.run);
		} else if (respond_to_exit(vm.run)) {
			break;
		}
	}
	return 0;
}
