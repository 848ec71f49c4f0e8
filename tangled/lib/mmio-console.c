// SPDX-License-Identifier: GPL-2.0 OR MIT
/* mmio-console.c: Part III's first device, a console in guest memory. */
#include "kvmbook.h"

__u8 console_read(void *state, __u64 offset)
{
	struct console *console = state;

	if (offset != CONSOLE_STATUS)
		return 0;
	console->reads++;
	return console->printed;	/* mod 256: the register is one byte */
}

void console_write(void *state, __u64 offset, __u8 value)
{
	struct console *console = state;

	if (offset != CONSOLE_DATA)
		return;
	putchar(value);
	flush_stdout();
	console->printed++;
}

