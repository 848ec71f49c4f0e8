// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* emulation-failure: a guest instruction that KVM's emulator does not know. */
static const __u8 guest_code[] = {
	0xd9, 0x06, 0x00, 0x20,	/* flds 0x2000 */
	0xf4,			/* hlt */
};
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
