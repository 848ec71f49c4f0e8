/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* vcpus.h: vCPUs in threads of their own, and how the VMM stops them. */
#ifndef VCPUS_H
#define VCPUS_H
#include <pthread.h>
#include "machine.h"
#define NR_VCPUS	2

/* A vCPU, and what its thread and the VMM know of it. */
struct vcpu_thread {
	struct machine *m;		/* the machine whose exits it handles */
	pthread_mutex_t *lock;		/* held while it handles one */
	pthread_cond_t *changed;	/* signalled when its loop ends */
	const struct vcpu_thread *leader;	/* kicked when its loop ends; NULL: none */
	int id;
	int fd;
	struct kvm_run *run;
	pthread_t thread;
	bool started;		/* its thread has been created */
	bool running;		/* its thread is in its run loop */
	bool stopped;		/* the VMM stopped it: KVM_RUN failed with EINTR */
	unsigned long exits;	/* times KVM_RUN returned to its thread */
	unsigned long eagains;	/* times KVM_RUN failed with EAGAIN */
};

/* Part III's machine, its vCPUs, and the lock they take to reach a device. */
struct smp_machine {
	struct machine m;	/* memory, buses, done; m.vm holds vCPU 0 */
	struct vcpu_thread vcpus[NR_VCPUS];
	pthread_mutex_t lock;	/* held while a vCPU's exit is handled */
	pthread_cond_t changed;	/* signalled when a vCPU's run loop ends */
};

void lock(pthread_mutex_t *mutex);
void unlock(pthread_mutex_t *mutex);
int create_vcpu_with_id(int vmfd, int id);
void add_vcpus(struct smp_machine *sm);
bool enter_vcpu(int fd, int id, unsigned long *eagains);
void set_entry(int vcpufd, __u64 rip, __u64 rbx);
void install_kick(void);
void kick_vcpu(const struct vcpu_thread *v);
void run_vcpu_here(struct vcpu_thread *v);
void start_vcpu(struct vcpu_thread *v);
void stop_vcpus_when_done(struct smp_machine *sm);
void print_vcpus(const struct smp_machine *sm);
void print_mp_state(const struct vcpu_thread *v);
#endif
