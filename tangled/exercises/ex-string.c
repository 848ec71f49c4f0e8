// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Exercises", book/17-exercises.nw. */
#include "kvm.h"
/* ex-string: a guest that prints a string from its own memory, byte by byte. */
#include "guests/ex-string.h"
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
