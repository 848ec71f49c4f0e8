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

#define PAUSE_SIGNAL	SIGUSR2

static void wake(int signal)
{
	(void)signal;	/* only to end KVM_RUN; immediate_exit keeps it from starting again */
}

void prepare_pause(struct pause *pause, struct kvm_run *run)
{
	struct sigaction action = { .sa_handler = wake };	/* no SA_RESTART */

	*pause = (struct pause) { .run = run, .vcpu = pthread_self() };
	if (sigaction(PAUSE_SIGNAL, &action, NULL) == -1)
		err(1, "sigaction");
}

/* Make the vCPU's thread leave KVM_RUN and stay out; from any thread. */
void pause_vcpu(void *arg)
{
	struct pause *pause = arg;

	__atomic_store_n(&pause->requested, true, __ATOMIC_SEQ_CST);
	pause->run->immediate_exit = 1;
	errno = pthread_kill(pause->vcpu, PAUSE_SIGNAL);
	if (errno)
		err(1, "pthread_kill");
}

/* Run until the guest resets the machine (false) or the VMM pauses it (true). */
bool run_pc(struct machine *m, pthread_mutex_t *mutex, unsigned int life, struct pause *pause,
	    struct gdb_stub *stub)
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
			if (errno == EINTR && __atomic_load_n(&pause->requested, __ATOMIC_SEQ_CST)) {
				if (life)
					stop_timer();
				return true;
			}
			if (errno == EINTR)
				errx(1, "Linux did not reset within %u s", life);
			err(1, "KVM_RUN");
		}
		if (stub && m->vm.run->exit_reason == KVM_EXIT_DEBUG) {
			gdb_stop(stub);
			done = false;
			continue;
		}
		lock(mutex);
		done = handle_exit(m);
		unlock(mutex);
	} while (!done);
	if (life)
		stop_timer();
	return false;
}

