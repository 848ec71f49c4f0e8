// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "When things go wrong", book/08-failures.nw. */
#include "kvm.h"
/* in-port: a guest that reads the serial port, which kvmtest only writes. */
#include "guests/in-port.h"
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
