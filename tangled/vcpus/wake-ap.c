// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* wake-ap: vCPU 0 wakes vCPU 1 with INIT and SIPI through its local APIC. */
/* KVM_SET_LAPIC rebuilds KVM's map of APIC ids, now that every vCPU is online. */
static void write_back_lapics(const struct smp_machine *sm)
{
	struct kvm_lapic_state lapic;
	int i;

	for (i = 0; i < NR_VCPUS; i++) {
		if (ioctl(sm->vcpus[i].fd, KVM_GET_LAPIC, &lapic) == -1)
			err(1, "KVM_GET_LAPIC");
		if (ioctl(sm->vcpus[i].fd, KVM_SET_LAPIC, &lapic) == -1)
			err(1, "KVM_SET_LAPIC");
	}
}

#define BSP_ENTRY	0x1017	/* guest-physical: vCPU 0's 32-bit code */
static const __u8 guest_code[] = {
	0xba, 0xf8, 0x03,			/* mov $0x3f8, %dx */
	0xbe, 0x4a, 0x10,			/* mov $0x104a, %si */
	0xac,					/* lodsb */
	0x84, 0xc0,				/* test %al, %al */
	0x74, 0x03,				/* jz 0x100e */
	0xee,					/* out %al, (%dx) */
	0xeb, 0xf8,				/* jmp 0x1006 */
	0xc6, 0x06, 0x00, 0x1f, 0x01,		/* movb $1, 0x1f00 */
	0xfa,					/* cli */
	0xf4,					/* hlt */
	0xeb, 0xfc,				/* jmp 0x1013 */
	0xc7, 0x05, 0x10, 0x03, 0xe0, 0xfe,	/* movl $0x1000000, 0xfee00310 */
	0x00, 0x00, 0x00, 0x01,
	0xc7, 0x05, 0x00, 0x03, 0xe0, 0xfe,	/* movl $0x4500, 0xfee00300 */
	0x00, 0x45, 0x00, 0x00,
	0xb0, 0x01,				/* mov $1, %al */
	0xe6, 0xf5,				/* out %al, $0xf5 */
	0xc7, 0x05, 0x00, 0x03, 0xe0, 0xfe,	/* movl $0x601, 0xfee00300 */
	0x01, 0x06, 0x00, 0x00,
	0xb0, 0x02,				/* mov $2, %al */
	0xe6, 0xf5,				/* out %al, $0xf5 */
	0xf3, 0x90,				/* pause */
	0x80, 0x3d, 0x00, 0x1f, 0x00, 0x00,	/* cmpb $0, 0x1f00 */
	0x00,
	0x74, 0xf5,				/* je 0x103d */
	0xe6, 0xf4,				/* out %al, $0xf4 */
	'h', 'e', 'l', 'l', 'o', ' ', 'f', 'r', 'o', 'm', ' ',	/* .asciz */
	'v', 'C', 'P', 'U', ' ', '1', ',', ' ', 'i', 'n', ' ',
	'r', 'e', 'a', 'l', ' ', 'm', 'o', 'd', 'e', '\n', 0,
};
static void start_in_protected_mode(int vcpufd)
{
	struct kvm_sregs sregs;

	get_sregs(vcpufd, &sregs);
	set_flat_segments(&sregs, 0);
	set_sregs(vcpufd, &sregs);
	set_entry(vcpufd, BSP_ENTRY, 0);
}

#define STEP_PORT	0xf5	/* write: vCPU 0 has sent INIT (1) or SIPI (2) */

static void print_start(const struct vcpu_thread *v)
{
	struct kvm_sregs sregs;
	struct kvm_regs regs;

	get_sregs(v->fd, &sregs);
	if (ioctl(v->fd, KVM_GET_REGS, &regs) == -1)
		err(1, "KVM_GET_REGS");
	printf("vCPU %d starts at CS 0x%x (base 0x%llx), IP 0x%llx\n", v->id,
	       sregs.cs.selector, (unsigned long long)sregs.cs.base,
	       (unsigned long long)regs.rip);
	flush_stdout();
}

static __u8 step_read(void *state, __u64 offset)
{
	(void)state;
	(void)offset;
	return 0;
}

static void step_write(void *state, __u64 offset, __u8 value)
{
	struct smp_machine *sm = state;
	struct vcpu_thread *ap = &sm->vcpus[1];

	(void)offset;
	if (ap->started)	/* its KVM_RUN holds the vCPU: a read would wait */
		return;
	printf("step %u: ", value);
	print_mp_state(ap);
	if (value == 2) {
		print_start(ap);
		start_vcpu(ap);
	}
}

int main(int argc, char **argv)
{
	static struct smp_machine sm;
	const struct device pio_devices[] = {
		{ STEP_PORT, 1, &sm, step_read, step_write, "step" },
		{ DONE_PORT, 1, &sm.m.done, done_read, done_write, "done" },
	};

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--all-threads")))
		errx(1, "usage: wake-ap [--all-threads]");
	sm.m.pio = (struct bus) { pio_devices, ARRAY_SIZE(pio_devices) };
	create_machine(&sm.m.vm, guest_code, sizeof(guest_code));
	check_extension(sm.m.vm.kvm, KVM_CAP_MP_STATE, "KVM_CAP_MP_STATE");
	create_irqchip_and_pit(sm.m.vm.fd);
	add_vcpus(&sm);
	write_back_lapics(&sm);
	start_in_protected_mode(sm.vcpus[0].fd);
	print_mp_state(&sm.vcpus[0]);
	print_mp_state(&sm.vcpus[1]);
	install_kick();
	if (argc == 2)
		start_vcpu(&sm.vcpus[1]);
	start_vcpu(&sm.vcpus[0]);
	stop_vcpus_when_done(&sm);
	print_vcpus(&sm);
	return 0;
}
