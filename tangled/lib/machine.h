/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* machine.h: a device as the bus sees it, the bus, and the machine that runs them. */
#ifndef MACHINE_H
#define MACHINE_H
#include "kvm.h"
/* A device as the bus sees it: a window and the two calls it answers, both optional. */
struct device {
	__u64 base;			/* first address of its window */
	__u64 size;			/* bytes in the window */
	void *state;			/* what read and write are given */
	void (*read)(void *state, __u64 offset, __u8 *data, __u32 len);
	void (*write)(void *state, __u64 offset, const __u8 *data, __u32 len);
	const char *name;		/* for the bus's errors and the VMM's reports */
};

#define MAX_DEVICES	8	/* on a bus */

struct bus {
	struct device devices[MAX_DEVICES];
	unsigned long exits[MAX_DEVICES];	/* exits given to each device */
	size_t count;
};

struct machine {
	struct vm vm;
	struct bus mmio;			/* devices by guest-physical address */
	struct bus pio;				/* devices by port */
	unsigned long exits;			/* times KVM_RUN returned to the VMM */
	bool done;				/* set by a device when the guest has finished */
	bool answers_unclaimed;			/* answer what no device takes, and go on */
	unsigned long unclaimed;		/* accesses no device took, answered */
};

void bus_add(struct bus *bus, const struct device *devices, size_t count);
const struct device *find_device(const struct bus *bus, __u64 addr, __u32 len);
void access_device(const struct device *dev, __u64 offset, __u32 len, bool write,
		   __u8 *data);
const struct device *bus_mmio(struct bus *bus, struct kvm_run *run);
const struct device *bus_pio(struct bus *bus, struct kvm_run *run);
bool dispatch_exit(struct machine *m, struct kvm_run *run);
bool handle_exit(struct machine *m);
void run_machine(struct machine *m);
void print_count(const char *name, unsigned long value);
#define DONE_PORT	0xf4	/* write: the guest has finished */
void done_write(void *state, __u64 offset, const __u8 *data, __u32 len);
#endif
