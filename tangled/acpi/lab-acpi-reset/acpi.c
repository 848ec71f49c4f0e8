// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Tables the kernel reads: ACPI", book/48-acpi-tables.nw. */
/* acpi.c: ACPI's tables, with the keyboard controller's reset as the FADT's reset register. */
#include <err.h>
#include <string.h>
#include "vmm.h"

#define ACPI_TABLES	0xe0000		/* the BIOS's area, which the kernel scans */
#define ACPI_TABLES_ROOM	0x1000
#define ACPI_OEM	"KVMBK "	/* who made the tables: six bytes */
#define ACPI_OEM_TABLE	"KVMBOOK "	/* and eight, for each table */

/* "RSD PTR ": the root pointer */
struct acpi_rsdp {
	char signature[8];
	__u8 checksum;		/* of the first 20 bytes, ACPI 1.0's pointer */
	char oem[6];
	__u8 revision;		/* 2: an XSDT follows */
	__u32 rsdt;		/* ACPI 1.0's table of 32-bit addresses: none */
	__u32 length;		/* 36 */
	__u64 xsdt;
	__u8 extended_checksum;	/* of all 36 bytes */
	__u8 reserved[3];
} __attribute__((packed));

/* The header of every other table */
struct acpi_header {
	char signature[4];
	__u32 length;		/* the whole table's, header included */
	__u8 revision;
	__u8 checksum;		/* the whole table adds up to 0 */
	char oem[6];
	char oem_table[8];
	__u32 oem_revision;
	char creator[4];
	__u32 creator_revision;
} __attribute__((packed));

/* "XSDT": the other tables' addresses; the DSDT's is in the FADT */
struct acpi_xsdt {
	struct acpi_header h;
	__u64 tables[2];	/* the FADT's and the MADT's */
} __attribute__((packed));

/* Where the next table goes: guest-physical, from ACPI_TABLES */
struct acpi_room {
	const struct vm *vm;
	__u64 next;
};

/* size bytes of the room, zeroed; their guest address in *at. */
static void *take(struct acpi_room *room, size_t size, __u64 *at)
{
	void *table = NULL;

	if (room->next + size <= ACPI_TABLES + ACPI_TABLES_ROOM)
		table = guest_ptr(room->vm, room->next, size);
	if (!table)
		errx(1, "no room for ACPI's tables at %#x", ACPI_TABLES);
	memset(table, 0, size);
	*at = room->next;
	room->next += (size + 15) & ~15ULL;
	return table;
}

/* Fill in a table's header, once its body is written; the checksum last. */
static void finish_table(struct acpi_header *h, const char *signature, __u32 length,
			 __u8 revision)
{
	memcpy(h->signature, signature, sizeof(h->signature));
	h->length = length;
	h->revision = revision;
	memcpy(h->oem, ACPI_OEM, sizeof(h->oem));
	memcpy(h->oem_table, ACPI_OEM_TABLE, sizeof(h->oem_table));
	h->oem_revision = 1;
	memcpy(h->creator, "KVMB", sizeof(h->creator));
	h->creator_revision = 1;
	h->checksum = table_checksum(h, length);
}

#define ACPI_SCI_LINE	9	/* ACPI's own interrupt: never raised here */

/* "APIC": the interrupt controllers, in entries after the header */
struct acpi_madt {
	struct acpi_header h;
	__u32 lapic;		/* every local APIC's registers */
	__u32 flags;
} __attribute__((packed));

#define MADT_PCAT_COMPAT	1	/* the PC's two 8259s are there too */

enum { MADT_LAPIC, MADT_IOAPIC, MADT_OVERRIDE };

struct madt_lapic {
	__u8 type, length;
	__u8 processor;		/* the processor's ACPI id */
	__u8 apic_id;
	__u32 flags;		/* enabled */
} __attribute__((packed));

#define MADT_ENABLED	1

struct madt_ioapic {
	__u8 type, length;
	__u8 id, reserved;
	__u32 address;
	__u32 gsi_base;		/* the global interrupt of its pin 0 */
} __attribute__((packed));

/* An ISA line that is not its pin's number, edge-triggered and active high */
struct madt_override {
	__u8 type, length;
	__u8 bus;		/* 0: ISA */
	__u8 line;
	__u32 gsi;
	__u16 flags;
} __attribute__((packed));

#define MADT_ACTIVE_HIGH	0x1
#define MADT_LEVEL		0xc

/* The MADT of count processors and the I/O APIC ioapic_id; its address. */
static __u64 write_madt(struct acpi_room *room, int count, __u8 ioapic_id)
{
	size_t size = sizeof(struct acpi_madt) + count * sizeof(struct madt_lapic) +
		      sizeof(struct madt_ioapic) + sizeof(struct madt_override);
	__u64 at;
	struct acpi_madt *madt = take(room, size, &at);
	struct madt_lapic *cpu = (struct madt_lapic *)(madt + 1);
	struct madt_ioapic *ioapic;
	struct madt_override *sci;
	int i;

	madt->lapic = MP_LAPIC_ADDR;
	madt->flags = MADT_PCAT_COMPAT;
	for (i = 0; i < count; i++)
		*cpu++ = (struct madt_lapic) {
			MADT_LAPIC, sizeof(*cpu), i, i, MADT_ENABLED
		};
	ioapic = (struct madt_ioapic *)cpu;
	*ioapic = (struct madt_ioapic) {
		MADT_IOAPIC, sizeof(*ioapic), ioapic_id, 0, MP_IOAPIC_ADDR, 0
	};
	sci = (struct madt_override *)(ioapic + 1);
	*sci = (struct madt_override) {
		MADT_OVERRIDE, sizeof(*sci), 0, ACPI_SCI_LINE, ACPI_SCI_LINE,
		MADT_ACTIVE_HIGH | MADT_LEVEL
	};
	finish_table(&madt->h, "APIC", size, 5);
	return at;
}

/* A register's address, in the FADT's second half */
struct acpi_gas {
	__u8 space, bit_width, bit_offset, access_size;
	__u64 address;
} __attribute__((packed));

/* "FACP": the fixed registers, and which of the PC's devices exist */
struct acpi_fadt {
	struct acpi_header h;
	__u32 firmware_ctrl, dsdt;	/* ACPI 1.0's 32-bit addresses: none */
	__u8 reserved0, pm_profile;
	__u16 sci_interrupt;		/* the SCI's ISA line */
	__u32 smi_command;		/* 0: always in ACPI's mode */
	__u8 acpi_enable, acpi_disable, s4bios_request, pstate_control;
	__u32 pm1a_event, pm1b_event, pm1a_control, pm1b_control;	/* ports */
	__u32 pm2_control, pm_timer, gpe0, gpe1;
	__u8 pm1_event_length, pm1_control_length, pm2_control_length, pm_timer_length;
	__u8 gpe0_length, gpe1_length, gpe1_base, cstate_control;
	__u16 c2_latency, c3_latency, flush_size, flush_stride;
	__u8 duty_offset, duty_width, day_alarm, month_alarm, century;
	__u16 boot_flags;		/* IA-PC's devices */
	__u8 reserved1;
	__u32 flags;
	struct acpi_gas reset_register;
	__u8 reset_value;
	__u16 arm_boot_flags;
	__u8 minor_revision;
	__u64 x_firmware_ctrl, x_dsdt;
	struct acpi_gas x_blocks[8];	/* the blocks above, by 64-bit address: none */
	struct acpi_gas sleep_control, sleep_status;	/* reduced hardware's: none */
	__u64 hypervisor;
} __attribute__((packed));

#define FADT_8042		0x0002	/* boot flags: a keyboard controller */
#define FADT_NO_VGA		0x0004
#define FADT_WBINVD		0x0001	/* flags */
#define FADT_POWER_BUTTON_NOT_FIXED	0x0010
#define FADT_SLEEP_BUTTON_NOT_FIXED	0x0020

_Static_assert(sizeof(struct acpi_fadt) == 276, "the FADT of ACPI 6.5 is 276 bytes");

#define FADT_RESET_REGISTER	0x0400	/* flags: the reset register exists */
#define ACPI_PORT_SPACE		1	/* a register's space: ports */
#define KEYBOARD_COMMAND	0x64	/* the 8042's command port */
#define KEYBOARD_RESET		0xfe	/* its command that pulses the reset line */

/* The FADT, with the keyboard controller's reset as ACPI's reset register. */
static __u64 write_fadt(struct acpi_room *room, __u64 dsdt)
{
	__u64 at;
	struct acpi_fadt *fadt = take(room, sizeof(*fadt), &at);

	fadt->sci_interrupt = ACPI_SCI_LINE;
	fadt->pm1a_event = POWER_PORT + POWER_STATUS;
	fadt->pm1a_control = POWER_PORT + POWER_CONTROL;
	fadt->pm1_event_length = 4;
	fadt->pm1_control_length = 2;
	fadt->boot_flags = FADT_8042 | FADT_NO_VGA;
	fadt->flags = FADT_WBINVD | FADT_POWER_BUTTON_NOT_FIXED | FADT_SLEEP_BUTTON_NOT_FIXED;
	fadt->minor_revision = 5;
	fadt->x_dsdt = dsdt;
	fadt->flags |= FADT_RESET_REGISTER;
	fadt->reset_register = (struct acpi_gas) { ACPI_PORT_SPACE, 8, 0, 1, KEYBOARD_COMMAND };
	fadt->reset_value = KEYBOARD_RESET;
	finish_table(&fadt->h, "FACP", sizeof(*fadt), 6);
	return at;
}

/* The DSDT's byte code: Name (_S5, Package () { 5, 0, 0, 0 }) */
static const __u8 dsdt_aml[] = {
	0x08, '_', 'S', '5', '_',	/* NameOp, the name */
	0x12, 0x07, 0x04,		/* PackageOp, its length, four elements */
	0x0a, SLP_TYP_S5,		/* BytePrefix, S5's SLP_TYP */
	0x00, 0x00, 0x00,		/* ZeroOp, three times */
};

/* "DSDT": the header and the byte code; its address. */
static __u64 write_dsdt(struct acpi_room *room)
{
	size_t size = sizeof(struct acpi_header) + sizeof(dsdt_aml);
	__u64 at;
	struct acpi_header *dsdt = take(room, size, &at);

	memcpy(dsdt + 1, dsdt_aml, sizeof(dsdt_aml));
	finish_table(dsdt, "DSDT", size, 2);
	return at;
}

/* ACPI's tables for count processors, from ACPI_TABLES, and the I/O APIC's id. */
void write_acpi_tables(const struct vm *vm, int count)
{
	struct acpi_room room = { vm, ACPI_TABLES };
	__u8 ioapic_id = count;		/* the first id after the processors' */
	__u64 at, dsdt, fadt, madt, xsdt;
	struct acpi_rsdp *rsdp = take(&room, sizeof(*rsdp), &at);
	struct acpi_xsdt *tables;

	dsdt = write_dsdt(&room);
	fadt = write_fadt(&room, dsdt);
	madt = write_madt(&room, count, ioapic_id);
	tables = take(&room, sizeof(*tables), &xsdt);
	tables->tables[0] = fadt;
	tables->tables[1] = madt;
	finish_table(&tables->h, "XSDT", sizeof(*tables), 1);
	*rsdp = (struct acpi_rsdp) {
		.signature = "RSD PTR ", .oem = ACPI_OEM, .revision = 2,
		.length = sizeof(*rsdp), .xsdt = xsdt,
	};
	rsdp->checksum = table_checksum(rsdp, 20);
	rsdp->extended_checksum = table_checksum(rsdp, sizeof(*rsdp));
	number_ioapic(vm, ioapic_id);
}

