/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Linux on several processors", book/42-processors.nw. */
/* aps.h: the application processors, vCPUs 1 and on, and the pause that stops vCPU 0. */
#ifndef APS_H
#define APS_H
#include <stdbool.h>
#include "machine.h"
#include "vcpus.h"

struct vmm;

#define MAX_VCPUS	4	/* the nested kernel's CONFIG_NR_CPUS */

/* A request to vCPU 0's thread to leave KVM_RUN and stay out */
struct pause {
	const struct vcpu_thread *cpu;	/* vCPU 0, run by the main thread */
	bool requested;
};

void prepare_pause(struct pause *pause, struct vcpu_thread *cpu, const struct vm *vm);
void pause_vcpu(void *arg);
void create_aps(struct vmm *v);
#endif
