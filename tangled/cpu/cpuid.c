// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* cpuid: the guest asks the CPU who it is; the VMM decides what it answers. */
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

static const __u8 guest_code[] = {
	0x66, 0x31, 0xc0,			/* xor %eax, %eax */
	0x0f, 0xa2,				/* cpuid */
	0x66, 0x89, 0x1e, 0x4c, 0x10,		/* mov %ebx, 0x104c */
	0x66, 0x89, 0x16, 0x50, 0x10,		/* mov %edx, 0x1050 */
	0x66, 0x89, 0x0e, 0x54, 0x10,		/* mov %ecx, 0x1054 */
	0x66, 0xb8, 0x01, 0x00, 0x00, 0x00,	/* mov $1, %eax */
	0x0f, 0xa2,				/* cpuid */
	0x66, 0xc1, 0xe9, 0x05,			/* shr $5, %ecx */
	0x80, 0xe1, 0x01,			/* and $1, %cl */
	0x00, 0x0e, 0x5d, 0x10,			/* add %cl, 0x105d */
	0x66, 0xb8, 0x01, 0x00, 0x00, 0x80,	/* mov $0x80000001, %eax */
	0x0f, 0xa2,				/* cpuid */
	0x66, 0xc1, 0xe9, 0x02,			/* shr $2, %ecx */
	0x80, 0xe1, 0x01,			/* and $1, %cl */
	0x00, 0x0e, 0x63, 0x10,			/* add %cl, 0x1063 */
	0xbe, 0x4c, 0x10,			/* mov $0x104c, %si */
	0xb9, 0x19, 0x00,			/* mov $25, %cx */
	0xba, 0xf8, 0x03,			/* mov $0x3f8, %dx */
	0xac,					/* lodsb */
	0x84, 0xc0,				/* test %al, %al */
	0x74, 0x01,				/* jz 0x1049 */
	0xee,					/* out %al, (%dx) */
	0xe2, 0xf8,				/* loop 0x1043 */
	0xf4,					/* hlt */
	'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '\n',	/* the vendor */
	'v', 'm', 'x', ' ', '0', ' ', 's', 'v', 'm', ' ', '0', '\n',
};
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
