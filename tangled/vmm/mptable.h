/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Linux on several processors", book/42-processors.nw. */
/* mptable.h: the MP table, which tells the kernel its processors. */
#ifndef MPTABLE_H
#define MPTABLE_H
#include "machine.h"

#define MP_LAPIC_ADDR	0xfee00000	/* every local APIC's registers */
#define MP_IOAPIC_ADDR	0xfec00000	/* the I/O APIC's */

void number_ioapic(const struct vm *vm, __u8 id);
__u8 table_checksum(const void *entry, size_t n);
void write_mp_table(const struct vm *vm, int count);
#endif
