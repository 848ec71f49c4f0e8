// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
#include "kvm.h"
/* project: the console and the project's counter on one MMIO bus. */
#include "machine.h"
#include "mmio-console.h"
#include "project.h"
#include "counter.h"
#include "guests/project-counter.h"

static __u32 read_count(void *counter)
{
	const struct device d = project_device(counter);
	__u8 data[4];

	access_device(&d, COUNTER_COUNT, sizeof(data), false, data);
	return data[0] | data[1] << 8 | data[2] << 16 | (__u32)data[3] << 24;
}

int main(void)
{
	struct console console = { 0 };
	void *counter = project_new(), *copy = project_new();
	const struct device devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
		project_device(counter),
	};
	struct machine m = { 0 };
	__u8 saved[PROJECT_SAVE_MAX];
	size_t i, len;

	bus_add(&m.mmio, devices, ARRAY_SIZE(devices));
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	run_machine(&m);
	for (i = 0; i < m.mmio.count; i++)
		print_count(m.mmio.devices[i].name, m.mmio.exits[i]);
	print_count("exits to the VMM", m.exits);
	len = project_save(counter, saved);
	if (!project_restore(copy, saved, len))
		errx(1, "the counter refused its own state");
	print_count("bytes saved", len);
	print_count("count, restored", read_count(copy));
	project_free(counter);
	project_free(copy);
	return 0;
}
