// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* state.c: a VM's state, saved and restored piece by piece. */
#include <stdlib.h>
#include "irq.h"
#include "state.h"

/* Run the guest until its lines-th newline; false if it halted first. */
bool run_lines(const struct vm *vm, unsigned int lines)
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
void complete_exit(struct vm *vm)
{
	vm->run->immediate_exit = 1;
	if (ioctl(vm->vcpu, KVM_RUN, 0) == 0 || errno != EINTR)
		err(1, "KVM_RUN with immediate_exit");
	vm->run->immediate_exit = 0;
}

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
static void save_regs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_REGS, &s->regs, "KVM_GET_REGS");
}

static void restore_regs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_REGS, &s->regs, "KVM_SET_REGS");
}

static void save_sregs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_SREGS, &s->sregs, "KVM_GET_SREGS");
}

static void restore_sregs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_SREGS, &s->sregs, "KVM_SET_SREGS");
}

static void save_debugregs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_DEBUGREGS, &s->debugregs, "KVM_GET_DEBUGREGS");
}

static void restore_debugregs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_DEBUGREGS, &s->debugregs, "KVM_SET_DEBUGREGS");
}

static void save_events(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_VCPU_EVENTS, &s->events, "KVM_GET_VCPU_EVENTS");
}

static void restore_events(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_VCPU_EVENTS, &s->events, "KVM_SET_VCPU_EVENTS");
}

static void save_mp_state(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_MP_STATE, &s->mp_state, "KVM_GET_MP_STATE");
}

static void restore_mp_state(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_MP_STATE, &s->mp_state, "KVM_SET_MP_STATE");
}

/* KVM_GET_XSAVE or KVM_SET_XSAVE, on a struct kvm_xsave of KVM's size around region. */
static void move_xsave(int vcpu, unsigned long request, __u32 *region, const char *name)
{
	struct kvm_xsave *xsave = calloc(1, sizeof(*xsave));

	_Static_assert(sizeof(xsave->region) == sizeof(((struct snapshot *)0)->xsave),
		       "the XSAVE area's size");
	if (!xsave)
		err(1, "calloc");
	memcpy(xsave->region, region, sizeof(xsave->region));
	kvm_ioctl(vcpu, request, xsave, name);
	memcpy(region, xsave->region, sizeof(xsave->region));
	free(xsave);
}

static void save_fpu(const struct vm *vm, struct snapshot *s)
{
	move_xsave(vm->vcpu, KVM_GET_XSAVE, s->xsave, "KVM_GET_XSAVE");
}

static void restore_fpu(const struct vm *vm, struct snapshot *s)
{
	move_xsave(vm->vcpu, KVM_SET_XSAVE, s->xsave, "KVM_SET_XSAVE");
}

static void save_xcrs(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_XCRS, &s->xcrs, "KVM_GET_XCRS");
}

static void restore_xcrs(const struct vm *vm, struct snapshot *s)
{
	if (s->xcrs.nr_xcrs)	/* none without XSAVE, and then none may be set */
		kvm_ioctl(vm->vcpu, KVM_SET_XCRS, &s->xcrs, "KVM_SET_XCRS");
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

/* One MSR's value, or false if KVM will not read it for this vCPU. */
bool read_msr(int vcpu, __u32 index, __u64 *value)
{
	struct kvm_msrs *one = calloc(1, sizeof(*one) + sizeof(one->entries[0]));
	int n;

	if (!one)
		err(1, "calloc");
	one->nmsrs = 1;
	one->entries[0].index = index;
	n = ioctl(vcpu, KVM_GET_MSRS, one);
	if (n == -1)
		err(1, "KVM_GET_MSRS");
	*value = one->entries[0].data;
	free(one);
	return n == 1;
}

/* The MSRs the snapshot names, or, if it names none, those every vCPU has. */
static void save_msrs(const struct vm *vm, struct snapshot *s)
{
	if (!s->msrs) {
		size_t i;

		s->msrs = calloc(1, sizeof(*s->msrs) +
				 ARRAY_SIZE(saved_msrs) * sizeof(s->msrs->entries[0]));
		if (!s->msrs)
			err(1, "calloc");
		s->msrs->nmsrs = ARRAY_SIZE(saved_msrs);
		for (i = 0; i < ARRAY_SIZE(saved_msrs); i++)
			s->msrs->entries[i].index = saved_msrs[i];
	}
	move_msrs(vm->vcpu, KVM_GET_MSRS, s->msrs, "KVM_GET_MSRS");
}

#define MSR_IA32_TSC	0x10

/* Whether KVM sets this vCPU's TSC offset as given (Linux 5.16 and later). */
static bool has_tsc_offset(int vcpu)
{
	struct kvm_device_attr attr = { .group = KVM_VCPU_TSC_CTRL, .attr = KVM_VCPU_TSC_OFFSET };

	if (ioctl(vcpu, KVM_HAS_DEVICE_ATTR, &attr) == 0)
		return true;
	if (errno != ENXIO && errno != EINVAL)	/* no such attribute; no attributes at all */
		err(1, "KVM_HAS_DEVICE_ATTR KVM_VCPU_TSC_OFFSET");
	return false;
}

/* Put the TSC at value by moving its offset by what it lacks. */
static void set_tsc(int vcpu, __u64 value)
{
	__u64 offset, now;
	struct kvm_device_attr attr = {
		.group = KVM_VCPU_TSC_CTRL, .attr = KVM_VCPU_TSC_OFFSET,
		.addr = (__u64)(unsigned long)&offset,
	};

	kvm_ioctl(vcpu, KVM_GET_DEVICE_ATTR, &attr, "KVM_GET_DEVICE_ATTR KVM_VCPU_TSC_OFFSET");
	if (!read_msr(vcpu, MSR_IA32_TSC, &now))
		errx(1, "KVM_GET_MSRS: the TSC refused");
	offset += value - now;
	kvm_ioctl(vcpu, KVM_SET_DEVICE_ATTR, &attr, "KVM_SET_DEVICE_ATTR KVM_VCPU_TSC_OFFSET");
}

/* The MSRs, the TSC by its offset where KVM has it. */
static void restore_msrs(const struct vm *vm, struct snapshot *s)
{
	struct kvm_msrs *msrs = malloc(sizeof(*msrs) +
				       s->msrs->nmsrs * sizeof(msrs->entries[0]));
	bool by_offset = has_tsc_offset(vm->vcpu);
	__u32 i;

	if (!msrs)
		err(1, "malloc");
	msrs->nmsrs = 0;
	for (i = 0; i < s->msrs->nmsrs; i++) {
		if (by_offset && s->msrs->entries[i].index == MSR_IA32_TSC)
			set_tsc(vm->vcpu, s->msrs->entries[i].data);
		else
			msrs->entries[msrs->nmsrs++] = s->msrs->entries[i];
	}
	move_msrs(vm->vcpu, KVM_SET_MSRS, msrs, "KVM_SET_MSRS");
	free(msrs);
}

static void save_pic(const struct vm *vm, struct snapshot *s)
{
	s->pic[0].chip_id = KVM_IRQCHIP_PIC_MASTER;
	s->pic[1].chip_id = KVM_IRQCHIP_PIC_SLAVE;
	kvm_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->pic[0], "KVM_GET_IRQCHIP master PIC");
	kvm_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->pic[1], "KVM_GET_IRQCHIP slave PIC");
}

static void restore_pic(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->fd, KVM_SET_IRQCHIP, &s->pic[0], "KVM_SET_IRQCHIP master PIC");
	kvm_ioctl(vm->fd, KVM_SET_IRQCHIP, &s->pic[1], "KVM_SET_IRQCHIP slave PIC");
}

static void save_ioapic(const struct vm *vm, struct snapshot *s)
{
	s->ioapic.chip_id = KVM_IRQCHIP_IOAPIC;
	kvm_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->ioapic, "KVM_GET_IRQCHIP I/O APIC");
}

static void restore_ioapic(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->fd, KVM_SET_IRQCHIP, &s->ioapic, "KVM_SET_IRQCHIP I/O APIC");
}

static void save_pit(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->fd, KVM_GET_PIT2, &s->pit, "KVM_GET_PIT2");
}

static void restore_pit(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->fd, KVM_SET_PIT2, &s->pit, "KVM_SET_PIT2");
}

static void save_lapic(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_LAPIC, &s->lapic, "KVM_GET_LAPIC");
}

static void restore_lapic(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_LAPIC, &s->lapic, "KVM_SET_LAPIC");
}

static void save_clock(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->fd, KVM_GET_CLOCK, &s->clock, "KVM_GET_CLOCK");
}

static void restore_clock(const struct vm *vm, struct snapshot *s)
{
	s->clock.flags = 0;	/* the time it holds, not a host's realtime with it */
	kvm_ioctl(vm->fd, KVM_SET_CLOCK, &s->clock, "KVM_SET_CLOCK");
}

/* One piece of a VM's state: how to save it and how to put it back. */
struct piece {
	const char *name;
	void (*save)(const struct vm *vm, struct snapshot *s);
	void (*restore)(const struct vm *vm, struct snapshot *s);
	bool chip;		/* only in a VM with in-kernel chips */
};

static const struct piece pieces[] = {
	{ "pic", save_pic, restore_pic, true },
	{ "ioapic", save_ioapic, restore_ioapic, true },
	{ "pit", save_pit, restore_pit, true },
	{ "sregs", save_sregs, restore_sregs, false },
	{ "regs", save_regs, restore_regs, false },
	{ "fpu", save_fpu, restore_fpu, false },
	{ "xcrs", save_xcrs, restore_xcrs, false },
	{ "lapic", save_lapic, restore_lapic, true },
	{ "msrs", save_msrs, restore_msrs, false },
	{ "debugregs", save_debugregs, restore_debugregs, false },
	{ "events", save_events, restore_events, false },
	{ "mp_state", save_mp_state, restore_mp_state, false },
	{ "clock", save_clock, restore_clock, false },
};

/* Save every piece, the last to go back first. */
void take_snapshot(const struct vm *vm, struct snapshot *s, bool chips)
{
	size_t i = ARRAY_SIZE(pieces);

	while (i--)
		if (chips || !pieces[i].chip)
			pieces[i].save(vm, s);
}

/* Put every piece back in its order, but for the piece named skip. */
void restore_snapshot(const struct vm *vm, struct snapshot *s, const char *skip, bool chips)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pieces); i++)
		if ((chips || !pieces[i].chip) && strcmp(pieces[i].name, skip))
			pieces[i].restore(vm, s);
}

void destroy_vm(struct vm *vm)
{
	int size = kvm_ioctl(vm->kvm, KVM_GET_VCPU_MMAP_SIZE, NULL, "KVM_GET_VCPU_MMAP_SIZE");

	if (munmap(vm->run, size) == -1 || munmap(vm->mem, vm->mem_size) == -1)
		err(1, "munmap");
	if (close(vm->vcpu) == -1 || close(vm->fd) == -1 || close(vm->kvm) == -1)
		err(1, "close");
}

/* A VM as KVM makes it, with in-kernel chips or without, and no guest. */
void create_empty_vm(struct vm *vm, bool chips)
{
	vm->kvm = open_kvm();
	vm->fd = create_vm(vm->kvm);
	vm->mem = add_guest_memory(vm->fd);	/* zeros */
	vm->mem_base = GUEST_ADDR;		/* Part I's page, for guest_ptr */
	vm->mem_size = GUEST_MEM_SIZE;
	if (chips)
		create_irqchip_and_pit(vm->fd);
	vm->vcpu = create_vcpu(vm->fd);		/* as after a reset */
	vm->run = map_run(vm->kvm, vm->vcpu);
}

/* Stop the guest at its third line and move it into a new VM, all but skip. */
void snapshot_and_restore(struct vm *vm, const char *skip, bool chips)
{
	static struct snapshot snapshot;
	static __u8 mem[GUEST_MEM_SIZE];

	check_extension(vm->kvm, KVM_CAP_VCPU_EVENTS, "KVM_CAP_VCPU_EVENTS");
	check_extension(vm->kvm, KVM_CAP_MP_STATE, "KVM_CAP_MP_STATE");
	if (!run_lines(vm, STOP_AFTER))
		errx(1, "the guest halted before line %d", STOP_AFTER);
	if (strcmp(skip, "completion"))
		complete_exit(vm);
	memcpy(mem, vm->mem, sizeof(mem));
	take_snapshot(vm, &snapshot, chips);
	destroy_vm(vm);
	printf("-- snapshot taken, VM destroyed; restoring %s%s\n",
	       *skip ? "all but " : "all", skip);
	flush_stdout();
	create_empty_vm(vm, chips);
	if (strcmp(skip, "memory"))
		memcpy(vm->mem, mem, sizeof(mem));
	restore_snapshot(vm, &snapshot, skip, chips);
}

