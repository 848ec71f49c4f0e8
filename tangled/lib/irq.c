// SPDX-License-Identifier: GPL-2.0 OR MIT
/* irq.c: KVM's interrupt controllers and timer, and a line the VMM drives. */
#include "kvmbook.h"

void create_irqchip_and_pit(int vmfd)
{
	struct kvm_pit_config pit = { .flags = 0 };

	if (ioctl(vmfd, KVM_CREATE_IRQCHIP, 0) == -1)
		err(1, "KVM_CREATE_IRQCHIP");
	if (ioctl(vmfd, KVM_CREATE_PIT2, &pit) == -1)
		err(1, "KVM_CREATE_PIT2");
}

void irq_line(int vmfd, __u32 irq, int level)
{
	struct kvm_irq_level line = { .irq = irq, .level = level };

	if (ioctl(vmfd, KVM_IRQ_LINE, &line) == -1)
		err(1, "KVM_IRQ_LINE");
}

