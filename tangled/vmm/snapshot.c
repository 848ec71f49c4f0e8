// SPDX-License-Identifier: GPL-2.0 OR MIT
/* snapshot.c: a running Linux saved to a file, and restored in another process. */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vmm.h"

#define SNAPSHOT_MAGIC		"kvmbook"	/* and its NUL: 8 bytes */
#define SNAPSHOT_VERSION	1
#define PAGE			4096
#define SNAPSHOT_MSRS_MAX	1024	/* far more than KVM has */

struct snapshot_header {
	char magic[8];
	__u32 version;
	__u32 nmsrs;		/* MSRs after the state */
	__u64 ram_size;		/* bytes: the restoring VM gets as much */
	__u64 pages;		/* RAM pages in the file: the ones not all zeros */
};

/* The serial port's registers and the level it gave its line. */
struct uart_state {
	__u8 ier, lcr, mcr, scr, dll, dlm, thr_empty, line;
};

struct machine_state {
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	__u32 xsave[1024];	/* struct kvm_xsave's region: x87, SSE, AVX */
	struct kvm_xcrs xcrs;
	struct kvm_debugregs debugregs;
	struct kvm_lapic_state lapic;
	struct kvm_mp_state mp_state;
	struct kvm_vcpu_events events;
	struct kvm_irqchip pic[2], ioapic;
	struct kvm_pit_state2 pit;
	struct kvm_clock_data clock;
	struct uart_state uart;
	__u8 rtc_index;
};

/* Where each part of a snapshot read into memory is. */
struct snapshot_file {
	const struct snapshot_header *header;
	const struct machine_state *state;
	const struct kvm_msr_entry *msrs;
	const __u8 *pages;	/* pages times: a __u64 page number, then the page */
	void *file;
};

#define PAGE_RECORD	(sizeof(__u64) + PAGE)
#define FNV_OFFSET	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

static __u64 fnv1a(__u64 hash, const void *data, size_t len)
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

/* One MSR's value, or false if KVM will not read it for this vCPU. */
static bool read_msr(int vcpu, __u32 index, __u64 *value)
{
	struct kvm_msrs *one = calloc(1, sizeof(*one) + sizeof(one->entries[0]));
	int n;

	if (!one)
		err(1, "calloc");
	one->nmsrs = 1;
	one->entries[0].index = index;
	n = ioctl(vcpu, KVM_GET_MSRS, one);
	if (n == -1)
		err(1, "KVM_GET_MSRS");
	*value = one->entries[0].data;
	free(one);
	return n == 1;
}

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
	if (ioctl(kvm, KVM_GET_MSR_INDEX_LIST, list) == -1)
		err(1, "KVM_GET_MSR_INDEX_LIST");
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

/* The value of each MSR KVM reads for this vCPU; their number in *count. */
static struct kvm_msr_entry *save_msrs(const struct vm *vm, __u32 *count)
{
	__u32 n, i, *index = msrs_to_save(vm->kvm, vm->vcpu, &n);
	struct kvm_msr_entry *msrs = calloc(n, sizeof(*msrs));

	if (!msrs)
		err(1, "calloc");
	*count = 0;
	for (i = 0; i < n; i++)
		if (read_msr(vm->vcpu, index[i], &msrs[*count].data))
			msrs[(*count)++].index = index[i];
	free(index);
	return msrs;
}

static void state_ioctl(int fd, unsigned long request, void *arg, const char *name)
{
	if (ioctl(fd, request, arg) == -1)
		err(1, "%s", name);
}

/* KVM_GET_XSAVE or KVM_SET_XSAVE, on a struct kvm_xsave of KVM's size around region. */
static void move_xsave(int vcpu, unsigned long request, __u32 *region, const char *name)
{
	struct kvm_xsave *xsave = calloc(1, sizeof(*xsave));

	_Static_assert(sizeof(xsave->region) == sizeof(((struct machine_state *)0)->xsave),
		       "the XSAVE area's size");
	if (!xsave)
		err(1, "calloc");
	memcpy(xsave->region, region, sizeof(xsave->region));
	state_ioctl(vcpu, request, xsave, name);
	memcpy(region, xsave->region, sizeof(xsave->region));
	free(xsave);
}

static void save_state(const struct vm *vm, const struct serial *uart, const struct pc *pc,
		       struct machine_state *s)
{
	state_ioctl(vm->vcpu, KVM_GET_REGS, &s->regs, "KVM_GET_REGS");
	state_ioctl(vm->vcpu, KVM_GET_SREGS, &s->sregs, "KVM_GET_SREGS");
	move_xsave(vm->vcpu, KVM_GET_XSAVE, s->xsave, "KVM_GET_XSAVE");
	state_ioctl(vm->vcpu, KVM_GET_XCRS, &s->xcrs, "KVM_GET_XCRS");
	state_ioctl(vm->vcpu, KVM_GET_DEBUGREGS, &s->debugregs, "KVM_GET_DEBUGREGS");
	state_ioctl(vm->vcpu, KVM_GET_LAPIC, &s->lapic, "KVM_GET_LAPIC");
	state_ioctl(vm->vcpu, KVM_GET_MP_STATE, &s->mp_state, "KVM_GET_MP_STATE");
	state_ioctl(vm->vcpu, KVM_GET_VCPU_EVENTS, &s->events, "KVM_GET_VCPU_EVENTS");
	s->pic[0].chip_id = KVM_IRQCHIP_PIC_MASTER;
	s->pic[1].chip_id = KVM_IRQCHIP_PIC_SLAVE;
	s->ioapic.chip_id = KVM_IRQCHIP_IOAPIC;
	state_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->pic[0], "KVM_GET_IRQCHIP master PIC");
	state_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->pic[1], "KVM_GET_IRQCHIP slave PIC");
	state_ioctl(vm->fd, KVM_GET_IRQCHIP, &s->ioapic, "KVM_GET_IRQCHIP I/O APIC");
	state_ioctl(vm->fd, KVM_GET_PIT2, &s->pit, "KVM_GET_PIT2");
	state_ioctl(vm->fd, KVM_GET_CLOCK, &s->clock, "KVM_GET_CLOCK");
	s->uart = (struct uart_state) {
		uart->ier, uart->lcr, uart->mcr, uart->scr, uart->dll, uart->dlm,
		uart->thr_empty, uart->line,
	};
	s->rtc_index = pc->rtc.index;
}

struct writer {
	FILE *file;
	const char *path;
	__u64 hash;
};

static void put(struct writer *w, const void *data, size_t len)
{
	if (fwrite(data, 1, len, w->file) != len) {
		unlink(w->path);
		err(1, "%s", w->path);
	}
	w->hash = fnv1a(w->hash, data, len);
}

static bool all_zeros(const __u8 *page)
{
	size_t i;

	for (i = 0; i < PAGE; i++)
		if (page[i])
			return false;
	return true;
}

/* Save the stopped machine to path. */
void save_machine(const struct vm *vm, const struct serial *uart, const struct pc *pc,
		  const char *path)
{
	struct snapshot_header h = {
		.magic = SNAPSHOT_MAGIC, .version = SNAPSHOT_VERSION, .ram_size = vm->mem_size,
	};
	struct writer w = { .file = fopen(path, "w"), .path = path, .hash = FNV_OFFSET };
	struct machine_state *s = calloc(1, sizeof(*s));
	struct kvm_msr_entry *msrs = save_msrs(vm, &h.nmsrs);
	const __u8 *ram = vm->mem;
	__u64 page;

	if (!w.file)
		err(1, "%s", path);
	if (!s)
		err(1, "calloc");
	save_state(vm, uart, pc, s);
	for (page = 0; page < h.ram_size / PAGE; page++)
		h.pages += !all_zeros(ram + page * PAGE);
	put(&w, &h, sizeof(h));
	put(&w, s, sizeof(*s));
	put(&w, msrs, h.nmsrs * sizeof(*msrs));
	for (page = 0; page < h.ram_size / PAGE; page++) {
		if (all_zeros(ram + page * PAGE))
			continue;
		put(&w, &page, sizeof(page));
		put(&w, ram + page * PAGE, PAGE);
	}
	if (fwrite(&w.hash, sizeof(w.hash), 1, w.file) != 1 || fclose(w.file)) {
		unlink(path);
		err(1, "%s", path);
	}
	free(msrs);
	free(s);
}

static void refuse(const char *path, const char *why)
{
	errx(1, "%s: not a snapshot this VMM can restore: %s", path, why);
}

static void *read_whole(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	__u8 *data;
	size_t done = 0;
	ssize_t n;

	if (fd == -1 || fstat(fd, &st) == -1)
		err(1, "%s", path);
	if (!S_ISREG(st.st_mode))
		refuse(path, "not a regular file");
	*size = st.st_size;
	data = malloc(*size ? *size : 1);
	if (!data)
		err(1, "malloc");
	while (done < *size && (n = read(fd, data + done, *size - done)) > 0)
		done += n;
	if (done < *size)
		err(1, "%s", path);
	close(fd);
	return data;
}

struct snapshot_file *read_snapshot(const char *path, size_t ram_max)
{
	struct snapshot_file *s = calloc(1, sizeof(*s));
	size_t size, expected;
	__u8 *data;
	__u64 hash, i, page;

	if (!s)
		err(1, "calloc");
	s->file = data = read_whole(path, &size);
	if (size < sizeof(*s->header) + sizeof(*s->state) + sizeof(hash))
		refuse(path, "too short");
	s->header = (const void *)data;
	if (memcmp(s->header->magic, SNAPSHOT_MAGIC, sizeof(s->header->magic)))
		refuse(path, "no kvmbook snapshot header");
	if (s->header->version != SNAPSHOT_VERSION)
		refuse(path, "another version of the format");
	if (s->header->nmsrs > SNAPSHOT_MSRS_MAX || !s->header->ram_size ||
	    s->header->ram_size % PAGE || s->header->ram_size > ram_max ||
	    s->header->pages > s->header->ram_size / PAGE)
		refuse(path, "impossible sizes in its header");
	expected = sizeof(*s->header) + sizeof(*s->state) +
		   s->header->nmsrs * sizeof(*s->msrs) + s->header->pages * PAGE_RECORD;
	if (size != expected + sizeof(hash))
		refuse(path, size < expected + sizeof(hash) ? "truncated" : "bytes after its end");
	memcpy(&hash, data + expected, sizeof(hash));
	if (fnv1a(FNV_OFFSET, data, expected) != hash)
		refuse(path, "its checksum does not match: the file was altered");
	s->state = (const void *)(s->header + 1);
	s->msrs = (const void *)(s->state + 1);
	s->pages = (const __u8 *)(s->msrs + s->header->nmsrs);
	for (i = 0; i < s->header->pages; i++) {
		memcpy(&page, s->pages + i * PAGE_RECORD, sizeof(page));
		if (page >= s->header->ram_size / PAGE)
			refuse(path, "a page outside its RAM");
	}
	return s;
}

size_t snapshot_ram(const struct snapshot_file *s)
{
	return s->header->ram_size;
}

static void restore_msrs(const struct vm *vm, const struct snapshot_file *s)
{
	__u32 n = s->header->nmsrs;
	struct kvm_msrs *msrs = malloc(sizeof(*msrs) + n * sizeof(msrs->entries[0]));
	int set;

	if (!msrs)
		err(1, "malloc");
	msrs->nmsrs = n;
	memcpy(msrs->entries, s->msrs, n * sizeof(msrs->entries[0]));
	set = ioctl(vm->vcpu, KVM_SET_MSRS, msrs);
	if (set == -1)
		err(1, "KVM_SET_MSRS");
	if ((__u32)set != n)
		errx(1, "KVM_SET_MSRS: MSR %#x refused, %d of %u set", msrs->entries[set].index,
		     set, n);
	free(msrs);
}

void restore_machine(const struct snapshot_file *s, const struct vm *vm, struct serial *uart,
		     struct pc *pc)
{
	struct machine_state st = *s->state;	/* the ioctls' arguments are not const */
	__u64 i, page;

	for (i = 0; i < s->header->pages; i++) {
		memcpy(&page, s->pages + i * PAGE_RECORD, sizeof(page));
		memcpy((__u8 *)vm->mem + page * PAGE, s->pages + i * PAGE_RECORD + sizeof(page),
		       PAGE);
	}
	state_ioctl(vm->fd, KVM_SET_IRQCHIP, &st.pic[0], "KVM_SET_IRQCHIP master PIC");
	state_ioctl(vm->fd, KVM_SET_IRQCHIP, &st.pic[1], "KVM_SET_IRQCHIP slave PIC");
	state_ioctl(vm->fd, KVM_SET_IRQCHIP, &st.ioapic, "KVM_SET_IRQCHIP I/O APIC");
	state_ioctl(vm->fd, KVM_SET_PIT2, &st.pit, "KVM_SET_PIT2");
	state_ioctl(vm->vcpu, KVM_SET_SREGS, &st.sregs, "KVM_SET_SREGS");
	state_ioctl(vm->vcpu, KVM_SET_REGS, &st.regs, "KVM_SET_REGS");
	move_xsave(vm->vcpu, KVM_SET_XSAVE, st.xsave, "KVM_SET_XSAVE");
	if (st.xcrs.nr_xcrs)
		state_ioctl(vm->vcpu, KVM_SET_XCRS, &st.xcrs, "KVM_SET_XCRS");
	state_ioctl(vm->vcpu, KVM_SET_LAPIC, &st.lapic, "KVM_SET_LAPIC");
	restore_msrs(vm, s);
	state_ioctl(vm->vcpu, KVM_SET_DEBUGREGS, &st.debugregs, "KVM_SET_DEBUGREGS");
	state_ioctl(vm->vcpu, KVM_SET_MP_STATE, &st.mp_state, "KVM_SET_MP_STATE");
	state_ioctl(vm->vcpu, KVM_SET_VCPU_EVENTS, &st.events, "KVM_SET_VCPU_EVENTS");
	st.clock.flags = 0;	/* the time it holds, not a host's realtime with it */
	state_ioctl(vm->fd, KVM_SET_CLOCK, &st.clock, "KVM_SET_CLOCK");
	uart->ier = st.uart.ier;
	uart->lcr = st.uart.lcr;
	uart->mcr = st.uart.mcr;
	uart->scr = st.uart.scr;
	uart->dll = st.uart.dll;
	uart->dlm = st.uart.dlm;
	uart->thr_empty = st.uart.thr_empty;
	uart->line = st.uart.line;
	pc->rtc.index = st.rtc_index;
}

