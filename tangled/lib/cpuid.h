/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* cpuid.h: the CPUID table a vCPU gets. */
#ifndef CPUID_H
#define CPUID_H
#include "kvm.h"
struct kvm_cpuid2 *get_supported_cpuid(int kvm);
void hide_virtualization(struct kvm_cpuid2 *cpuid);
void offer_hypervisor_bits(int kvm, struct kvm_cpuid2 *cpuid);
void set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid);
const char *kvm_feature_name(unsigned int bit);
int kvm_feature_bit(const char *name);
void withhold_kvm_features(struct kvm_cpuid2 *cpuid, __u32 features);
#endif
