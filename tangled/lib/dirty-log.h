/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* dirty-log.h: two VMs' slots, the dirty log's rounds, the vCPU moved between them. */
#ifndef DIRTY_LOG_H
#define DIRTY_LOG_H
#include "kvm.h"
#define PAGE_SIZE	0x1000
#define DATA_ADDR	0x2000	/* guest-physical: the data pages */
#define DATA_PAGES	8
#define TICK_PORT	0x80	/* the guest's "a pass is done" */
/* A memory slot as both VMs have it: the same guest-physical range, two copies. */
struct slot {
	__u32 id;
	__u64 addr;		/* guest-physical */
	__u32 pages;
	__u8 *src;		/* in the VM the guest leaves */
	__u8 *dst;		/* in the VM it arrives in */
	__u64 dirty;		/* the pages its log marked last */
};
bool run_to_tick(const struct vm *vm);
void set_slot(int vmfd, const struct slot *slot, void *mem, __u32 flags);
__u8 *add_data_slot(int vmfd, const struct slot *slot);
void read_dirty_logs(int vmfd, struct slot *slots, size_t count);
unsigned int count_marked_pages(struct slot *slots, size_t count, bool all);
void copy_marked_pages(const struct slot *slots, size_t count);
void move_vcpu(const struct vm *from, const struct vm *to);
unsigned int count_differing_pages(const struct slot *slots, size_t count);
#endif
