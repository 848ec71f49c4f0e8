// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Interrupts from the kernel's own chips", book/21-in-kernel-irqchip.nw. */
#include "kvm.h"
/* lab-chips: the timer's guest, and the PIC's and PIT's state it left. */
#include "irq.h"
#include "machine.h"
#include "guests/pit-ticks.h"
static void print_pic(int vmfd)
{
	struct kvm_irqchip chip = { .chip_id = KVM_IRQCHIP_PIC_MASTER };

	kvm_ioctl(vmfd, KVM_GET_IRQCHIP, &chip, "KVM_GET_IRQCHIP");
	printf("pic master irq_base 0x%02x imr 0x%02x isr 0x%02x\n",
	       chip.chip.pic.irq_base, chip.chip.pic.imr, chip.chip.pic.isr);
}

static void print_pit(int vmfd)
{
	struct kvm_pit_state2 pit;

	kvm_ioctl(vmfd, KVM_GET_PIT2, &pit, "KVM_GET_PIT2");
	printf("pit channel 0 count %u mode %u rw_mode %u\n",
	       pit.channels[0].count, pit.channels[0].mode, pit.channels[0].rw_mode);
}

int main(void)
{
	struct machine m = { 0 };
	const struct device pio_devices[] = {
		{ DONE_PORT, 1, &m.done, NULL, done_write, "done" },
	};

	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	create_machine(&m.vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(m.vm.fd);
	add_vcpu(&m.vm);
	run_machine(&m);
	print_pic(m.vm.fd);
	print_pit(m.vm.fd);
	return 0;
}
