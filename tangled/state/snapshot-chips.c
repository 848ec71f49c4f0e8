// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Saving the kernel's chips", book/33-saving-chips.nw. */
#include "kvm.h"
/* snapshot-chips: stop a guest that counts timer ticks, save its VM with the
   in-kernel chips, destroy it and resume in another. */
#include "irq.h"
#include "state.h"
#include <stdlib.h>
#include "guests/snapshot-chips.h"
#define LAST_LINE	9
int main(int argc, char **argv)
{
	struct vm vm;

	create_machine(&vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(vm.fd);
	add_vcpu(&vm);
	snapshot_and_restore(&vm, argc > 1 ? argv[1] : "", true);
	run_lines(&vm, LAST_LINE - STOP_AFTER);
	return 0;
}
