// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
/* counter.c: the project's model device, a counter on the MMIO bus. */
#include <stdlib.h>
#include "project.h"
#include "counter.h"

#define COUNTER_MAGIC	0x31746e63	/* "cnt1": a counter's saved state, version 1 */

struct counter {
	__u32 count;
	__u32 adds;
};

/* The saved state: what it is, then the fields. */
struct counter_state {
	__u32 magic;
	__u32 count;
	__u32 adds;
};

static void counter_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	const struct counter *c = state;
	const __u32 regs[] = { c->count, c->adds };	/* COUNTER_COUNT, COUNTER_ADD */
	__u32 i;

	for (i = 0; i < len; i++)
		data[i] = offset + i < sizeof(regs) ? ((const __u8 *)regs)[offset + i] : 0;
}

static void counter_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct counter *c = state;
	__u32 value = 0;

	memcpy(&value, data, len < sizeof(value) ? len : sizeof(value));
	if (offset == COUNTER_COUNT) {
		c->count = value;
	} else if (offset == COUNTER_ADD) {
		c->count += value;
		c->adds++;
	}
}

void *project_new(void)
{
	struct counter *c = calloc(1, sizeof(*c));

	if (!c)
		err(1, "calloc");
	return c;
}

void project_free(void *dev)
{
	free(dev);
}

struct device project_device(void *dev)
{
	return (struct device){ COUNTER_ADDR, COUNTER_SIZE, dev, counter_read, counter_write,
				"counter" };
}

size_t project_save(const void *dev, __u8 *buf)
{
	const struct counter *c = dev;
	const struct counter_state s = { COUNTER_MAGIC, c->count, c->adds };

	memcpy(buf, &s, sizeof(s));
	return sizeof(s);
}

bool project_restore(void *dev, const __u8 *buf, size_t len)
{
	struct counter *c = dev;
	struct counter_state s;

	if (len != sizeof(s))
		return false;
	memcpy(&s, buf, sizeof(s));
	if (s.magic != COUNTER_MAGIC)
		return false;
	c->count = s.count;
	c->adds = s.adds;
	return true;
}
