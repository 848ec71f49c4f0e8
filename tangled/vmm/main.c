// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/*
 * vmm: boot a Linux bzImage with an initramfs on a PC made of KVM's
 * interrupt chips and timer, an 8250 serial console and answers for the
 * ports Linux probes.  Everything it needs is in the book "kvmbook".
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmm.h"

#define CMDLINE_MAX	512
#define RAM_DEFAULT	256	/* MiB: enough for a distribution's kernel */
#define RAM_MAX		3072	/* MiB: below the chips' and the devices' windows */
#define LIFE_MAX	86400	/* seconds: a day */

struct vmm_option {
	char letter;
	const char *arg;	/* its argument's name; NULL: none */
	const char *help;
};

static const struct vmm_option vmm_options[] = {
	{ 'l', "SECONDS", "reset within SECONDS, or the VMM ends with an error" },
	{ 'm', "MIB", "RAM in MiB (256)" },
	{ 't', NULL, "print when the nested init started" },
	{ 'w', "DEVICE", "leave DEVICE out of the PC" },
	{ 'v', NULL, "a virtio console, for hvc0" },
	{ 'x', NULL, "virtio's doorbells and interrupts as exits" },
	{ 'i', NULL, "the guest's console is this terminal; Ctrl-] ends the VMM" },
	{ 'p', "PROMPT", "give the guest a line of the input after each PROMPT" },
	{ 'd', "IMAGE", "a virtio disk whose sectors are IMAGE's" },
	{ 'r', NULL, "the disk is read-only" },
	{ 'n', "TAP", "a virtio network card on the TAP device TAP" },
	{ 'c', "CPUS", "CPUS processors, at most 4 (1)" },
	{ 'S', "FILE", "save the machine to FILE where the input of -p ends" },
	{ 'R', "FILE", "go on from the machine saved in FILE: no -m and no files" },
	{ 'M', "ADDRESS:PORT", "move the machine there where the input of -p ends" },
	{ 'I', "ADDRESS:PORT", "go on from the machine that comes there: no -m and no files" },
	{ 'g', "ADDRESS:PORT", "wait there for gdb before the guest's first instruction" },
	{ 'k', "FEATURE", "keep KVM's paravirtual FEATURE (PV_EOI, ...) from the guest" },
};

static void usage(void)
{
	size_t i;

	fprintf(stderr, "usage: vmm [OPTION]... BZIMAGE INITRD CMDLINE\n");
	for (i = 0; i < ARRAY_SIZE(vmm_options); i++)
		fprintf(stderr, "  -%c %-14s %s\n", vmm_options[i].letter,
			vmm_options[i].arg ? vmm_options[i].arg : "", vmm_options[i].help);
	exit(2);
}

/* The option's argument as a number from 1 to max, or the VMM stops, naming it. */
static unsigned long number(int opt, const char *arg, unsigned long max)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > max)
		errx(2, "-%c %s: not a number from 1 to %lu", opt, arg, max);
	return n;
}

static void parse_options(struct vmm *v, int argc, char **argv)
{
	char letters[2 * ARRAY_SIZE(vmm_options) + 1], *p = letters;
	struct options *o = &v->o;
	const char **operands[] = { &o->kernel, &o->initrd, &o->cmdline };
	size_t i, files = ARRAY_SIZE(operands);
	int opt;

	for (i = 0; i < ARRAY_SIZE(vmm_options); i++) {
		*p++ = vmm_options[i].letter;
		if (vmm_options[i].arg)
			*p++ = ':';
	}
	*p = '\0';
	while ((opt = getopt(argc, argv, letters)) != -1) {
		switch (opt) {
		case 'l':
			o->life = number(opt, optarg, LIFE_MAX);
			break;
		case 'm':
			o->ram = (size_t)number(opt, optarg, RAM_MAX) << 20;
			break;
		case 't':
			o->timed = true;
			break;
		case 'w':
			o->without = optarg;
			break;
		case 'v':
			o->virtio = true;
			break;
		case 'x':
			o->exits = true;
			break;
		case 'i':
			o->typed = true;
			break;
		case 'p':
			o->prompt = optarg;
			break;
		case 'd':
			o->disk = optarg;
			break;
		case 'r':
			o->read_only = true;
			break;
		case 'n':
			o->tap = optarg;
			break;
		case 'c':
			o->cpus = number(opt, optarg, MAX_VCPUS);
			break;
		case 'S':
			o->save = optarg;
			o->leaves = true;
			break;
		case 'R':
			o->restore = optarg;
			o->goes_on = true;
			break;
		case 'M':
			o->migrate = optarg;
			o->leaves = true;
			break;
		case 'I':
			o->incoming = optarg;
			o->goes_on = true;
			break;
		case 'g':
			o->gdb = optarg;
			break;
		case 'k': {
			int bit = kvm_feature_bit(optarg);

			if (bit < 0)
				errx(2, "-k %s: KVM names no such paravirtual feature", optarg);
			o->withheld |= 1U << bit;
			break;
		}
		default:
			usage();
		}
	}
	/* Options that do not go together stop the VMM here, before the VM exists. */
	if (o->typed && o->prompt)
		errx(2, "-i and -p: the input is typed or paced, not both");
	if (o->read_only && !o->disk)
		errx(2, "-r: there is no disk without -d");
	if (o->leaves && !o->prompt)
		errx(2, "-S and -M need -p");
	if (o->cpus > 1 && (o->leaves || o->goes_on))
		errx(2, "-c %d: saving and moving handle one vCPU", o->cpus);
	if (o->goes_on && o->ram)
		errx(2, "-R and -I take RAM from the machine that comes (no -m)");
	if (o->goes_on && argc != optind)
		errx(2, "-R and -I take no BZIMAGE INITRD CMDLINE: the machine that comes has them");
	if (o->restore)
		read_snapshot(&v->from, o->restore, (size_t)RAM_MAX << 20);
	if (o->restore && o->incoming)
		errx(2, "-R and -I: the machine comes from a file or from a socket, not both");
	if (o->incoming)
		receive_machine(&v->from, o->incoming, o->life, (size_t)RAM_MAX << 20);
	if (o->goes_on) {
		o->ram = v->from.header.ram_size;
		files = 0;	/* the kernel and the rest are in the machine's RAM */
	}
	if (o->save && o->migrate)
		errx(2, "-S and -M: the machine is saved or moved, not both");
	if (o->gdb && (o->save || o->migrate))
		errx(2, "-g takes no -S or -M: their pause and a stop for gdb would meet");
	if ((size_t)(argc - optind) != files)
		usage();
	for (i = 0; i < files; i++)
		*operands[i] = argv[optind + i];
	if (!o->ram)
		o->ram = (size_t)RAM_DEFAULT << 20;
}

static void plug_devices(struct vmm *v)
{
	struct device com1 = serial_device(&v->uart, v->m.vm.fd);

	bus_add(&v->m.pio, &com1, 1);
	struct device pc_ports[PC_DEVICES];
	size_t count = pc_devices(&v->pc, &v->m.done, pc_ports);

	if (v->o.without)
		count = remove_device(pc_ports, count, v->o.without);
	bus_add(&v->m.pio, pc_ports, count);
	if (v->o.virtio)
		plug_virtio(v, virtio_console_device(&v->console, &v->m.vm, VIRTIO_CONSOLE_BASE,
						     VIRTIO_CONSOLE_IRQ), &v->console.mmio);
	if (v->o.disk) {
		open_disk(&v->disk, v->o.disk, v->o.read_only);
		plug_virtio(v, virtio_disk_device(&v->disk, &v->m.vm, VIRTIO_DISK_BASE, VIRTIO_DISK_IRQ),
			    &v->disk.mmio);
	}
	if (v->o.tap)
		plug_virtio(v, virtio_net_device(&v->net, &v->m.vm, VIRTIO_NET_BASE, VIRTIO_NET_IRQ,
						 open_tap(v->o.tap)), &v->net.mmio);
	struct device pm = power_device(&v->power, &v->pause);

	bus_add(&v->m.pio, &pm, 1);
}

/* The kernel's command line: the user's, and what the kernel has no other way to learn. */
static void make_cmdline(struct vmm *v, char *cmdline)
{
	size_t n = snprintf(cmdline, CMDLINE_MAX, "%s", v->o.cmdline);

	if (n < CMDLINE_MAX)
		n += snprintf(cmdline + n, CMDLINE_MAX - n, " tsc_early_khz=%lu", tsc_khz(&v->m.vm));
	if (n < CMDLINE_MAX)
		n += snprintf(cmdline + n, CMDLINE_MAX - n, " initcall_blacklist=vmx_init,svm_init");
	for (size_t i = 0; i < v->in_memory && n < CMDLINE_MAX; i++)
		n += snprintf(cmdline + n, CMDLINE_MAX - n, " virtio_mmio.device=4K@%#llx:%u",
			      v->virtio[i]->base, v->virtio[i]->irq);
	if (n >= CMDLINE_MAX)
		errx(2, "the command line is longer than %d bytes", CMDLINE_MAX - 1);
}

static void start_guest(struct vmm *v)
{
	if (v->o.kernel) {
		char cmdline[CMDLINE_MAX];

		make_cmdline(v, cmdline);
		start_linux(&v->m.vm, load_linux(&v->m.vm, v->o.kernel, v->o.initrd, cmdline));
	}
	if (v->o.goes_on)
		restore_machine(&v->from, v);
	if (v->o.kernel)
		write_acpi_tables(&v->m.vm, v->o.cpus ? v->o.cpus : 1);
}

static void start_beside(struct vmm *v)
{
	if (v->o.life)
		start_bound(&v->m.vm, v->o.life);
	for (size_t i = 0; i < v->in_memory; i++)
		if (!v->o.exits || v->virtio[i]->dev.waits_on)
			serve_in_thread(v->virtio[i], &v->mutex, v->o.exits);
	start_console(&v->input, v->o.virtio ? &v->console.io : &v->uart.io, &v->mutex, v->o.typed,
		      v->o.prompt);
	prepare_pause(&v->pause, &v->cpus[0], &v->m.vm);
	if (v->o.cpus > 1) {
		create_aps(v);
		write_mp_table(&v->m.vm, v->o.cpus);
		for (int i = 1; i < v->o.cpus; i++)
			start_vcpu(&v->cpus[i]);
	}
	if (v->o.goes_on) {
		lock(&v->mutex);
		for (size_t i = 0; i < v->in_memory; i++)
			virtio_resume(v->virtio[i]);
		if (v->o.prompt)
			prompt_came(&v->input);
		unlock(&v->mutex);
	}
	if (v->o.save) {
		v->input.at_end = pause_vcpu;
		v->input.at_end_arg = &v->pause;
	}
	if (v->o.migrate) {
		prepare_migration(&v->migration, &v->m.vm, &v->pause, v->o.migrate);
		v->input.at_end = start_migration;
		v->input.at_end_arg = &v->migration;
	}
	if (v->o.gdb)
		wait_for_gdb(&v->stub, &v->m.vm, v->cpus, v->o.cpus ? v->o.cpus : 1, v->o.gdb,
			     v->o.life);
}

static void say_how_it_ended(struct vmm *v)
{
	if (v->m.done)
		printf("\nthe guest reset the machine\n");
	if (!v->m.done && v->o.save && !v->input.at_end) {	/* the input's end paused it */
		save_machine(v, v->o.save);
		printf("\nthe VMM saved the machine to %s\n", v->o.save);
	}
	if (!v->m.done && v->o.migrate && !v->input.at_end) {	/* the thread has started */
		finish_migration(&v->migration, v);
		printf("\nthe VMM moved the machine to %s\n", v->o.migrate);
	}
	if (v->o.gdb)
		gdb_end(&v->stub);
	if (v->power.off)
		printf("\nthe guest turned the machine off\n");
}

static void report_bus(const struct bus *bus)
{
	size_t i;

	for (i = 0; i < bus->count; i++)
		printf("  %-18s %lu\n", bus->devices[i].name, bus->exits[i]);
}

static void report(const struct vmm *v)
{
	printf("%-20s %lu\n", "exits to the VMM", v->m.exits);
	report_bus(&v->m.pio);
	report_bus(&v->m.mmio);
	printf("%-20s %lu\n", "unclaimed accesses", v->m.unclaimed);
	printf("%-20s %lu\n", "bytes sent", v->uart.sent);
	if (v->o.timed)
		printf("%-20s %ld ms\n", "init reached after", v->pc.timer.init_ms);
	for (size_t i = 0; i < v->in_memory; i++)
		v->virtio[i]->dev.report(v->virtio[i]);
}

int main(int argc, char **argv)
{
	static struct vmm v = { .m.answers_unclaimed = true, .mutex = PTHREAD_MUTEX_INITIALIZER };

	parse_options(&v, argc, argv);
	create_pc(&v.m.vm, v.o.ram);
	create_cpu(&v);
	plug_devices(&v);
	start_guest(&v);
	start_beside(&v);
	run_pc(&v);
	lock(&v.mutex);	/* threads of later chapters' devices stay where they are */
	say_how_it_ended(&v);
	report(&v);
	return 0;
}
