// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Exercises", book/17-exercises.nw. */
#include "kvm.h"
/* ex-keyboard: a guest that reads a key from a port the VMM answers. */
#include "guests/ex-keyboard.h"
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
