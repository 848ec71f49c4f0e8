/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Tables the kernel reads: ACPI", book/48-acpi-tables.nw. */
/* acpi.h: ACPI's tables, which tell the kernel its processors, chips and power. */
#ifndef ACPI_H
#define ACPI_H
#include "machine.h"

void write_acpi_tables(const struct vm *vm, int count);
#endif
