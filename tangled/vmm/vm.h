/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* vm.h: what the VMM's other files call to make and fill the PC's VM. */
#ifndef VM_H
#define VM_H
#include "machine.h"

void create_pc(struct vm *vm, size_t ram);
void register_ram(const struct vm *vm, __u32 flags);
#endif
