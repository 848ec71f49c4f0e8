// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Waking a processor: INIT and SIPI", book/25-waking-a-processor.nw. */
#include "kvm.h"
/* lab-mp-state: wake-ap's guest, its AP woken by the VMM with KVM_SET_MP_STATE. */
#include "irq.h"
#include "machine.h"
#include "modes.h"
#include "vcpus.h"
#define BSP_ENTRY	0x1017	/* guest-physical: vCPU 0's 32-bit code */
#define BSP_WAIT	0x103d	/* guest-physical: vCPU 0's wait for vCPU 1's flag */
#include "guests/wake-ap.h"
static void start_in_protected_mode(int vcpufd)
{
	struct kvm_sregs sregs;

	get_sregs(vcpufd, &sregs);
	set_flat_segments(&sregs, 0);
	set_sregs(vcpufd, &sregs);
	set_entry(vcpufd, BSP_ENTRY, 0);
}

static void wake_from_vmm(const struct vcpu_thread *v)
{
	struct kvm_mp_state mp = { .mp_state = KVM_MP_STATE_RUNNABLE };

	set_special_registers(v->fd);
	set_registers(v->fd);
	kvm_ioctl(v->fd, KVM_SET_MP_STATE, &mp, "KVM_SET_MP_STATE");
}

int main(void)
{
	static struct smp_machine sm;
	const struct device pio_devices[] = {
		{ DONE_PORT, 1, &sm.m.done, NULL, done_write, "done" },
	};

	bus_add(&sm.m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	create_machine(&sm.m.vm, guest_code, sizeof(guest_code));
	check_extension(sm.m.vm.kvm, KVM_CAP_MP_STATE, "KVM_CAP_MP_STATE");
	create_irqchip_and_pit(sm.m.vm.fd);
	add_vcpus(&sm);
	start_in_protected_mode(sm.vcpus[0].fd);
	set_entry(sm.vcpus[0].fd, BSP_WAIT, 0);
	print_mp_state(&sm.vcpus[0]);
	print_mp_state(&sm.vcpus[1]);
	wake_from_vmm(&sm.vcpus[1]);
	print_mp_state(&sm.vcpus[1]);
	install_kick();
	start_vcpu(&sm.vcpus[1]);
	start_vcpu(&sm.vcpus[0]);
	stop_vcpus_when_done(&sm);
	print_vcpus(&sm);
	return 0;
}
