/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* state.h: a VM's state, saved and restored piece by piece. */
#ifndef STATE_H
#define STATE_H
#include "kvm.h"
#define STOP_AFTER	3	/* lines the guest prints before the snapshot */
/* What KVM holds of a VM with one vCPU. */
struct snapshot {
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	__u32 xsave[1024];		/* struct kvm_xsave's region: x87, SSE, AVX */
	struct kvm_xcrs xcrs;
	struct kvm_debugregs debugregs;
	struct kvm_lapic_state lapic;	/* with in-kernel chips */
	struct kvm_mp_state mp_state;
	struct kvm_vcpu_events events;
	struct kvm_irqchip pic[2], ioapic;	/* the master and the slave PIC; the I/O APIC */
	struct kvm_pit_state2 pit;
	struct kvm_clock_data clock;
	struct kvm_msrs *msrs;		/* with msrs->nmsrs entries after it */
};

bool run_lines(const struct vm *vm, unsigned int lines);
void complete_exit(struct vm *vm);
bool read_msr(int vcpu, __u32 index, __u64 *value);
void take_snapshot(const struct vm *vm, struct snapshot *s, bool chips);
void restore_snapshot(const struct vm *vm, struct snapshot *s, const char *skip, bool chips);
void destroy_vm(struct vm *vm);
void create_empty_vm(struct vm *vm, bool chips);
void snapshot_and_restore(struct vm *vm, const char *skip, bool chips);
#endif
