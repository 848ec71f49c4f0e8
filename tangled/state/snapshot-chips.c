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
/* snapshot-chips: stop a guest that counts timer ticks, save its VM with the
   in-kernel chips, destroy it and resume in another. */
#include <stdlib.h>
static const __u8 guest_code[] = {
	0xfa,					/* cli */
	0xbc, 0x00, 0x20,			/* mov $0x2000, %sp */
	0x0f, 0x01, 0x1e, 0x53, 0x10,		/* lidt 0x1053 */
	0xc7, 0x06, 0x80, 0x18, 0x4b, 0x10,	/* movw $0x104b, 0x1880 */
	0xc7, 0x06, 0x82, 0x18, 0x00, 0x00,	/* movw $0, 0x1882 */
	0xb0, 0x11,				/* mov $0x11, %al */
	0xe6, 0x20,				/* out %al, $0x20 */
	0xb0, 0x20,				/* mov $0x20, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x04,				/* mov $0x04, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x01,				/* mov $0x01, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0xfe,				/* mov $0xfe, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x34,				/* mov $0x34, %al */
	0xe6, 0x43,				/* out %al, $0x43 */
	0xb0, 0x9c,				/* mov $0x9c, %al */
	0xe6, 0x40,				/* out %al, $0x40 */
	0xb0, 0x2e,				/* mov $0x2e, %al */
	0xe6, 0x40,				/* out %al, $0x40 */
	0x31, 0xc9,				/* xor %cx, %cx */
	0xba, 0xf8, 0x03,			/* mov $0x3f8, %dx */
	0xfb,					/* sti */
	0xf4,					/* hlt */
	0xfa,					/* cli */
	0x88, 0xc8,				/* mov %cl, %al */
	0x04, '0',				/* add $'0', %al */
	0xee,					/* out %al, (%dx) */
	0xb0, '\n',				/* mov $'\n', %al */
	0xee,					/* out %al, (%dx) */
	0x83, 0xf9, 0x09,			/* cmp $9, %cx */
	0x72, 0xf0,				/* jb 0x103a */
	0xf4,					/* hlt */
	0x50,					/* push %ax */
	0x41,					/* inc %cx */
	0xb0, 0x20,				/* mov $0x20, %al */
	0xe6, 0x20,				/* out %al, $0x20 */
	0x58,					/* pop %ax */
	0xcf,					/* iret */
	0x83, 0x00, 0x00, 0x18, 0x00, 0x00,	/* limit 0x83, base 0x1800 */
};
#define STOP_AFTER	3	/* lines the guest prints before the snapshot */
#define LAST_LINE	9
/* Run the guest until its lines-th newline; false if it halted first. */
static bool run_lines(const struct vm *vm, unsigned int lines)
{
	const struct kvm_run *run = vm->run;
	unsigned int seen = 0;

	start_timer(vm->run);
	for (;;) {
		enter_guest(vm);
		if (respond_to_exit(run))
			return false;
		if (run->exit_reason == KVM_EXIT_IO &&
		    *((const char *)run + run->io.data_offset) == '\n' && ++seen == lines)
			break;
	}
	stop_timer();
	return true;
}

/* Let KVM complete the instruction behind the last exit, and run nothing more. */
static void complete_exit(struct vm *vm)
{
	vm->run->immediate_exit = 1;
	if (ioctl(vm->vcpu, KVM_RUN, 0) == 0 || errno != EINTR)
		err(1, "KVM_RUN with immediate_exit");
	vm->run->immediate_exit = 0;
}

/* Everything that makes up a VM with one vCPU. */
struct snapshot {
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	struct kvm_fpu fpu;
	struct kvm_msrs *msrs;		/* with msrs->nmsrs entries after it */
	struct kvm_vcpu_events events;
	struct kvm_mp_state mp_state;
	__u8 mem[GUEST_MEM_SIZE];
	struct kvm_irqchip pic[2];		/* the master and the slave PIC */
	struct kvm_irqchip ioapic;
	struct kvm_pit_state2 pit;
	struct kvm_lapic_state lapic;
};

/* MSRs every 64-bit x86 vCPU has, whatever its CPUID says. */
static const __u32 saved_msrs[] = {
	0x10,		/* IA32_TIME_STAMP_COUNTER */
	0x174,		/* IA32_SYSENTER_CS */
	0x175,		/* IA32_SYSENTER_ESP */
	0x176,		/* IA32_SYSENTER_EIP */
	0x277,		/* IA32_PAT */
	0xc0000081,	/* STAR */
	0xc0000082,	/* LSTAR */
	0xc0000083,	/* CSTAR */
	0xc0000084,	/* SFMASK */
	0xc0000102,	/* KERNEL_GS_BASE */
};
static void state_ioctl(int fd, unsigned long request, void *arg, const char *name)
{
	if (ioctl(fd, request, arg) == -1)
		err(1, "%s", name);
}

static void save_regs(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_GET_REGS, &s->regs, "KVM_GET_REGS");
}

static void restore_regs(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_SET_REGS, &s->regs, "KVM_SET_REGS");
}

static void save_sregs(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_GET_SREGS, &s->sregs, "KVM_GET_SREGS");
}

static void restore_sregs(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_SET_SREGS, &s->sregs, "KVM_SET_SREGS");
}

static void save_fpu(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_GET_FPU, &s->fpu, "KVM_GET_FPU");
}

static void restore_fpu(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_SET_FPU, &s->fpu, "KVM_SET_FPU");
}

static void save_events(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_GET_VCPU_EVENTS, &s->events, "KVM_GET_VCPU_EVENTS");
}

static void restore_events(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_SET_VCPU_EVENTS, &s->events, "KVM_SET_VCPU_EVENTS");
}

static void save_mp_state(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_GET_MP_STATE, &s->mp_state, "KVM_GET_MP_STATE");
}

static void restore_mp_state(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_SET_MP_STATE, &s->mp_state, "KVM_SET_MP_STATE");
}

static void save_memory(const struct vm *vm, struct snapshot *s)
{
	memcpy(s->mem, vm->mem, sizeof(s->mem));
}

static void restore_memory(const struct vm *vm, struct snapshot *s)
{
	memcpy(vm->mem, s->mem, sizeof(s->mem));
}

static void move_msrs(int vcpufd, unsigned long request, struct kvm_msrs *msrs,
		      const char *name)
{
	int n = ioctl(vcpufd, request, msrs);

	if (n == -1)
		err(1, "%s", name);
	if ((__u32)n != msrs->nmsrs)
		errx(1, "%s: MSR 0x%x not moved", name, msrs->entries[n].index);
}

static void save_msrs(const struct vm *vm, struct snapshot *s)
{
	size_t i;

	s->msrs = calloc(1, sizeof(*s->msrs) +
			 ARRAY_SIZE(saved_msrs) * sizeof(s->msrs->entries[0]));
	if (!s->msrs)
		err(1, "calloc");
	s->msrs->nmsrs = ARRAY_SIZE(saved_msrs);
	for (i = 0; i < ARRAY_SIZE(saved_msrs); i++)
		s->msrs->entries[i].index = saved_msrs[i];
	move_msrs(vm->vcpu, KVM_GET_MSRS, s->msrs, "KVM_GET_MSRS");
}

static void restore_msrs(const struct vm *vm, struct snapshot *s)
{
	move_msrs(vm->vcpu, KVM_SET_MSRS, s->msrs, "KVM_SET_MSRS");
}

static void save_pic(const struct vm *vm, struct snapshot *s)
{
	s->pic[0].chip_id = KVM_IRQCHIP_PIC_MASTER;
	s->pic[1].chip_id = KVM_IRQCHIP_PIC_SLAVE;
	state_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->pic[0], "KVM_GET_IRQCHIP master PIC");
	state_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->pic[1], "KVM_GET_IRQCHIP slave PIC");
}

static void restore_pic(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->fd, KVM_SET_IRQCHIP, &s->pic[0], "KVM_SET_IRQCHIP master PIC");
	state_ioctl(vm->fd, KVM_SET_IRQCHIP, &s->pic[1], "KVM_SET_IRQCHIP slave PIC");
}

static void save_ioapic(const struct vm *vm, struct snapshot *s)
{
	s->ioapic.chip_id = KVM_IRQCHIP_IOAPIC;
	state_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->ioapic, "KVM_GET_IRQCHIP I/O APIC");
}

static void restore_ioapic(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->fd, KVM_SET_IRQCHIP, &s->ioapic, "KVM_SET_IRQCHIP I/O APIC");
}

static void save_pit(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->fd, KVM_GET_PIT2, &s->pit, "KVM_GET_PIT2");
}

static void restore_pit(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->fd, KVM_SET_PIT2, &s->pit, "KVM_SET_PIT2");
}

static void save_lapic(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_GET_LAPIC, &s->lapic, "KVM_GET_LAPIC");
}

static void restore_lapic(const struct vm *vm, struct snapshot *s)
{
	state_ioctl(vm->vcpu, KVM_SET_LAPIC, &s->lapic, "KVM_SET_LAPIC");
}

/* One piece of a VM's state: how to save it and how to put it back. */
struct piece {
	const char *name;
	void (*save)(const struct vm *vm, struct snapshot *s);
	void (*restore)(const struct vm *vm, struct snapshot *s);
	bool chip;		/* only in a VM with in-kernel chips */
};

static const struct piece pieces[] = {
	{ "memory", save_memory, restore_memory, false },
	{ "pic", save_pic, restore_pic, true },
	{ "ioapic", save_ioapic, restore_ioapic, true },
	{ "pit", save_pit, restore_pit, true },
	{ "lapic", save_lapic, restore_lapic, true },
	{ "regs", save_regs, restore_regs, false },
	{ "fpu", save_fpu, restore_fpu, false },
	{ "sregs", save_sregs, restore_sregs, false },
	{ "msrs", save_msrs, restore_msrs, false },
	{ "events", save_events, restore_events, false },
	{ "mp_state", save_mp_state, restore_mp_state, false },
};

static void destroy_vm(struct vm *vm)
{
	int size = ioctl(vm->kvm, KVM_GET_VCPU_MMAP_SIZE, 0);

	if (size == -1)
		err(1, "KVM_GET_VCPU_MMAP_SIZE");
	if (munmap(vm->run, size) == -1 || munmap(vm->mem, GUEST_MEM_SIZE) == -1)
		err(1, "munmap");
	if (close(vm->vcpu) == -1 || close(vm->fd) == -1 || close(vm->kvm) == -1)
		err(1, "close");
}

static void create_irqchip_and_pit(int vmfd)
{
	struct kvm_pit_config pit = { .flags = 0 };

	if (ioctl(vmfd, KVM_CREATE_IRQCHIP, 0) == -1)
		err(1, "KVM_CREATE_IRQCHIP");
	if (ioctl(vmfd, KVM_CREATE_PIT2, &pit) == -1)
		err(1, "KVM_CREATE_PIT2");
}

/* A VM as KVM makes it, with in-kernel chips or without, and no guest. */
static void create_empty_vm(struct vm *vm, bool chips)
{
	vm->kvm = open_kvm();
	vm->fd = create_vm(vm->kvm);
	vm->mem = add_guest_memory(vm->fd);	/* zeros */
	if (chips)
		create_irqchip_and_pit(vm->fd);
	vm->vcpu = create_vcpu(vm->fd);		/* as after a reset */
	vm->run = map_run(vm->kvm, vm->vcpu);
}

/* A new VM with the snapshot's state, but for the piece named skip. */
static void restore_vm(struct vm *vm, struct snapshot *s, const char *skip, bool chips)
{
	size_t i;

	create_empty_vm(vm, chips);
	for (i = 0; i < ARRAY_SIZE(pieces); i++)
		if ((chips || !pieces[i].chip) && strcmp(pieces[i].name, skip))
			pieces[i].restore(vm, s);
}

static void take_snapshot(const struct vm *vm, struct snapshot *s, bool chips)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pieces); i++)
		if (chips || !pieces[i].chip)
			pieces[i].save(vm, s);
}

/* Stop the guest at its third line and move it into a new VM, all but skip. */
static void snapshot_and_restore(struct vm *vm, const char *skip, bool chips)
{
	static struct snapshot snapshot;

	check_extension(vm->kvm, KVM_CAP_VCPU_EVENTS, "KVM_CAP_VCPU_EVENTS");
	check_extension(vm->kvm, KVM_CAP_MP_STATE, "KVM_CAP_MP_STATE");
	if (!run_lines(vm, STOP_AFTER))
		errx(1, "the guest halted before line %d", STOP_AFTER);
	if (strcmp(skip, "completion"))
		complete_exit(vm);
	take_snapshot(vm, &snapshot, chips);
	destroy_vm(vm);
	printf("-- snapshot taken, VM destroyed; restoring %s%s\n",
	       *skip ? "all but " : "all", skip);
	flush_stdout();
	restore_vm(vm, &snapshot, skip, chips);
}

int main(int argc, char **argv)
{
	struct vm vm;

	create_machine(&vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(vm.fd);
	add_vcpu(&vm);
	snapshot_and_restore(&vm, argc > 1 ? argv[1] : "", true);
	run_lines(&vm, LAST_LINE - STOP_AFTER);
	return 0;
}
