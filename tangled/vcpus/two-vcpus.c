// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#define KICK_SIGNAL	SIGUSR1

/* The run structure of the vCPU this thread runs, for the signal's handler. */
static __thread struct kvm_run *own_run;

static void kick(int signal)
{
	(void)signal;
	own_run->immediate_exit = 1;
}

static void install_kick(void)
{
	struct sigaction action = { .sa_handler = kick };	/* no SA_RESTART */

	if (sigaction(KICK_SIGNAL, &action, NULL) == -1)
		err(1, "sigaction");
}

#define NR_VCPUS	2

struct smp_machine;

/* A vCPU, and what its thread and the VMM know of it. */
struct vcpu_thread {
	struct smp_machine *sm;
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

static void lock_machine(struct smp_machine *sm)
{
	errno = pthread_mutex_lock(&sm->lock);
	if (errno)
		err(1, "pthread_mutex_lock");
}

static void unlock_machine(struct smp_machine *sm)
{
	errno = pthread_mutex_unlock(&sm->lock);
	if (errno)
		err(1, "pthread_mutex_unlock");
}

static int create_vcpu_with_id(int vmfd, int id)
{
	int fd = ioctl(vmfd, KVM_CREATE_VCPU, (unsigned long)id);

	if (fd == -1)
		err(1, "KVM_CREATE_VCPU %d", id);
	return fd;
}

/* vCPU 0 as Part I makes it, and the others with their ids; registers unset. */
static void add_vcpus(struct smp_machine *sm)
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
	sm->vcpus[0] = (struct vcpu_thread) { .sm = sm, .id = 0, .fd = vm->vcpu, .run = vm->run };
	for (i = 1; i < NR_VCPUS; i++) {
		int fd = create_vcpu_with_id(vm->fd, i);

		sm->vcpus[i] = (struct vcpu_thread) {
			.sm = sm, .id = i, .fd = fd, .run = map_run(vm->kvm, fd),
		};
	}
}

/* Start the vCPU at rip, with rbx in RBX; the rest as Part I set it. */
static void set_entry(int vcpufd, __u64 rip, __u64 rbx)
{
	struct kvm_regs regs;

	if (ioctl(vcpufd, KVM_GET_REGS, &regs) == -1)
		err(1, "KVM_GET_REGS");
	regs.rip = rip;
	regs.rbx = rbx;
	if (ioctl(vcpufd, KVM_SET_REGS, &regs) == -1)
		err(1, "KVM_SET_REGS");
}

/* Handle the exit that ended this vCPU's KVM_RUN; true when the guest is done. */
static bool handle_vcpu_exit(struct vcpu_thread *v)
{
	bool done;

	lock_machine(v->sm);
	v->exits++;
	done = dispatch_exit(&v->sm->m, v->run);
	unlock_machine(v->sm);
	return done;
}

static void *run_vcpu(void *arg)
{
	struct vcpu_thread *v = arg;

	own_run = v->run;
	for (;;) {
		if (ioctl(v->fd, KVM_RUN, 0) == -1) {
			if (errno == EAGAIN) {
				v->eagains++;
				continue;
			}
			if (errno != EINTR)
				err(1, "KVM_RUN on vCPU %d", v->id);
			v->stopped = true;
			break;
		}
		if (handle_vcpu_exit(v))
			break;
	}
	lock_machine(v->sm);
	v->running = false;
	errno = pthread_cond_broadcast(&v->sm->changed);
	if (errno)
		err(1, "pthread_cond_broadcast");
	unlock_machine(v->sm);
	return NULL;
}

static void start_vcpu(struct vcpu_thread *v)
{
	v->started = true;
	v->running = true;
	errno = pthread_create(&v->thread, NULL, run_vcpu, v);
	if (errno)
		err(1, "pthread_create");
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

static void print_mp_state(const struct vcpu_thread *v)
{
	struct kvm_mp_state mp;

	if (ioctl(v->fd, KVM_GET_MP_STATE, &mp) == -1)
		err(1, "KVM_GET_MP_STATE");
	printf("vCPU %d is %s\n", v->id, mp_state_name(mp.mp_state));
	flush_stdout();
}

static const char * const compared_stats[] = {
	"io_exits", "signal_exits",
};
/* Wait until the guest is done, then stop every vCPU and wait for its thread. */
static void stop_vcpus_when_done(struct smp_machine *sm)
{
	struct timespec limit;
	int i;

	if (clock_gettime(CLOCK_REALTIME, &limit) == -1)
		err(1, "clock_gettime");
	limit.tv_sec += RUN_TIMEOUT;
	lock_machine(sm);
	while (!sm->m.done) {
		errno = pthread_cond_timedwait(&sm->changed, &sm->lock, &limit);
		if (errno == ETIMEDOUT)
			errx(1, "guest did not finish within %d s", RUN_TIMEOUT);
		if (errno)
			err(1, "pthread_cond_timedwait");
	}
	for (i = 0; i < NR_VCPUS; i++) {
		if (!sm->vcpus[i].running)
			continue;
		errno = pthread_kill(sm->vcpus[i].thread, KICK_SIGNAL);
		if (errno)
			err(1, "pthread_kill");
	}
	unlock_machine(sm);
	for (i = 0; i < NR_VCPUS; i++) {
		if (!sm->vcpus[i].started)
			continue;
		errno = pthread_join(sm->vcpus[i].thread, NULL);
		if (errno)
			err(1, "pthread_join");
	}
}

static void print_vcpus(const struct smp_machine *sm)
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

/* two-vcpus: two vCPUs, two threads, an order kept through shared memory. */
#define LOCKED_COUNTER		0x1f00	/* guest-physical: the locked counter */
#define UNLOCKED_COUNTER	0x1f04	/* and the unlocked one */
static __u32 guest_u32(const struct vm *vm, __u64 addr)
{
	__u32 value;

	memcpy(&value, (const char *)vm->mem + (addr - GUEST_ADDR), sizeof(value));
	return value;
}

static const __u8 guest_code[] = {
	0x66, 0xb9, 0xa0, 0x86, 0x01, 0x00,		/* mov $100000, %ecx */
	0x66, 0xb8, 0x01, 0x00, 0x00, 0x00,		/* mov $1, %eax */
	0x66, 0xf0, 0x0f, 0xc1, 0x06, 0x00, 0x1f,	/* lock xadd %eax, 0x1f00 */
	0x66, 0xb8, 0x01, 0x00, 0x00, 0x00,		/* mov $1, %eax */
	0x66, 0x0f, 0xc1, 0x06, 0x04, 0x1f,		/* xadd %eax, 0x1f04 */
	0x66, 0x49,					/* dec %ecx */
	0x75, 0xe3,					/* jnz 0x1006 */
	0xf3, 0x90,					/* pause */
	0x38, 0x1e, 0x08, 0x1f,				/* cmp %bl, 0x1f08 */
	0x75, 0xf8,					/* jne 0x1023 */
	0xba, 0xf8, 0x03,				/* mov $0x3f8, %dx */
	0xbe, 0x4f, 0x10,				/* mov $0x104f, %si */
	0xac,						/* lodsb */
	0x84, 0xc0,					/* test %al, %al */
	0x74, 0x03,					/* jz 0x1039 */
	0xee,						/* out %al, (%dx) */
	0xeb, 0xf8,					/* jmp 0x1031 */
	0x88, 0xd8,					/* mov %bl, %al */
	0x04, '0',					/* add $'0', %al */
	0xee,						/* out %al, (%dx) */
	0xb0, '\n',					/* mov $'\n', %al */
	0xee,						/* out %al, (%dx) */
	0xfe, 0x06, 0x08, 0x1f,				/* incb 0x1f08 */
	0x84, 0xdb,					/* test %bl, %bl */
	0x75, 0x04,					/* jnz 0x104d */
	0xf3, 0x90,					/* pause */
	0xeb, 0xfc,					/* jmp 0x1049 */
	0xe6, 0xf4,					/* out %al, $0xf4 */
	'h', 'e', 'l', 'l', 'o', ' ', 'f', 'r', 'o', 'm', ' ',	/* .asciz */
	'v', 'C', 'P', 'U', ' ', 0,
};
int main(void)
{
	static struct smp_machine sm;
	const struct device pio_devices[] = {
		{ DONE_PORT, 1, &sm.m.done, done_read, done_write, "done" },
	};
	int i;

	sm.m.pio = (struct bus) { pio_devices, ARRAY_SIZE(pio_devices) };
	create_machine(&sm.m.vm, guest_code, sizeof(guest_code));
	check_extension(sm.m.vm.kvm, KVM_CAP_MP_STATE, "KVM_CAP_MP_STATE");
	add_vcpus(&sm);
	for (i = 0; i < NR_VCPUS; i++) {
		if (i > 0) {
			set_special_registers(sm.vcpus[i].fd);
			set_registers(sm.vcpus[i].fd);
		}
		set_entry(sm.vcpus[i].fd, GUEST_ADDR, i);
		print_mp_state(&sm.vcpus[i]);
	}
	install_kick();
	for (i = 0; i < NR_VCPUS; i++)
		start_vcpu(&sm.vcpus[i]);
	stop_vcpus_when_done(&sm);
	print_count("locked total", guest_u32(&sm.m.vm, LOCKED_COUNTER));
	print_count("unlocked total", guest_u32(&sm.m.vm, UNLOCKED_COUNTER));
	print_vcpus(&sm);
	return 0;
}
