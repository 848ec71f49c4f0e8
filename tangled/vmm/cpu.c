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

/* KVM_GET_SUPPORTED_CPUID's table, in a buffer doubled until it fits. */
static struct kvm_cpuid2 *get_supported_cpuid(int kvm)
{
	__u32 nent;

	for (nent = 8; nent <= 4096; nent *= 2) {
		struct kvm_cpuid2 *cpuid = calloc(1, sizeof(*cpuid) +
						  nent * sizeof(cpuid->entries[0]));

		if (!cpuid)
			err(1, "calloc");
		cpuid->nent = nent;
		if (ioctl(kvm, KVM_GET_SUPPORTED_CPUID, cpuid) == 0)
			return cpuid;
		if (errno != E2BIG)
			err(1, "KVM_GET_SUPPORTED_CPUID");
		free(cpuid);
	}
	errx(1, "KVM_GET_SUPPORTED_CPUID: more than 4096 entries");
}

enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

/* The entry for leaf function and subleaf index, or NULL. */
static struct kvm_cpuid_entry2 *find_cpuid_entry(struct kvm_cpuid2 *cpuid,
						 __u32 function, __u32 index)
{
	__u32 i;

	for (i = 0; i < cpuid->nent; i++) {
		struct kvm_cpuid_entry2 *e = &cpuid->entries[i];

		if (e->function == function &&
		    (!(e->flags & KVM_CPUID_FLAG_SIGNIFCANT_INDEX) || e->index == index))
			return e;
	}
	return NULL;
}

/* One of the entry's four registers. */
static __u32 *cpuid_register(struct kvm_cpuid_entry2 *e, enum cpuid_reg reg)
{
	switch (reg) {
	case CPUID_EAX:
		return &e->eax;
	case CPUID_EBX:
		return &e->ebx;
	case CPUID_ECX:
		return &e->ecx;
	default:
		return &e->edx;
	}
}

/* Clear a bit of one register of an entry; false when the table has no such entry. */
static bool clear_cpuid_bit(struct kvm_cpuid2 *cpuid, __u32 function, __u32 index,
			    enum cpuid_reg reg, unsigned int bit)
{
	struct kvm_cpuid_entry2 *e = find_cpuid_entry(cpuid, function, index);

	if (!e)
		return false;
	*cpuid_register(e, reg) &= ~(1U << bit);
	return true;
}

#define CPUID_VMX_BIT	5	/* leaf 1, ECX: Intel's VMX */
#define CPUID_SVM_BIT	2	/* leaf 0x80000001, ECX: AMD's SVM */

static void hide_virtualization(struct kvm_cpuid2 *cpuid)
{
	clear_cpuid_bit(cpuid, 1, 0, CPUID_ECX, CPUID_VMX_BIT);
	clear_cpuid_bit(cpuid, 0x80000001, 0, CPUID_ECX, CPUID_SVM_BIT);
}

static void set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid)
{
	if (ioctl(vcpufd, KVM_SET_CPUID2, cpuid) == -1)
		err(1, "KVM_SET_CPUID2");
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

/* The VMM runs the guest with a loop of its own, not Part I's. */
static void run_until_halt(const struct vm *vm) __attribute__((unused));
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


/* The device whose window holds all len bytes at addr, or NULL. */
const struct device *find_device(const struct bus *bus, __u64 addr, __u32 len)
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
void access_device(const struct device *dev, __u64 offset, __u32 len, bool write,
		   __u8 *data)
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
const struct device *bus_mmio(const struct bus *bus, struct kvm_run *run)
{
	const struct device *dev = find_device(bus, run->mmio.phys_addr, run->mmio.len);

	if (!dev || run->mmio.len > sizeof(run->mmio.data))
		return NULL;
	access_device(dev, run->mmio.phys_addr - dev->base, run->mmio.len,
		      run->mmio.is_write, run->mmio.data);
	return dev;
}

/* Give a port exit to its device, and return it; NULL when none has the port. */
const struct device *bus_pio(const struct bus *bus, struct kvm_run *run)
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

/* Give the exit in run to its bus, or to Part I's handlers; true when the guest is done. */
bool dispatch_exit(struct machine *m, struct kvm_run *run)
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
bool handle_exit(struct machine *m)
{
	m->exits++;
	return dispatch_exit(m, m->vm.run);
}

void run_machine(struct machine *m)
{
	start_timer(m->vm.run);
	do
		enter_guest(&m->vm);
	while (!handle_exit(m));
	stop_timer();
}


void run_pc(struct machine *m)
{
	run_machine(m);
}

