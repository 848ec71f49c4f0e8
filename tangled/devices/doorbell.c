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

/* doorbell: a mailbox device, with and without ioeventfd and irqfd. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/eventfd.h>
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

static void create_irqchip_and_pit(int vmfd)
{
	struct kvm_pit_config pit = { .flags = 0 };

	if (ioctl(vmfd, KVM_CREATE_IRQCHIP, 0) == -1)
		err(1, "KVM_CREATE_IRQCHIP");
	if (ioctl(vmfd, KVM_CREATE_PIT2, &pit) == -1)
		err(1, "KVM_CREATE_PIT2");
}

void irq_line(int vmfd, __u32 irq, int level)
{
	struct kvm_irq_level line = { .irq = irq, .level = level };

	if (ioctl(vmfd, KVM_IRQ_LINE, &line) == -1)
		err(1, "KVM_IRQ_LINE");
}

#define MAILBOX_ADDR	0x1f00	/* guest-physical: where the next byte is left */
#define DOORBELL_PORT	0xf0	/* write: the guest asks for the next byte */
#define MAILBOX_IRQ	5	/* the byte is there */
#define BUFFER_ADDR	0x1e00	/* guest-physical: the bytes the guest took */
struct mailbox {
	int vmfd;		/* for KVM_IRQ_LINE */
	int irqfd;		/* an eventfd bound to MAILBOX_IRQ, or -1 */
	int doorbell;		/* an eventfd bound to DOORBELL_PORT, or -1 */
	__u8 *slot;		/* the mailbox, in the VMM's view of guest memory */
	FILE *input;		/* where the bytes come from */
	bool ended;		/* the zero byte has been delivered */
	unsigned long delivered;
};

static void mailbox_interrupt(const struct mailbox *mb)
{
	__u64 one = 1;

	if (mb->irqfd == -1) {
		irq_line(mb->vmfd, MAILBOX_IRQ, 1);
		irq_line(mb->vmfd, MAILBOX_IRQ, 0);
	} else if (write(mb->irqfd, &one, sizeof(one)) != sizeof(one)) {
		err(1, "write irqfd");
	}
}

/* Leave the next byte of input in the mailbox, then interrupt the guest. */
static void mailbox_deliver(struct mailbox *mb)
{
	int c = getc(mb->input);

	*mb->slot = c == EOF ? 0 : c;
	mb->ended = c == EOF;
	mb->delivered++;
	mailbox_interrupt(mb);
}

static __u8 mailbox_read(void *state, __u64 offset)
{
	(void)state;
	(void)offset;
	return 0;
}

static void mailbox_write(void *state, __u64 offset, __u8 value)
{
	(void)offset;
	(void)value;
	mailbox_deliver(state);
}

static int new_eventfd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	if (fd == -1)
		err(1, "eventfd");
	return fd;
}

static int bind_doorbell(struct vm *vm)
{
	struct kvm_ioeventfd ioeventfd = {
		.addr = DOORBELL_PORT,
		.len = 1,
		.fd = new_eventfd(),
		.flags = KVM_IOEVENTFD_FLAG_PIO,
	};

	check_extension(vm->kvm, KVM_CAP_IOEVENTFD, "KVM_CAP_IOEVENTFD");
	if (ioctl(vm->fd, KVM_IOEVENTFD, &ioeventfd) == -1)
		err(1, "KVM_IOEVENTFD");
	return ioeventfd.fd;
}

static int bind_irqfd(struct vm *vm)
{
	struct kvm_irqfd irqfd = { .fd = new_eventfd(), .gsi = MAILBOX_IRQ };

	check_extension(vm->kvm, KVM_CAP_IRQFD, "KVM_CAP_IRQFD");
	if (ioctl(vm->fd, KVM_IRQFD, &irqfd) == -1)
		err(1, "KVM_IRQFD");
	return irqfd.fd;
}

static void *doorbell_thread(void *arg)
{
	struct mailbox *mb = arg;
	__u64 rings;

	while (!mb->ended) {
		if (read(mb->doorbell, &rings, sizeof(rings)) != sizeof(rings))
			err(1, "read doorbell");
		mailbox_deliver(mb);
	}
	return NULL;
}

static const __u8 guest_code[] = {
	0xfa,					/* cli */
	0xbc, 0x00, 0x20,			/* mov $0x2000, %sp */
	0x0f, 0x01, 0x1e, 0x4c, 0x10,		/* lidt 0x104c */
	0xc7, 0x06, 0x94, 0x18, 0x45, 0x10,	/* movw $0x1045, 0x1894 */
	0xc7, 0x06, 0x96, 0x18, 0x00, 0x00,	/* movw $0, 0x1896 */
	0xb0, 0x11,				/* mov $0x11, %al */
	0xe6, 0x20,				/* out %al, $0x20 */
	0xb0, 0x20,				/* mov $0x20, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x04,				/* mov $0x04, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0x01,				/* mov $0x01, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xb0, 0xdf,				/* mov $0xdf, %al */
	0xe6, 0x21,				/* out %al, $0x21 */
	0xbf, 0x00, 0x1e,			/* mov $0x1e00, %di */
	0xe6, 0xf0,				/* out %al, $0xf0 */
	0xfb,					/* sti */
	0xf4,					/* hlt */
	0xfa,					/* cli */
	0xa0, 0x00, 0x1f,			/* mov 0x1f00, %al */
	0x3c, 'a',				/* cmp $'a', %al */
	0x72, 0x06,				/* jb 0x103e */
	0x3c, 'z',				/* cmp $'z', %al */
	0x77, 0x02,				/* ja 0x103e */
	0x2c, 0x20,				/* sub $0x20, %al */
	0xaa,					/* stosb */
	0x84, 0xc0,				/* test %al, %al */
	0x75, 0xe9,				/* jnz 0x102c */
	0xe6, 0xf4,				/* out %al, $0xf4 */
	0x50,					/* push %ax */
	0xb0, 0x20,				/* mov $0x20, %al */
	0xe6, 0x20,				/* out %al, $0x20 */
	0x58,					/* pop %ax */
	0xcf,					/* iret */
	0x97, 0x00, 0x00, 0x18, 0x00, 0x00,	/* limit 0x97, base 0x1800 */
};
static void print_guest_buffer(const struct vm *vm)
{
	const char *buffer = (const char *)vm->mem + (BUFFER_ADDR - GUEST_ADDR);
	int len = strnlen(buffer, MAILBOX_ADDR - BUFFER_ADDR);

	printf("%.*s", len, buffer);
}

static const char * const compared_stats[] = {
	"io_exits", "halt_exits",
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

int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct mailbox mb = { .irqfd = -1, .doorbell = -1, .input = stdin };
	const struct device pio_devices[] = {
		{ DOORBELL_PORT, 1, &mb, mailbox_read, mailbox_write, "mailbox" },
		{ DONE_PORT, 1, &m.done, done_read, done_write, "done" },
	};
	pthread_t thread;

	if (argc != 2 || (strcmp(argv[1], "exit") && strcmp(argv[1], "ioeventfd") &&
			  strcmp(argv[1], "irqfd")))
		errx(1, "usage: doorbell exit|ioeventfd|irqfd");
	m.pio = (struct bus) { pio_devices, ARRAY_SIZE(pio_devices) };
	create_machine(&m.vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(m.vm.fd);
	add_vcpu(&m.vm);
	mb.vmfd = m.vm.fd;
	mb.slot = (__u8 *)m.vm.mem + (MAILBOX_ADDR - GUEST_ADDR);
	if (!strcmp(argv[1], "irqfd"))
		mb.irqfd = bind_irqfd(&m.vm);
	if (strcmp(argv[1], "exit")) {
		mb.doorbell = bind_doorbell(&m.vm);
		errno = pthread_create(&thread, NULL, doorbell_thread, &mb);
		if (errno)
			err(1, "pthread_create");
	}
	run_machine(&m);
	if (mb.doorbell != -1) {
		errno = pthread_join(thread, NULL);
		if (errno)
			err(1, "pthread_join");
	}
	print_guest_buffer(&m.vm);
	print_count("bytes delivered", mb.delivered);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu);
	return 0;
}
