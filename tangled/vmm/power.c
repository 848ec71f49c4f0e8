// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Tables the kernel reads: ACPI", book/48-acpi-tables.nw. */
/* power.c: ACPI's PM1 registers, the guest's power switch. */
#include "vmm.h"

/* The kernel's read of reg, a register's offset in the window */
static __u16 power_register(const struct power *p, __u64 reg)
{
	if (reg == POWER_ENABLE)
		return p->enable;
	if (reg == POWER_CONTROL)
		return SCI_EN | p->sleep_type << SLP_TYP_SHIFT;
	return 0;	/* the status: no event ever happened */
}

static void power_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	const struct power *p = state;
	__u32 i;

	for (i = 0; i < len; i++) {
		__u64 at = offset + i;

		data[i] = power_register(p, at & ~1ULL) >> 8 * (at & 1);
	}
}

static void power_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct power *p = state;
	__u16 value;

	if (len != 2 || offset & 1)
		return;		/* the kernel writes a register whole */
	value = data[0] | data[1] << 8;
	if (offset == POWER_ENABLE)
		p->enable = value;
	if (offset != POWER_CONTROL)
		return;
	p->sleep_type = value >> SLP_TYP_SHIFT & 7;
	if (value & SLP_EN && p->sleep_type == SLP_TYP_S5 && !p->off) {
		p->off = true;
		pause_vcpu(p->pause);
	}
}

struct device power_device(struct power *p, struct pause *pause)
{
	*p = (struct power) { .pause = pause };
	return (struct device) { POWER_PORT, POWER_PORTS, p, power_read, power_write, "power" };
}

/* The power device's record, from the state the bus gives its calls. */
void power_save(const void *state, void *record)
{
	const struct power *p = state;
	struct power_state *s = record;

	*s = (struct power_state) { p->enable, p->sleep_type };
}

void power_restore(void *state, const void *record)
{
	struct power *p = state;
	const struct power_state *s = record;

	p->enable = s->enable;
	p->sleep_type = s->sleep_type & 7;
}

