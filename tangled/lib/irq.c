// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* irq.c: KVM's interrupt controllers and timer, a line the VMM drives, and
 * the eventfds that ring a doorbell and raise a line without the VMM. */
#include <sys/eventfd.h>
#include "irq.h"

void create_irqchip_and_pit(int vmfd)
{
	struct kvm_pit_config pit = { .flags = 0 };

	kvm_ioctl(vmfd, KVM_CREATE_IRQCHIP, NULL, "KVM_CREATE_IRQCHIP");
	kvm_ioctl(vmfd, KVM_CREATE_PIT2, &pit, "KVM_CREATE_PIT2");
}

void irq_line(int vmfd, __u32 irq, int level)
{
	struct kvm_irq_level line = { .irq = irq, .level = level };

	kvm_ioctl(vmfd, KVM_IRQ_LINE, &line, "KVM_IRQ_LINE");
}

int new_eventfd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	if (fd == -1)
		err(1, "eventfd");
	return fd;
}

/* An eventfd KVM signals when the guest writes len bytes at addr (a port, with
 * KVM_IOEVENTFD_FLAG_PIO in flags); with KVM_IOEVENTFD_FLAG_DATAMATCH, only
 * when the value written is datamatch. */
int bind_ioeventfd(const struct vm *vm, __u64 addr, __u32 len, __u32 flags, __u64 datamatch)
{
	struct kvm_ioeventfd ioeventfd = {
		.datamatch = datamatch,
		.addr = addr,
		.len = len,
		.fd = new_eventfd(),
		.flags = flags,
	};

	check_extension(vm->kvm, KVM_CAP_IOEVENTFD, "KVM_CAP_IOEVENTFD");
	kvm_ioctl(vm->fd, KVM_IOEVENTFD, &ioeventfd, "KVM_IOEVENTFD");
	return ioeventfd.fd;
}

/* An eventfd that pulses line gsi of KVM's interrupt controllers when written. */
int bind_irqfd(const struct vm *vm, __u32 gsi)
{
	struct kvm_irqfd irqfd = { .fd = new_eventfd(), .gsi = gsi };

	check_extension(vm->kvm, KVM_CAP_IRQFD, "KVM_CAP_IRQFD");
	kvm_ioctl(vm->fd, KVM_IRQFD, &irqfd, "KVM_IRQFD");
	return irqfd.fd;
}

/* Run fn(arg) in a new thread with every signal blocked: the process's signals are its vCPUs'. */
pthread_t start_thread(void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	pthread_t thread;

	sigfillset(&all);
	errno = pthread_sigmask(SIG_SETMASK, &all, &old);
	if (errno)
		err(1, "pthread_sigmask");
	errno = pthread_create(&thread, NULL, fn, arg);
	if (errno)
		err(1, "pthread_create");
	errno = pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno)
		err(1, "pthread_sigmask");
	return thread;
}

