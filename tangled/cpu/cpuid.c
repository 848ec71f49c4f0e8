// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* cpuid: the guest asks the CPU who it is; the VMM decides what it answers. */
#include <stdlib.h>
/* KVM_GET_SUPPORTED_CPUID's table, in a buffer doubled until it fits. */
static struct kvm_cpuid2 *get_supported_cpuid(int kvm)
{
	__u32 nent;

	for (nent = 8; nent <= 4096; nent *= 2) {
		struct kvm_cpuid2 *cpuid = calloc(1, sizeof(*cpuid) +
						  nent * sizeof(cpuid->entries[0]));

		if (!cpuid)
			err(1, "calloc");
		cpuid->nent = nent;
		if (ioctl(kvm, KVM_GET_SUPPORTED_CPUID, cpuid) == 0)
			return cpuid;
		if (errno != E2BIG)
			err(1, "KVM_GET_SUPPORTED_CPUID");
		free(cpuid);
	}
	errx(1, "KVM_GET_SUPPORTED_CPUID: more than 4096 entries");
}

enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

/* The entry for leaf function and subleaf index, or NULL. */
static struct kvm_cpuid_entry2 *find_cpuid_entry(struct kvm_cpuid2 *cpuid,
						 __u32 function, __u32 index)
{
	__u32 i;

	for (i = 0; i < cpuid->nent; i++) {
		struct kvm_cpuid_entry2 *e = &cpuid->entries[i];

		if (e->function == function &&
		    (!(e->flags & KVM_CPUID_FLAG_SIGNIFCANT_INDEX) || e->index == index))
			return e;
	}
	return NULL;
}

/* One of the entry's four registers. */
static __u32 *cpuid_register(struct kvm_cpuid_entry2 *e, enum cpuid_reg reg)
{
	switch (reg) {
	case CPUID_EAX:
		return &e->eax;
	case CPUID_EBX:
		return &e->ebx;
	case CPUID_ECX:
		return &e->ecx;
	default:
		return &e->edx;
	}
}

/* Clear a bit of one register of an entry; false when the table has no such entry. */
static bool clear_cpuid_bit(struct kvm_cpuid2 *cpuid, __u32 function, __u32 index,
			    enum cpuid_reg reg, unsigned int bit)
{
	struct kvm_cpuid_entry2 *e = find_cpuid_entry(cpuid, function, index);

	if (!e)
		return false;
	*cpuid_register(e, reg) &= ~(1U << bit);
	return true;
}

#define CPUID_VMX_BIT	5	/* leaf 1, ECX: Intel's VMX */
#define CPUID_SVM_BIT	2	/* leaf 0x80000001, ECX: AMD's SVM */

static void hide_virtualization(struct kvm_cpuid2 *cpuid)
{
	clear_cpuid_bit(cpuid, 1, 0, CPUID_ECX, CPUID_VMX_BIT);
	clear_cpuid_bit(cpuid, 0x80000001, 0, CPUID_ECX, CPUID_SVM_BIT);
}

static void set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid)
{
	if (ioctl(vcpufd, KVM_SET_CPUID2, cpuid) == -1)
		err(1, "KVM_SET_CPUID2");
}

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
