// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Model-specific registers", book/27-cpu-msrs.nw. */
#include "kvm.h"
/* msr: an MSR set by the VMM, read and written by the guest, then taken over by the VMM. */
#include "machine.h"
#include "stats.h"
#include <stdlib.h>
#include <stddef.h>
#define MSR_SYSENTER_ESP	0x175	/* IA32_SYSENTER_ESP */
#define VMM_SET_VALUE		0x12345678	/* what KVM_SET_MSRS puts there */
/* Whether KVM_GET_MSR_INDEX_LIST lists index; prints how many it lists. */
static bool msr_listed(int kvm, __u32 index)
{
	struct kvm_msr_list probe = { .nmsrs = 0 }, *list;
	bool found = false;
	__u32 i;

	if (ioctl(kvm, KVM_GET_MSR_INDEX_LIST, &probe) == 0 || errno != E2BIG)
		err(1, "KVM_GET_MSR_INDEX_LIST without room");
	list = calloc(1, sizeof(*list) + probe.nmsrs * sizeof(list->indices[0]));
	if (!list)
		err(1, "calloc");
	list->nmsrs = probe.nmsrs;
	kvm_ioctl(kvm, KVM_GET_MSR_INDEX_LIST, list, "KVM_GET_MSR_INDEX_LIST");
	for (i = 0; i < list->nmsrs; i++)
		found |= list->indices[i] == index;
	print_count("MSRs KVM lists", list->nmsrs);
	free(list);
	return found;
}

/*
 * KVM_GET_MSRS and KVM_SET_MSRS take a struct kvm_msrs, a count and an
 * array of entries; these move one MSR, in that layout with one entry.
 */
struct one_msr {
	__u32 nmsrs;
	__u32 pad;
	struct kvm_msr_entry entry;
};

_Static_assert(offsetof(struct one_msr, entry) == sizeof(struct kvm_msrs),
	       "one_msr is not laid out as struct kvm_msrs");

static __u64 get_msr(int vcpufd, __u32 index)
{
	struct one_msr m = { .nmsrs = 1, .entry.index = index };
	int n = kvm_ioctl(vcpufd, KVM_GET_MSRS, &m, "KVM_GET_MSRS");

	if (n != 1)
		errx(1, "KVM_GET_MSRS: MSR 0x%x not read", index);
	return m.entry.data;
}

static void set_msr(int vcpufd, __u32 index, __u64 data)
{
	struct one_msr m = { .nmsrs = 1, .entry = { .index = index, .data = data } };
	int n = kvm_ioctl(vcpufd, KVM_SET_MSRS, &m, "KVM_SET_MSRS");

	if (n != 1)
		errx(1, "KVM_SET_MSRS: MSR 0x%x not written", index);
}

/* Have KVM hand the guest's MSR accesses it would refuse for reasons to us. */
static void user_space_msr(int vmfd, __u64 reasons)
{
	struct kvm_enable_cap cap = {
		.cap = KVM_CAP_X86_USER_SPACE_MSR,
		.args[0] = reasons,
	};

	kvm_ioctl(vmfd, KVM_ENABLE_CAP, &cap, "KVM_ENABLE_CAP KVM_CAP_X86_USER_SPACE_MSR");
}

/* Deny the guest both kinds of access to index, so that KVM hands them to us. */
static void filter_msr(int vmfd, __u32 index)
{
	__u64 deny = 0;	/* one bit per MSR, 0 denies; KVM copies whole longs */
	struct kvm_msr_filter filter = {
		.flags = KVM_MSR_FILTER_DEFAULT_ALLOW,
		.ranges[0] = {
			.flags = KVM_MSR_FILTER_READ | KVM_MSR_FILTER_WRITE,
			.nmsrs = 1,
			.base = index,
			.bitmap = (__u8 *)&deny,
		},
	};

	user_space_msr(vmfd, KVM_MSR_EXIT_REASON_FILTER);
	kvm_ioctl(vmfd, KVM_X86_SET_MSR_FILTER, &filter, "KVM_X86_SET_MSR_FILTER");
}

#define VMM_MSR_VALUE	0x0000cafe	/* what the VMM's own copy starts at */

/* The VMM's copy of the MSR it took over. */
struct vmm_msr {
	__u32 index;
	__u64 value;
};

/* Answer an MSR exit for our MSR; false for any other exit. */
static bool emulate_msr(struct vmm_msr *msr, struct kvm_run *run)
{
	if ((run->exit_reason != KVM_EXIT_X86_RDMSR &&
	     run->exit_reason != KVM_EXIT_X86_WRMSR) || run->msr.index != msr->index)
		return false;
	if (run->exit_reason == KVM_EXIT_X86_RDMSR) {
		printf("KVM_EXIT_X86_RDMSR 0x%x: 0x%llx\n", run->msr.index,
		       (unsigned long long)msr->value);
		run->msr.data = msr->value;
	} else {
		printf("KVM_EXIT_X86_WRMSR 0x%x: 0x%llx\n", run->msr.index,
		       (unsigned long long)run->msr.data);
		msr->value = run->msr.data;
	}
	flush_stdout();
	run->msr.error = 0;	/* 1 would give the guest a #GP */
	return true;
}

static void run_with_msr(struct machine *m, struct vmm_msr *msr)
{
	start_timer(m->vm.run);
	for (;;) {
		enter_guest(&m->vm);
		if (emulate_msr(msr, m->vm.run))
			m->exits++;
		else if (handle_exit(m))
			break;
	}
	stop_timer();
}

#include "guests/msr.h"
static const char * const compared_stats[] = {
	"io_exits", "insn_emulation",
};
int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct vmm_msr msr = { MSR_SYSENTER_ESP, VMM_MSR_VALUE };
	bool filtered = argc == 2 && !strcmp(argv[1], "--filter");

	if (argc > 2 || (argc == 2 && !filtered))
		errx(1, "usage: msr [--filter]");
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	printf("%-20s %s\n", "0x175 listed",
	       msr_listed(m.vm.kvm, MSR_SYSENTER_ESP) ? "yes" : "no");
	set_msr(m.vm.vcpu, MSR_SYSENTER_ESP, VMM_SET_VALUE);
	if (filtered) {
		filter_msr(m.vm.fd, MSR_SYSENTER_ESP);
		run_with_msr(&m, &msr);
	} else {
		run_machine(&m);
	}
	printf("%-20s 0x%llx\n", "0x175 in KVM",
	       (unsigned long long)get_msr(m.vm.vcpu, MSR_SYSENTER_ESP));
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
