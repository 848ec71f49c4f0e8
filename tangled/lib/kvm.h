/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/*
 * kvm.h: Part I's VM and its functions, which every later program builds on.
 * Each function is defined, and explained, in the chapter that teaches it:
 * the appendix "The book's library" names which.
 */
#ifndef KVM_H
#define KVM_H
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/kvm.h>
#define GUEST_ADDR	0x1000	/* guest-physical address of the code */
#define SERIAL_PORT	0x3f8	/* COM1, the PC's first serial port */
#define GUEST_MEM_SIZE	0x1000	/* one page */
#define RUN_TIMEOUT	3	/* seconds the guest gets to halt */
/* What a VMM keeps for a VM with one vCPU, and where its memory is. */
struct vm {
	int kvm;		/* /dev/kvm: system ioctls */
	int fd;			/* the VM: its memory and its vCPUs */
	int vcpu;		/* the vCPU: its registers, KVM_RUN */
	void *mem;		/* the guest's memory, as this process sees it */
	struct kvm_run *run;	/* shared with the kernel: why KVM_RUN returned */
	__u64 mem_base;		/* guest-physical address of mem[0] */
	size_t mem_size;	/* bytes of memory from there */
};
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Put each name at its own number; numbers nobody defined stay NULL. */
#define NAME(value) \
	[value] = #value

/* Chapter "Opening KVM and checking its API" */
int open_kvm(void);
void check_api_version(int kvm);
void check_extension(int kvm, int cap, const char *name);
/* Chapter "A VM and its memory" */
int create_vm(int kvm);
void *add_guest_memory(int vmfd);
void load_code(void *mem, const __u8 *code, size_t size);
/* Chapter "The vCPU and its registers" */
int create_vcpu(int vmfd);
struct kvm_run *map_run(int kvm, int vcpufd);
void set_special_registers(int vcpufd);
void set_registers(int vcpufd);
void create_machine(struct vm *vm, const __u8 *code, size_t size);
void add_vcpu(struct vm *vm);
void set_up_vm(struct vm *vm, const __u8 *code, size_t size);
/* Chapter "The run loop" */
const char *lookup_name(const char * const *names, size_t count, unsigned int value);
const char *exit_reason_name(unsigned int reason);
void flush_stdout(void);
void handle_io(const struct kvm_run *run);
void report_fail_entry(const struct kvm_run *run);
const char *suberror_name(unsigned int suberror);
void report_internal_error(const struct kvm_run *run);
void report_mmio(const struct kvm_run *run);
void enter_guest(const struct vm *vm);
bool respond_to_exit(const struct kvm_run *run);
void run_until_halt(const struct vm *vm);
/* Chapter "A run with a time limit" */
void stop_guest(int signal);
void start_timer(struct kvm_run *run);
void stop_timer(void);

int kvm_ioctl(int fd, unsigned long request, void *arg, const char *name);
void run_with_change(const __u8 *code, size_t size, void (*change)(struct vm *vm));
void get_sregs(int vcpufd, struct kvm_sregs *sregs);
void set_sregs(int vcpufd, const struct kvm_sregs *sregs);
void set_memory_slot(int vmfd, __u32 slot, __u64 gpa, __u64 size, void *mem, __u32 flags);
void *add_memory_slot(int vmfd, __u32 slot, __u64 gpa, __u64 size, __u32 flags);
void *guest_ptr(const struct vm *vm, __u64 gpa, __u64 len);
#endif
