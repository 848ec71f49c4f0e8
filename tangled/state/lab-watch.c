// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Debugging a guest", book/34-debugging.nw. */
#include "kvm.h"
/* lab-watch: stop the counting guest each time it writes its count. */
#include "debug.h"
#include "guests/snapshot.h"
#define WATCH_ADDR	0x1100		/* the guest's count, as a 16-bit integer */
#define DR7_RW0_WRITE	(0x1 << 16)	/* DR7 R/W0 = 01: DR0 fires on data writes */
#define DR7_LEN0_2	(0x1 << 18)	/* DR7 LEN0 = 01: DR0 covers two bytes */

static void watch_writes(int vcpufd, __u64 addr)
{
	struct kvm_guest_debug debug = {
		.control = KVM_GUESTDBG_ENABLE | KVM_GUESTDBG_USE_HW_BP,
	};

	debug.arch.debugreg[0] = addr;
	debug.arch.debugreg[7] = DR7_L0 | DR7_RW0_WRITE | DR7_LEN0_2;
	kvm_ioctl(vcpufd, KVM_SET_GUEST_DEBUG, &debug, "KVM_SET_GUEST_DEBUG");
}

static void report_write(const struct vm *vm)
{
	const struct kvm_debug_exit_arch *debug = &vm->run->debug.arch;
	const __u8 *count = guest_ptr(vm, WATCH_ADDR, 2);

	printf("stopped at 0x%llx by #DB, dr6 0x%llx (B0 %d): 0x%x holds %d\n",
	       (unsigned long long)debug->pc, (unsigned long long)debug->dr6,
	       !!(debug->dr6 & DR6_B0), WATCH_ADDR, count[0] | count[1] << 8);
	flush_stdout();
}

int main(void)
{
	unsigned int stops = 0;
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	check_extension(vm.kvm, KVM_CAP_SET_GUEST_DEBUG, "KVM_CAP_SET_GUEST_DEBUG");
	watch_writes(vm.vcpu, WATCH_ADDR);
	start_timer(vm.run);
	for (;;) {
		enter_guest(&vm);
		if (vm.run->exit_reason == KVM_EXIT_DEBUG) {
			stops++;
			report_write(&vm);
		} else if (respond_to_exit(vm.run)) {
			break;
		}
	}
	printf("stops: %u\n", stops);
	return 0;
}
