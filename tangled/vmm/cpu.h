/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* cpu.h: the PC's processor: its CPUID, its vCPU, its bound and its run loop. */
#ifndef CPU_H
#define CPU_H
#include "cpuid.h"
#include "machine.h"

struct vmm;
struct kvm_cpuid2 *machine_cpuid(const struct vmm *v);
void create_cpu(struct vmm *v);
unsigned long tsc_khz(const struct vm *vm);
void start_bound(const struct vm *vm, unsigned int life);
void run_pc(struct vmm *v);
#endif
