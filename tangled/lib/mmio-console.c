// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* mmio-console.c: Part III's first device, a console in guest memory. */
#include "mmio-console.h"

void console_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	struct console *console = state;

	if (offset != CONSOLE_STATUS || len != 1)
		return;
	console->reads++;
	data[0] = console->printed;	/* mod 256: the register is one byte */
}

void console_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct console *console = state;

	if (offset != CONSOLE_DATA || len != 1)
		return;
	putchar(data[0]);
	flush_stdout();
	console->printed++;
}

