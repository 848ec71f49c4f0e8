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
#endif
