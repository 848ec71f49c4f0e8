// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the rest of the machine", book/b-fuzzing-the-machine.nw. */
/* fuzz/loader.c: the bzImage loader, given a kernel and an initramfs built from the input. */
#include "fuzz.h"

#define RAM_SIZE	(4 << 20)
#define FILE_MAX	(RAM_SIZE + 0x2000)	/* the largest file: more than RAM */

/* The files' sizes (% FILE_MAX); then the input's stores to the kernel's bytes. */
struct files_input {
	__u32 kernel_size;
	__u32 initrd_size;
};

struct load {
	const struct vm *vm;
	struct boot_file kernel, initrd;
};

static void load(void *arg)
{
	struct load *l = arg;

	load_bzimage(l->vm, &l->kernel, &l->initrd, "console=ttyS0" VIRTIO_CONSOLE_PARAMETER);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static __u8 *zeros;
	struct fuzz_input in = { data, size };
	struct files_input f;
	__u8 *kernel;
	struct vm vm;
	struct load l;

	if (!zeros && !(zeros = calloc(1, FILE_MAX)))
		err(1, "calloc");
	fuzz_take(&in, &f, sizeof(f));
	f.kernel_size %= FILE_MAX;
	f.initrd_size %= FILE_MAX;
	kernel = malloc(f.kernel_size ? f.kernel_size : 1);
	if (!kernel)
		err(1, "malloc");
	memset(kernel, 0, f.kernel_size);
	while (in.size)
		fuzz_store(kernel, f.kernel_size, &in);
	fuzz_start(&vm, RAM_SIZE);
	l = (struct load) { &vm, { "kernel", kernel, f.kernel_size },
			    { "initrd", zeros, f.initrd_size } };
	fuzz_survives(load, &l);
	fuzz_end(&vm);
	free(kernel);
	return 0;
}

