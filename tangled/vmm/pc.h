/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* pc.h: the PC's devices on ports, and the boot timer. */
#ifndef PC_H
#define PC_H
#include <stdbool.h>
#include <time.h>
#include "machine.h"
#include "pci.h"
#include "rtc.h"

struct boot_timer {
	struct timespec start;	/* when the devices were made */
	long init_ms;		/* ms from then to init's write; -1 before */
};

struct pc {
	struct rtc rtc;
	struct pci pci;
	struct boot_timer timer;
};

#define PC_DEVICES	4	/* entries pc_devices writes */
size_t pc_devices(struct pc *pc, bool *done, struct device *devices);
size_t remove_device(struct device *devices, size_t count, const char *name);
#endif
