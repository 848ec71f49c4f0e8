// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* serial-irq: a UART in the VMM that interrupts the guest with KVM_IRQ_LINE. */
#include <stdlib.h>
#define UART_PORT	0x3f8	/* COM1 */
#define UART_IRQ	4	/* COM1's interrupt line */
#define UART_RBR	0	/* read: the received byte */
#define UART_THR	0	/* write: a byte to send */
#define UART_IER	1	/* interrupt enable */
#define UART_IER_RDI	0x01	/* interrupt when a byte was received */
#define UART_LSR	5	/* line status */
#define UART_LSR_DR	0x01	/* a received byte is waiting */
#define UART_LSR_THRE	0x60	/* ready to send (THR and shifter empty) */
struct uart {
	int vmfd;		/* for the interrupt line */
	FILE *input;		/* where received lines come from */
	char *line;		/* getline's buffer */
	size_t line_size;	/* and its size */
	const char *bytes;	/* what is being received: line, or end_of_input */
	size_t len, pos;	/* bytes to receive, bytes the guest has read */
	bool ended;		/* the input has ended and 0x04 was received */
	bool lowers;		/* lowers the line when the receiver empties */
	__u8 ier;
	int level;		/* what the device last drove on the line */
	unsigned long raised, lowered;
};

static void uart_update_irq(struct uart *u)
{
	int level = (u->ier & UART_IER_RDI) && u->pos < u->len;

	if (level == u->level || (!level && !u->lowers))
		return;
	irq_line(u->vmfd, UART_IRQ, level);
	u->level = level;
	if (level)
		u->raised++;
	else
		u->lowered++;
}

static const char end_of_input[] = { 0x04 };	/* Ctrl-D */

/* The next line of input arrives, or 0x04 when there is none. */
static void uart_receive(struct uart *u)
{
	ssize_t n = getline(&u->line, &u->line_size, u->input);

	u->pos = 0;
	if (n > 0) {
		u->bytes = u->line;
		u->len = n;
	} else if (!u->ended) {
		u->bytes = end_of_input;
		u->len = 1;
		u->ended = true;
	} else {
		u->len = 0;
	}
	uart_update_irq(u);
}

static __u8 uart_read(void *state, __u64 offset)
{
	struct uart *u = state;
	__u8 value = 0;

	switch (offset) {
	case UART_RBR:
		if (u->pos < u->len)
			value = u->bytes[u->pos++];
		uart_update_irq(u);
		break;
	case UART_IER:
		value = u->ier;
		break;
	case UART_LSR:
		value = UART_LSR_THRE | (u->pos < u->len ? UART_LSR_DR : 0);
		if (!(value & UART_LSR_DR))
			uart_receive(u);	/* found empty: the next line comes in */
		break;
	}
	return value;
}

static void uart_write(void *state, __u64 offset, __u8 value)
{
	struct uart *u = state;

	switch (offset) {
	case UART_THR:
		putchar(value);
		flush_stdout();
		break;
	case UART_IER:
		u->ier = value & 0x0f;
		uart_update_irq(u);
		break;
	}
}

static const __u8 guest_code[] = {
	0xfa,					/* cli */
	0xbc, 0x00, 0x20,			/* mov $0x2000, %sp */
	0x0f, 0x01, 0x1e, 0x57, 0x10,		/* lidt 0x1057 */
	0xc7, 0x06, 0x90, 0x18, 0x33, 0x10,	/* movw $0x1033, 0x1890 */
	0xc7, 0x06, 0x92, 0x18, 0x00, 0x00,	/* movw $0, 0x1892 */
	0xb0, 0x11,				/* mov $0x11, %al */
	0xe6, 0x20,				/* out %al, $0x20 */
	0xb0, 0x20,				/* mov $0x20, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x04,				/* mov $0x04, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x01,				/* mov $0x01, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0xef,				/* mov $0xef, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xba, 0xf9, 0x03,			/* mov $0x3f9, %dx */
	0xb0, 0x01,				/* mov $1, %al */
	0xee,					/* out %al, (%dx) */
	0xfb,					/* sti */
	0xf4,					/* hlt */
	0xeb, 0xfc,				/* jmp 0x102f */
	0xba, 0xfd, 0x03,			/* mov $0x3fd, %dx */
	0xec,					/* in (%dx), %al */
	0xa8, 0x01,				/* test $1, %al */
	0x74, 0x15,				/* jz 0x1050 */
	0xba, 0xf8, 0x03,			/* mov $0x3f8, %dx */
	0xec,					/* in (%dx), %al */
	0x3c, 0x04,				/* cmp $4, %al */
	0x74, 0x12,				/* je 0x1055 */
	0x3c, 'a',				/* cmp $'a', %al */
	0x72, 0x06,				/* jb 0x104d */
	0x3c, 'z',				/* cmp $'z', %al */
	0x77, 0x02,				/* ja 0x104d */
	0x2c, 0x20,				/* sub $0x20, %al */
	0xee,					/* out %al, (%dx) */
	0xeb, 0xe3,				/* jmp 0x1033 */
	0xb0, 0x20,				/* mov $0x20, %al */
	0xe6, 0x20,				/* out %al, $0x20 */
	0xcf,					/* iret */
	0xe6, 0xf4,				/* out %al, $0xf4 */
	0x93, 0x00, 0x00, 0x18, 0x00, 0x00,	/* limit 0x93, base 0x1800 */
};
static const char * const compared_stats[] = {
	"io_exits", "irq_window_exits", "halt_exits",
};
int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct uart uart = { .input = stdin, .lowers = true };
	const struct device pio_devices[] = {
		{ UART_PORT, 8, &uart, uart_read, uart_write, "uart" },
		{ DONE_PORT, 1, &m.done, done_read, done_write, "done" },
	};

	if (argc == 2 && !strcmp(argv[1], "--keep-high"))
		uart.lowers = false;
	else if (argc != 1)
		errx(1, "usage: serial-irq [--keep-high]");
	m.pio = (struct bus) { pio_devices, ARRAY_SIZE(pio_devices) };
	create_machine(&m.vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(m.vm.fd);
	add_vcpu(&m.vm);
	uart.vmfd = m.vm.fd;
	uart_receive(&uart);
	run_machine(&m);
	print_count("line raised", uart.raised);
	print_count("line lowered", uart.lowered);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
