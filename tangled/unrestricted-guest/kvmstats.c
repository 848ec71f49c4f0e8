// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "What unrestricted guest bought", book/15-unrestricted-guest.nw. */
/*
 * kvmstats: run the 2+2 real-mode guest of kvmtest, then print some of the
 * vCPU's statistics (KVM_GET_STATS_FD).  With --tss, first give KVM the
 * identity map and TSS that vm86 mode needs, at QEMU's addresses.
 */
#include "stats.h"
#include "guests/kvmtest.h"
#define IDENTITY_MAP_ADDR	0xfeffc000	/* QEMU's choice: one page */
#define TSS_ADDR		0xfeffd000	/* and the next three pages */

/* Where KVM puts its identity-mapped page table and the TSS for vm86 mode. */
static void place_vm86_areas(int vmfd)
{
	__u64 identity = IDENTITY_MAP_ADDR;

	kvm_ioctl(vmfd, KVM_SET_IDENTITY_MAP_ADDR, &identity, "KVM_SET_IDENTITY_MAP_ADDR");
	if (ioctl(vmfd, KVM_SET_TSS_ADDR, TSS_ADDR) == -1)
		err(1, "KVM_SET_TSS_ADDR");
}

static const char * const compared_stats[] = {
	"exits", "io_exits", "halt_exits", "insn_emulation", "insn_emulation_fail",
};
int main(int argc, char **argv)
{
	struct vm vm;

	if (argc == 2 && !strcmp(argv[1], "--tss")) {
		create_machine(&vm, guest_code, sizeof(guest_code));
		place_vm86_areas(vm.fd);
		add_vcpu(&vm);
	} else if (argc == 1) {
		set_up_vm(&vm, guest_code, sizeof(guest_code));
	} else {
		errx(1, "usage: kvmstats [--tss]");
	}
	run_until_halt(&vm);
	print_vcpu_stats(vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
