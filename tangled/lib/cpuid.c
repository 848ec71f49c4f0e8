// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* cpuid.c: the CPUID table a vCPU gets. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <linux/kvm_para.h>
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

static const char * const kvm_feature_names[] = {
	NAME(KVM_FEATURE_CLOCKSOURCE), NAME(KVM_FEATURE_NOP_IO_DELAY),
	NAME(KVM_FEATURE_MMU_OP), NAME(KVM_FEATURE_CLOCKSOURCE2),
	NAME(KVM_FEATURE_ASYNC_PF), NAME(KVM_FEATURE_STEAL_TIME),
	NAME(KVM_FEATURE_PV_EOI), NAME(KVM_FEATURE_PV_UNHALT),
	NAME(KVM_FEATURE_PV_TLB_FLUSH), NAME(KVM_FEATURE_ASYNC_PF_VMEXIT),
	NAME(KVM_FEATURE_PV_SEND_IPI), NAME(KVM_FEATURE_POLL_CONTROL),
	NAME(KVM_FEATURE_PV_SCHED_YIELD), NAME(KVM_FEATURE_ASYNC_PF_INT),
	NAME(KVM_FEATURE_MSI_EXT_DEST_ID), NAME(KVM_FEATURE_HC_MAP_GPA_RANGE),
	NAME(KVM_FEATURE_MIGRATION_CONTROL), NAME(KVM_FEATURE_CLOCKSOURCE_STABLE_BIT),
};

/* The name of bit of leaf 0x40000001's EAX, or "unknown". */
const char *kvm_feature_name(unsigned int bit)
{
	return lookup_name(kvm_feature_names, ARRAY_SIZE(kvm_feature_names), bit);
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

/* The bit <linux/kvm_para.h> calls KVM_FEATURE_ followed by name, or -1. */
int kvm_feature_bit(const char *name)
{
	const size_t prefix = strlen("KVM_FEATURE_");	/* every name of the table has it */
	unsigned int bit;

	for (bit = 0; bit < ARRAY_SIZE(kvm_feature_names); bit++) {
		const char *known = kvm_feature_names[bit];

		if (known && !strcasecmp(known + prefix, name))
			return bit;
	}
	return -1;
}

/* Clear the features' bits in KVM's leaf 0x40000001: the guest will not use them. */
void withhold_kvm_features(struct kvm_cpuid2 *cpuid, __u32 features)
{
	struct kvm_cpuid_entry2 *e = find_cpuid_entry(cpuid, KVM_CPUID_FEATURES, 0);

	if (!e)
		errx(1, "KVM_GET_SUPPORTED_CPUID: no leaf %#x", KVM_CPUID_FEATURES);
	e->eax &= ~features;
}

void set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid)
{
	kvm_ioctl(vcpufd, KVM_SET_CPUID2, (void *)cpuid, "KVM_SET_CPUID2");
}

