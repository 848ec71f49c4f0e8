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

static void save_fpu(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_GET_FPU, &s->fpu, "KVM_GET_FPU");
}

static void restore_fpu(const struct vm *vm, struct snapshot *s)
{
	kvm_ioctl(vm->vcpu, KVM_SET_FPU, &s->fpu, "KVM_SET_FPU");
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

const struct piece pieces[] = {
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
const size_t nr_pieces = ARRAY_SIZE(pieces);

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
void snapshot_and_restore(struct vm *vm, const char *skip, bool chips)
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

