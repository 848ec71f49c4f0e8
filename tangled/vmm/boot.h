/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* boot.h: the Linux boot protocol's loader. */
#ifndef BOOT_H
#define BOOT_H
#include "machine.h"

struct boot_file {
	const char *path;	/* for messages */
	const __u8 *data;
	size_t size;
};

__u32 load_bzimage(const struct vm *vm, const struct boot_file *kernel,
		   const struct boot_file *initrd, const char *cmdline);
__u32 load_linux(const struct vm *vm, const char *kernel, const char *initrd,
		 const char *cmdline);
void start_linux(const struct vm *vm, __u32 entry);
#endif
