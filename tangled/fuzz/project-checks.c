// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
/* fuzz/project-checks.c: the grader's checks of a project's device, on the host:
 * its window beside the console, and its state saved and restored.  The input's
 * first byte says which. */
#include "fuzz.h"
#include "mmio-console.h"
#include "project.h"

enum project_check { CHECK_BUS, CHECK_SAVE };

#define CHECK_SPAN	64	/* the accesses' offsets: the window's first bytes */
#define CHECK_ACCESSES	256	/* before the save, and after it on both devices */

static void check_bus(void)
{
	struct console console = { 0 };
	const struct device console_dev = {
		CONSOLE_ADDR, CONSOLE_SIZE, &console, console_read, console_write, "console"
	};
	void *dev = project_new();
	const struct device d = project_device(dev);
	struct bus bus = { 0 };

	if (!d.name)
		errx(1, "the device has no name");
	bus_add(&bus, &console_dev, 1);
	bus_add(&bus, &d, 1);
	if (d.base < GUEST_ADDR + GUEST_MEM_SIZE && GUEST_ADDR <= d.base + (d.size - 1))
		errx(1, "%s at 0x%llx-0x%llx overlaps the guest's memory at 0x%x-0x%x", d.name,
		     d.base, d.base + d.size - 1, GUEST_ADDR, GUEST_ADDR + GUEST_MEM_SIZE - 1);
	if (!d.read && !d.write)
		errx(1, "%s answers neither reads nor writes", d.name);
	project_free(dev);
}
static __u32 lcg;

static __u32 next_random(void)
{
	lcg = lcg * 1103515245 + 12345;
	return lcg >> 16;
}

/* An access: a width, an offset aligned to it, a direction and its bytes. */
struct access {
	__u64 offset;
	__u32 len;
	bool write;
	__u8 data[8];
};

static struct access random_access(const struct device *d)
{
	__u64 span = d->size < CHECK_SPAN ? d->size : CHECK_SPAN;
	struct access a;
	size_t i;

	a.len = 1u << next_random() % 4;
	while (a.len > span)
		a.len /= 2;
	a.offset = next_random() % (span - a.len + 1) & ~(__u64)(a.len - 1);
	a.write = next_random() & 1;
	for (i = 0; i < sizeof(a.data); i++)
		a.data[i] = next_random();
	return a;
}

static __u64 value(const __u8 *data, __u32 len)
{
	__u64 v = 0;

	memcpy(&v, data, len);
	return v;
}

static void check_save(void)
{
	void *dev = project_new(), *copy = project_new(), *cut = project_new();
	const struct device d = project_device(dev), c = project_device(copy);
	__u8 saved[PROJECT_SAVE_MAX], again[PROJECT_SAVE_MAX];
	size_t len, k;
	int i;

	lcg = 1;
	for (i = 0; i < CHECK_ACCESSES; i++) {
		struct access a = random_access(&d);

		access_device(&d, a.offset, a.len, a.write, a.data);
	}
	len = project_save(dev, saved);
	if (len > PROJECT_SAVE_MAX)
		errx(1, "%s saved %zu bytes, more than PROJECT_SAVE_MAX", d.name, len);
	if (!project_restore(copy, saved, len))
		errx(1, "%s refused the %zu bytes it saved", d.name, len);
	if (project_save(copy, again) != len)
		errx(1, "restored, %s saves other than %zu bytes", d.name, len);
	for (k = 0; k < len && saved[k] == again[k]; k++)
		;
	if (k < len)
		errx(1, "restored, %s saves byte %zu as 0x%02x, not 0x%02x", d.name, k, again[k],
		     saved[k]);
	for (i = 0; i < CHECK_ACCESSES; i++) {
		struct access a = random_access(&d), b = a;

		access_device(&d, a.offset, a.len, a.write, a.data);
		access_device(&c, b.offset, b.len, b.write, b.data);
		if (!a.write && memcmp(a.data, b.data, a.len))
			errx(1, "restored, %s reads %u bytes at 0x%llx as 0x%llx, the saved one as 0x%llx",
			     d.name, a.len, a.offset, value(b.data, b.len), value(a.data, a.len));
	}
	if (len && project_restore(cut, saved, len - 1))
		errx(1, "%s took a save cut short by a byte", d.name);
	project_free(dev);
	project_free(copy);
	project_free(cut);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && data[0] == CHECK_BUS)
		check_bus();
	else if (size && data[0] == CHECK_SAVE)
		check_save();
	return 0;
}
