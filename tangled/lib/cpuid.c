// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* cpuid.c: the CPUID table a vCPU gets. */
#include <stdlib.h>
#include "cpuid.h"

/* KVM_GET_SUPPORTED_CPUID's table, in a buffer doubled until it fits. */
struct kvm_cpuid2 *get_supported_cpuid(int kvm)
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

void hide_virtualization(struct kvm_cpuid2 *cpuid)
{
	clear_cpuid_bit(cpuid, 1, 0, CPUID_ECX, CPUID_VMX_BIT);
	clear_cpuid_bit(cpuid, 0x80000001, 0, CPUID_ECX, CPUID_SVM_BIT);
}

#define CPUID_TSC_DEADLINE_BIT	24	/* leaf 1, ECX: the local APIC's TSC-deadline mode */
#define CPUID_HYPERVISOR_BIT	31	/* leaf 1, ECX: a hypervisor runs this processor */

/* Set the bits of leaf 1 that KVM_GET_SUPPORTED_CPUID leaves to the VMM. */
void offer_hypervisor_bits(int kvm, struct kvm_cpuid2 *cpuid)
{
	struct kvm_cpuid_entry2 *e = find_cpuid_entry(cpuid, 1, 0);

	if (!e)
		errx(1, "KVM_GET_SUPPORTED_CPUID: no leaf 1");
	e->ecx |= 1U << CPUID_HYPERVISOR_BIT;
	if (ioctl(kvm, KVM_CHECK_EXTENSION, KVM_CAP_TSC_DEADLINE_TIMER) > 0)
		e->ecx |= 1U << CPUID_TSC_DEADLINE_BIT;
}

void set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid)
{
	kvm_ioctl(vcpufd, KVM_SET_CPUID2, (void *)cpuid, "KVM_SET_CPUID2");
}

