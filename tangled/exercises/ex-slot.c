// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Exercises", book/17-exercises.nw. */
#include "kvm.h"
/* ex-slot: the guest that stored to 0x2000, now with a memory slot there. */
#include "guests/mmio-write.h"
#define RESULT_SLOT	1	/* slot 0 is the code's page */
#define RESULT_ADDR	0x2000	/* guest-physical address of the result page */
int main(void)
{
	struct vm vm;
	const __u8 *result;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	result = add_memory_slot(vm.fd, RESULT_SLOT, RESULT_ADDR, GUEST_MEM_SIZE, 0);
	run_until_halt(&vm);
	printf("slot %d at 0x%x holds '%c'\n", RESULT_SLOT, RESULT_ADDR, result[0]);
	flush_stdout();
	return 0;
}
