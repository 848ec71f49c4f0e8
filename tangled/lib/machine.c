// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* machine.c: the bus that gives exits to devices, and the machine's run loop. */
#include "machine.h"

/* Put count devices on bus; stop on a full bus or a window that overlaps another. */
void bus_add(struct bus *bus, const struct device *devices, size_t count)
{
	size_t i, j;

	for (i = 0; i < count; i++) {
		const struct device *dev = &devices[i];

		if (bus->count == MAX_DEVICES)
			errx(1, "bus: no room for %s", dev->name);
		if (!dev->size || dev->base + dev->size - 1 < dev->base)
			errx(1, "bus: %s has no window at 0x%llx", dev->name, dev->base);
		for (j = 0; j < bus->count; j++) {
			const struct device *old = &bus->devices[j];

			if (dev->base <= old->base + (old->size - 1) &&
			    old->base <= dev->base + (dev->size - 1))
				errx(1, "bus: %s at 0x%llx-0x%llx overlaps %s at 0x%llx-0x%llx",
				     dev->name, dev->base, dev->base + dev->size - 1,
				     old->name, old->base, old->base + old->size - 1);
		}
		bus->devices[bus->count++] = *dev;
	}
}

/* The device whose window holds all len bytes at addr, or NULL. */
const struct device *find_device(const struct bus *bus, __u64 addr, __u32 len)
{
	size_t i;

	for (i = 0; i < bus->count; i++) {
		const struct device *dev = &bus->devices[i];

		if (addr >= dev->base && addr - dev->base < dev->size &&
		    len <= dev->size - (addr - dev->base))
			return dev;
	}
	return NULL;
}

/* Give len bytes at offset to dev, or fill them from it; all ones where it does not. */
void access_device(const struct device *dev, __u64 offset, __u32 len, bool write,
		   __u8 *data)
{
	if (write && dev->write)
		dev->write(dev->state, offset, data, len);
	if (!write) {
		memset(data, 0xff, len);
		if (dev->read)
			dev->read(dev->state, offset, data, len);
	}
}

/* Give an MMIO exit to its device, and return it; NULL when none has the address. */
const struct device *bus_mmio(struct bus *bus, struct kvm_run *run)
{
	const struct device *dev = find_device(bus, run->mmio.phys_addr, run->mmio.len);

	if (!dev || run->mmio.len > sizeof(run->mmio.data))
		return NULL;
	access_device(dev, run->mmio.phys_addr - dev->base, run->mmio.len,
		      run->mmio.is_write, run->mmio.data);
	bus->exits[dev - bus->devices]++;
	return dev;
}

#define PIO_DATA_MAX	4096	/* KVM's one page of port data in the run mapping */

/* Give a port exit to its device, and return it; NULL when none has the port. */
const struct device *bus_pio(struct bus *bus, struct kvm_run *run)
{
	const struct device *dev = find_device(bus, run->io.port, run->io.size);
	__u8 *data = (__u8 *)run + run->io.data_offset;
	__u32 i;

	if (!dev || (__u64)run->io.size * run->io.count > PIO_DATA_MAX)
		return NULL;
	for (i = 0; i < run->io.count; i++)
		access_device(dev, run->io.port - dev->base, run->io.size,
			      run->io.direction == KVM_EXIT_IO_OUT, data + i * run->io.size);
	bus->exits[dev - bus->devices]++;
	return dev;
}

/* What no device takes, answered as a PC's empty bus answers it: reads all ones. */
static void answer_unclaimed(struct machine *m, struct kvm_run *run)
{
	if (run->exit_reason == KVM_EXIT_MMIO && !run->mmio.is_write)
		memset(run->mmio.data, 0xff, sizeof(run->mmio.data));
	if (run->exit_reason == KVM_EXIT_IO && run->io.direction == KVM_EXIT_IO_IN &&
	    (__u64)run->io.size * run->io.count <= PIO_DATA_MAX)
		memset((__u8 *)run + run->io.data_offset, 0xff, run->io.size * run->io.count);
	m->unclaimed++;
}

/* Give the exit in run to its bus, or to Part I's handlers; true when the guest is done. */
bool dispatch_exit(struct machine *m, struct kvm_run *run)
{
	if ((run->exit_reason == KVM_EXIT_MMIO && bus_mmio(&m->mmio, run)) ||
	    (run->exit_reason == KVM_EXIT_IO && bus_pio(&m->pio, run)))
		return m->done;
	if (m->answers_unclaimed &&
	    (run->exit_reason == KVM_EXIT_MMIO || run->exit_reason == KVM_EXIT_IO)) {
		answer_unclaimed(m, run);
		return m->done;
	}
	return respond_to_exit(run);
}

/* Handle the exit that ended KVM_RUN; true when the guest is done. */
bool handle_exit(struct machine *m)
{
	m->exits++;
	return dispatch_exit(m, m->vm.run);
}

void run_machine(struct machine *m)
{
	start_timer(m->vm.run);
	do
		enter_guest(&m->vm);
	while (!handle_exit(m));
	stop_timer();
}

void print_count(const char *name, unsigned long value)
{
	printf("%-20s %lu\n", name, value);
}

void done_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	bool *done = state;

	(void)offset;
	(void)data;
	(void)len;
	*done = true;
}

