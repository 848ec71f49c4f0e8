// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* boot.c: the x86 boot protocol's 32-bit entry, for a bzImage. */
#include <err.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <asm/bootparam.h>
#include <asm/processor-flags.h>
#include "vmm.h"

#define SETUP_HEADER	0x1f1		/* offset of struct setup_header in the file */
#define HDRS_MAGIC	0x53726448	/* "HdrS" */
#define ZERO_PAGE	0x10000		/* where the loader puts struct boot_params */
#define CMDLINE		0x20000		/* and the command line */
#define KERNEL		0x100000	/* the protected-mode kernel: 1 MiB */

static size_t setup_size(const __u8 *image, size_t size, const char *path)
{
	const struct setup_header *hdr = (const void *)(image + SETUP_HEADER);
	size_t sects;

	if (size < SETUP_HEADER + sizeof(*hdr) || hdr->header != HDRS_MAGIC ||
	    hdr->version < 0x0206)
		errx(1, "%s: not a bzImage of boot protocol 2.06 or later", path);
	sects = hdr->setup_sects ? hdr->setup_sects : 4;
	if ((sects + 1) * 512 >= size)
		errx(1, "%s: the setup is larger than the file", path);
	return (sects + 1) * 512;
}

static struct boot_file map_file(const char *path)
{
	struct stat st;
	void *data;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd == -1 || fstat(fd, &st) == -1)
		err(1, "%s", path);
	if (!S_ISREG(st.st_mode))
		errx(1, "%s: not a regular file", path);
	if (st.st_size == 0)
		errx(1, "%s: an empty file", path);
	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		err(1, "mmap %s", path);
	close(fd);
	return (struct boot_file) { path, data, st.st_size };
}

static void copy_to_guest(const struct vm *vm, __u64 addr, const void *data, size_t size,
			  const char *what)
{
	void *dst = guest_ptr(vm, addr, size);

	if (!dst)
		errx(1, "%s: %zu bytes do not fit at 0x%llx in %zu MiB of RAM",
		     what, size, (unsigned long long)addr, vm->mem_size >> 20);
	memcpy(dst, data, size);
}

static __u64 min_u64(__u64 a, __u64 b)
{
	return a < b ? a : b;
}

/* The end of what the kernel will use, or the VMM stops. */
static __u64 kernel_end(const struct vm *vm, const struct setup_header *hdr, size_t size,
			const char *path)
{
	__u64 base = KERNEL, need = size;

	if (hdr->version >= 0x020a) {
		if (hdr->pref_address > base)
			base = hdr->pref_address;	/* where it moves itself */
		need = hdr->init_size;
	}
	if (base > vm->mem_size || need > vm->mem_size - base || size > vm->mem_size - KERNEL)
		errx(1, "%s: the kernel needs %llu KiB from %llu MiB, more than %zu MiB of RAM hold",
		     path, (unsigned long long)need >> 10, (unsigned long long)base >> 20,
		     vm->mem_size >> 20);
	return base + need > KERNEL + size ? base + need : KERNEL + size;
}

static void load_initrd(const struct vm *vm, struct boot_params *zero,
			const struct boot_file *initrd, __u64 above)
{
	size_t size = initrd->size;
	__u64 top = min_u64(vm->mem_size, (__u64)zero->hdr.initrd_addr_max + 1);
	__u64 addr;

	if (above > top || size > top - above || ((top - size) & ~0xfffULL) < above)
		errx(1, "%s: %zu bytes do not fit between the kernel's end, %llu MiB, and %llu MiB",
		     initrd->path, size, (unsigned long long)above >> 20,
		     (unsigned long long)top >> 20);
	addr = (top - size) & ~0xfffULL;
	copy_to_guest(vm, addr, initrd->data, size, initrd->path);
	zero->hdr.ramdisk_image = addr;
	zero->hdr.ramdisk_size = size;
}

#define LOW_RAM		0x9fc00		/* 639 KiB: below the PC's video memory */
#define E820_RAM	1

static void set_memory_map(const struct vm *vm, struct boot_params *zero)
{
	zero->e820_table[0] = (struct boot_e820_entry) { 0, LOW_RAM, E820_RAM };
	zero->e820_table[1] = (struct boot_e820_entry) {
		KERNEL, vm->mem_size - KERNEL, E820_RAM
	};
	zero->e820_entries = 2;
}

__u32 load_bzimage(const struct vm *vm, const struct boot_file *kernel,
		   const struct boot_file *initrd, const char *cmdline)
{
	const __u8 *image = kernel->data;
	size_t size = kernel->size;
	size_t setup = setup_size(image, size, kernel->path);
	__u64 end;
	struct boot_params *zero = guest_ptr(vm, ZERO_PAGE, sizeof(*zero));

	memset(zero, 0, sizeof(*zero));
	memcpy(&zero->hdr, image + SETUP_HEADER,
	       min_u64(0x202 + image[0x201] - SETUP_HEADER, sizeof(zero->hdr)));
	end = kernel_end(vm, &zero->hdr, size - setup, kernel->path);
	copy_to_guest(vm, KERNEL, image + setup, size - setup, kernel->path);
	zero->hdr.type_of_loader = 0xff;
	if (strlen(cmdline) > zero->hdr.cmdline_size)
		errx(1, "the command line is %zu bytes, more than the %u %s takes", strlen(cmdline),
		     zero->hdr.cmdline_size, kernel->path);
	copy_to_guest(vm, CMDLINE, cmdline, strlen(cmdline) + 1, "command line");
	zero->hdr.cmd_line_ptr = CMDLINE;
	load_initrd(vm, zero, initrd, end);
	set_memory_map(vm, zero);
	return zero->hdr.code32_start;
}

__u32 load_linux(const struct vm *vm, const char *kernel, const char *initrd,
		 const char *cmdline)
{
	struct boot_file image = map_file(kernel), ramdisk = map_file(initrd);

	return load_bzimage(vm, &image, &ramdisk, cmdline);
}

void start_linux(const struct vm *vm, __u32 entry)
{
	struct kvm_sregs sregs;
	struct kvm_regs regs = {
		.rip = entry,
		.rsi = ZERO_PAGE,
		.rflags = 0x2,		/* interrupts off; bit 1 is always 1 */
	};

	get_sregs(vm->vcpu, &sregs);
	set_flat_segments(&sregs, 0);
	set_sregs(vm->vcpu, &sregs);
	kvm_ioctl(vm->vcpu, KVM_SET_REGS, &regs, "KVM_SET_REGS");
}

