// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Moving it live", book/45-sending-live.nw. */
/* fuzz/snapshot.c: the reader of snapshots and migrations, given the input as its stream. */
#include <stdio.h>
#include <unistd.h>
#include "fuzz.h"

#define RAM_SIZE	(1 << 20)
#define DISK_SECTORS	2048	/* the disk the stream's record must describe: 1 MiB */

/* A VMM's devices, as main makes them for -v -d IMAGE -n TAP, with no file behind them,
 * and its port bus: the serial port and the PC's. */
struct devices {
	struct virtio_console console;
	struct virtio_disk disk;
	struct virtio_net net;
	struct virtio_mmio *virtio[VIRTIO_DEVICES];
	struct serial uart;
	struct pc pc;
	bool done;
	struct bus pio;
};

static void make_devices(struct devices *d, const struct vm *vm)
{
	struct device ports[1 + PC_DEVICES];

	ports[0] = serial_device(&d->uart, FUZZ_VMFD);
	d->pio = (struct bus) { .count = 0 };
	bus_add(&d->pio, ports, 1 + pc_devices(&d->pc, &d->done, ports + 1));
	virtio_console_device(&d->console, vm, VIRTIO_CONSOLE_BASE, VIRTIO_CONSOLE_IRQ);
	d->disk = (struct virtio_disk) { .fd = -1, .config.capacity = DISK_SECTORS };
	virtio_disk_device(&d->disk, vm, VIRTIO_DISK_BASE, VIRTIO_DISK_IRQ);
	virtio_net_device(&d->net, vm, VIRTIO_NET_BASE, VIRTIO_NET_IRQ, -1);
	d->virtio[0] = &d->console.mmio;
	d->virtio[1] = &d->disk.mmio;
	d->virtio[2] = &d->net.mmio;
}

struct restore {
	struct snapshot_reader r;
	int fd;
	const struct vm *vm;
	struct devices *devices;
	struct saved_machine *saved;
};

static void restore(void *arg)
{
	struct restore *x = arg;

	open_snapshot(&x->r, x->fd, "input", RAM_SIZE);
	x->saved->pio = &x->devices->pio;
	x->saved->virtio = x->devices->virtio;
	x->saved->count = VIRTIO_DEVICES;
	read_machine(&x->r, x->vm, x->saved);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct saved_machine saved;
	static struct devices devices;
	struct restore x = { .devices = &devices, .saved = &saved };
	FILE *stream = tmpfile();
	size_t body = size < sizeof(__u64) ? size : size - sizeof(__u64);
	__u64 checksum = fnv1a(FNV_OFFSET, data, body);
	struct vm vm;

	if (!stream)
		err(1, "tmpfile");
	if (fwrite(data, 1, body, stream) != body ||
	    (body < size && fwrite(&checksum, sizeof(checksum), 1, stream) != 1) ||
	    fflush(stream) || fseek(stream, 0, SEEK_SET))
		err(1, "tmpfile");
	x.fd = fileno(stream);
	fuzz_start(&vm, RAM_SIZE);
	x.vm = &vm;
	make_devices(&devices, &vm);
	fuzz_survives(restore, &x);
	fuzz_end(&vm);
	fclose(stream);
	return 0;
}
