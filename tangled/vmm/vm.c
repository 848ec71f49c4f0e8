// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* vm.c: the VM, its interrupt chips and timer, its RAM. */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "vmm.h"

#define TSS_ADDR	0xfffbd000	/* three pages KVM may use on Intel */
#define IDENTITY_MAP	0xfffbc000	/* one page: KVM's identity page table */

static void set_intel_addresses(int vmfd)
{
	__u64 map = IDENTITY_MAP;

	kvm_ioctl(vmfd, KVM_SET_TSS_ADDR, (void *)TSS_ADDR, "KVM_SET_TSS_ADDR");
	kvm_ioctl(vmfd, KVM_SET_IDENTITY_MAP_ADDR, &map, "KVM_SET_IDENTITY_MAP_ADDR");
}

static void create_chips(int vmfd)
{
	struct kvm_pit_config pit = { .flags = KVM_PIT_SPEAKER_DUMMY };

	kvm_ioctl(vmfd, KVM_CREATE_IRQCHIP, NULL, "KVM_CREATE_IRQCHIP");
	kvm_ioctl(vmfd, KVM_CREATE_PIT2, &pit, "KVM_CREATE_PIT2");
}


/* Give the guest its RAM as slot 0, or change the slot's flags. */
void register_ram(const struct vm *vm, __u32 flags)
{
	set_memory_slot(vm->fd, 0, 0, vm->mem_size, vm->mem, flags);
}

static void add_ram(struct vm *vm, size_t size)
{
	vm->mem_base = 0;
	vm->mem_size = size;
	vm->mem = add_memory_slot(vm->fd, 0, 0, size, 0);
}

void create_pc(struct vm *vm, size_t ram)
{
	vm->kvm = open_kvm();
	check_api_version(vm->kvm);
	check_extension(vm->kvm, KVM_CAP_IRQCHIP, "KVM_CAP_IRQCHIP");
	check_extension(vm->kvm, KVM_CAP_PIT2, "KVM_CAP_PIT2");
	check_extension(vm->kvm, KVM_CAP_IMMEDIATE_EXIT, "KVM_CAP_IMMEDIATE_EXIT");
	vm->fd = create_vm(vm->kvm);
	set_intel_addresses(vm->fd);
	create_chips(vm->fd);
	add_ram(vm, ram);
}

