// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "An interrupt the VMM raises", book/22-irq-line.nw. */
#include "kvm.h"
/* lab-thre: a guest that sends on the UART's "transmitter empty" interrupt. */
#include "irq.h"
#include "machine.h"
#include "serial.h"
#include "stats.h"
#include "guests/lab-thre.h"
static const char * const compared_stats[] = {
	"io_exits", "irq_window_exits", "halt_exits",
};
int main(void)
{
	struct machine m = { 0 };
	struct serial uart;
	struct device pio_devices[] = {
		{ 0 },		/* the UART, once the VM exists */
		{ DONE_PORT, 1, &m.done, NULL, done_write, "done" },
	};

	create_machine(&m.vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(m.vm.fd);
	add_vcpu(&m.vm);
	pio_devices[0] = serial_device(&uart, m.vm.fd);
	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	run_machine(&m);
	print_count("bytes sent", uart.sent);
	print_count("line raised", uart.raised);
	print_count("line lowered", uart.lowered);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
