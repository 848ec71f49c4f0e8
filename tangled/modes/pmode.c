// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* pmode: a vCPU that starts in 32-bit protected mode, with flat segments. */
static const __u8 guest_code[] = {
	0xba, 0xf8, 0x03, 0x00, 0x00,	/* mov $0x3f8, %edx */
	0xb8, 'P', '\n', 0x00, 0x00,	/* mov $0x0a50, %eax */
	0xee,				/* out %al, (%dx) */
	0xc1, 0xe8, 0x08,		/* shr $8, %eax */
	0xee,				/* out %al, (%dx) */
	0xf4,				/* hlt */
};
static void change_initial_state(struct vm *vm)
{
	struct kvm_sregs sregs;

	get_sregs(vm->vcpu, &sregs);
	set_flat_segments(&sregs, 0);
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
