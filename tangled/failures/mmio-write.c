// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* mmio-write: a guest that stores its result where no memory is. */
static const __u8 guest_code[] = {
	0x00, 0xd8,		/* add %bl, %al */
	0x04, '0',		/* add $'0', %al */
	0xa2, 0x00, 0x20,	/* mov %al, 0x2000 */
	0xf4,			/* hlt */
};
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
