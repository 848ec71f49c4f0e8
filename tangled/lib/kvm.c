// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* kvm.c: Part I's VMM, the functions every later program builds on. */
#include "kvm.h"

/* Part I's functions, static in kvmtest.c, are the library's here. */
#define static
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
	vm->mem_base = GUEST_ADDR;
	vm->mem_size = GUEST_MEM_SIZE;
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

#undef static
/* The ioctl's result; its failure ends the program, naming the request. */
int kvm_ioctl(int fd, unsigned long request, void *arg, const char *name)
{
	int ret = ioctl(fd, request, arg);

	if (ret == -1)
		err(1, "%s", name);
	return ret;
}

/* This process's pointer to len bytes at guest-physical gpa, or NULL if not all are there. */
void *guest_ptr(const struct vm *vm, __u64 gpa, __u64 len)
{
	__u64 offset = gpa - vm->mem_base;

	if (gpa < vm->mem_base || offset > vm->mem_size || len > vm->mem_size - offset)
		return NULL;
	return (char *)vm->mem + offset;
}

/* Make size bytes at mem the guest's at gpa, as slot; for a slot made, change its flags. */
void set_memory_slot(int vmfd, __u32 slot, __u64 gpa, __u64 size, void *mem, __u32 flags)
{
	struct kvm_userspace_memory_region region = {
		.slot = slot, .flags = flags, .guest_phys_addr = gpa,
		.memory_size = size, .userspace_addr = (unsigned long)mem,
	};

	if (ioctl(vmfd, KVM_SET_USER_MEMORY_REGION, &region) == -1)
		err(1, "KVM_SET_USER_MEMORY_REGION slot %u", slot);
}

/* size bytes of new memory, zeros, made the guest's at gpa as slot: where they are here. */
void *add_memory_slot(int vmfd, __u32 slot, __u64 gpa, __u64 size, __u32 flags)
{
	void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (mem == MAP_FAILED)
		err(1, "mmap slot %u", slot);
	set_memory_slot(vmfd, slot, gpa, size, mem, flags);
	return mem;
}

/* Part I's VM with the guest's code, changed by change before its first KVM_RUN. */
void run_with_change(const __u8 *code, size_t size, void (*change)(struct vm *vm))
{
	struct vm vm;

	set_up_vm(&vm, code, size);
	change(&vm);
	run_until_halt(&vm);
}

void get_sregs(int vcpufd, struct kvm_sregs *sregs)
{
	kvm_ioctl(vcpufd, KVM_GET_SREGS, sregs, "KVM_GET_SREGS");
}

void set_sregs(int vcpufd, const struct kvm_sregs *sregs)
{
	kvm_ioctl(vcpufd, KVM_SET_SREGS, (void *)sregs, "KVM_SET_SREGS");
}

