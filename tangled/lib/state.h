/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* state.h: a VM's state, saved and restored piece by piece. */
#ifndef STATE_H
#define STATE_H
#include "kvm.h"
#define STOP_AFTER	3	/* lines the guest prints before the snapshot */
/* Everything that makes up a VM with one vCPU. */
struct snapshot {
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	struct kvm_fpu fpu;
	struct kvm_msrs *msrs;		/* with msrs->nmsrs entries after it */
	struct kvm_vcpu_events events;
	struct kvm_mp_state mp_state;
	__u8 mem[GUEST_MEM_SIZE];
	struct kvm_irqchip pic[2];		/* the master and the slave PIC */
	struct kvm_irqchip ioapic;
	struct kvm_pit_state2 pit;
	struct kvm_lapic_state lapic;
};

/* One piece of a VM's state: how to save it and how to put it back. */
struct piece {
	const char *name;
	void (*save)(const struct vm *vm, struct snapshot *s);
	void (*restore)(const struct vm *vm, struct snapshot *s);
	bool chip;		/* only in a VM with in-kernel chips */
};

extern const struct piece pieces[];
extern const size_t nr_pieces;
bool run_lines(const struct vm *vm, unsigned int lines);
void complete_exit(struct vm *vm);
void destroy_vm(struct vm *vm);
void create_empty_vm(struct vm *vm, bool chips);
void snapshot_and_restore(struct vm *vm, const char *skip, bool chips);
#endif
