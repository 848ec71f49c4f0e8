// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Linux on several processors", book/42-processors.nw. */
/* aps.c: the application processors on the library's threads, and the pause of vCPU 0. */
#include <stdlib.h>
#include "vmm.h"

/* vCPU 0 on the calling thread, and the pause that stops it from another. */
void prepare_pause(struct pause *pause, struct vcpu_thread *cpu, const struct vm *vm)
{
	*cpu = (struct vcpu_thread) { .id = 0, .fd = vm->vcpu, .run = vm->run };
	*pause = (struct pause) { .cpu = cpu };
	install_kick();
	run_vcpu_here(cpu);
}

/* Make vCPU 0's thread leave KVM_RUN and stay out; from any thread. */
void pause_vcpu(void *arg)
{
	struct pause *pause = arg;

	__atomic_store_n(&pause->requested, true, __ATOMIC_SEQ_CST);
	kick_vcpu(pause->cpu);
}

/* Make cpuid vCPU id's own: its APIC id in leaf 1. */
static void number_cpu(struct kvm_cpuid2 *cpuid, int id)
{
	__u32 i;

	for (i = 0; i < cpuid->nent; i++) {
		struct kvm_cpuid_entry2 *e = &cpuid->entries[i];

		if (e->function == 1)
			e->ebx = (e->ebx & 0x00ffffff) | (__u32)id << 24;
	}
}

/* vCPUs 1 to -c's count - 1 beside vCPU 0, each with CPUID numbered as its local APIC. */
void create_aps(struct vmm *v)
{
	const struct vm *vm = &v->m.vm;
	struct kvm_cpuid2 *cpuid = machine_cpuid(v);
	int i;

	for (i = 0; i < v->o.cpus; i++) {
		int fd = i ? create_vcpu_with_id(vm->fd, i) : v->cpus[0].fd;

		number_cpu(cpuid, i);
		set_cpuid(fd, cpuid);
		if (i)
			v->cpus[i] = (struct vcpu_thread) {
				.m = &v->m, .lock = &v->mutex, .leader = v->cpus, .id = i, .fd = fd,
				.run = map_run(vm->kvm, fd),
			};
	}
	free(cpuid);
}

