// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Beyond real mode: protected and long mode", book/16-protected-and-long-mode.nw. */
#include "kvm.h"
/* longmode: a vCPU that starts in 64-bit mode, on identity-mapped page tables. */
#include "modes.h"
#include "guests/longmode.h"
int main(void)
{
	run_with_change(guest_code, sizeof(guest_code), start_in_long_mode);
	return 0;
}
