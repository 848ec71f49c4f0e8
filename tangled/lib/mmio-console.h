/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* mmio-console.h: Part III's first device, a console in guest memory. */
#ifndef MMIO_CONSOLE_H
#define MMIO_CONSOLE_H
#include "kvm.h"
#define CONSOLE_ADDR	0x8000	/* guest-physical: the console's page */
#define CONSOLE_SIZE	0x1000
#define CONSOLE_DATA	0	/* write: a byte to print */
#define CONSOLE_STATUS	1	/* read: bytes printed so far */
struct console {
	unsigned int printed;	/* bytes written to the data register */
	unsigned int reads;	/* reads of the status register */
};

void console_read(void *state, __u64 offset, __u8 *data, __u32 len);
void console_write(void *state, __u64 offset, const __u8 *data, __u32 len);
#endif
