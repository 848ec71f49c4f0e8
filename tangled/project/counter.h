/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
/* counter.h: the project's model device, a counter: its window and registers. */
#define COUNTER_ADDR	0xa000	/* guest-physical: its page */
#define COUNTER_SIZE	0x1000
#define COUNTER_COUNT	0	/* read: the count; write: set it */
#define COUNTER_ADD	4	/* write: add to the count; read: the adds so far */
