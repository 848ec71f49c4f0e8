// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vmm: boot a Linux bzImage with an initramfs on a PC made of KVM's
 * interrupt chips and timer, an 8250 serial console and answers for the
 * ports Linux probes.  Everything it needs is in the book "kvmbook".
 */
#include <err.h>
#include <stdio.h>
#include <string.h>
#include "vmm.h"

#define CMDLINE_MAX	512

static void usage(void)
{
	errx(2, "usage: vmm [-t] BZIMAGE INITRD CMDLINE");
}

static void report(const struct machine *m, const struct serial *uart)
{
	size_t i;

	printf("%-20s %lu\n", "exits to the VMM", m->exits);
	for (i = 0; i < m->pio.count; i++)
		printf("  %-18s %lu\n", m->pio.devices[i].name, m->by_device[i]);
	printf("%-20s %lu\n", "bytes sent", uart->sent);
}

int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct serial uart;
	struct pc pc;
	struct device devices[1 + PC_DEVICES];
	char cmdline[CMDLINE_MAX];
	bool timed = argc > 1 && !strcmp(argv[1], "-t");

	_Static_assert(ARRAY_SIZE(devices) <= MAX_DEVICES, "too many devices to count");
	if (argc != 4 + timed)
		usage();
	argv += timed;
	create_pc(&m.vm);
	create_cpu(&m.vm);
	devices[0] = serial_device(&uart, m.vm.fd);
	m.pio = (struct bus) { devices, 1 + pc_devices(&pc, &m.done, devices + 1) };
	if (snprintf(cmdline, sizeof(cmdline), "%s tsc_early_khz=%lu", argv[3],
		     tsc_khz(&m.vm)) >= (int)sizeof(cmdline))
		errx(1, "the command line is longer than %d bytes", CMDLINE_MAX - 1);
	start_linux(&m.vm, load_linux(&m.vm, argv[1], argv[2], cmdline));
	run_machine(&m);
	printf("\nthe guest reset the machine\n");
	report(&m, &uart);
	if (timed)
		printf("%-20s %ld ms\n", "init reached after", pc.timer.init_ms);
	return 0;
}
