// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Several vCPUs", book/24-vcpus.nw. */
#include "kvm.h"
/* two-vcpus: two vCPUs, two threads, an order kept through shared memory. */
#include "machine.h"
#include "vcpus.h"
#define LOCKED_COUNTER		0x1f00	/* guest-physical: the locked counter */
#define UNLOCKED_COUNTER	0x1f04	/* and the unlocked one */
static __u32 guest_u32(const struct vm *vm, __u64 addr)
{
	__u32 value;

	memcpy(&value, guest_ptr(vm, addr, sizeof(value)), sizeof(value));
	return value;
}

#include "guests/two-vcpus.h"
int main(void)
{
	static struct smp_machine sm;
	const struct device pio_devices[] = {
		{ DONE_PORT, 1, &sm.m.done, NULL, done_write, "done" },
	};
	int i;

	bus_add(&sm.m.pio, pio_devices, ARRAY_SIZE(pio_devices));
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
