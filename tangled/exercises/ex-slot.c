// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* ex-slot: the guest that stored to 0x2000, now with a memory slot there. */
#include "guests/mmio-write.h"
#define RESULT_SLOT	1	/* slot 0 is the code's page */
#define RESULT_ADDR	0x2000	/* guest-physical address of the result page */

static const __u8 *add_result_page(int vmfd)
{
	struct kvm_userspace_memory_region region;
	void *page = mmap(NULL, GUEST_MEM_SIZE, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED)
		err(1, "mmap result page");
	region = (struct kvm_userspace_memory_region) {
		.slot = RESULT_SLOT,
		.guest_phys_addr = RESULT_ADDR,
		.memory_size = GUEST_MEM_SIZE,
		.userspace_addr = (unsigned long)page,
	};
	if (ioctl(vmfd, KVM_SET_USER_MEMORY_REGION, &region) == -1)
		err(1, "KVM_SET_USER_MEMORY_REGION slot %d", RESULT_SLOT);
	return page;
}

int main(void)
{
	struct vm vm;
	const __u8 *result;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	result = add_result_page(vm.fd);
	run_until_halt(&vm);
	printf("slot %d at 0x%x holds '%c'\n", RESULT_SLOT, RESULT_ADDR, result[0]);
	flush_stdout();
	return 0;
}
