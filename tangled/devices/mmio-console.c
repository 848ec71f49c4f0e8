// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* mmio-console: a console device the guest reaches through memory-mapped I/O. */
#define CONSOLE_ADDR	0x8000	/* guest-physical: the console's page */
#define CONSOLE_SIZE	0x1000
#define CONSOLE_DATA	0	/* write: a byte to print */
#define CONSOLE_STATUS	1	/* read: bytes printed so far */
struct console {
	unsigned int printed;	/* bytes written to the data register */
	unsigned int reads;	/* reads of the status register */
};

static __u8 console_read(void *state, __u64 offset)
{
	struct console *console = state;

	if (offset != CONSOLE_STATUS)
		return 0;
	console->reads++;
	return console->printed;	/* mod 256: the register is one byte */
}

static void console_write(void *state, __u64 offset, __u8 value)
{
	struct console *console = state;

	if (offset != CONSOLE_DATA)
		return;
	putchar(value);
	flush_stdout();
	console->printed++;
}

static const __u8 guest_code[] = {
	0xbe, 0x22, 0x10,	/* mov $0x1022, %si */
	0xac,			/* lodsb */
	0x84, 0xc0,		/* test %al, %al */
	0x74, 0x05,		/* jz 0x100d */
	0xa2, 0x00, 0x80,	/* mov %al, 0x8000 */
	0xeb, 0xf6,		/* jmp 0x1003 */
	0xa0, 0x01, 0x80,	/* mov 0x8001, %al */
	0xd4, 0x0a,		/* aam */
	0x05, '0', '0',		/* add $0x3030, %ax */
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0x86, 0xe0,		/* xchg %ah, %al */
	0xee,			/* out %al, (%dx) */
	0x88, 0xe0,		/* mov %ah, %al */
	0xee,			/* out %al, (%dx) */
	0xb0, '\n',		/* mov $'\n', %al */
	0xee,			/* out %al, (%dx) */
	0xf4,			/* hlt */
	'H', 'e', 'l', 'l', 'o', ' ', 'f', 'r', 'o', 'm', ' ',	/* .asciz */
	'M', 'M', 'I', 'O', '\n', 0,
};
int main(void)
{
	struct console console = { 0 };
	const struct device mmio_devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
	};
	struct machine m = { .mmio = { mmio_devices, ARRAY_SIZE(mmio_devices) } };

	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	run_machine(&m);
	print_count("bytes printed", console.printed);
	print_count("status reads", console.reads);
	print_count("exits to the VMM", m.exits);
	return 0;
}
