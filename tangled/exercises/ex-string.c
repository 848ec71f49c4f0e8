// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* ex-string: a guest that prints a string from its own memory, byte by byte. */
static const __u8 guest_code[] = {
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0xbe, 0x0f, 0x10,	/* mov $0x100f, %si: the string, after the hlt */
	0xac,			/* 1: lodsb */
	0x84, 0xc0,		/* test %al, %al */
	0x74, 0x03,		/* jz 2f */
	0xee,			/* out %al, (%dx) */
	0xeb, 0xf8,		/* jmp 1b */
	0xf4,			/* 2: hlt */
	'2', '+', '2', '=', '4', '\n', 0,	/* the string, at 0x100f */
};
int main(void)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	run_until_halt(&vm);
	return 0;
}
