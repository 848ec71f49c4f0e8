// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* lab-id: the console and an identity ROM on one MMIO bus. */
#include "guests/lab-id.h"
#define ID_ADDR		0x9000	/* guest-physical: the ROM's page */
#define ID_SIZE		0x1000

struct id_rom {
	const char *id;		/* what the ROM holds */
	size_t len;		/* its bytes; the rest of the window reads 0 */
	unsigned int reads;
};

static __u8 id_read(void *state, __u64 offset)
{
	struct id_rom *rom = state;

	rom->reads++;
	return offset < rom->len ? rom->id[offset] : 0;
}

static void id_write(void *state, __u64 offset, __u8 value)
{
	(void)state;	/* a ROM: writes change nothing */
	(void)offset;
	(void)value;
}

static const char id_string[] = "id: kvmbook console rev 2\n";

int main(void)
{
	struct console console = { 0 };
	struct id_rom rom = { id_string, sizeof(id_string) - 1, 0 };
	const struct device mmio_devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
		{ ID_ADDR, ID_SIZE, &rom, id_read, id_write, "id rom" },
	};
	struct machine m = { .mmio = { mmio_devices, ARRAY_SIZE(mmio_devices) } };
	size_t i;

	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	run_machine(&m);
	for (i = 0; i < ARRAY_SIZE(mmio_devices); i++)
		print_count(mmio_devices[i].name, m.by_address[i]);
	print_count("exits to the VMM", m.exits);
	return 0;
}
