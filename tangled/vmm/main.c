// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vmm: boot a Linux bzImage with an initramfs on a PC made of KVM's
 * interrupt chips and timer, an 8250 serial console and answers for the
 * ports Linux probes.  Everything it needs is in the book "kvmbook".
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmm.h"

#define CMDLINE_MAX	512
#define RAM_DEFAULT	256	/* MiB: enough for a distribution's kernel */
#define RAM_MAX		3072	/* MiB: below the chips' and the devices' windows */
#define LIFE_MAX	86400	/* seconds: a day */

/* What the command line asks for. */
struct options {
	size_t ram;		/* bytes of RAM */
	unsigned int life;	/* seconds the guest may run; 0: until it resets */
	bool typed;		/* -i: input as typed on this terminal */
	const char *prompt;	/* -p: input a line at a time, each after this prompt */
	bool timed, virtio;	/* -t, -v */
	bool exits;		/* -x: virtio's doorbells and interrupts as exits */
	const char *disk;	/* -d: the disk's image */
	bool read_only;		/* -r: the disk is read-only */
	const char *tap;	/* -n: the TAP device of a network card */
	const char *without;	/* -w: the device to leave out */
	bool sized;		/* -m was given */
	const char *save;	/* -S: the file to save the machine to when the input ends */
	const char *migrate;	/* -M: where to move the machine when it ends */
	const char *restore;	/* -R: the file of a machine to go on from, not a boot */
	const char *incoming;	/* -I: where to receive the machine to go on from */
	const char *gdb;	/* -g: where to wait for gdb */
	int cpus;		/* -c: processors */
	const char *kernel, *initrd, *cmdline;
};

static void usage(void)
{
	errx(2, "usage: vmm [-c CPUS] [-d IMAGE [-r]] [-g ADDRESS:PORT] [-i | -p PROMPT] "
	     "[-l SECONDS] [-m MIB] [-n TAP] [-S FILE | -M ADDRESS:PORT] [-t] [-v] [-w DEVICE] [-x] "
	     "BZIMAGE INITRD CMDLINE\n"
	     "       vmm -R FILE | -I ADDRESS:PORT [options but -m]");
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

static void parse_options(struct options *o, int argc, char **argv)
{
	int opt;

	*o = (struct options) { .ram = (size_t)RAM_DEFAULT << 20, .cpus = 1 };
	while ((opt = getopt(argc, argv, "c:d:g:I:il:M:m:n:p:rR:S:tvw:x")) != -1) {
		switch (opt) {
		case 'c':
			o->cpus = number(opt, optarg, MAX_VCPUS);
			break;
		case 'd':
			o->disk = optarg;
			break;
		case 'g':
			o->gdb = optarg;
			break;
		case 'I':
			o->incoming = optarg;
			break;
		case 'i':
			o->typed = true;
			break;
		case 'l':
			o->life = number(opt, optarg, LIFE_MAX);
			break;
		case 'M':
			o->migrate = optarg;
			break;
		case 'm':
			o->ram = (size_t)number(opt, optarg, RAM_MAX) << 20;
			o->sized = true;
			break;
		case 'n':
			o->tap = optarg;
			break;
		case 'p':
			o->prompt = optarg;
			break;
		case 'r':
			o->read_only = true;
			break;
		case 'R':
			o->restore = optarg;
			break;
		case 'S':
			o->save = optarg;
			break;
		case 't':
			o->timed = true;
			break;
		case 'v':
			o->virtio = true;
			break;
		case 'w':
			o->without = optarg;
			break;
		case 'x':
			o->exits = true;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != (o->restore || o->incoming ? 0 : 3) || (o->typed && o->prompt) ||
	    (o->read_only && !o->disk))
		usage();
	if ((o->save || o->migrate) && !o->prompt)
		errx(2, "-S and -M need -p");
	if ((o->restore || o->incoming) && o->sized)
		errx(2, "-R and -I take RAM from the machine that comes (no -m)");
	if ((o->save && o->migrate) || (o->restore && o->incoming))
		usage();
	if (o->gdb && (o->save || o->migrate))
		errx(2, "-g takes no -S or -M: their pause and a stop for gdb would meet");
	if (o->cpus > 1 && (o->save || o->migrate || o->restore || o->incoming || o->gdb))
		errx(2, "-c %d: saving, moving and gdb handle one vCPU", o->cpus);
	if (o->restore || o->incoming)
		return;
	o->kernel = argv[optind];
	o->initrd = argv[optind + 1];
	o->cmdline = argv[optind + 2];
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

/* The kernel's command line: the user's, the TSC's rate, and where each
 * virtio device is, which the kernel has no other way to learn. */
static void make_cmdline(char *cmdline, const char *user, unsigned long khz,
			 struct virtio_mmio * const *virtio, size_t count)
{
	size_t i, n = snprintf(cmdline, CMDLINE_MAX, "%s tsc_early_khz=%lu", user, khz);

	for (i = 0; i < count && n < CMDLINE_MAX; i++)
		n += snprintf(cmdline + n, CMDLINE_MAX - n, " virtio_mmio.device=4K@%#llx:%u",
			      virtio[i]->base, virtio[i]->irq);
	if (n >= CMDLINE_MAX)
		errx(2, "the command line is longer than %d bytes", CMDLINE_MAX - 1);
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
	printf("%-20s %lu\n", "unclaimed accesses", m->unclaimed);
	printf("%-20s %lu\n", "bytes sent", uart->sent);
}

int main(int argc, char **argv)
{
	struct machine m = { .answers_unclaimed = true };
	pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
	struct options o;
	struct serial uart;
	struct console_input input;
	struct pc pc;
	struct virtio_console console;
	struct virtio_disk disk;
	struct virtio_net net;
	struct device devices[1 + PC_DEVICES], windows[VIRTIO_DEVICES];
	struct virtio_mmio *virtio[VIRTIO_DEVICES];
	struct snapshot_reader from;
	struct pause pause;
	struct migration migration;
	struct gdb_stub stub;
	struct aps aps;
	size_t count, in_memory = 0, i;
	bool paused;

	_Static_assert(ARRAY_SIZE(devices) <= MAX_DEVICES, "too many devices to count");
	parse_options(&o, argc, argv);
	if (o.restore)
		read_snapshot(&from, o.restore, (size_t)RAM_MAX << 20);
	if (o.incoming)
		receive_machine(&from, o.incoming, o.life, (size_t)RAM_MAX << 20);
	if (o.restore || o.incoming)
		o.ram = from.header.ram_size;
	create_pc(&m.vm, o.ram);
	create_cpu(&m.vm);
	devices[0] = serial_device(&uart, m.vm.fd);
	count = 1 + pc_devices(&pc, &m.done, devices + 1);
	if (o.without)
		count = remove_device(devices, count, o.without);
	m.pio = (struct bus) { devices, count };
	if (o.virtio) {
		windows[in_memory] = virtio_console_device(&console, &m.vm, VIRTIO_CONSOLE_BASE,
							   VIRTIO_CONSOLE_IRQ);
		virtio[in_memory++] = &console.mmio;
	}
	if (o.disk) {
		open_disk(&disk, o.disk, o.read_only);
		windows[in_memory] = virtio_disk_device(&disk, &m.vm, VIRTIO_DISK_BASE,
							VIRTIO_DISK_IRQ);
		virtio[in_memory++] = &disk.mmio;
	}
	if (o.tap) {
		windows[in_memory] = virtio_net_device(&net, &m.vm, VIRTIO_NET_BASE, VIRTIO_NET_IRQ,
						       open_tap(o.tap));
		virtio[in_memory++] = &net.mmio;
	}
	m.mmio = (struct bus) { windows, in_memory };
	if (o.restore || o.incoming) {
		restore_machine(&from, &m.vm, &uart, &pc, virtio, in_memory);
	} else {
		char cmdline[CMDLINE_MAX];

		make_cmdline(cmdline, o.cmdline, tsc_khz(&m.vm), virtio, in_memory);
		start_linux(&m.vm, load_linux(&m.vm, o.kernel, o.initrd, cmdline));
	}
	if (o.cpus > 1) {
		create_aps(&aps, &m.vm, o.cpus);
		write_mp_table(&m.vm, o.cpus);
	}
	if (o.life)
		start_bound(&m.vm, o.life);
	if (o.gdb)
		wait_for_gdb(&stub, &m.vm, o.gdb, o.life);
	start_console(&input, o.virtio ? &console.io : &uart.io, &mutex, o.typed, o.prompt);
	prepare_pause(&pause, m.vm.run);
	if (o.save) {
		input.at_end = pause_vcpu;
		input.at_end_arg = &pause;
	}
	if (o.migrate) {
		prepare_migration(&migration, &m.vm, &pause, o.migrate);
		input.at_end = start_migration;
		input.at_end_arg = &migration;
	}
	for (i = 0; i < in_memory; i++)
		if (!o.exits || virtio[i]->dev.waits_on)
			serve_in_thread(virtio[i], &mutex, o.exits);
	if (o.restore || o.incoming) {
		lock(&mutex);
		for (i = 0; i < in_memory; i++)
			virtio_resume(virtio[i]);
		if (o.prompt)
			resume_at_prompt(&input);
		unlock(&mutex);
	}
	if (o.cpus > 1)
		start_aps(&aps, &m, &mutex, &pause);
	paused = run_pc(&m, &mutex, o.life, &pause, o.gdb ? &stub : NULL);
	lock(&mutex);	/* the devices' threads stay where they are */
	if (paused && o.save) {
		save_machine(&m.vm, &uart, &pc, virtio, in_memory, o.save);
		printf("\nthe VMM saved the machine to %s\n", o.save);
	} else if (paused) {
		finish_migration(&migration, &uart, &pc, virtio, in_memory);
		printf("\nthe VMM moved the machine to %s\n", o.migrate);
	} else {
		printf("\nthe guest reset the machine\n");
	}
	if (o.gdb)
		gdb_end(&stub);
	report(&m, &uart);
	if (o.virtio) {
		printf("%-20s %lu\n", "bytes on virtio", console.sent);
		printf("%-20s %lu\n", "bytes received", console.received);
		printf("%-20s %lu\n", "notifications", console.mmio.notifications);
		printf("%-20s %lu\n", "interrupts", console.mmio.interrupts);
	}
	if (o.disk) {
		printf("%-20s %lu\n", "disk reads", disk.requests[DISK_READ]);
		printf("%-20s %lu\n", "disk writes", disk.requests[DISK_WRITE]);
		printf("%-20s %lu\n", "disk flushes", disk.requests[DISK_FLUSH]);
		printf("%-20s %lu\n", "disk names asked", disk.requests[DISK_GET_ID]);
		printf("%-20s %lu\n", "other requests", disk.requests[DISK_OTHER]);
		printf("%-20s %llu\n", "bytes read", disk.read);
		printf("%-20s %llu\n", "bytes written", disk.written);
		printf("%-20s %lu\n", "requests failed", disk.failed);
		printf("%-20s %lu\n", "requests refused", disk.refused);
		printf("%-20s %lu\n", "disk doorbells", disk.mmio.notifications);
		printf("%-20s %lu\n", "disk interrupts", disk.mmio.interrupts);
	}
	if (o.tap) {
		printf("%-20s %lu, %lu bytes\n", "frames sent", net.frames_sent, net.bytes_sent);
		printf("%-20s %lu, %lu bytes\n", "frames received", net.frames_received,
		       net.bytes_received);
		printf("%-20s %lu\n", "frames dropped", net.dropped);
		printf("%-20s %lu\n", "net notifications", net.mmio.notifications);
		printf("%-20s %lu\n", "net interrupts", net.mmio.interrupts);
	}
	if (o.timed)
		printf("%-20s %ld ms\n", "init reached after", pc.timer.init_ms);
	return 0;
}
