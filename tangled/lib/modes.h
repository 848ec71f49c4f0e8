/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* modes.h: flat segments, and a vCPU that starts in long mode. */
#ifndef MODES_H
#define MODES_H
#include "kvm.h"
#include <asm/processor-flags.h>
#define BOOT_CS		0x10	/* Linux's boot protocols: GDT entry 2 */
#define BOOT_DS		0x18	/* and entry 3 */
#define CODE_TYPE	0xb	/* code: execute/read, accessed */
#define DATA_TYPE	0x3	/* data: read/write, accessed */
struct kvm_segment flat_segment(__u16 selector, __u8 type, int code64);
void set_flat_segments(struct kvm_sregs *sregs, int code64);
void start_in_long_mode(struct vm *vm);
#endif
