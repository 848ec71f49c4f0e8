// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "What the hardware does for a hypervisor", book/28-hardware-for-a-hypervisor.nw. */
#include "kvm.h"
/* lab-hypercall: the guest's KVM_HC_MAP_GPA_RANGE goes to the VMM, which answers it. */
#include "machine.h"
#include <linux/kvm_para.h>
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

static void enable_map_exit(int vmfd)
{
	struct kvm_enable_cap cap = {
		.cap = KVM_CAP_EXIT_HYPERCALL,
		.args = { 1ULL << KVM_HC_MAP_GPA_RANGE },
	};

	kvm_ioctl(vmfd, KVM_ENABLE_CAP, &cap, "KVM_ENABLE_CAP");
}

/* Print one KVM_EXIT_HYPERCALL and answer it: done. */
static void answer_map(struct kvm_run *run, unsigned long *answered)
{
	printf("KVM_EXIT_HYPERCALL nr %llu: gpa 0x%llx, npages %llu, attrs 0x%llx\n",
	       (unsigned long long)run->hypercall.nr, (unsigned long long)run->hypercall.args[0],
	       (unsigned long long)run->hypercall.args[1],
	       (unsigned long long)run->hypercall.args[2]);
	run->hypercall.ret = 0;
	(*answered)++;
}

int main(void)
{
	struct machine m = { 0 };
	unsigned long answered = 0;
	bool done = false;

	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	enable_map_exit(m.vm.fd);
	start_timer(m.vm.run);
	while (!done) {
		enter_guest(&m.vm);
		if (m.vm.run->exit_reason == KVM_EXIT_HYPERCALL) {
			m.exits++;
			answer_map(m.vm.run, &answered);
		} else {
			done = handle_exit(&m);
		}
	}
	stop_timer();
	print_count("exits to the VMM", m.exits);
	print_count("hypercalls answered", answered);
	print_answers(&m.vm);
	return 0;
}
