// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/* stats.c: a vCPU's statistics, by name, from KVM_GET_STATS_FD. */
#include <stdlib.h>
#include "stats.h"

static void read_at(int fd, void *buf, size_t size, off_t offset, const char *what)
{
	ssize_t n = pread(fd, buf, size, offset);

	if (n == -1)
		err(1, "read %s", what);
	if ((size_t)n != size)
		errx(1, "read %s: %zd bytes, expected %zu", what, n, size);
}

/* The offset, in the data block, of the statistic called name. */
static __u32 stat_offset(const char *descs, const struct kvm_stats_header *header,
			 const char *name)
{
	size_t desc_size = sizeof(struct kvm_stats_desc) + header->name_size;
	__u32 i;

	for (i = 0; i < header->num_desc; i++) {
		const struct kvm_stats_desc *desc = (const void *)(descs + i * desc_size);

		if (!strcmp(desc->name, name))
			return desc->offset;
	}
	errx(1, "KVM_GET_STATS_FD: no vCPU statistic named %s", name);
}

void print_vcpu_stats(int vcpufd, const char * const *names, size_t count)
{
	struct kvm_stats_header header;
	size_t descs_size, i;
	char *descs;
	int fd = kvm_ioctl(vcpufd, KVM_GET_STATS_FD, NULL, "KVM_GET_STATS_FD");

	read_at(fd, &header, sizeof(header), 0, "statistics header");
	descs_size = (sizeof(struct kvm_stats_desc) + header.name_size) * header.num_desc;
	descs = malloc(descs_size);
	if (!descs)
		err(1, "malloc");
	read_at(fd, descs, descs_size, header.desc_offset, "statistics descriptors");
	for (i = 0; i < count; i++) {
		__u64 value;

		read_at(fd, &value, sizeof(value),
			header.data_offset + stat_offset(descs, &header, names[i]), names[i]);
		printf("%-20s %llu\n", names[i], (unsigned long long)value);
	}
	free(descs);
	close(fd);
}

