// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Model-specific registers", book/27-cpu-msrs.nw. */
#include "kvm.h"
/* lab-thread-count: the VMM answers an MSR that KVM does not know. */
#include "machine.h"
#include "stats.h"
/* Have KVM hand the guest's MSR accesses it would refuse for reasons to us. */
static void user_space_msr(int vmfd, __u64 reasons)
{
	struct kvm_enable_cap cap = {
		.cap = KVM_CAP_X86_USER_SPACE_MSR,
		.args[0] = reasons,
	};

	kvm_ioctl(vmfd, KVM_ENABLE_CAP, &cap, "KVM_ENABLE_CAP KVM_CAP_X86_USER_SPACE_MSR");
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

#include "guests/lab-thread-count.h"
#define MSR_CORE_THREAD_COUNT	0x35	/* Intel's: cores and threads of the package */
#define ONE_CORE_ONE_THREAD	0x10001	/* cores in bits 16-31, threads in bits 0-15 */

static const char * const compared_stats[] = {
	"io_exits",
};

int main(void)
{
	struct machine m = { 0 };
	struct vmm_msr msr = { MSR_CORE_THREAD_COUNT, ONE_CORE_ONE_THREAD };

	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	user_space_msr(m.vm.fd, KVM_MSR_EXIT_REASON_UNKNOWN);
	run_with_msr(&m, &msr);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
