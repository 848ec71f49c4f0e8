// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A disk", book/40-disk.nw. */
/* virtio-blk.c: a virtio block device whose sectors are a file's. */
#include <sys/stat.h>
#include <sys/uio.h>
#include <linux/virtio_ids.h>
#include "machine.h"
#include "virtio-blk.h"
#include "virtio.h"

/* The bytes of the n buffers at buf: at most a chain's, VIRTQ_CHAIN_MAX. */
static __u32 part_size(const struct virtq_buf *buf, int n)
{
	__u32 size = 0;
	int i;

	for (i = 0; i < n; i++)
		size += buf[i].len;
	return size;
}

/* Point iov at len bytes of the n buffers at buf, from their skip'th byte on,
 * which the caller knows they hold; how many pieces. */
static int part_iov(const struct virtq_buf *buf, int n, __u32 skip, __u32 len,
		    struct iovec *iov)
{
	int i, count = 0;

	for (i = 0; i < n && len; i++) {
		__u32 piece;

		if (skip >= buf[i].len) {
			skip -= buf[i].len;
			continue;
		}
		piece = buf[i].len - skip < len ? buf[i].len - skip : len;
		iov[count++] = (struct iovec) { (__u8 *)buf[i].data + skip, piece };
		len -= piece;
		skip = 0;
	}
	return count;
}

/* Copy between the bytes at p and the pieces: into the pieces, or out of them. */
static void copy_pieces(const struct iovec *iov, int count, __u8 *p, bool into)
{
	int i;

	for (i = 0; i < count; p += iov[i++].iov_len) {
		if (into)
			memcpy(iov[i].iov_base, p, iov[i].iov_len);
		else
			memcpy(p, iov[i].iov_base, iov[i].iov_len);
	}
}

/* A chain cut where the device's writing starts, and its header. */
struct request {
	const struct virtq_buf *out, *in;	/* the buffers the device reads; writes */
	int outs, ins;				/* how many of each */
	__u32 out_len, in_len;			/* their bytes */
	struct virtio_blk_outhdr hdr;
};

/* Read the request's sectors into its buffers, or write its buffers to them:
 * the status, and in written the bytes given to the driver. */
static __u8 move_sectors(struct virtio_disk *disk, const struct request *r, bool write,
			 __u32 *written)
{
	struct iovec iov[VIRTQ_SIZE];
	__u64 sector = r->hdr.sector, sectors = disk->config.capacity;
	__u32 len = write ? r->out_len - sizeof(r->hdr) : r->in_len - 1;
	int count = write ? part_iov(r->out, r->outs, sizeof(r->hdr), len, iov) :
			    part_iov(r->in, r->ins, 0, len, iov);
	ssize_t done;

	if (len % SECTOR || sector > sectors || len / SECTOR > sectors - sector ||
	    (write && disk->read_only))
		return VIRTIO_BLK_S_IOERR;
	if (write)
		done = pwritev(disk->fd, iov, count, sector * SECTOR);
	else
		done = preadv(disk->fd, iov, count, sector * SECTOR);
	if (done == -1)
		warn("virtio disk: %s", write ? "pwritev" : "preadv");
	if (done != len)
		return VIRTIO_BLK_S_IOERR;
	if (write && !(disk->mmio.driver_features & 1ull << VIRTIO_BLK_F_FLUSH) &&
	    fdatasync(disk->fd) == -1) {
		warn("virtio disk: fdatasync");
		return VIRTIO_BLK_S_IOERR;
	}
	if (write) {
		disk->written += len;
	} else {
		disk->read += len;
		*written = len;
	}
	return VIRTIO_BLK_S_OK;
}

/* Give the disk's name: the status, and the bytes written. */
static __u8 give_id(struct virtio_disk *disk, const struct request *r, __u32 *written)
{
	struct iovec iov[VIRTQ_SIZE];
	__u32 len = r->in_len - 1 < sizeof(disk->id) ? r->in_len - 1 : sizeof(disk->id);

	copy_pieces(iov, part_iov(r->in, r->ins, 0, len, iov), (__u8 *)disk->id, true);
	*written = len;
	return VIRTIO_BLK_S_OK;
}

/* Do what the request's type asks: its status, and the bytes written. */
static __u8 answer(struct virtio_disk *disk, const struct request *r, __u32 *written)
{
	switch (r->hdr.type) {
	case VIRTIO_BLK_T_IN:
		disk->requests[DISK_READ]++;
		return move_sectors(disk, r, false, written);
	case VIRTIO_BLK_T_OUT:
		disk->requests[DISK_WRITE]++;
		return move_sectors(disk, r, true, written);
	case VIRTIO_BLK_T_FLUSH:
		disk->requests[DISK_FLUSH]++;
		if (fdatasync(disk->fd) == 0)
			return VIRTIO_BLK_S_OK;
		warn("virtio disk: fdatasync");
		return VIRTIO_BLK_S_IOERR;
	case VIRTIO_BLK_T_GET_ID:
		disk->requests[DISK_GET_ID]++;
		return give_id(disk, r, written);
	default:
		disk->requests[DISK_OTHER]++;
		return VIRTIO_BLK_S_UNSUPP;
	}
}

/* Fill in the disk's configuration but its capacity: the features that
 * tell the driver to read it, and what more the disk offers. */
static __u64 describe_disk(struct virtio_disk *disk)
{
	disk->config.size_max = DISK_SEGMENT;
	disk->config.seg_max = DISK_SEGMENTS;
	return 1ull << VIRTIO_BLK_F_SIZE_MAX | 1ull << VIRTIO_BLK_F_SEG_MAX |
	       1ull << VIRTIO_BLK_F_FLUSH | (__u64)disk->read_only << VIRTIO_BLK_F_RO;
}

static void disk_report(const struct virtio_mmio *t)
{
	const struct virtio_disk *disk = t->dev.state;

	printf("%-20s %lu\n", "disk reads", disk->requests[DISK_READ]);
	printf("%-20s %lu\n", "disk writes", disk->requests[DISK_WRITE]);
	printf("%-20s %lu\n", "disk flushes", disk->requests[DISK_FLUSH]);
	printf("%-20s %lu\n", "disk names asked", disk->requests[DISK_GET_ID]);
	printf("%-20s %lu\n", "other requests", disk->requests[DISK_OTHER]);
	printf("%-20s %llu\n", "bytes read", disk->read);
	printf("%-20s %llu\n", "bytes written", disk->written);
	printf("%-20s %lu\n", "requests failed", disk->failed);
	printf("%-20s %lu\n", "requests refused", disk->refused);
	printf("%-20s %lu\n", "disk doorbells", t->notifications);
	printf("%-20s %lu\n", "disk interrupts", t->interrupts);
}

/* A chain that is no request: given back unanswered, and told of once. */
static __u32 refuse_request(struct virtio_disk *disk, const char *why)
{
	if (!disk->refused++)
		warnx("virtio disk: a request refused: %s (later ones are only counted)", why);
	return 0;
}

/* Serve the request in the chain of n at buf: the bytes written to it. */
static __u32 serve_request(void *state, const struct virtq_buf *buf, int n)
{
	struct virtio_disk *disk = state;
	struct request r = { .out = buf };
	struct iovec iov[VIRTQ_SIZE];
	__u32 written = 0;
	__u8 status;
	int i;

	while (r.outs < n && !buf[r.outs].writable)
		r.outs++;
	r.in = buf + r.outs;
	r.ins = n - r.outs;
	for (i = 0; i < r.ins; i++)
		if (!r.in[i].writable)
			return refuse_request(disk, "a buffer to read after one to write");
	r.out_len = part_size(r.out, r.outs);
	r.in_len = part_size(r.in, r.ins);
	if (r.out_len < sizeof(r.hdr))
		return refuse_request(disk, "a header of fewer than 16 bytes");
	if (r.in_len == 0)
		return refuse_request(disk, "no byte for the status");
	copy_pieces(iov, part_iov(r.out, r.outs, 0, sizeof(r.hdr), iov), (__u8 *)&r.hdr, false);
	status = answer(disk, &r, &written);
	disk->failed += status != VIRTIO_BLK_S_OK;
	copy_pieces(iov, part_iov(r.in, r.ins, r.in_len - 1, 1, iov), &status, true);
	return written + 1;
}

static void disk_notify(struct virtio_mmio *t, unsigned int queue)
{
	virtio_used(t, queue, virtq_serve_chains(t->vm, &t->queue[queue], serve_request,
						 t->dev.state, VIRTQ_SIZE));
}

/* The disk of the image open_disk opened, in a window at base, interrupting on irq. */
struct device virtio_disk_device(struct virtio_disk *disk, const struct vm *vm, __u64 base,
				 __u32 irq)
{
	struct virtio dev = {
		.name = "virtio disk",
		.id = VIRTIO_ID_BLOCK,
		.features = describe_disk(disk),
		.queues = 1,
		.notify = disk_notify,
		.state = disk,
		.report = disk_report,
		.config = &disk->config,
		.config_size = sizeof(disk->config),
	};

	_Static_assert(sizeof(struct virtio_blk_outhdr) + DISK_SEGMENTS * DISK_SEGMENT + 1 <=
		       VIRTQ_CHAIN_MAX && DISK_SEGMENTS + 2 <= VIRTQ_SIZE,
		       "a request the driver may make must fit in a chain");
	return virtio_mmio_device(&disk->mmio, vm, base, irq, dev);
}

/* Open the image at path as the disk: for reading only, or for reading and
 * writing.  The VMM stops, naming it, if it cannot be a disk. */
void open_disk(struct virtio_disk *disk, const char *path, bool read_only)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;

	*disk = (struct virtio_disk) { .read_only = read_only };
	disk->fd = open(path, read_only ? O_RDONLY : O_RDWR);
	if (disk->fd == -1 || fstat(disk->fd, &st) == -1)
		err(1, "%s", path);
	if (!S_ISREG(st.st_mode))
		errx(1, "%s: not a regular file", path);
	if (st.st_size == 0 || st.st_size % SECTOR)
		errx(1, "%s: %lld bytes, not one or more whole sectors of %d", path,
		     (long long)st.st_size, SECTOR);
	memcpy(disk->id, name, strnlen(name, sizeof(disk->id)));
	disk->config.capacity = st.st_size / SECTOR;
}

