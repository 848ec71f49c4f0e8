/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* stats.h: a vCPU's statistics, by name. */
#ifndef STATS_H
#define STATS_H
#include "kvm.h"
void print_vcpu_stats(int vcpufd, const char * const *names, size_t count);
#endif
