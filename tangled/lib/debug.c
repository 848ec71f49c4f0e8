// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* debug.c: the vCPU's debugging controls, and its registers at a stop. */
#include "debug.h"

/* Debug the guest with the flags in control; dr0 is the hardware breakpoint, if any. */
void set_guest_debug(int vcpufd, __u32 control, __u64 dr0)
{
	struct kvm_guest_debug debug = { .control = KVM_GUESTDBG_ENABLE | control };

	if (control & KVM_GUESTDBG_USE_HW_BP) {
		debug.arch.debugreg[0] = dr0;
		debug.arch.debugreg[7] = DR7_L0;	/* on execution, one byte */
	}
	kvm_ioctl(vcpufd, KVM_SET_GUEST_DEBUG, &debug, "KVM_SET_GUEST_DEBUG");
}

void get_regs(int vcpufd, struct kvm_regs *regs)
{
	kvm_ioctl(vcpufd, KVM_GET_REGS, regs, "KVM_GET_REGS");
}

