// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The guest is hostile", book/38-hostile-guest.nw. */
#include "kvm.h"
/* stray: a guest that reaches for devices that are not there, and a VMM that answers. */
#include "machine.h"
#include "serial.h"
#include "guests/stray.h"
#define READ_VALUES	0x1100	/* where the guest keeps what it read */

int main(void)
{
	struct machine m = { .answers_unclaimed = true };
	struct serial uart;
	struct device pio_devices[1];
	__u32 memory, scratch;
	__u16 port;

	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	pio_devices[0] = serial_device(&uart, m.vm.fd);
	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	run_machine(&m);
	memcpy(&memory, guest_ptr(&m.vm, READ_VALUES, 4), sizeof(memory));
	memcpy(&port, guest_ptr(&m.vm, READ_VALUES + 4, 2), sizeof(port));
	memcpy(&scratch, guest_ptr(&m.vm, READ_VALUES + 8, 4), sizeof(scratch));
	printf("%-20s %#x\n", "rep insb read", scratch);
	printf("%-20s %#x\n", "read at 0xa000", memory);
	printf("%-20s %#x\n", "read at port 0xffff", port);
	print_count("unclaimed accesses", m.unclaimed);
	print_count("bytes sent", uart.sent);
	print_count("exits to the VMM", m.exits);
	return 0;
}
