// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* lab-fit: the least RAM with which the book's VMM loads a bzImage and an initramfs. */
#include <err.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <asm/bootparam.h>
#define SETUP_OFFSET	0x1f1		/* struct setup_header in the file */
#define HEADER_MAGIC	0x53726448	/* "HdrS" */

static __u64 file_size(const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1)
		err(1, "%s", path);
	return st.st_size;
}

/* Read the header of the bzImage at path; false if it is none of protocol 2.10 or later. */
static bool read_header(const char *path, struct setup_header *hdr)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd == -1)
		err(1, "%s", path);
	n = pread(fd, hdr, sizeof(*hdr), SETUP_OFFSET);
	if (n == -1)
		err(1, "%s", path);
	close(fd);
	return n == sizeof(*hdr) && hdr->header == HEADER_MAGIC && hdr->version >= 0x020a;
}

#define LOAD_ADDR	0x100000ULL	/* where the VMM loads the kernel: 1 MiB */
#define PAGE_SIZE	0x1000ULL
#define MIB		0x100000ULL

static __u64 round_up(__u64 n, __u64 to)
{
	return (n + to - 1) / to * to;
}

/* Print where the kernel and initramfs go; false if no RAM will do. */
static bool fit(const struct setup_header *hdr, __u64 image_size, __u64 initrd_size)
{
	__u64 setup = ((hdr->setup_sects ? hdr->setup_sects : 4) + 1) * 512ULL;
	__u64 base = hdr->pref_address > LOAD_ADDR ? hdr->pref_address : LOAD_ADDR;
	__u64 end = base + hdr->init_size, ram;

	if (LOAD_ADDR + image_size - setup > end)
		end = LOAD_ADDR + image_size - setup;
	printf("boot protocol %u.%02u\n", hdr->version >> 8, hdr->version & 0xff);
	printf("the kernel runs at %llu MiB and needs %u KiB there: it ends at %llu KiB\n",
	       (unsigned long long)(base / MIB), hdr->init_size >> 10,
	       (unsigned long long)(end >> 10));
	ram = round_up(end, PAGE_SIZE) + initrd_size;
	printf("the initramfs, at most %llu MiB, goes on the first page at or above that end\n",
	       (unsigned long long)(round_up(initrd_size, MIB) / MIB));
	if (ram > (__u64)hdr->initrd_addr_max + 1) {
		printf("no RAM will do: the initramfs must end below %#x\n", hdr->initrd_addr_max);
		return false;
	}
	printf("the loader needs at least %llu MiB of RAM\n",
	       (unsigned long long)(round_up(ram, MIB) / MIB));
	return true;
}

int main(int argc, char **argv)
{
	struct setup_header hdr;

	if (argc != 3)
		errx(2, "usage: lab-fit BZIMAGE INITRD");
	if (!read_header(argv[1], &hdr)) {
		printf("%s: not a bzImage of boot protocol 2.10 or later\n", argv[1]);
		return 1;
	}
	return fit(&hdr, file_size(argv[1]), file_size(argv[2])) ? 0 : 1;
}
