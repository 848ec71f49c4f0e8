// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the rest of the machine", book/b-fuzzing-the-machine.nw. */
/* fuzz/serial.c: the 8250's registers, read and written, and bytes arriving. */
#include "fuzz.h"

#define UART_WRITE	0x80	/* an operation that writes its register */
#define UART_ARRIVE	0x40	/* an operation that is bytes arriving */

/* One operation, and the value it writes or the number of bytes that arrive. */
struct uart_input {
	__u8 op;
	__u8 value;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct serial uart;
	struct device dev = serial_device(&uart, FUZZ_VMFD);
	struct uart_input u;
	char arrived[255];
	struct vm vm;

	fuzz_start(&vm, 0);
	while (fuzz_take(&in, &u, sizeof(u))) {
		if (u.op & UART_ARRIVE) {
			fuzz_take(&in, arrived, u.value);
			console_receive(&uart.io, arrived, u.value);
		} else {
			access_device(&dev, u.op & 7, 1, u.op & UART_WRITE, &u.value);
		}
		if (fuzz_level(UART_IRQ) != uart.line || uart.io.pos > uart.io.len)
			abort();
	}
	fuzz_end(&vm);
	return 0;
}

