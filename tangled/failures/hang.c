// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* hang: a guest that never halts, stopped by the program's own timer. */
static const __u8 guest_code[] = {
	0xfb,			/* sti */
	0xeb, 0xfe,		/* jmp . */
};
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
