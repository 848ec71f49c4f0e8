/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* debug.h: the vCPU's debugging controls, and its registers at a stop. */
#ifndef DEBUG_H
#define DEBUG_H
#include "kvm.h"
#define DR7_L0		0x1		/* DR7: enable the breakpoint in DR0 */
#define DR6_B0		0x1		/* DR6: the breakpoint in DR0 was hit */
#define DR6_BS		0x4000		/* DR6: a single step */
#define RFLAGS_RF	0x10000		/* RFLAGS: resume, ignoring instruction breakpoints */
void set_guest_debug(int vcpufd, __u32 control, __u64 dr0);
void get_regs(int vcpufd, struct kvm_regs *regs);
#endif
