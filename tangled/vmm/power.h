/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Tables the kernel reads: ACPI", book/48-acpi-tables.nw. */
/* power.h: ACPI's PM1 registers, at the ports the FADT gives. */
#ifndef POWER_H
#define POWER_H
#include <stdbool.h>
#include "machine.h"

#define POWER_PORT	0x600	/* PM1a's event block, then its control block */
#define POWER_STATUS	0
#define POWER_ENABLE	2
#define POWER_CONTROL	4
#define POWER_PORTS	6
#define SCI_EN		0x0001	/* control: ACPI's events go to the SCI */
#define SLP_TYP_SHIFT	10
#define SLP_EN		0x2000
#define SLP_TYP_S5	5	/* SLP_TYP for "soft off", as the DSDT's \_S5 says */

struct power {
	__u16 enable;		/* the events the kernel enabled */
	__u16 sleep_type;	/* SLP_TYP, as last written */
	bool off;		/* the guest turned the machine off */
	struct pause *pause;	/* vCPU 0's, to end the run */
};

struct device power_device(struct power *p, struct pause *pause);
/* The PM1 registers the kernel wrote, in a stream. */
struct power_state {
	__u16 enable, sleep_type;
};

void power_save(const void *state, void *record);
void power_restore(void *state, const void *record);
#endif
