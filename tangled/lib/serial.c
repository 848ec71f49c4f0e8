// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* serial.c: COM1, an 8250 UART of the 16450 kind. */
#include "irq.h"
#include "machine.h"
#include "serial.h"

static __u8 serial_iir(const struct serial *uart)
{
	if ((uart->ier & UART_IER_RDI) && uart->io.pos < uart->io.len)
		return UART_IIR_RDI;
	if ((uart->ier & UART_IER_THRI) && uart->thr_empty)
		return UART_IIR_THRI;
	return UART_IIR_NONE;
}

static void update_irq(struct serial *uart)
{
	bool line = serial_iir(uart) != UART_IIR_NONE;

	if (line == uart->line || (!line && uart->keeps_high))
		return;
	irq_line(uart->vmfd, UART_IRQ, line);
	uart->line = line;
	if (line)
		uart->raised++;
	else
		uart->lowered++;
}

/* len bytes arrive at a console, for its guest to take. */
void console_receive(struct console_io *io, const char *bytes, size_t len)
{
	io->bytes = bytes;
	io->len = len;
	io->pos = 0;
	io->arrived(io);
}

/* The guest reads them one at a time from RBR. */
static void serial_arrived(struct console_io *io)
{
	update_irq(container_of(io, struct serial, io));
}

static __u8 loopback_msr(__u8 mcr)
{
	return (mcr & 0x01) << 5 | (mcr & 0x02) << 3 | (mcr & 0x04) << 4 | (mcr & 0x08) << 4;
}

static __u8 serial_register(struct serial *uart, __u64 offset)
{
	bool dlab = uart->lcr & UART_LCR_DLAB;
	__u8 value;

	switch (offset) {
	case UART_RBR:
		if (dlab)
			return uart->dll;
		return uart->io.pos < uart->io.len ? uart->io.bytes[uart->io.pos++] : 0;
	case UART_IER:
		return dlab ? uart->dlm : uart->ier;
	case UART_IIR:
		value = serial_iir(uart);
		if (value == UART_IIR_THRI)
			uart->thr_empty = false;	/* read: the interrupt is seen */
		return value;
	case UART_LCR:
		return uart->lcr;
	case UART_MCR:
		return uart->mcr;
	case UART_LSR:
		value = UART_LSR_TX_IDLE | (uart->io.pos < uart->io.len ? UART_LSR_DR : 0);
		if (!(value & UART_LSR_DR) && uart->io.refill)
			uart->io.refill(uart->io.owner);	/* found empty: more may come in */
		return value;
	case UART_MSR:
		return (uart->mcr & UART_MCR_LOOP) ? loopback_msr(uart->mcr) : UART_MSR_LINES;
	default:
		return uart->scr;
	}
}

static void serial_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	struct serial *uart = state;

	if (len != 1)
		return;		/* the 8250's registers are bytes */
	*data = serial_register(uart, offset);
	update_irq(uart);
}

static void transmit(struct serial *uart, __u8 byte)
{
	if (!(uart->mcr & UART_MCR_LOOP)) {
		putchar(byte);
		flush_stdout();
		uart->sent++;
		if (uart->io.transmitted)
			uart->io.transmitted(uart->io.owner, byte);
	}
	uart->thr_empty = true;
}

static void serial_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct serial *uart = state;
	bool dlab = uart->lcr & UART_LCR_DLAB;
	__u8 value;

	if (len != 1)
		return;
	value = *data;
	switch (offset) {
	case UART_THR:
		if (dlab)
			uart->dll = value;
		else
			transmit(uart, value);
		break;
	case UART_IER:
		if (dlab) {
			uart->dlm = value;
			break;
		}
		if (value & ~uart->ier & UART_IER_THRI)
			uart->thr_empty = true;
		uart->ier = value & 0x0f;
		break;
	case UART_LCR:
		uart->lcr = value;
		break;
	case UART_MCR:
		uart->mcr = value & 0x1f;
		break;
	case UART_SCR:
		uart->scr = value;
		break;
	}
	update_irq(uart);
}

struct device serial_device(struct serial *uart, int vmfd)
{
	*uart = (struct serial) { .vmfd = vmfd, .io.arrived = serial_arrived };
	return (struct device) { UART_PORT, 8, uart, serial_read, serial_write, "serial port" };
}

/* The serial port's record, from the state the bus gives its calls. */
void serial_save(const void *state, void *record)
{
	const struct serial *uart = state;
	struct uart_state *s = record;

	*s = (struct uart_state) {
		uart->ier, uart->lcr, uart->mcr, uart->scr, uart->dll, uart->dlm,
		uart->thr_empty, uart->line,
	};
}

void serial_restore(void *state, const void *record)
{
	struct serial *uart = state;
	const struct uart_state *s = record;

	uart->ier = s->ier;
	uart->lcr = s->lcr;
	uart->mcr = s->mcr;
	uart->scr = s->scr;
	uart->dll = s->dll;
	uart->dlm = s->dlm;
	uart->thr_empty = s->thr_empty;
	uart->line = s->line;
}

