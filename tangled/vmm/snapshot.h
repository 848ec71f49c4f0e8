/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Saving a running Linux", book/43-saving-linux.nw. */
/* snapshot.h: the stream a running machine is saved to and restored from. */
#ifndef SNAPSHOT_H
#define SNAPSHOT_H
#include "places.h"
#include "serial.h"
#include "state.h"
#include "virtio.h"

struct vmm;

#define FNV_OFFSET	0xcbf29ce484222325ULL	/* the checksum of nothing */

#define SNAPSHOT_MAGIC		"kvmbook"	/* and its NUL: 8 bytes */
#define PAGES_END		(~0ULL)	/* the page number after the last page */
#define SNAPSHOT_MSRS_MAX	1024	/* far more than KVM has */

struct snapshot_header {
	char magic[8];
	__u32 version;
	__u32 reserved;		/* zero: room for a later version */
	__u64 ram_size;		/* bytes: the machine that goes on gets as much */
};

/* A port device's record, after the virtio devices': which device, and its size. */
struct port_record {
	__u32 port;		/* the first port of the device's window */
	__u32 size;		/* bytes of the record that follow */
};

#define PORT_RECORD_MAX	16	/* bytes of the largest record a device keeps */

/* A port device's record as a restore read it, for the device it is of. */
struct saved_port {
	size_t device;			/* its place on the VMM's port bus */
	__u64 record[PORT_RECORD_MAX / 8];
};

/* What a restore reads, and checks, before it sets anything. */
struct saved_machine {
	struct virtio_mmio *const *virtio;	/* the VMM's devices, which the stream's must be */
	size_t count;
	struct virtio_mmio devices[VIRTIO_DEVICES];	/* the VMM's, as the stream has them */
	const struct bus *pio;		/* the VMM's port devices, which the stream's must be */
	struct saved_port ports[MAX_DEVICES];
	__u32 nports;
	struct snapshot state;		/* its MSRs apart, below */
	__u32 nmsrs;
	struct kvm_msr_entry msrs[SNAPSHOT_MSRS_MAX];
};

/* A stream being read: where from, and what it has said so far. */
struct snapshot_reader {
	int fd;
	const char *name;	/* for messages */
	__u64 hash;		/* of the bytes read so far */
	struct snapshot_header header;
};
struct snapshot_writer;
struct snapshot_writer *start_snapshot(int fd, const char *name, const char *path,
				       const struct vm *vm);
void put_page(struct snapshot_writer *w, const struct vm *vm, __u64 page);
unsigned long put_ram(struct snapshot_writer *w, const struct vm *vm);
void finish_snapshot(struct snapshot_writer *w, const struct vmm *v);
void save_machine(const struct vmm *v, const char *path);
__u64 fnv1a(__u64 hash, const void *data, size_t len);
void open_snapshot(struct snapshot_reader *r, int fd, const char *name, size_t ram_max);
void read_snapshot(struct snapshot_reader *r, const char *path, size_t ram_max);
void read_machine(struct snapshot_reader *r, const struct vm *vm, struct saved_machine *saved);
void restore_machine(struct snapshot_reader *r, struct vmm *v);
#endif
