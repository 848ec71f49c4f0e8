// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A device in memory", book/19-mmio-device.nw. */
#include "kvm.h"
/* lab-id: the console and an identity ROM on one MMIO bus. */
#include "machine.h"
#include "mmio-console.h"
#include "guests/lab-id.h"
#define ID_ADDR		0x9000	/* guest-physical: the ROM's page */
#define ID_SIZE		0x1000

struct id_rom {
	const char *id;		/* what the ROM holds */
	size_t len;		/* its bytes; the rest of the window reads 0 */
	unsigned int reads;
};

static void id_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	struct id_rom *rom = state;
	__u32 i;

	rom->reads++;
	for (i = 0; i < len; i++)
		data[i] = offset + i < rom->len ? rom->id[offset + i] : 0;
}

static const char id_string[] = "id: kvmbook console rev 2\n";

int main(void)
{
	struct console console = { 0 };
	struct id_rom rom = { id_string, sizeof(id_string) - 1, 0 };
	const struct device mmio_devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
		{ ID_ADDR, ID_SIZE, &rom, id_read, NULL, "id rom" },
	};
	struct machine m = { 0 };
	size_t i;

	bus_add(&m.mmio, mmio_devices, ARRAY_SIZE(mmio_devices));
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	run_machine(&m);
	for (i = 0; i < m.mmio.count; i++)
		print_count(m.mmio.devices[i].name, m.mmio.exits[i]);
	print_count("exits to the VMM", m.exits);
	return 0;
}
