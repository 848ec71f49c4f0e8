/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
/* project.h: what a project's device offers the machine, the grader and its fuzz target. */
#ifndef PROJECT_H
#define PROJECT_H
#include "machine.h"

#define PROJECT_SAVE_MAX	4096	/* the most bytes a device's state saves to */

void *project_new(void);		/* a device in the state of a machine's start */
void project_free(void *dev);
struct device project_device(void *dev);	/* its window on the MMIO bus and its calls */
size_t project_save(const void *dev, __u8 *buf);	/* its state in buf; returns its bytes */
bool project_restore(void *dev, const __u8 *buf, size_t len);	/* false: not a state it saved */
#endif
