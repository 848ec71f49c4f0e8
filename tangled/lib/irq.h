/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* irq.h: KVM's interrupt controllers and timer, a line the VMM drives, and the eventfds. */
#ifndef IRQ_H
#define IRQ_H
#include "kvm.h"
#include <pthread.h>
void create_irqchip_and_pit(int vmfd);
void irq_line(int vmfd, __u32 irq, int level);
int new_eventfd(void);
int bind_ioeventfd(const struct vm *vm, __u64 addr, __u32 len, __u32 flags, __u64 datamatch);
int bind_irqfd(const struct vm *vm, __u32 gsi);
pthread_t start_thread(void *(*fn)(void *), void *arg);
#endif
