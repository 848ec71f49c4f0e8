// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Linux on several processors", book/94-processors.nw. */
/* aps.c: the book's vCPUs, and a warning when they outnumber the host's processors. */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include "vmm.h"

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

static void warn_if_shared(const struct vm *vm, int count)
{
	int host = ioctl(vm->kvm, KVM_CHECK_EXTENSION, KVM_CAP_NR_VCPUS);

	if (host == -1)
		err(1, "KVM_CHECK_EXTENSION KVM_CAP_NR_VCPUS");
	if (count > host)
		warnx("-c %d: more vCPUs than the host's processors (KVM_CAP_NR_VCPUS: %d); "
		      "they take turns", count, host);
}

/* The chapter's vCPUs, and a warning when they outnumber the host's processors. */
void create_aps(struct aps *aps, const struct vm *vm, int count)
{
	struct kvm_cpuid2 *cpuid = machine_cpuid(vm);
	int i;

	aps->count = count - 1;
	for (i = 0; i < count; i++) {
		int fd = i ? create_vcpu_with_id(vm->fd, i) : vm->vcpu;

		number_cpu(cpuid, i);
		set_cpuid(fd, cpuid);
		if (i)
			aps->ap[i - 1] = (struct ap) {
				.aps = aps, .id = i, .fd = fd, .run = map_run(vm->kvm, fd),
			};
	}
	free(cpuid);
	warn_if_shared(vm, count);
}

static void *run_ap(void *arg)
{
	struct ap *ap = arg;
	struct aps *aps = ap->aps;
	bool done = false;

	while (!done) {
		if (!enter_vcpu(ap->fd, ap->id, NULL))
			continue;	/* a signal: none is meant for this thread */
		lock(aps->mutex);
		aps->m->exits++;
		done = dispatch_exit(aps->m, ap->run);
		if (done)
			aps->m->done = true;
		unlock(aps->mutex);
	}
	pause_vcpu(aps->pause);
	return NULL;
}

/* Start each application processor's thread, every signal blocked in it. */
void start_aps(struct aps *aps, struct machine *m, pthread_mutex_t *mutex, struct pause *pause)
{
	sigset_t all, old;
	pthread_t thread;
	int i;

	aps->m = m;
	aps->mutex = mutex;
	aps->pause = pause;
	sigfillset(&all);
	errno = pthread_sigmask(SIG_SETMASK, &all, &old);
	if (errno)
		err(1, "pthread_sigmask");
	for (i = 0; i < aps->count; i++) {
		errno = pthread_create(&thread, NULL, run_ap, &aps->ap[i]);
		if (errno)
			err(1, "pthread_create");
	}
	errno = pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno)
		err(1, "pthread_sigmask");
}

