/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* serial.h: COM1, an 8250 UART of the 16450 kind, and its state in a stream. */
#ifndef SERIAL_H
#define SERIAL_H
#include "machine.h"
#define UART_PORT	0x3f8	/* COM1 */
#define UART_IRQ	4	/* COM1's interrupt line */
#define UART_RBR	0	/* read: the received byte */
#define UART_THR	0	/* write: a byte to send */
#define UART_IER	1	/* interrupt enable */
#define UART_IER_RDI	0x01	/* interrupt when a byte was received */
#define UART_IER_THRI	0x02	/* interrupt when the transmitter is empty */
#define UART_IIR	2	/* read: the pending interrupt */
#define UART_IIR_NONE	0x01	/* no interrupt pending */
#define UART_IIR_THRI	0x02	/* the transmitter is empty */
#define UART_IIR_RDI	0x04	/* a byte was received */
#define UART_LCR	3	/* line control */
#define UART_LCR_DLAB	0x80	/* offsets 0 and 1 are the divisor */
#define UART_MCR	4	/* modem control */
#define UART_MCR_LOOP	0x10	/* loopback: MCR's outputs come back in MSR */
#define UART_LSR	5	/* line status */
#define UART_LSR_DR	0x01	/* a received byte is waiting */
#define UART_LSR_TX_IDLE	0x60	/* ready to send (THR and shifter empty) */
#define UART_MSR	6	/* modem status */
#define UART_MSR_LINES	0xb0	/* carrier, data set ready, clear to send */
#define UART_SCR	7	/* scratch */
#include <stddef.h>
/* The structure of type whose member is at ptr, as the kernel's macro finds it. */
#define container_of(ptr, type, member)	((type *)((char *)(ptr) - offsetof(type, member)))

/* A console's input as its device holds it, and whom it tells. */
struct console_io {
	const char *bytes;	/* received: bytes[pos] to bytes[len - 1] wait for the guest */
	size_t len, pos;
	void (*arrived)(struct console_io *io);	/* the device's: bytes came */
	void (*refill)(void *owner);	/* asked for more when the guest has taken all */
	void (*transmitted)(void *owner, __u8 byte);	/* told of each byte sent */
	void *owner;		/* what refill and transmitted are given */
};

struct serial {
	int vmfd;		/* for its interrupt line */
	__u8 ier, lcr, mcr, scr, dll, dlm;
	struct console_io io;	/* what it received */
	bool thr_empty;		/* "transmitter empty" raised, IIR not yet read */
	bool keeps_high;	/* never lowers its line: an experiment's mistake */
	bool line;		/* the level last given to KVM */
	unsigned long sent, raised, lowered;
};

struct device serial_device(struct serial *uart, int vmfd);
void console_receive(struct console_io *io, const char *bytes, size_t len);
/* The serial port's registers and the level it gave its line, in a stream. */
struct uart_state {
	__u8 ier, lcr, mcr, scr, dll, dlm, thr_empty, line;
};

void serial_save(const void *state, void *record);
void serial_restore(void *state, const void *record);
#endif
