// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
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

/* KVM's CPUID table, as this machine's processors show it. */
struct kvm_cpuid2 *machine_cpuid(const struct vmm *v)
{
	struct kvm_cpuid2 *cpuid = get_supported_cpuid(v->m.vm.kvm);

	hide_virtualization(cpuid);
	offer_hypervisor_bits(v->m.vm.kvm, cpuid);
	if (v->o.withheld)
		withhold_kvm_features(cpuid, v->o.withheld);
	return cpuid;
}

void create_cpu(struct vmm *v)
{
	struct kvm_cpuid2 *cpuid = machine_cpuid(v);
	struct vm *vm = &v->m.vm;

	vm->vcpu = create_vcpu(vm->fd);
	vm->run = map_run(vm->kvm, vm->vcpu);
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

/* Arm the -l bound: from now on the guest, running or held, has life seconds to reset. */
void start_bound(const struct vm *vm, unsigned int life)
{
	struct itimerval bound = { .it_value.tv_sec = life };

	start_timer(vm->run);
	if (setitimer(ITIMER_REAL, &bound, NULL) == -1)
		err(1, "setitimer");
}

/* Whether the machine has ended, by the guest's doing or the VMM's. */
static bool machine_ended(struct vmm *v)
{
	bool ended = false;

	lock(&v->mutex);
	ended = v->m.done;
	unlock(&v->mutex);
	if (__atomic_load_n(&v->pause.requested, __ATOMIC_SEQ_CST))
		ended = true;
	return ended;
}

/* KVM_RUN ended for a signal: true when the machine has ended, false to run on. */
static bool signal_came(struct vmm *v)
{
	if (machine_ended(v))
		return true;
	if (v->o.gdb && gdb_heard(&v->stub))
		return false;
	errx(1, "Linux did not reset within %u s", v->o.life);
}

/* Handle the exit in v's run: true when the machine has ended. */
static bool handle_pc_exit(struct vmm *v)
{
	bool done;

	if (v->m.vm.run->exit_reason == KVM_EXIT_SHUTDOWN) {	/* a triple fault: a PC resets */
		lock(&v->mutex);
		v->m.exits++;
		v->m.done = true;
		unlock(&v->mutex);
		return true;
	}
	if (v->o.gdb && v->m.vm.run->exit_reason == KVM_EXIT_DEBUG) {
		gdb_stop(&v->stub, 0);
		return false;
	}
	lock(&v->mutex);
	done = handle_exit(&v->m);
	unlock(&v->mutex);
	return done;
}

/* Run until the machine ends. */
void run_pc(struct vmm *v)
{
	bool ended;

	do
		ended = enter_vcpu(v->m.vm.vcpu, 0, NULL) ? handle_pc_exit(v) : signal_came(v);
	while (!ended);
	if (v->o.life)
		stop_timer();
}

