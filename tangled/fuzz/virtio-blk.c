// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the devices", book/a-fuzzing-the-devices.nw. */
/* fuzz/virtio-blk.c: the virtio disk's registers, its queue and its file. */
#define _GNU_SOURCE		/* memfd_create */
#include <sys/mman.h>
#include <sys/stat.h>
#include "fuzz.h"

#define RAM_SIZE	0x2000	/* two pages of guest memory */
#define IMAGE_SIZE	(4 * SECTOR)

/* The image: a file in memory of IMAGE_SIZE zeros; its name, for open_disk. */
static const char *empty_image(void)
{
	static char name[32];
	static int fd = -1;

	if (fd == -1) {
		fd = memfd_create("disk", 0);
		if (fd == -1)
			err(1, "memfd_create");
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) == -1 || ftruncate(fd, IMAGE_SIZE) == -1)
		err(1, "ftruncate");
	return name;
}

/* Stop the fuzzer if the disk's file is not as it must be after the input. */
static void check_image(const struct virtio_disk *disk)
{
	static const __u8 zeros[IMAGE_SIZE];
	__u8 bytes[IMAGE_SIZE];
	struct stat st;

	if (fstat(disk->fd, &st) == -1 || pread(disk->fd, bytes, IMAGE_SIZE, 0) != IMAGE_SIZE)
		err(1, "the image");
	if (st.st_size != IMAGE_SIZE) {
		fprintf(stderr, "fuzz: the image grew from %d bytes to %lld\n", IMAGE_SIZE,
			(long long)st.st_size);
		abort();
	}
	if (disk->read_only && memcmp(bytes, zeros, IMAGE_SIZE)) {
		fprintf(stderr, "fuzz: a read-only disk was written\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct virtio_disk disk;
	struct device dev;
	struct vm vm;
	__u8 read_only;

	fuzz_take(&in, &read_only, sizeof(read_only));
	open_disk(&disk, empty_image(), read_only & 1);
	fuzz_start(&vm, RAM_SIZE);
	dev = virtio_disk_device(&disk, &vm, VIRTIO_DISK_BASE, VIRTIO_DISK_IRQ);
	fuzz_virtio(&vm, &dev, &disk.mmio, &in, NULL);
	check_image(&disk);
	if (close(disk.fd) == -1)
		err(1, "close");
	fuzz_end(&vm);
	return 0;
}
