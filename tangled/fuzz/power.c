// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the rest of the machine", book/b-fuzzing-the-machine.nw. */
/* fuzz/power.c: ACPI's PM1 registers, read and written at every offset and size. */
#include "fuzz.h"

#define POWER_WRITE	0x80	/* an operation that writes */

/* One access: the offset in bits 2:0, the size in bits 4:3, then the value. */
struct power_input {
	__u8 op;
	__u8 value[4];
};

static const __u32 sizes[] = { 1, 2, 4, 2 };

/* A register read whole, as the kernel reads it, and the same as two bytes. */
static __u16 read_register(const struct device *dev, __u64 reg)
{
	__u8 whole[2], low, high;

	access_device(dev, reg, 2, false, whole);
	access_device(dev, reg, 1, false, &low);
	access_device(dev, reg + 1, 1, false, &high);
	if (low != whole[0] || high != whole[1])
		abort();
	return whole[0] | whole[1] << 8;
}

/* Whether the device's record, put back into a new device, reads as the device does. */
static bool restores(const struct device *dev, struct pause *pause)
{
	struct power copy;
	struct device restored = power_device(&copy, pause);
	struct power_state s;
	__u64 reg;

	power_save(dev->state, &s);
	power_restore(&copy, &s);
	for (reg = POWER_STATUS; reg < POWER_PORTS; reg += 2)
		if (read_register(&restored, reg) != read_register(dev, reg))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct power p;
	struct pause pause;
	struct device dev = power_device(&p, &pause);
	struct power_input u;
	unsigned int pauses = fuzz_pauses();

	while (fuzz_take(&in, &u, sizeof(u))) {
		__u64 offset = u.op & 7;
		__u32 len = sizes[u.op >> 3 & 3];
		bool whole_write = u.op & POWER_WRITE && len == 2;
		__u16 value = u.value[0] | u.value[1] << 8;

		if (offset + len > POWER_PORTS)
			continue;
		access_device(&dev, offset, len, u.op & POWER_WRITE, u.value);
		if (fuzz_pauses() - pauses != p.off || p.sleep_type > 7 ||
		    read_register(&dev, POWER_STATUS) != 0 ||
		    read_register(&dev, POWER_ENABLE) != p.enable ||
		    read_register(&dev, POWER_CONTROL) != (SCI_EN | p.sleep_type << SLP_TYP_SHIFT))
			abort();
		if (whole_write && offset == POWER_ENABLE && p.enable != value)
			abort();
		if (whole_write && offset == POWER_CONTROL && value & SLP_EN &&
		    (value >> SLP_TYP_SHIFT & 7) == SLP_TYP_S5 && !p.off)
			abort();
		if (!restores(&dev, &pause))
			abort();
	}
	return 0;
}

