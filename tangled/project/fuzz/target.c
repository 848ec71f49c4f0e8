// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
/* fuzz/target.c: the project's device, read and written as the input says, its
 * state saved and restored after each access. */
#include "fuzz.h"
#include "project.h"

#define ACCESS_WRITE	0x80	/* in op: a write; its low two bits: the width's log */

struct access_input {
	__u8 op;
	__u8 offset;
	__u8 data[8];
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	void *dev = project_new(), *copy = project_new();
	const struct device d = project_device(dev);
	__u8 saved[PROJECT_SAVE_MAX], again[PROJECT_SAVE_MAX];
	struct access_input a;
	size_t len;

	while (fuzz_take(&in, &a, sizeof(a))) {
		access_device(&d, a.offset % d.size, 1u << (a.op & 3), a.op & ACCESS_WRITE, a.data);
		len = project_save(dev, saved);
		if (len > PROJECT_SAVE_MAX || !project_restore(copy, saved, len) ||
		    project_save(copy, again) != len || memcmp(saved, again, len))
			abort();
	}
	project_free(dev);
	project_free(copy);
	return 0;
}
