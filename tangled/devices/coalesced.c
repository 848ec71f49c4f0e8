// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* coalesced: the console of mmio-console, with its data register coalesced. */
#include <stdlib.h>
#define CONSOLE_ADDR	0x8000	/* guest-physical: the console's page */
#define CONSOLE_SIZE	0x1000
#define CONSOLE_DATA	0	/* write: a byte to print */
#define CONSOLE_STATUS	1	/* read: bytes printed so far */
struct console {
	unsigned int printed;	/* bytes written to the data register */
	unsigned int reads;	/* reads of the status register */
};

static __u8 console_read(void *state, __u64 offset)
{
	struct console *console = state;

	if (offset != CONSOLE_STATUS)
		return 0;
	console->reads++;
	return console->printed;	/* mod 256: the register is one byte */
}

static void console_write(void *state, __u64 offset, __u8 value)
{
	struct console *console = state;

	if (offset != CONSOLE_DATA)
		return;
	putchar(value);
	flush_stdout();
	console->printed++;
}

static const __u8 guest_code[] = {
	0xbe, 0x22, 0x10,	/* mov $0x1022, %si */
	0xac,			/* lodsb */
	0x84, 0xc0,		/* test %al, %al */
	0x74, 0x05,		/* jz 0x100d */
	0xa2, 0x00, 0x80,	/* mov %al, 0x8000 */
	0xeb, 0xf6,		/* jmp 0x1003 */
	0xa0, 0x01, 0x80,	/* mov 0x8001, %al */
	0xd4, 0x0a,		/* aam */
	0x05, '0', '0',		/* add $0x3030, %ax */
	0xba, 0xf8, 0x03,	/* mov $0x3f8, %dx */
	0x86, 0xe0,		/* xchg %ah, %al */
	0xee,			/* out %al, (%dx) */
	0x88, 0xe0,		/* mov %ah, %al */
	0xee,			/* out %al, (%dx) */
	0xb0, '\n',		/* mov $'\n', %al */
	0xee,			/* out %al, (%dx) */
	0xf4,			/* hlt */
	'H', 'e', 'l', 'l', 'o', ' ', 'f', 'r', 'o', 'm', ' ',	/* .asciz */
	'M', 'M', 'I', 'O', '\n', 0,
};
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
	if (ioctl(m->vm.fd, KVM_REGISTER_COALESCED_MMIO, &zone) == -1)
		err(1, "KVM_REGISTER_COALESCED_MMIO");
	return (void *)((char *)m->vm.run +
			KVM_COALESCED_MMIO_PAGE_OFFSET * sysconf(_SC_PAGESIZE));
}

/* Replay the writes KVM kept in the ring to their devices, oldest first. */
static unsigned long drain_ring(const struct bus *bus, struct kvm_coalesced_mmio_ring *ring)
{
	__u32 max = (sysconf(_SC_PAGESIZE) - sizeof(*ring)) / sizeof(ring->coalesced_mmio[0]);
	__u32 first = ring->first, last = __atomic_load_n(&ring->last, __ATOMIC_ACQUIRE);
	unsigned long drained = 0;

	while (first != last) {
		const struct kvm_coalesced_mmio *rec = &ring->coalesced_mmio[first % max];
		const struct device *dev = find_device(bus, rec->phys_addr, rec->len);

		if (!dev)
			errx(1, "KVM_REGISTER_COALESCED_MMIO: no device at 0x%llx, len %u",
			     (unsigned long long)rec->phys_addr, rec->len);
		dev->write(dev->state, rec->phys_addr - dev->base, rec->data[0]);
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
		drained += drain_ring(&m->mmio, ring);
	} while (!handle_exit(m));
	stop_timer();
	return drained;
}

int main(int argc, char **argv)
{
	struct console console = { 0 };
	const struct device mmio_devices[] = {
		{ CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console" },
	};
	struct machine m = { .mmio = { mmio_devices, ARRAY_SIZE(mmio_devices) } };
	unsigned long drained = 0;

	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	if (argc == 2 && !strcmp(argv[1], "--ring"))
		drained = run_coalesced(&m, coalesce_console_data(&m));
	else if (argc == 1)
		run_machine(&m);
	else
		errx(1, "usage: coalesced [--ring]");
	print_count("bytes printed", console.printed);
	print_count("status reads", console.reads);
	print_count("ring records", drained);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
