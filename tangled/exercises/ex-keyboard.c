// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* ex-keyboard: a guest that reads a key from a port the VMM answers. */
static const __u8 guest_code[] = {
	0xe4, 0x60,		/* in $0x60, %al */
	0x2c, 0x20,		/* sub $0x20, %al */
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0xee,			/* out %al, (%dx) */
	0xb0, '\n',		/* mov $'\n', %al */
	0xee,			/* out %al, (%dx) */
	0xf4,			/* hlt */
};
#define KEYBOARD_PORT	0x60	/* a PC keyboard controller's data port */
#define KEY		'k'	/* the one key ever pressed */

static int is_key_read(const struct kvm_run *run)
{
	return run->exit_reason == KVM_EXIT_IO &&
	       run->io.direction == KVM_EXIT_IO_IN && run->io.size == 1 &&
	       run->io.port == KEYBOARD_PORT && run->io.count == 1;
}

static void answer_key_read(struct kvm_run *run)
{
	char *data = (char *)run + run->io.data_offset;

	*data = KEY;
}

static void run_with_keyboard(const struct vm *vm)
{
	start_timer(vm->run);
	for (;;) {
		enter_guest(vm);
		if (is_key_read(vm->run))
			answer_key_read(vm->run);
		else if (respond_to_exit(vm->run))
			return;
	}
}

int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_with_keyboard(&vm);
	return 0;
}
