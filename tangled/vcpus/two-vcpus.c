// SPDX-License-Identifier: GPL-2.0 OR MIT
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/kvm.h>
#define GUEST_ADDR	0x1000	/* guest-physical address of the code */
#define SERIAL_PORT	0x3f8	/* COM1, the PC's first serial port */
#define GUEST_MEM_SIZE	0x1000	/* one page */
#define RUN_TIMEOUT	3	/* seconds the guest gets to halt */
static int open_kvm(void)
{
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (kvm == -1)
		err(1, "/dev/kvm");
	return kvm;
}

static void check_api_version(int kvm)
{
	int version = ioctl(kvm, KVM_GET_API_VERSION, 0);

	if (version == -1)
		err(1, "KVM_GET_API_VERSION");
	if (version != KVM_API_VERSION)
		errx(1, "KVM_GET_API_VERSION %d, expected %d", version, KVM_API_VERSION);
}

static void check_extension(int kvm, int cap, const char *name)
{
	int ret = ioctl(kvm, KVM_CHECK_EXTENSION, cap);

	if (ret == -1)
		err(1, "KVM_CHECK_EXTENSION %s", name);
	if (!ret)
		errx(1, "KVM lacks %s", name);
}

static int create_vm(int kvm)
{
	int fd = ioctl(kvm, KVM_CREATE_VM, 0UL);

	if (fd == -1)
		err(1, "KVM_CREATE_VM");
	return fd;
}

static void *add_guest_memory(int vmfd)
{
	struct kvm_userspace_memory_region region;
	void *mem = mmap(NULL, GUEST_MEM_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		err(1, "mmap guest memory");
	region = (struct kvm_userspace_memory_region) {
		.slot = 0,
		.guest_phys_addr = GUEST_ADDR,
		.memory_size = GUEST_MEM_SIZE,
		.userspace_addr = (unsigned long)mem,
	};
	if (ioctl(vmfd, KVM_SET_USER_MEMORY_REGION, &region) == -1)
		err(1, "KVM_SET_USER_MEMORY_REGION");
	return mem;
}

static void load_code(void *mem, const __u8 *code, size_t size)
{
	if (size > GUEST_MEM_SIZE)
		errx(1, "%zu bytes of guest code do not fit in %d", size, GUEST_MEM_SIZE);
	memcpy(mem, code, size);
}

static int create_vcpu(int vmfd)
{
	int fd = ioctl(vmfd, KVM_CREATE_VCPU, 0UL);

	if (fd == -1)
		err(1, "KVM_CREATE_VCPU");
	return fd;
}

static struct kvm_run *map_run(int kvm, int vcpufd)
{
	int size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	struct kvm_run *run;

	if (size == -1)
		err(1, "KVM_GET_VCPU_MMAP_SIZE");
	if ((size_t)size < sizeof(*run))
		errx(1, "KVM_GET_VCPU_MMAP_SIZE %d, smaller than struct kvm_run", size);
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpufd, 0);
	if (run == MAP_FAILED)
		err(1, "mmap struct kvm_run");
	return run;
}

static void set_special_registers(int vcpufd)
{
	struct kvm_sregs sregs;

	if (ioctl(vcpufd, KVM_GET_SREGS, &sregs) == -1)
		err(1, "KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpufd, KVM_SET_SREGS, &sregs) == -1)
		err(1, "KVM_SET_SREGS");
}

static void set_registers(int vcpufd)
{
	struct kvm_regs regs = {
		.rip = GUEST_ADDR,
		.rax = 2,
		.rbx = 2,
		.rflags = 0x2,	/* bit 1 is reserved and always 1 */
	};

	if (ioctl(vcpufd, KVM_SET_REGS, &regs) == -1)
		err(1, "KVM_SET_REGS");
}

/* What a VMM keeps for a VM with one vCPU. */
struct vm {
	int kvm;		/* /dev/kvm: system ioctls */
	int fd;			/* the VM: its memory and its vCPUs */
	int vcpu;		/* the vCPU: its registers, KVM_RUN */
	void *mem;		/* the guest's memory, as this process sees it */
	struct kvm_run *run;	/* shared with the kernel: why KVM_RUN returned */
};

/* The VM, its memory and the guest's code in it: everything but the vCPU. */
static void create_machine(struct vm *vm, const __u8 *code, size_t size)
{
	vm->kvm = open_kvm();
	check_api_version(vm->kvm);
	check_extension(vm->kvm, KVM_CAP_USER_MEMORY, "KVM_CAP_USER_MEMORY");
	check_extension(vm->kvm, KVM_CAP_IMMEDIATE_EXIT, "KVM_CAP_IMMEDIATE_EXIT");
	vm->fd = create_vm(vm->kvm);
	vm->mem = add_guest_memory(vm->fd);
	load_code(vm->mem, code, size);
}

/* The vCPU, with its run structure mapped and its registers set. */
static void add_vcpu(struct vm *vm)
{
	vm->vcpu = create_vcpu(vm->fd);
	vm->run = map_run(vm->kvm, vm->vcpu);
	set_special_registers(vm->vcpu);
	set_registers(vm->vcpu);
}

static void set_up_vm(struct vm *vm, const __u8 *code, size_t size)
{
	create_machine(vm, code, size);
	add_vcpu(vm);
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Put each name at its own number; numbers nobody defined stay NULL. */
#define NAME(value) \
	[value] = #value

static const char *lookup_name(const char * const *names, size_t count, unsigned int value)
{
	if (value < count && names[value])
		return names[value];
	return "unknown";
}

static const char *exit_reason_name(unsigned int reason)
{
	static const char * const names[] = {
		NAME(KVM_EXIT_UNKNOWN), NAME(KVM_EXIT_EXCEPTION), NAME(KVM_EXIT_IO),
		NAME(KVM_EXIT_HYPERCALL), NAME(KVM_EXIT_DEBUG), NAME(KVM_EXIT_HLT),
		NAME(KVM_EXIT_MMIO), NAME(KVM_EXIT_IRQ_WINDOW_OPEN), NAME(KVM_EXIT_SHUTDOWN),
		NAME(KVM_EXIT_FAIL_ENTRY), NAME(KVM_EXIT_INTR), NAME(KVM_EXIT_SET_TPR),
		NAME(KVM_EXIT_TPR_ACCESS), NAME(KVM_EXIT_S390_SIEIC), NAME(KVM_EXIT_S390_RESET),
		NAME(KVM_EXIT_DCR), NAME(KVM_EXIT_NMI), NAME(KVM_EXIT_INTERNAL_ERROR),
		NAME(KVM_EXIT_OSI), NAME(KVM_EXIT_PAPR_HCALL), NAME(KVM_EXIT_S390_UCONTROL),
		NAME(KVM_EXIT_WATCHDOG), NAME(KVM_EXIT_S390_TSCH), NAME(KVM_EXIT_EPR),
		NAME(KVM_EXIT_SYSTEM_EVENT), NAME(KVM_EXIT_S390_STSI), NAME(KVM_EXIT_IOAPIC_EOI),
		NAME(KVM_EXIT_HYPERV), NAME(KVM_EXIT_ARM_NISV), NAME(KVM_EXIT_X86_RDMSR),
		NAME(KVM_EXIT_X86_WRMSR), NAME(KVM_EXIT_DIRTY_RING_FULL),
		NAME(KVM_EXIT_AP_RESET_HOLD), NAME(KVM_EXIT_X86_BUS_LOCK), NAME(KVM_EXIT_XEN),
		NAME(KVM_EXIT_RISCV_SBI), NAME(KVM_EXIT_RISCV_CSR), NAME(KVM_EXIT_NOTIFY),
	};

	return lookup_name(names, ARRAY_SIZE(names), reason);
}

/* Write out what stdout holds, so that it keeps its order with stderr. */
static void flush_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
}

static void handle_io(const struct kvm_run *run)
{
	const char *data = (const char *)run + run->io.data_offset;

	if (run->io.direction != KVM_EXIT_IO_OUT || run->io.size != 1 ||
	    run->io.port != SERIAL_PORT || run->io.count != 1)
		errx(1, "KVM_EXIT_IO: unhandled %s of %u x %u bytes at port 0x%x",
		     run->io.direction == KVM_EXIT_IO_OUT ? "out" : "in",
		     run->io.count, run->io.size, run->io.port);
	putchar(*data);
	flush_stdout();
}

static void report_fail_entry(const struct kvm_run *run)
{
	errx(1, "KVM_EXIT_FAIL_ENTRY: hardware_entry_failure_reason 0x%llx on cpu %u",
	     (unsigned long long)run->fail_entry.hardware_entry_failure_reason,
	     run->fail_entry.cpu);
}

static const char *suberror_name(unsigned int suberror)
{
	static const char * const names[] = {
		NAME(KVM_INTERNAL_ERROR_EMULATION), NAME(KVM_INTERNAL_ERROR_SIMUL_EX),
		NAME(KVM_INTERNAL_ERROR_DELIVERY_EV),
		NAME(KVM_INTERNAL_ERROR_UNEXPECTED_EXIT_REASON),
	};

	return lookup_name(names, ARRAY_SIZE(names), suberror);
}

static void report_internal_error(const struct kvm_run *run)
{
	char words[ARRAY_SIZE(run->internal.data) * sizeof(" 0x0123456789abcdef")] = "";
	unsigned int i, len = 0;

	for (i = 0; i < run->internal.ndata && i < ARRAY_SIZE(run->internal.data); i++)
		len += snprintf(words + len, sizeof(words) - len, " 0x%llx",
				(unsigned long long)run->internal.data[i]);
	errx(1, "KVM_EXIT_INTERNAL_ERROR: suberror %s (%u), ndata %u:%s",
	     suberror_name(run->internal.suberror), run->internal.suberror,
	     run->internal.ndata, words);
}

static void report_mmio(const struct kvm_run *run)
{
	char data[sizeof(run->mmio.data) * sizeof(" 00")] = "";
	unsigned int i;

	for (i = 0; run->mmio.is_write && i < run->mmio.len && i < sizeof(run->mmio.data); i++)
		snprintf(data + 3 * i, sizeof(data) - 3 * i, " %02x", run->mmio.data[i]);
	errx(1, "KVM_EXIT_MMIO: unhandled %s at 0x%llx, len %u%s%s",
	     run->mmio.is_write ? "write" : "read",
	     (unsigned long long)run->mmio.phys_addr, run->mmio.len,
	     run->mmio.is_write ? ", data" : "", data);
}

/* A signal handler reaches only globals: the run structure the timer stops. */
static struct kvm_run *timed_run;

static void stop_guest(int signal)
{
	(void)signal;
	timed_run->immediate_exit = 1;
}

static void start_timer(struct kvm_run *run)
{
	struct sigaction action = { .sa_handler = stop_guest };	/* no SA_RESTART */
	struct itimerval timer = { .it_value.tv_sec = RUN_TIMEOUT };

	timed_run = run;
	if (sigaction(SIGALRM, &action, NULL) == -1)
		err(1, "sigaction SIGALRM");
	if (setitimer(ITIMER_REAL, &timer, NULL) == -1)
		err(1, "setitimer");
}

/* Disarm the timer, so that a program going on after the run is not interrupted. */
static void stop_timer(void)
{
	struct itimerval off = { 0 };

	if (setitimer(ITIMER_REAL, &off, NULL) == -1)
		err(1, "setitimer");
}

static void enter_guest(const struct vm *vm)
{
	if (ioctl(vm->vcpu, KVM_RUN, 0) == -1) {
		if (errno == EINTR)
			errx(1, "guest did not halt within %d s", RUN_TIMEOUT);
		err(1, "KVM_RUN");
	}
}

/* Handle the exit that ended KVM_RUN; true when the guest halted. */
static bool respond_to_exit(const struct kvm_run *run)
{
	switch (run->exit_reason) {
	case KVM_EXIT_HLT:
		stop_timer();
		puts("KVM_EXIT_HLT");
		flush_stdout();
		return true;
	case KVM_EXIT_IO:
		handle_io(run);
		break;
	case KVM_EXIT_FAIL_ENTRY:
		report_fail_entry(run);
		break;
	case KVM_EXIT_INTERNAL_ERROR:
		report_internal_error(run);
		break;
	case KVM_EXIT_MMIO:
		report_mmio(run);
		break;
	default:
		errx(1, "unexpected exit %s (%u)",
		     exit_reason_name(run->exit_reason), run->exit_reason);
	}
	return false;
}

static void run_until_halt(const struct vm *vm)
{
	start_timer(vm->run);
	for (;;) {
		enter_guest(vm);
		if (respond_to_exit(vm->run))
			return;
	}
}

/* This program runs the guest with a loop of its own, not Part I's. */
static void run_until_halt(const struct vm *vm) __attribute__((unused));
/* This program builds the VM in Part I's two halves, with something between. */
static void set_up_vm(struct vm *vm, const __u8 *code, size_t size) __attribute__((unused));

/* A device as the bus sees it: a window and the two calls it answers. */
struct device {
	__u64 base;			/* first address of its window */
	__u64 size;			/* bytes in the window */
	void *state;			/* what read and write are given */
	__u8 (*read)(void *state, __u64 offset);
	void (*write)(void *state, __u64 offset, __u8 value);
	const char *name;		/* for the VMM's reports */
};

struct bus {
	const struct device *devices;
	size_t count;
};

/* The device whose window holds all len bytes at addr, or NULL. */
static const struct device *find_device(const struct bus *bus, __u64 addr, __u32 len)
{
	size_t i;

	for (i = 0; i < bus->count; i++) {
		const struct device *dev = &bus->devices[i];

		if (addr >= dev->base && addr - dev->base < dev->size &&
		    len <= dev->size - (addr - dev->base))
			return dev;
	}
	return NULL;
}

/* Give len bytes at offset to dev, or fill them from it: one call a byte. */
static void access_device(const struct device *dev, __u64 offset, __u32 len,
			  bool write, __u8 *data)
{
	__u32 i;

	for (i = 0; i < len; i++) {
		if (write)
			dev->write(dev->state, offset + i, data[i]);
		else
			data[i] = dev->read(dev->state, offset + i);
	}
}

/* Give an MMIO exit to its device, and return it; NULL when none has the address. */
static const struct device *bus_mmio(const struct bus *bus, struct kvm_run *run)
{
	const struct device *dev = find_device(bus, run->mmio.phys_addr, run->mmio.len);

	if (!dev || run->mmio.len > sizeof(run->mmio.data))
		return NULL;
	access_device(dev, run->mmio.phys_addr - dev->base, run->mmio.len,
		      run->mmio.is_write, run->mmio.data);
	return dev;
}

/* Give a port exit to its device, and return it; NULL when none has the port. */
static const struct device *bus_pio(const struct bus *bus, struct kvm_run *run)
{
	const struct device *dev = run->io.count == 1 ?
		find_device(bus, run->io.port, run->io.size) : NULL;

	if (!dev)
		return NULL;
	access_device(dev, run->io.port - dev->base, run->io.size,
		      run->io.direction == KVM_EXIT_IO_OUT,
		      (__u8 *)run + run->io.data_offset);
	return dev;
}

#define MAX_DEVICES	8	/* on a bus, for the counts by device */

struct machine {
	struct vm vm;
	struct bus mmio;			/* devices by guest-physical address */
	struct bus pio;				/* devices by port */
	unsigned long exits;			/* times KVM_RUN returned to the VMM */
	unsigned long by_address[MAX_DEVICES];	/* MMIO exits, by device */
	unsigned long by_port[MAX_DEVICES];	/* port exits, by device */
	bool done;				/* set by a device when the guest has finished */
};

/* Give the exit in run to its bus, or to Part I's handlers; true when the guest is done. */
static bool dispatch_exit(struct machine *m, struct kvm_run *run)
{
	const struct device *dev;

	if (run->exit_reason == KVM_EXIT_MMIO && (dev = bus_mmio(&m->mmio, run))) {
		m->by_address[dev - m->mmio.devices]++;
		return m->done;
	}
	if (run->exit_reason == KVM_EXIT_IO && (dev = bus_pio(&m->pio, run))) {
		m->by_port[dev - m->pio.devices]++;
		return m->done;
	}
	return respond_to_exit(run);
}

/* Handle the exit that ended KVM_RUN; true when the guest is done. */
static bool handle_exit(struct machine *m)
{
	m->exits++;
	return dispatch_exit(m, m->vm.run);
}

static void run_machine(struct machine *m)
{
	start_timer(m->vm.run);
	do
		enter_guest(&m->vm);
	while (!handle_exit(m));
	stop_timer();
}

static void print_count(const char *name, unsigned long value)
{
	printf("%-20s %lu\n", name, value);
}

/* These programs run their vCPUs in threads of their own, not with run_machine. */
static void run_machine(struct machine *m) __attribute__((unused));
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#define DONE_PORT	0xf4	/* write: the guest has finished */
static __u8 done_read(void *state, __u64 offset)
{
	(void)state;
	(void)offset;
	return 0;
}

static void done_write(void *state, __u64 offset, __u8 value)
{
	bool *done = state;

	(void)offset;
	(void)value;
	*done = true;
}

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
static void read_at(int fd, void *buf, size_t size, off_t offset, const char *what)
{
	ssize_t n = pread(fd, buf, size, offset);

	if (n == -1)
		err(1, "read %s", what);
	if ((size_t)n != size)
		errx(1, "read %s: %zd bytes, expected %zu", what, n, size);
}

/* The offset, in the data block, of the statistic called name. */
static __u32 stat_offset(const char *descs, const struct kvm_stats_header *header,
			 const char *name)
{
	size_t desc_size = sizeof(struct kvm_stats_desc) + header->name_size;
	__u32 i;

	for (i = 0; i < header->num_desc; i++) {
		const struct kvm_stats_desc *desc = (const void *)(descs + i * desc_size);

		if (!strcmp(desc->name, name))
			return desc->offset;
	}
	errx(1, "KVM_GET_STATS_FD: no vCPU statistic named %s", name);
}

static void print_vcpu_stats(int vcpufd)
{
	struct kvm_stats_header header;
	size_t descs_size, i;
	char *descs;
	int fd = ioctl(vcpufd, KVM_GET_STATS_FD, 0);

	if (fd == -1)
		err(1, "KVM_GET_STATS_FD");
	read_at(fd, &header, sizeof(header), 0, "statistics header");
	descs_size = (sizeof(struct kvm_stats_desc) + header.name_size) * header.num_desc;
	descs = malloc(descs_size);
	if (!descs)
		err(1, "malloc");
	read_at(fd, descs, descs_size, header.desc_offset, "statistics descriptors");
	for (i = 0; i < ARRAY_SIZE(compared_stats); i++) {
		__u64 value;

		read_at(fd, &value, sizeof(value),
			header.data_offset + stat_offset(descs, &header, compared_stats[i]),
			compared_stats[i]);
		printf("%-20s %llu\n", compared_stats[i], (unsigned long long)value);
	}
	free(descs);
	close(fd);
}

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
		print_vcpu_stats(v->fd);
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
