// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Saving a running Linux", book/43-saving-linux.nw. */
/* snapshot.c: a running Linux saved to a stream, and restored from one. */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/virtio_ids.h>
#include "vmm.h"

#define SNAPSHOT_VERSION	2	/* the layout this VMM writes, and the only one it reads */
#define FNV_PRIME	0x100000001b3ULL

__u64 fnv1a(__u64 hash, const void *data, size_t len)
{
	const __u8 *byte = data;

	while (len--)
		hash = (hash ^ *byte++) * FNV_PRIME;
	return hash;
}

#define MSR_MTRR_CAP		0xfe	/* bits 7:0: the variable ranges */
#define MSR_MTRR_BASE		0x200	/* then mask, a pair for each range */
#define MSR_MTRR_DEF_TYPE	0x2ff

static const __u32 mtrr_fixed[] = {
	0x250, 0x258, 0x259, 0x268, 0x269, 0x26a, 0x26b, 0x26c, 0x26d, 0x26e, 0x26f,
};

/* KVM's list of the MSRs to save, and the MTRRs it leaves out. */
static __u32 *msrs_to_save(int kvm, int vcpu, __u32 *count)
{
	struct kvm_msr_list probe = { .nmsrs = 0 }, *list;
	__u64 cap = 0;
	__u32 *index, n, i;

	if (ioctl(kvm, KVM_GET_MSR_INDEX_LIST, &probe) == 0 || errno != E2BIG)
		err(1, "KVM_GET_MSR_INDEX_LIST");
	read_msr(vcpu, MSR_MTRR_CAP, &cap);
	n = probe.nmsrs + ARRAY_SIZE(mtrr_fixed) + 1 + 2 * (cap & 0xff);
	list = malloc(sizeof(*list) + n * sizeof(list->indices[0]));
	if (!list)
		err(1, "malloc");
	list->nmsrs = probe.nmsrs;
	kvm_ioctl(kvm, KVM_GET_MSR_INDEX_LIST, list, "KVM_GET_MSR_INDEX_LIST");
	index = list->indices;
	n = list->nmsrs;
	for (i = 0; i < ARRAY_SIZE(mtrr_fixed); i++)
		index[n++] = mtrr_fixed[i];
	for (i = 0; i < 2 * (cap & 0xff); i++)
		index[n++] = MSR_MTRR_BASE + i;
	index[n++] = MSR_MTRR_DEF_TYPE;
	memmove(list, index, n * sizeof(*index));
	*count = n;
	return (__u32 *)list;
}

/* The MSRs of that list KVM reads for this vCPU, named for the snapshot to save. */
static struct kvm_msrs *chosen_msrs(const struct vm *vm)
{
	__u32 n, i, *index = msrs_to_save(vm->kvm, vm->vcpu, &n);
	struct kvm_msrs *msrs = calloc(1, sizeof(*msrs) + n * sizeof(msrs->entries[0]));
	__u64 value;

	if (!msrs)
		err(1, "calloc");
	for (i = 0; i < n; i++)
		if (read_msr(vm->vcpu, index[i], &value))
			msrs->entries[msrs->nmsrs++].index = index[i];
	free(index);
	return msrs;
}

/* What the stream is, and the RAM the machine that goes on from it needs. */
static struct snapshot_header stream_header(const struct vm *vm)
{
	return (struct snapshot_header) {
		.magic = SNAPSHOT_MAGIC, .version = SNAPSHOT_VERSION, .ram_size = vm->mem_size,
	};
}

/* A port device that keeps state: the bus's name for it, and its record's calls. */
struct port_kind {
	const char *name;
	__u32 size;		/* bytes of its record, at most PORT_RECORD_MAX */
	void (*save)(const void *state, void *record);
	void (*restore)(void *state, const void *record);
};

static void save_rtc(const void *state, void *record)
{
	const struct rtc *rtc = state;

	*(__u8 *)record = rtc->index;
}

static void restore_rtc(void *state, const void *record)
{
	struct rtc *rtc = state;

	rtc->index = *(const __u8 *)record & 0x7f;	/* as a write of the index port */
}

static const struct port_kind port_kinds[] = {
	{ "serial port", sizeof(struct uart_state), serial_save, serial_restore },
	{ "clock", 1, save_rtc, restore_rtc },
	{ "power", sizeof(struct power_state), power_save, power_restore },
};

/* The kind of record dev keeps, or NULL. */
static const struct port_kind *kind_of(const struct device *dev)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(port_kinds); i++)
		if (!strcmp(port_kinds[i].name, dev->name))
			return &port_kinds[i];
	return NULL;
}

/* How many of the bus's devices keep a record. */
static __u32 count_port_records(const struct bus *pio)
{
	__u32 n = 0;
	size_t i;

	for (i = 0; i < pio->count; i++)
		n += kind_of(&pio->devices[i]) != NULL;
	return n;
}

/* The snapshot's pieces as bytes: all of it but the pointer to its MSRs, which is last. */
#define SNAPSHOT_PIECES	offsetof(struct snapshot, msrs)

struct snapshot_writer {
	FILE *file;
	const char *name;	/* for messages */
	const char *path;	/* a file to remove if a write fails; NULL for a socket */
	__u64 hash;
};

static void put(struct snapshot_writer *w, const void *data, size_t len)
{
	if (fwrite(data, 1, len, w->file) != len) {
		if (w->path)
			unlink(w->path);
		err(1, "%s", w->name);
	}
	w->hash = fnv1a(w->hash, data, len);
}

struct snapshot_writer *start_snapshot(int fd, const char *name, const char *path,
				       const struct vm *vm)
{
	struct snapshot_header h = stream_header(vm);
	struct snapshot_writer *w = malloc(sizeof(*w));

	if (!w)
		err(1, "malloc");
	*w = (struct snapshot_writer) {
		.file = fdopen(fd, "w"), .name = name, .path = path, .hash = FNV_OFFSET,
	};
	if (!w->file)
		err(1, "%s", name);
	put(w, &h, sizeof(h));
	return w;
}

/* The page is copied first: the guest may be writing it, and the bytes sent and the
 * bytes the checksum reads must be the same bytes. */
void put_page(struct snapshot_writer *w, const struct vm *vm, __u64 page)
{
	__u8 copy[PAGE_SIZE];

	memcpy(copy, (const __u8 *)vm->mem + page * PAGE_SIZE, PAGE_SIZE);
	put(w, &page, sizeof(page));
	put(w, copy, PAGE_SIZE);
}

static bool all_zeros(const __u8 *page)
{
	size_t i;

	for (i = 0; i < PAGE_SIZE; i++)
		if (page[i])
			return false;
	return true;
}

/* Every page that is not all zeros; returns how many. */
unsigned long put_ram(struct snapshot_writer *w, const struct vm *vm)
{
	unsigned long sent = 0;
	__u64 page;

	for (page = 0; page < vm->mem_size / PAGE_SIZE; page++) {
		if (!all_zeros((const __u8 *)vm->mem + page * PAGE_SIZE)) {
			put_page(w, vm, page);
			sent++;
		}
	}
	return sent;
}

static void put_devices(struct snapshot_writer *w, struct virtio_mmio *const *virtio,
			size_t count)
{
	struct virtio_state s;
	__u32 n = count, i;

	put(w, &n, sizeof(n));
	for (i = 0; i < n; i++) {
		virtio_save(virtio[i], &s);
		put(w, &s, sizeof(s));
	}
}

/* A record for each port device that keeps one, in the bus's order, after their count. */
static void put_port_records(struct snapshot_writer *w, const struct bus *pio)
{
	__u32 n = count_port_records(pio);
	size_t i;

	put(w, &n, sizeof(n));
	for (i = 0; i < pio->count; i++) {
		const struct device *dev = &pio->devices[i];
		const struct port_kind *kind = kind_of(dev);
		__u64 record[PORT_RECORD_MAX / 8] = { 0 };
		struct port_record h;

		if (!kind)
			continue;
		h = (struct port_record) { dev->base, kind->size };
		kind->save(dev->state, record);
		put(w, &h, sizeof(h));
		put(w, record, h.size);
	}
}

/* The stopped machine's devices and state after the pages, and the checksum. */
void finish_snapshot(struct snapshot_writer *w, const struct vmm *v)
{
	const struct vm *vm = &v->m.vm;
	struct snapshot *s = calloc(1, sizeof(*s));	/* zeros in the padding too */
	__u64 end = PAGES_END;
	__u32 nmsrs;

	if (!s)
		err(1, "calloc");
	s->msrs = chosen_msrs(vm);
	take_snapshot(vm, s, true);
	nmsrs = s->msrs->nmsrs;
	put(w, &end, sizeof(end));
	put_devices(w, v->virtio, v->in_memory);
	put_port_records(w, &v->m.pio);
	put(w, s, SNAPSHOT_PIECES);
	put(w, &nmsrs, sizeof(nmsrs));
	put(w, s->msrs->entries, nmsrs * sizeof(s->msrs->entries[0]));
	if (fwrite(&w->hash, sizeof(w->hash), 1, w->file) != 1 || fclose(w->file)) {
		if (w->path)
			unlink(w->path);
		err(1, "%s", w->name);
	}
	free(s->msrs);
	free(s);
	free(w);
}

/* -S: the stopped machine to the file path. */
void save_machine(const struct vmm *v, const char *path)
{
	const struct vm *vm = &v->m.vm;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct snapshot_writer *w;

	if (fd == -1)
		err(1, "%s", path);
	w = start_snapshot(fd, path, path, vm);
	put_ram(w, vm);
	finish_snapshot(w, v);
}

/* The stream is not one to go on from: say why (a printf format) and stop. */
__attribute__((format(printf, 2, 3), noreturn))
static void refuse(const struct snapshot_reader *r, const char *why, ...)
{
	char reason[256];
	va_list args;

	va_start(args, why);
	vsnprintf(reason, sizeof(reason), why, args);
	va_end(args);
	errx(1, "%s: not a machine this VMM can restore: %s", r->name, reason);
}

/* Exactly len bytes, or the stream is refused as cut short. */
static void get(struct snapshot_reader *r, void *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(r->fd, (__u8 *)data + done, len - done);

		if (n == -1)
			err(1, "%s", r->name);
		if (n == 0)
			refuse(r, "truncated");
		done += n;
	}
	r->hash = fnv1a(r->hash, data, len);
}

void open_snapshot(struct snapshot_reader *r, int fd, const char *name, size_t ram_max)
{
	*r = (struct snapshot_reader) { .fd = fd, .name = name, .hash = FNV_OFFSET };
	get(r, &r->header, sizeof(r->header));
	if (memcmp(r->header.magic, SNAPSHOT_MAGIC, sizeof(r->header.magic)))
		refuse(r, "no kvmbook header");
	if (r->header.version != SNAPSHOT_VERSION)
		refuse(r, "its stream is version %u, and this VMM reads version %d",
		       r->header.version, SNAPSHOT_VERSION);
	if (!r->header.ram_size || r->header.ram_size % PAGE_SIZE || r->header.ram_size > ram_max)
		refuse(r, "a size of RAM this VMM cannot give");
}

/* -R: a snapshot in the file path. */
void read_snapshot(struct snapshot_reader *r, const char *path, size_t ram_max)
{
	int fd = open(path, O_RDONLY);

	if (fd == -1)
		err(1, "%s", path);
	open_snapshot(r, fd, path, ram_max);
}

/* The option that gives the device with this id, for a message. */
static const char *device_option(__u32 id)
{
	switch (id) {
	case VIRTIO_ID_CONSOLE:
		return " -v";
	case VIRTIO_ID_BLOCK:
		return " -d IMAGE";
	case VIRTIO_ID_NET:
		return " -n TAP";
	default:
		return " (a device this VMM does not have)";
	}
}

/* The options of the n devices with these ids, into list. */
static void list_devices(char *list, size_t size, const __u32 *ids, __u32 n)
{
	size_t used = 0;
	__u32 i;

	snprintf(list, size, "%s", n ? "" : " no virtio device");
	for (i = 0; i < n && used < size; i++)
		used += snprintf(list + used, size - used, "%s", device_option(ids[i]));
}

/* Refuse the stream if its n records are not of the VMM's count devices, in order. */
static void check_device_list(const struct snapshot_reader *r, const struct virtio_state *s,
			      __u32 n, struct virtio_mmio *const *virtio, size_t count)
{
	__u32 saved_ids[VIRTIO_DEVICES] = { 0 }, ids[VIRTIO_DEVICES] = { 0 }, i;
	char saved_list[128], list[128];
	bool same = n == count;

	for (i = 0; i < n; i++)
		saved_ids[i] = s[i].id;
	for (i = 0; i < count; i++) {
		ids[i] = virtio[i]->dev.id;
		same = same && ids[i] == saved_ids[i];
	}
	if (same)
		return;
	list_devices(saved_list, sizeof(saved_list), saved_ids, n);
	list_devices(list, sizeof(list), ids, count);
	refuse(r, "it has%s, this VMM%s: give it the same devices", saved_list, list);
}

/* The stream's virtio devices, the VMM's, each record set into a copy of its
 * device in restored; else the stream is refused. */
static void read_devices(struct snapshot_reader *r, struct virtio_mmio *const *virtio,
			 size_t count, struct virtio_mmio *restored)
{
	struct virtio_state s[VIRTIO_DEVICES];
	__u32 n, i;

	get(r, &n, sizeof(n));
	if (n > VIRTIO_DEVICES)
		refuse(r, "more virtio devices than this VMM has");
	get(r, s, n * sizeof(s[0]));
	check_device_list(r, s, n, virtio, count);
	for (i = 0; i < n; i++) {
		const char *wrong;

		restored[i] = *virtio[i];
		wrong = virtio_restore(&restored[i], &s[i]);
		if (wrong)
			refuse(r, "its %s: %s", virtio[i]->dev.name, wrong);
	}
}

/* Whether the port bus's device of that place has one of the first n records read. */
static bool has_record(const struct saved_machine *saved, __u32 n, size_t device)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (saved->ports[i].device == device)
			return true;
	return false;
}

/* A record for each of the VMM's port devices that keeps one, and no other; else the
 * stream is refused. */
static void read_port_records(struct snapshot_reader *r, struct saved_machine *saved)
{
	const struct bus *pio = saved->pio;
	__u32 n, i;
	size_t j;

	get(r, &n, sizeof(n));
	if (n > MAX_DEVICES)
		refuse(r, "more port devices' records than a bus has devices");
	for (i = 0; i < n; i++) {
		struct saved_port *p = &saved->ports[i];
		const struct port_kind *kind;
		const struct device *dev;
		struct port_record h;

		get(r, &h, sizeof(h));
		dev = find_device(pio, h.port, 1);
		kind = dev && dev->base == h.port ? kind_of(dev) : NULL;
		if (!kind)
			refuse(r, "a record of a device at port %#x, which this VMM does not have",
			       h.port);
		if (h.size != kind->size)
			refuse(r, "its record of the %s has %u bytes, where this VMM's has %u",
			       kind->name, h.size, kind->size);
		p->device = dev - pio->devices;
		if (has_record(saved, i, p->device))
			refuse(r, "two records of the %s", kind->name);
		get(r, p->record, h.size);
	}
	for (j = 0; j < pio->count; j++)
		if (kind_of(&pio->devices[j]) && !has_record(saved, n, j))
			refuse(r, "no record of the %s: give it the same devices",
			       pio->devices[j].name);
	saved->nports = n;
}

/* The pages into the VM's RAM, then the devices, the pieces and the MSRs, all checked. */
void read_machine(struct snapshot_reader *r, const struct vm *vm, struct saved_machine *saved)
{
	__u64 page, hash, checksum;
	__u8 more;

	for (;;) {
		get(r, &page, sizeof(page));
		if (page == PAGES_END)
			break;
		if (page >= vm->mem_size / PAGE_SIZE)
			refuse(r, "a page outside its RAM");
		get(r, (__u8 *)vm->mem + page * PAGE_SIZE, PAGE_SIZE);
	}
	read_devices(r, saved->virtio, saved->count, saved->devices);
	read_port_records(r, saved);
	get(r, &saved->state, SNAPSHOT_PIECES);
	get(r, &saved->nmsrs, sizeof(saved->nmsrs));
	if (saved->nmsrs > SNAPSHOT_MSRS_MAX)
		refuse(r, "more MSRs than a vCPU has");
	get(r, saved->msrs, saved->nmsrs * sizeof(saved->msrs[0]));
	hash = r->hash;
	get(r, &checksum, sizeof(checksum));
	if (checksum != hash)
		refuse(r, "its checksum does not match: it was altered");
	if (read(r->fd, &more, 1) != 0)
		refuse(r, "bytes after its end");
}

/* The devices, the vCPU complete: each port device's record, and the
 * virtio devices as the reader set them up. */
static void restore_devices(const struct saved_machine *saved, struct vmm *v)
{
	for (__u32 i = 0; i < saved->nports; i++) {
		const struct device *dev = &v->m.pio.devices[saved->ports[i].device];

		kind_of(dev)->restore(dev->state, saved->ports[i].record);
	}
	for (size_t i = 0; i < v->in_memory; i++)
		*v->virtio[i] = saved->devices[i];
}

/* The snapshot's pieces in the table's order, with the stream's MSRs, then the devices. */
static void set_state(struct vmm *v, struct saved_machine *saved)
{
	struct snapshot *s = &saved->state;
	__u32 n = saved->nmsrs;

	s->msrs = malloc(sizeof(*s->msrs) + n * sizeof(s->msrs->entries[0]));
	if (!s->msrs)
		err(1, "malloc");
	s->msrs->nmsrs = n;
	memcpy(s->msrs->entries, saved->msrs, n * sizeof(saved->msrs[0]));
	restore_snapshot(&v->m.vm, s, "", true);
	free(s->msrs);
	restore_devices(saved, v);
}

void restore_machine(struct snapshot_reader *r, struct vmm *v)
{
	const struct vm *vm = &v->m.vm;
	struct saved_machine *saved = malloc(sizeof(*saved));

	if (!saved)
		err(1, "malloc");
	saved->pio = &v->m.pio;
	saved->virtio = v->virtio;
	saved->count = v->in_memory;
	read_machine(r, vm, saved);
	set_state(v, saved);
	close(r->fd);
	free(saved);
}

