// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* triple-fault: a guest exception that cannot be delivered. */
static const __u8 guest_code[] = {
	0x0f, 0x01, 0x1e, 0x10, 0x10,	/* lidt 0x1010 (zeros: limit 0, base 0) */
	0xcc,				/* int3 */
	0xf4,				/* hlt */
};
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
