// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Coalesced MMIO", book/20-coalesced-mmio.nw. */
#include "kvm.h"
/* lab-pio-ring: coalesced, with the serial port's writes in the ring too. */
#include "machine.h"
#include "mmio-console.h"
#include "stats.h"
#include "guests/mmio-console.h"
static const char * const compared_stats[] = {
	"mmio_exits", "io_exits",
};
static struct kvm_coalesced_mmio_ring *coalesce_console_data(struct machine *m)
{
	struct kvm_coalesced_mmio_zone zone = {
		.addr = CONSOLE_ADDR + CONSOLE_DATA,
		.size = 1,
	};

	check_extension(m->vm.kvm, KVM_CAP_COALESCED_MMIO, "KVM_CAP_COALESCED_MMIO");
	kvm_ioctl(m->vm.fd, KVM_REGISTER_COALESCED_MMIO, &zone, "KVM_REGISTER_COALESCED_MMIO");
	return (void *)((char *)m->vm.run +
			KVM_COALESCED_MMIO_PAGE_OFFSET * sysconf(_SC_PAGESIZE));
}

static void coalesce_serial_port(const struct machine *m)
{
	struct kvm_coalesced_mmio_zone zone = {
		.addr = SERIAL_PORT,
		.size = 1,
		.pio = 1,
	};

	check_extension(m->vm.kvm, KVM_CAP_COALESCED_PIO, "KVM_CAP_COALESCED_PIO");
	if (ioctl(m->vm.fd, KVM_REGISTER_COALESCED_MMIO, &zone) == -1)
		err(1, "KVM_REGISTER_COALESCED_MMIO port 0x%x", SERIAL_PORT);
}

/* Replay the writes KVM kept in the ring to their devices, oldest first. */
static unsigned long drain_ring(const struct machine *m, struct kvm_coalesced_mmio_ring *ring)
{
	__u32 max = (sysconf(_SC_PAGESIZE) - sizeof(*ring)) / sizeof(ring->coalesced_mmio[0]);
	__u32 first = ring->first, last = __atomic_load_n(&ring->last, __ATOMIC_ACQUIRE);
	unsigned long drained = 0;

	while (first != last) {
		const struct kvm_coalesced_mmio *rec = &ring->coalesced_mmio[first % max];
		const struct bus *bus = rec->pio ? &m->pio : &m->mmio;
		const struct device *dev = find_device(bus, rec->phys_addr, rec->len);
		__u8 data[sizeof(rec->data)];

		if (!dev || rec->len > sizeof(data))
			errx(1, "KVM_REGISTER_COALESCED_MMIO: no device at 0x%llx, len %u",
			     (unsigned long long)rec->phys_addr, rec->len);
		memcpy(data, rec->data, rec->len);
		access_device(dev, rec->phys_addr - dev->base, rec->len, true, data);
		first = (first + 1) % max;
		__atomic_store_n(&ring->first, first, __ATOMIC_RELEASE);
		drained++;
	}
	return drained;
}

static unsigned long run_coalesced(struct machine *m, struct kvm_coalesced_mmio_ring *ring)
{
	unsigned long drained = 0;

	start_timer(m->vm.run);
	do {
		enter_guest(&m->vm);
		drained += drain_ring(m, ring);
	} while (!handle_exit(m));
	stop_timer();
	return drained;
}

int main(void)
{
	struct console console = { 0 }, serial = { 0 };
	const struct device mmio_devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
	};
	const struct device pio_devices[] = {
		{ SERIAL_PORT, 1, &serial, console_read, console_write, "serial port" },
	};
	struct machine m = { 0 };
	struct kvm_coalesced_mmio_ring *ring;
	unsigned long drained;

	bus_add(&m.mmio, mmio_devices, ARRAY_SIZE(mmio_devices));
	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	ring = coalesce_console_data(&m);
	coalesce_serial_port(&m);
	drained = run_coalesced(&m, ring);
	print_count("bytes printed", console.printed);
	print_count("serial bytes", serial.printed);
	print_count("ring records", drained);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
