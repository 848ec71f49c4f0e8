// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* in-port: a guest that reads the serial port, which kvmtest only writes. */
static const __u8 guest_code[] = {
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0xec,			/* in (%dx), %al */
	0xf4,			/* hlt */
};
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
