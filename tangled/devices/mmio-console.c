// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A device in memory", book/19-mmio-device.nw. */
#include "kvm.h"
/* mmio-console: a console device the guest reaches through memory-mapped I/O. */
#include "machine.h"
#include "mmio-console.h"
#include "guests/mmio-console.h"
int main(void)
{
	struct console console = { 0 };
	const struct device mmio_devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
	};
	struct machine m = { 0 };

	bus_add(&m.mmio, mmio_devices, ARRAY_SIZE(mmio_devices));
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	run_machine(&m);
	print_count("bytes printed", console.printed);
	print_count("status reads", console.reads);
	print_count("exits to the VMM", m.exits);
	return 0;
}
