// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "What the hardware does for a hypervisor", book/28-hardware-for-a-hypervisor.nw. */
#include "kvm.h"
/* hypercall: a guest calls KVM; the VMM prints what it saw of it, and KVM's PV leaves. */
#include "cpuid.h"
#include "machine.h"
#include "stats.h"
#include <stdlib.h>
#include <linux/kvm_para.h>
/* The leaves KVM_GET_SUPPORTED_CPUID offers at 0x40000000, KVM's own. */
static void print_kvm_leaves(int kvm)
{
	struct kvm_cpuid2 *cpuid = get_supported_cpuid(kvm);
	__u32 i, bit;

	for (i = 0; i < cpuid->nent; i++) {
		const struct kvm_cpuid_entry2 *e = &cpuid->entries[i];

		if (e->function == KVM_CPUID_SIGNATURE) {
			char signature[13] = { 0 };

			memcpy(signature, &e->ebx, 4);
			memcpy(signature + 4, &e->ecx, 4);
			memcpy(signature + 8, &e->edx, 4);
			printf("0x%08x: EAX 0x%08x, EBX ECX EDX \"%s\"\n", e->function, e->eax,
			       signature);
		} else if (e->function == KVM_CPUID_FEATURES) {
			printf("0x%08x: EAX 0x%08x, EDX 0x%08x\n", e->function, e->eax, e->edx);
			for (bit = 0; bit < 32; bit++)
				if (e->eax & 1U << bit)
					printf("  bit %2u %s\n", bit, kvm_feature_name(bit));
		}
	}
	free(cpuid);
}

#include "guests/hypercall.h"
#define VMCALL_SITE	0x1002	/* the guest's vmcall, then ret */
#define VMMCALL_SITE	0x1006	/* its vmmcall, then ret */
#define ANSWERS		0x100a	/* EAX after each of its hypercalls */
static const char * const hypercall_names[] = {
	"100, no such call", "KVM_HC_VAPIC_POLL_IRQ", "KVM_HC_SCHED_YIELD", "KVM_HC_MAP_GPA_RANGE",
};

/* Each call's answer, as the signed number the guest's EAX holds. */
static void print_answers(const struct vm *vm)
{
	const __u8 *answers = (const __u8 *)vm->mem + (ANSWERS - vm->mem_base);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hypercall_names); i++) {
		__s32 eax;

		memcpy(&eax, answers + 4 * i, sizeof(eax));
		printf("%-24s EAX %d\n", hypercall_names[i], eax);
	}
}

/* The three bytes at one of the guest's hypercall instructions, after the run. */
static void print_site(const struct vm *vm, const char *name, __u64 gpa)
{
	const __u8 *p = (const __u8 *)vm->mem + (gpa - vm->mem_base);

	printf("%-8s at 0x%llx: %02x %02x %02x\n", name, (unsigned long long)gpa,
	       p[0], p[1], p[2]);
}

static const char * const hypercall_stats[] = {
	"exits", "pf_taken", "hypercalls", "insn_emulation", "directed_yield_attempted",
};

int main(int argc, char **argv)
{
	const char *how = argc == 2 ? argv[1] : "";
	struct machine m = { 0 };
	struct kvm_regs regs;

	if (strcmp(how, "cpuid") && strcmp(how, "vmcall") && strcmp(how, "vmmcall"))
		errx(1, "usage: hypercall cpuid | vmcall | vmmcall");
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	if (!strcmp(how, "cpuid")) {
		print_kvm_leaves(m.vm.kvm);
		return 0;
	}
	kvm_ioctl(m.vm.vcpu, KVM_GET_REGS, &regs, "KVM_GET_REGS");
	regs.rdi = !strcmp(how, "vmmcall");	/* the guest's choice of instruction */
	kvm_ioctl(m.vm.vcpu, KVM_SET_REGS, &regs, "KVM_SET_REGS");
	run_machine(&m);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, hypercall_stats, ARRAY_SIZE(hypercall_stats));
	print_answers(&m.vm);
	print_site(&m.vm, "vmcall", VMCALL_SITE);
	print_site(&m.vm, "vmmcall", VMMCALL_SITE);
	return 0;
}
