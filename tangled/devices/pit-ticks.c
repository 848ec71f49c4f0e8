// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Interrupts from the kernel's own chips", book/21-in-kernel-irqchip.nw. */
#include "kvm.h"
/* pit-ticks: a guest that sleeps between ticks of KVM's own PIT and PIC. */
#include "irq.h"
#include "machine.h"
#include "stats.h"
#include <stdlib.h>
#include "guests/pit-ticks.h"
static const char * const compared_stats[] = {
	"io_exits", "halt_exits", "irq_injections",
};
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
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
