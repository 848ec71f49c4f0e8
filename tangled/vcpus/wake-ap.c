// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Waking a processor: INIT and SIPI", book/25-waking-a-processor.nw. */
#include "kvm.h"
/* wake-ap: vCPU 0 wakes vCPU 1 with INIT and SIPI through its local APIC. */
#include "irq.h"
#include "machine.h"
#include "modes.h"
#include "vcpus.h"
/* KVM_SET_LAPIC rebuilds KVM's map of APIC ids, now that every vCPU is online. */
static void write_back_lapics(const struct smp_machine *sm)
{
	struct kvm_lapic_state lapic;
	int i;

	for (i = 0; i < NR_VCPUS; i++) {
		kvm_ioctl(sm->vcpus[i].fd, KVM_GET_LAPIC, &lapic, "KVM_GET_LAPIC");
		kvm_ioctl(sm->vcpus[i].fd, KVM_SET_LAPIC, &lapic, "KVM_SET_LAPIC");
	}
}

#define BSP_ENTRY	0x1017	/* guest-physical: vCPU 0's 32-bit code */
#include "guests/wake-ap.h"
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
	kvm_ioctl(v->fd, KVM_GET_REGS, &regs, "KVM_GET_REGS");
	printf("vCPU %d starts at CS 0x%x (base 0x%llx), IP 0x%llx\n", v->id,
	       sregs.cs.selector, (unsigned long long)sregs.cs.base,
	       (unsigned long long)regs.rip);
	flush_stdout();
}

static void step_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct smp_machine *sm = state;
	struct vcpu_thread *ap = &sm->vcpus[1];
	__u8 value = data[0];

	(void)offset;
	(void)len;
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
		{ STEP_PORT, 1, &sm, NULL, step_write, "step" },
		{ DONE_PORT, 1, &sm.m.done, NULL, done_write, "done" },
	};

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--all-threads")))
		errx(1, "usage: wake-ap [--all-threads]");
	bus_add(&sm.m.pio, pio_devices, ARRAY_SIZE(pio_devices));
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
