// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Linux on several processors", book/42-processors.nw. */
/* mptable.c: the MP table, which tells the kernel of the PC's processors. */
#include <err.h>
#include <string.h>
#include <sys/ioctl.h>
#include "vmm.h"

/* Give KVM's I/O APIC the id the MP table gives it. */
void number_ioapic(const struct vm *vm, __u8 id)
{
	struct kvm_irqchip chip = { .chip_id = KVM_IRQCHIP_IOAPIC };

	kvm_ioctl(vm->fd, KVM_GET_IRQCHIP, &chip, "KVM_GET_IRQCHIP I/O APIC");
	chip.chip.ioapic.id = id;
	kvm_ioctl(vm->fd, KVM_SET_IRQCHIP, &chip, "KVM_SET_IRQCHIP I/O APIC");
}

#define MP_TABLE	0x9fc00		/* the last KiB of base memory: scanned, not RAM */
#define MP_TABLE_ROOM	0x400
#define MP_APIC_VERSION	0x14		/* an integrated local APIC */
#define MP_IOAPIC_VERSION	0x11
#define MP_ISA_LINES	16

/* "_MP_": where the table is, found by scanning */
struct mp_pointer {
	char signature[4];
	__u32 table;
	__u8 length;		/* in 16-byte units */
	__u8 revision;		/* 4: version 1.4 */
	__u8 checksum;		/* the bytes add up to 0 */
	__u8 features[5];	/* 0: the table says all, no default configuration */
} __attribute__((packed));

/* "PCMP": the table's header; its entries follow */
struct mp_header {
	char signature[4];
	__u16 length;		/* header and entries */
	__u8 revision;
	__u8 checksum;
	char oem[8];
	char product[12];
	__u32 oem_table;
	__u16 oem_size;
	__u16 entries;
	__u32 lapic;		/* the local APICs' address */
	__u16 extended_length;
	__u8 extended_checksum;
	__u8 reserved;
} __attribute__((packed));

enum { MP_PROCESSOR, MP_BUS, MP_IOAPIC, MP_INTERRUPT, MP_LOCAL_INTERRUPT };

struct mp_processor {
	__u8 type;
	__u8 apic_id;
	__u8 apic_version;
	__u8 flags;		/* enabled; the one that boots */
	__u32 signature, features, reserved[2];
} __attribute__((packed));

#define MP_CPU_ENABLED	1
#define MP_CPU_BOOT	2

struct mp_bus {
	__u8 type;
	__u8 id;
	char name[6];
} __attribute__((packed));

struct mp_ioapic {
	__u8 type;
	__u8 id;
	__u8 version;
	__u8 flags;		/* enabled */
	__u32 address;
} __attribute__((packed));

/* A line, and the pin of an APIC it drives: an I/O APIC's, or a local one's */
struct mp_interrupt {
	__u8 type;
	__u8 kind;		/* a vectored interrupt, an NMI, or the PIC's (ExtINT) */
	__u16 flags;		/* 0: polarity and trigger as the bus has them */
	__u8 bus;
	__u8 bus_line;
	__u8 apic_id;		/* 0xff: every local APIC */
	__u8 pin;
} __attribute__((packed));

enum { MP_INT, MP_NMI, MP_SMI, MP_EXTINT };

/* The value that makes n bytes at entry add up to 0 */
__u8 table_checksum(const void *entry, size_t n)
{
	const __u8 *byte = entry;
	__u8 sum = 0;

	while (n--)
		sum += *byte++;
	return -sum;
}

/* The entries for count vCPUs and the I/O APIC ioapic_id, from at; where they end. */
static void *add_entries(void *at, int count, __u8 ioapic_id)
{
	struct mp_processor *cpu = at;
	struct mp_bus *bus;
	struct mp_ioapic *ioapic;
	struct mp_interrupt *line;
	int i;

	for (i = 0; i < count; i++)
		*cpu++ = (struct mp_processor) {
			.type = MP_PROCESSOR, .apic_id = i, .apic_version = MP_APIC_VERSION,
			.flags = MP_CPU_ENABLED | (i ? 0 : MP_CPU_BOOT),
		};
	bus = (struct mp_bus *)cpu;
	*bus = (struct mp_bus) { MP_BUS, 0, "ISA   " };
	ioapic = (struct mp_ioapic *)(bus + 1);
	*ioapic = (struct mp_ioapic) {
		MP_IOAPIC, ioapic_id, MP_IOAPIC_VERSION, MP_CPU_ENABLED, MP_IOAPIC_ADDR
	};
	line = (struct mp_interrupt *)(ioapic + 1);
	for (i = 0; i < MP_ISA_LINES; i++)
		if (i != 2)
			*line++ = (struct mp_interrupt) {
				MP_INTERRUPT, MP_INT, 0, 0, i, ioapic_id, i
			};
	*line++ = (struct mp_interrupt) { MP_LOCAL_INTERRUPT, MP_EXTINT, 0, 0, 0, 0xff, 0 };
	*line++ = (struct mp_interrupt) { MP_LOCAL_INTERRUPT, MP_NMI, 0, 0, 0, 0xff, 1 };
	return line;
}

/* The MP floating pointer and table for count vCPUs, at MP_TABLE, and the I/O APIC's id. */
void write_mp_table(const struct vm *vm, int count)
{
	struct mp_pointer *pointer = guest_ptr(vm, MP_TABLE, MP_TABLE_ROOM);
	struct mp_header *header;
	__u8 ioapic_id = count;		/* the first id after the processors' */
	char *end;

	if (!pointer)
		errx(1, "no room for the MP table at %#x", MP_TABLE);
	memset(pointer, 0, MP_TABLE_ROOM);
	header = (struct mp_header *)(pointer + 1);
	end = add_entries(header + 1, count, ioapic_id);
	*header = (struct mp_header) {
		.signature = "PCMP", .length = end - (char *)header, .revision = 4,
		.oem = "KVMBOOK ", .product = "kvmbook vmm ",
		.entries = count + 2 + (MP_ISA_LINES - 1) + 2,	/* CPUs, bus, I/O APIC, lines */
		.lapic = MP_LAPIC_ADDR,
	};
	header->checksum = table_checksum(header, header->length);
	*pointer = (struct mp_pointer) {
		.signature = "_MP_", .table = MP_TABLE + sizeof(*pointer), .length = 1,
		.revision = 4,
	};
	pointer->checksum = table_checksum(pointer, sizeof(*pointer));
	number_ioapic(vm, ioapic_id);
}

