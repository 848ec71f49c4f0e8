// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Snapshot and restore", book/32-snapshot.nw. */
#include "kvm.h"
/* snapshot: stop a counting guest, save its VM, destroy it and resume in another. */
#include "state.h"
#include <stdlib.h>
#include "guests/snapshot.h"
int main(int argc, char **argv)
{
	struct vm vm;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	snapshot_and_restore(&vm, argc > 1 ? argv[1] : "", false);
	run_until_halt(&vm);
	return 0;
}
