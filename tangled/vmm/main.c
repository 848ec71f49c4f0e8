// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vmm: boot a Linux bzImage with an initramfs on a PC made of KVM's
 * interrupt chips and timer, an 8250 serial console and answers for the
 * ports Linux probes.  Everything it needs is in the book "kvmbook".
 */
#include <err.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "vmm.h"

#define CMDLINE_MAX	512

static void usage(void)
{
	errx(2, "usage: vmm [-t] [-v] [-w DEVICE] BZIMAGE INITRD CMDLINE");
}

/* Take the device called name out of the table; the count left. */
static size_t remove_device(struct device *devices, size_t count, const char *name)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (!strcmp(devices[i].name, name)) {
			memmove(&devices[i], &devices[i + 1], (count - i - 1) * sizeof(*devices));
			return count - 1;
		}
	}
	errx(2, "-w %s: no such device", name);
}

static void report_bus(const struct bus *bus, const unsigned long *exits)
{
	size_t i;

	for (i = 0; i < bus->count; i++)
		printf("  %-18s %lu\n", bus->devices[i].name, exits[i]);
}

static void report(const struct machine *m, const struct serial *uart)
{
	printf("%-20s %lu\n", "exits to the VMM", m->exits);
	report_bus(&m->pio, m->by_port);
	report_bus(&m->mmio, m->by_address);
	printf("%-20s %lu\n", "bytes sent", uart->sent);
}

int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct serial uart;
	struct pc pc;
	struct virtio_console console;
	struct device devices[1 + PC_DEVICES], windows[1];
	char cmdline[CMDLINE_MAX];
	const char *without = NULL;
	bool timed = false, virtio = false;
	size_t count, in_memory = 0;
	int opt;

	_Static_assert(ARRAY_SIZE(devices) <= MAX_DEVICES, "too many devices to count");
	while ((opt = getopt(argc, argv, "tvw:")) != -1) {
		if (opt == 't')
			timed = true;
		else if (opt == 'v')
			virtio = true;
		else if (opt == 'w')
			without = optarg;
		else
			usage();
	}
	if (argc - optind != 3)
		usage();
	argv += optind - 1;
	create_pc(&m.vm);
	create_cpu(&m.vm);
	devices[0] = serial_device(&uart, m.vm.fd);
	count = 1 + pc_devices(&pc, &m.done, devices + 1);
	if (without)
		count = remove_device(devices, count, without);
	m.pio = (struct bus) { devices, count };
	if (virtio)
		windows[in_memory++] = virtio_console_device(&console, &m.vm, VIRTIO_CONSOLE_BASE,
							     VIRTIO_CONSOLE_IRQ);
	m.mmio = (struct bus) { windows, in_memory };
	if (snprintf(cmdline, sizeof(cmdline), "%s tsc_early_khz=%lu%s", argv[3], tsc_khz(&m.vm),
		     virtio ? VIRTIO_CONSOLE_PARAMETER : "") >= (int)sizeof(cmdline))
		errx(1, "the command line is longer than %d bytes", CMDLINE_MAX - 1);
	start_linux(&m.vm, load_linux(&m.vm, argv[1], argv[2], cmdline));
	run_pc(&m);
	printf("\nthe guest reset the machine\n");
	report(&m, &uart);
	if (virtio) {
		printf("%-20s %lu\n", "bytes on virtio", console.sent);
		printf("%-20s %lu\n", "notifications", console.mmio.notifications);
		printf("%-20s %lu\n", "interrupts", console.mmio.interrupts);
	}
	if (timed)
		printf("%-20s %ld ms\n", "init reached after", pc.timer.init_ms);
	return 0;
}
