// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "An interrupt the VMM raises", book/22-irq-line.nw. */
#include "kvm.h"
/* serial-irq: a UART in the VMM that interrupts the guest with KVM_IRQ_LINE. */
#include "irq.h"
#include "machine.h"
#include "serial.h"
#include "stats.h"
#include "guests/serial-irq.h"
/* The VMM's standard input, a line at a time, for the UART to receive. */
struct line_input {
	struct serial *uart;
	char *line;		/* getline's buffer */
	size_t size;		/* and its size */
	bool ended;		/* the input has ended and 0x04 was received */
};

static const char end_of_input[] = { 0x04 };	/* Ctrl-D */

/* The next line arrives, or 0x04 once the input has ended; then nothing. */
static void next_line(void *owner)
{
	struct line_input *in = owner;
	ssize_t n = getline(&in->line, &in->size, stdin);

	if (n > 0) {
		console_receive(&in->uart->io, in->line, n);
	} else if (!in->ended) {
		console_receive(&in->uart->io, end_of_input, 1);
		in->ended = true;
	} else {
		console_receive(&in->uart->io, NULL, 0);
	}
}

static const char * const compared_stats[] = {
	"io_exits", "irq_window_exits", "halt_exits",
};
int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct serial uart;
	struct line_input input = { .uart = &uart };
	struct device pio_devices[] = {
		{ 0 },		/* the UART, once the VM exists */
		{ DONE_PORT, 1, &m.done, NULL, done_write, "done" },
	};
	bool keep_high = argc == 2 && !strcmp(argv[1], "--keep-high");

	if (argc != 1 && !keep_high)
		errx(1, "usage: serial-irq [--keep-high]");
	create_machine(&m.vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(m.vm.fd);
	add_vcpu(&m.vm);
	pio_devices[0] = serial_device(&uart, m.vm.fd);
	uart.io.refill = next_line;
	uart.io.owner = &input;
	uart.keeps_high = keep_high;
	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	next_line(&input);
	run_machine(&m);
	print_count("line raised", uart.raised);
	print_count("line lowered", uart.lowered);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
