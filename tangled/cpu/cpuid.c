// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The CPU's identity: CPUID", book/26-cpu-identity.nw. */
#include "kvm.h"
/* cpuid: the guest asks the CPU who it is; the VMM decides what it answers. */
#include "cpuid.h"
#include "machine.h"
#include "stats.h"
#include <stdlib.h>
static void try_set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid, const char *what)
{
	printf("KVM_SET_CPUID2 after KVM_RUN, %s: %s\n", what,
	       ioctl(vcpufd, KVM_SET_CPUID2, cpuid) == -1 ? strerror(errno) : "done");
}

static void change_cpuid_after_run(int vcpufd, struct kvm_cpuid2 *cpuid)
{
	try_set_cpuid(vcpufd, cpuid, "the same table");
	hide_virtualization(cpuid);
	try_set_cpuid(vcpufd, cpuid, "without VMX and SVM");
}

#include "guests/cpuid.h"
static const char * const compared_stats[] = {
	"io_exits", "insn_emulation",
};
int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	struct machine m = { 0 };
	struct kvm_cpuid2 *cpuid = NULL;

	if (argc > 2 || (argc == 2 && strcmp(mode, "--hide") && strcmp(mode, "--none")))
		errx(1, "usage: cpuid [--hide | --none]");
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	if (strcmp(mode, "--none")) {
		cpuid = get_supported_cpuid(m.vm.kvm);
		if (!strcmp(mode, "--hide"))
			hide_virtualization(cpuid);
		set_cpuid(m.vm.vcpu, cpuid);
		print_count("CPUID entries", cpuid->nent);
	}
	run_machine(&m);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	if (argc == 1)
		change_cpuid_after_run(m.vm.vcpu, cpuid);
	free(cpuid);
	return 0;
}
