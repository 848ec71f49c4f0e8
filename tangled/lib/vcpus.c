// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* vcpus.c: vCPUs in threads of their own, and how the VMM stops them. */
#include <stdlib.h>
#include <time.h>
#include "irq.h"
#include "machine.h"
#include "stats.h"
#include "vcpus.h"

#define KICK_SIGNAL	SIGUSR1

/* The run structure of the vCPU this thread runs, for the signal's handler. */
static __thread struct kvm_run *own_run;

static void kick(int signal)
{
	(void)signal;
	own_run->immediate_exit = 1;
}

/* Take the kick in the calling thread, which has set own_run. */
static void take_kick(void)
{
	sigset_t kick_set;

	sigemptyset(&kick_set);
	sigaddset(&kick_set, KICK_SIGNAL);
	errno = pthread_sigmask(SIG_UNBLOCK, &kick_set, NULL);
	if (errno)
		err(1, "pthread_sigmask");
}

void install_kick(void)
{
	struct sigaction action = { .sa_handler = kick };	/* no SA_RESTART */

	if (sigaction(KICK_SIGNAL, &action, NULL) == -1)
		err(1, "sigaction");
}

/* Make v's thread leave KVM_RUN, or not enter it again; from any thread. */
void kick_vcpu(const struct vcpu_thread *v)
{
	errno = pthread_kill(v->thread, KICK_SIGNAL);
	if (errno)
		err(1, "pthread_kill");
}

/* The calling thread runs v itself, and takes v's kicks. */
void run_vcpu_here(struct vcpu_thread *v)
{
	v->thread = pthread_self();
	own_run = v->run;
	take_kick();
}

void lock(pthread_mutex_t *mutex)
{
	errno = pthread_mutex_lock(mutex);
	if (errno)
		err(1, "pthread_mutex_lock");
}

void unlock(pthread_mutex_t *mutex)
{
	errno = pthread_mutex_unlock(mutex);
	if (errno)
		err(1, "pthread_mutex_unlock");
}

int create_vcpu_with_id(int vmfd, int id)
{
	int fd = ioctl(vmfd, KVM_CREATE_VCPU, (unsigned long)id);

	if (fd == -1)
		err(1, "KVM_CREATE_VCPU %d", id);
	return fd;
}

/* vCPU 0 as Part I makes it, and the others with their ids; registers unset. */
void add_vcpus(struct smp_machine *sm)
{
	struct vm *vm = &sm->m.vm;
	int i;

	errno = pthread_mutex_init(&sm->lock, NULL);
	if (errno)
		err(1, "pthread_mutex_init");
	errno = pthread_cond_init(&sm->changed, NULL);
	if (errno)
		err(1, "pthread_cond_init");
	add_vcpu(vm);
	for (i = 0; i < NR_VCPUS; i++) {
		int fd = i ? create_vcpu_with_id(vm->fd, i) : vm->vcpu;

		sm->vcpus[i] = (struct vcpu_thread) {
			.m = &sm->m, .lock = &sm->lock, .changed = &sm->changed,
			.id = i, .fd = fd, .run = i ? map_run(vm->kvm, fd) : vm->run,
		};
	}
}

/* Start the vCPU at rip, with rbx in RBX; the rest as Part I set it. */
void set_entry(int vcpufd, __u64 rip, __u64 rbx)
{
	struct kvm_regs regs;

	kvm_ioctl(vcpufd, KVM_GET_REGS, &regs, "KVM_GET_REGS");
	regs.rip = rip;
	regs.rbx = rbx;
	kvm_ioctl(vcpufd, KVM_SET_REGS, &regs, "KVM_SET_REGS");
}

/*
 * KVM_RUN on vCPU id's fd until it comes back to the VMM: true at an exit, false when
 * a signal ended the run.  A vCPU still waiting for INIT and SIPI goes back in, counted in
 * eagains if that is not NULL.  Every later VMM of the book enters its vCPUs here.
 */
bool enter_vcpu(int fd, int id, unsigned long *eagains)
{
	for (;;) {
		if (ioctl(fd, KVM_RUN, 0) == 0)
			return true;
		if (errno == EINTR)
			return false;
		if (errno != EAGAIN)
			err(1, "KVM_RUN on vCPU %d", id);
		if (eagains)
			(*eagains)++;
	}
}

/* Handle the exit that ended this vCPU's KVM_RUN; true when the guest is done. */
static bool handle_vcpu_exit(struct vcpu_thread *v)
{
	bool done;

	lock(v->lock);
	v->exits++;
	v->m->exits++;
	done = dispatch_exit(v->m, v->run);
	unlock(v->lock);
	return done;
}

static void *run_vcpu(void *arg)
{
	struct vcpu_thread *v = arg;

	own_run = v->run;
	take_kick();
	for (;;) {
		if (!enter_vcpu(v->fd, v->id, &v->eagains)) {
			v->stopped = true;
			break;
		}
		if (handle_vcpu_exit(v))
			break;
	}
	lock(v->lock);
	v->running = false;
	if (v->changed) {
		errno = pthread_cond_broadcast(v->changed);
		if (errno)
			err(1, "pthread_cond_broadcast");
	}
	if (v->leader)
		kick_vcpu(v->leader);
	unlock(v->lock);
	return NULL;
}

void start_vcpu(struct vcpu_thread *v)
{
	v->started = true;
	v->running = true;
	v->thread = start_thread(run_vcpu, v);
}

static const char *mp_state_name(unsigned int state)
{
	static const char * const names[] = {
		NAME(KVM_MP_STATE_RUNNABLE), NAME(KVM_MP_STATE_UNINITIALIZED),
		NAME(KVM_MP_STATE_INIT_RECEIVED), NAME(KVM_MP_STATE_HALTED),
		NAME(KVM_MP_STATE_SIPI_RECEIVED), NAME(KVM_MP_STATE_STOPPED),
		NAME(KVM_MP_STATE_CHECK_STOP), NAME(KVM_MP_STATE_OPERATING),
		NAME(KVM_MP_STATE_LOAD), NAME(KVM_MP_STATE_AP_RESET_HOLD),
		NAME(KVM_MP_STATE_SUSPENDED),
	};

	return lookup_name(names, ARRAY_SIZE(names), state);
}

void print_mp_state(const struct vcpu_thread *v)
{
	struct kvm_mp_state mp;

	kvm_ioctl(v->fd, KVM_GET_MP_STATE, &mp, "KVM_GET_MP_STATE");
	printf("vCPU %d is %s\n", v->id, mp_state_name(mp.mp_state));
	flush_stdout();
}

static const char * const compared_stats[] = {
	"io_exits", "signal_exits",
};
/* Wait until the guest is done, then stop every vCPU and wait for its thread. */
void stop_vcpus_when_done(struct smp_machine *sm)
{
	struct timespec limit;
	int i;

	if (clock_gettime(CLOCK_REALTIME, &limit) == -1)
		err(1, "clock_gettime");
	limit.tv_sec += RUN_TIMEOUT;
	lock(&sm->lock);
	while (!sm->m.done) {
		errno = pthread_cond_timedwait(&sm->changed, &sm->lock, &limit);
		if (errno == ETIMEDOUT)
			errx(1, "guest did not finish within %d s", RUN_TIMEOUT);
		if (errno)
			err(1, "pthread_cond_timedwait");
	}
	for (i = 0; i < NR_VCPUS; i++)
		if (sm->vcpus[i].running)
			kick_vcpu(&sm->vcpus[i]);
	unlock(&sm->lock);
	for (i = 0; i < NR_VCPUS; i++) {
		if (!sm->vcpus[i].started)
			continue;
		errno = pthread_join(sm->vcpus[i].thread, NULL);
		if (errno)
			err(1, "pthread_join");
	}
}

void print_vcpus(const struct smp_machine *sm)
{
	int i;

	for (i = 0; i < NR_VCPUS; i++) {
		const struct vcpu_thread *v = &sm->vcpus[i];

		printf("vCPU %d %s\n", v->id, v->stopped ? "stopped by the VMM" : "finished");
		print_count("exits to the VMM", v->exits);
		print_count("EAGAIN from KVM_RUN", v->eagains);
		print_vcpu_stats(v->fd, compared_stats, ARRAY_SIZE(compared_stats));
	}
}

