// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Debugging a guest", book/34-debugging.nw. */
#include "kvm.h"
/* trace: single-step Part I's guest and print what each instruction changed. */
#include "debug.h"
#include <stddef.h>
#include "guests/kvmtest.h"
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
