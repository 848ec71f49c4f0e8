// SPDX-License-Identifier: GPL-2.0 OR MIT
/* cpu.c: the vCPU, its CPUID, the run loop. */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include "vmm.h"

void create_cpu(struct vm *vm)
{
	struct kvm_cpuid2 *cpuid = get_supported_cpuid(vm->kvm);

	vm->vcpu = create_vcpu(vm->fd);
	vm->run = map_run(vm->kvm, vm->vcpu);
	hide_virtualization(cpuid);
	set_cpuid(vm->vcpu, cpuid);
	free(cpuid);
}

unsigned long tsc_khz(const struct vm *vm)
{
	int khz = ioctl(vm->vcpu, KVM_GET_TSC_KHZ, 0);

	if (khz == -1)
		err(1, "KVM_GET_TSC_KHZ");
	return khz;
}

void run_pc(struct machine *m, pthread_mutex_t *mutex, unsigned int life)
{
	struct itimerval bound = { .it_value.tv_sec = life };
	bool done;

	if (life) {
		start_timer(m->vm.run);
		if (setitimer(ITIMER_REAL, &bound, NULL) == -1)
			err(1, "setitimer");
	}
	do {
		if (ioctl(m->vm.vcpu, KVM_RUN, 0) == -1) {
			if (errno == EINTR)
				errx(1, "Linux did not reset within %u s", life);
			err(1, "KVM_RUN");
		}
		lock(mutex);
		done = handle_exit(m);
		unlock(mutex);
	} while (!done);
	if (life)
		stop_timer();
}

