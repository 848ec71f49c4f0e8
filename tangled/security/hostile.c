// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* hostile: a guest that hands the virtio console malformed queues. */
#include <sys/mman.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include <linux/virtio_mmio.h>
#include <linux/virtio_ring.h>
/* The VMM's pointer to len bytes at guest-physical addr, or NULL if any of
 * them lies outside Part I's page. */
void *guest_ptr(const struct vm *vm, __u64 addr, __u64 len)
{
	if (addr < GUEST_ADDR || addr - GUEST_ADDR > GUEST_MEM_SIZE ||
	    len > GUEST_MEM_SIZE - (addr - GUEST_ADDR))
		return NULL;
	return (char *)vm->mem + (addr - GUEST_ADDR);
}

#define VIRTQ_SIZE	64	/* the most entries a queue may have */

/* A split virtqueue as its device sees it: three areas of guest memory. */
struct virtq {
	__u16 num;		/* entries: a power of two the driver chose */
	__u64 desc;		/* guest-physical: the descriptor table */
	__u64 avail;		/* the available ring: chains for the device */
	__u64 used;		/* the used ring: chains given back */
	bool ready;		/* set up by the driver and checked by the VMM */
	const char *error;	/* why the device stopped using it, if it did */
	__u16 next_avail;	/* the next available entry to take */
	__u16 next_used;	/* the next used entry to fill */
};

/* One buffer of a chain, given to a device; returns the bytes written to it. */
typedef __u32 (*virtq_buffer)(void *state, void *data, __u32 len, bool writable);

#define VIRTIO_QUEUES		2	/* the most queues a device of this VMM has */
#define VIRTIO_MMIO_SIZE	0x1000	/* each device's window */

struct virtio_mmio;

/* What a virtio device tells the transport about itself. */
struct virtio {
	const char *name;
	__u32 id;			/* VIRTIO_ID_*: which kind of device */
	__u64 features;			/* offered besides VIRTIO_F_VERSION_1 */
	unsigned int queues;		/* at most VIRTIO_QUEUES */
	void (*notify)(struct virtio_mmio *t, unsigned int queue);
	void *state;			/* the device's, for notify */
};

/* Version 2 of virtio's MMIO registers, and the device behind them. */
struct virtio_mmio {
	const struct vm *vm;
	__u32 irq;			/* its interrupt line */
	struct virtio dev;
	__u32 latch;			/* a register's bytes, as they are written */
	__u32 device_features_sel, driver_features_sel, queue_sel;
	__u64 driver_features;		/* accepted by the driver */
	__u32 status;			/* VIRTIO_CONFIG_S_*: the driver's progress */
	__u32 interrupt_status;		/* VIRTIO_MMIO_INT_*: why the line is up */
	bool line;			/* the level last given to KVM */
	struct virtq queue[VIRTIO_QUEUES];
	unsigned long notifications;	/* doorbells rung */
	unsigned long interrupts;	/* times the line went up */
};

struct virtio_console {
	struct virtio_mmio mmio;
	unsigned long sent;	/* bytes written by the guest */
};

static __u64 desc_size(__u16 num)
{
	return (__u64)num * sizeof(struct vring_desc);
}

static __u64 avail_size(__u16 num)
{
	return sizeof(struct vring_avail) + (__u64)num * sizeof(__u16) + sizeof(__u16);
}

static __u64 used_size(__u16 num)
{
	return sizeof(struct vring_used) + (__u64)num * sizeof(struct vring_used_elem) +
	       sizeof(__u16);
}

/* Stop using q, for the reason why; -1, for the caller to return. */
static int refuse(struct virtq *q, const char *why)
{
	q->ready = false;
	q->error = why;
	return -1;
}

/* Take the queue into use if its size is one the device offers and its areas
 * lie in RAM, aligned: 0, or -1 and the reason in error. */
int virtq_start(const struct vm *vm, struct virtq *q)
{
	q->next_avail = 0;
	q->next_used = 0;
	if (!q->num || q->num > VIRTQ_SIZE || q->num & (q->num - 1))
		return refuse(q, "a size that is not a power of two up to QUEUE_NUM_MAX");
	if (q->desc % VRING_DESC_ALIGN_SIZE || q->avail % VRING_AVAIL_ALIGN_SIZE ||
	    q->used % VRING_USED_ALIGN_SIZE)
		return refuse(q, "an area not aligned");
	if (!guest_ptr(vm, q->desc, desc_size(q->num)) ||
	    !guest_ptr(vm, q->avail, avail_size(q->num)) ||
	    !guest_ptr(vm, q->used, used_size(q->num)))
		return refuse(q, "an area outside RAM");
	q->ready = true;
	return 0;
}

/* Copy the chain at head into chain; its length, or -1 if it leaves the
 * table or RAM, or loops. */
static int copy_chain(const struct vm *vm, struct virtq *q, __u16 head,
		      struct vring_desc *chain)
{
	const struct vring_desc *table = guest_ptr(vm, q->desc, desc_size(q->num));
	__u16 i = head;
	int n;

	for (n = 0; n < q->num; n++) {
		if (i >= q->num)
			return refuse(q, "a descriptor past the table");
		chain[n] = table[i];
		if (chain[n].flags & VRING_DESC_F_INDIRECT)
			return refuse(q, "an indirect descriptor, a feature not offered");
		if (!guest_ptr(vm, chain[n].addr, chain[n].len))
			return refuse(q, "a buffer outside RAM");
		if (!(chain[n].flags & VRING_DESC_F_NEXT))
			return n + 1;
		i = chain[n].next;
	}
	return refuse(q, "a chain longer than the queue, so a loop");
}

/* Give each buffer of a checked chain of n to fn; the bytes written to them. */
static __u32 take_chain(const struct vm *vm, const struct vring_desc *chain, int n,
			virtq_buffer fn, void *state)
{
	__u32 written = 0;
	int i;

	for (i = 0; i < n; i++)
		written += fn(state, guest_ptr(vm, chain[i].addr, chain[i].len), chain[i].len,
			      chain[i].flags & VRING_DESC_F_WRITE);
	return written;
}

/* Serve every chain made available since the last call: how many, or -1 and
 * the reason in error if the queue is malformed. */
int virtq_serve(const struct vm *vm, struct virtq *q, virtq_buffer fn, void *state)
{
	struct vring_avail *avail;
	struct vring_used *used;
	int served = 0;
	__u16 end;

	if (!q->ready)
		return 0;
	avail = guest_ptr(vm, q->avail, avail_size(q->num));
	used = guest_ptr(vm, q->used, used_size(q->num));
	end = __atomic_load_n(&avail->idx, __ATOMIC_ACQUIRE);
	if ((__u16)(end - q->next_avail) > q->num)
		return refuse(q, "more chains than the queue holds");
	while (q->next_avail != end) {
		struct vring_desc chain[VIRTQ_SIZE];
		__u16 head = avail->ring[q->next_avail++ % q->num];
		int n = copy_chain(vm, q, head, chain);
		struct vring_used_elem *elem;

		if (n < 0)
			return -1;
		elem = &used->ring[q->next_used++ % q->num];
		elem->id = head;
		elem->len = take_chain(vm, chain, n, fn, state);
		served++;
	}
	__atomic_store_n(&used->idx, q->next_used, __ATOMIC_RELEASE);
	return served;
}

/* Whether the driver asked to be interrupted for used chains. */
bool virtq_wants_interrupt(const struct vm *vm, const struct virtq *q)
{
	const struct vring_avail *avail = guest_ptr(vm, q->avail, avail_size(q->num));

	return !(avail->flags & VRING_AVAIL_F_NO_INTERRUPT);
}

#define VIRTIO_MAGIC	0x74726976	/* "virt", read as a little-endian word */
#define VIRTIO_VENDOR	0x626d766b	/* "kvmb": the book's, no one's registered id */

static struct virtq *selected_queue(struct virtio_mmio *t)
{
	return t->queue_sel < t->dev.queues ? &t->queue[t->queue_sel] : NULL;
}

static __u64 offered(const struct virtio_mmio *t)
{
	return t->dev.features | 1ull << VIRTIO_F_VERSION_1;
}

/* The value of the 32-bit register at reg. */
static __u32 virtio_register(struct virtio_mmio *t, __u64 reg)
{
	const struct virtq *q = selected_queue(t);

	switch (reg) {
	case VIRTIO_MMIO_MAGIC_VALUE:
		return VIRTIO_MAGIC;
	case VIRTIO_MMIO_VERSION:
		return 2;
	case VIRTIO_MMIO_DEVICE_ID:
		return t->dev.id;
	case VIRTIO_MMIO_VENDOR_ID:
		return VIRTIO_VENDOR;
	case VIRTIO_MMIO_DEVICE_FEATURES:
		return t->device_features_sel < 2 ? offered(t) >> 32 * t->device_features_sel : 0;
	case VIRTIO_MMIO_QUEUE_NUM_MAX:
		return q ? VIRTQ_SIZE : 0;
	case VIRTIO_MMIO_QUEUE_READY:
		return q && q->ready;
	case VIRTIO_MMIO_INTERRUPT_STATUS:
		return t->interrupt_status;
	case VIRTIO_MMIO_STATUS:
		return t->status;
	default:	/* write-only, the generation, a configuration of nothing */
		return 0;
	}
}

static __u8 virtio_mmio_read(void *state, __u64 offset)
{
	return virtio_register(state, offset & ~3ull) >> 8 * (offset & 3);
}

static void update_line(struct virtio_mmio *t)
{
	bool level = t->interrupt_status != 0;

	if (level == t->line)
		return;
	irq_line(t->vm->fd, t->irq, level);
	t->line = level;
	t->interrupts += level;
}

/* A device served queue: interrupt the driver if it wants, or give up on a
 * malformed queue. */
void virtio_used(struct virtio_mmio *t, unsigned int queue, int served)
{
	if (served < 0) {
		warnx("%s: queue %u: %s; the device stops", t->dev.name, queue,
		      t->queue[queue].error);
		t->status |= VIRTIO_CONFIG_S_NEEDS_RESET;
	} else if (served && virtq_wants_interrupt(t->vm, &t->queue[queue])) {
		t->interrupt_status |= VIRTIO_MMIO_INT_VRING;
		update_line(t);
	}
}

static void reset(struct virtio_mmio *t)
{
	memset(t->queue, 0, sizeof(t->queue));
	t->device_features_sel = 0;
	t->driver_features_sel = 0;
	t->queue_sel = 0;
	t->driver_features = 0;
	t->status = 0;
	t->interrupt_status = 0;
	update_line(t);
}

static void set_status(struct virtio_mmio *t, __u32 status)
{
	bool acceptable = !(t->driver_features & ~offered(t)) &&
			  t->driver_features & 1ull << VIRTIO_F_VERSION_1;

	if (!status) {
		reset(t);
		return;
	}
	if (!(t->status & VIRTIO_CONFIG_S_FEATURES_OK) && !acceptable)
		status &= ~VIRTIO_CONFIG_S_FEATURES_OK;
	t->status = status;
}

static void set_half(__u64 *addr, bool high, __u32 value)
{
	if (high)
		*addr = (*addr & 0xffffffffull) | (__u64)value << 32;
	else
		*addr = (*addr & ~0xffffffffull) | value;
}

/* A write to the queue registers of the selected, not yet ready queue q. */
static void set_queue(struct virtio_mmio *t, struct virtq *q, __u64 reg, __u32 value)
{
	switch (reg) {
	case VIRTIO_MMIO_QUEUE_NUM:
		q->num = value <= VIRTQ_SIZE ? value : 0;
		break;
	case VIRTIO_MMIO_QUEUE_DESC_LOW:
	case VIRTIO_MMIO_QUEUE_DESC_HIGH:
		set_half(&q->desc, reg == VIRTIO_MMIO_QUEUE_DESC_HIGH, value);
		break;
	case VIRTIO_MMIO_QUEUE_AVAIL_LOW:
	case VIRTIO_MMIO_QUEUE_AVAIL_HIGH:
		set_half(&q->avail, reg == VIRTIO_MMIO_QUEUE_AVAIL_HIGH, value);
		break;
	case VIRTIO_MMIO_QUEUE_USED_LOW:
	case VIRTIO_MMIO_QUEUE_USED_HIGH:
		set_half(&q->used, reg == VIRTIO_MMIO_QUEUE_USED_HIGH, value);
		break;
	case VIRTIO_MMIO_QUEUE_READY:
		if (value && virtq_start(t->vm, q) < 0)
			warnx("%s: queue %u refused: %s", t->dev.name, t->queue_sel, q->error);
		break;
	}
}

static void set_register(struct virtio_mmio *t, __u64 reg, __u32 value)
{
	struct virtq *q = selected_queue(t);

	switch (reg) {
	case VIRTIO_MMIO_DEVICE_FEATURES_SEL:
		t->device_features_sel = value;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES_SEL:
		t->driver_features_sel = value;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES:
		if (t->driver_features_sel < 2)
			set_half(&t->driver_features, t->driver_features_sel, value);
		break;
	case VIRTIO_MMIO_QUEUE_SEL:
		t->queue_sel = value;
		break;
	case VIRTIO_MMIO_QUEUE_NOTIFY:
		if (value < t->dev.queues) {
			t->notifications++;
			t->dev.notify(t, value);
		}
		break;
	case VIRTIO_MMIO_INTERRUPT_ACK:
		t->interrupt_status &= ~value;
		update_line(t);
		break;
	case VIRTIO_MMIO_STATUS:
		set_status(t, value);
		break;
	default:
		if (q && q->ready && reg == VIRTIO_MMIO_QUEUE_READY && !value)
			q->ready = false;
		else if (q && !q->ready)
			set_queue(t, q, reg, value);
	}
}

static void virtio_mmio_write(void *state, __u64 offset, __u8 value)
{
	struct virtio_mmio *t = state;
	unsigned int shift = 8 * (offset & 3);

	t->latch = (t->latch & ~(0xffu << shift)) | (__u32)value << shift;
	if ((offset & 3) == 3)
		set_register(t, offset & ~3ull, t->latch);
}

/* The transport for dev, in a window at base, interrupting on irq. */
struct device virtio_mmio_device(struct virtio_mmio *t, const struct vm *vm, __u64 base,
				 __u32 irq, struct virtio dev)
{
	*t = (struct virtio_mmio) { .vm = vm, .irq = irq, .dev = dev };
	return (struct device) {
		base, VIRTIO_MMIO_SIZE, t, virtio_mmio_read, virtio_mmio_write, dev.name
	};
}

#define CONSOLE_RECEIVE		0	/* the receive queue: buffers for input */
#define CONSOLE_TRANSMIT	1	/* the transmit queue: the guest's output */

static __u32 print_buffer(void *state, void *data, __u32 len, bool writable)
{
	struct virtio_console *console = state;

	if (writable)
		return 0;
	if (write(STDOUT_FILENO, data, len) != (ssize_t)len)
		err(1, "stdout");
	console->sent += len;
	return 0;
}

static void console_notify(struct virtio_mmio *t, unsigned int queue)
{
	if (queue == CONSOLE_TRANSMIT)
		virtio_used(t, queue, virtq_serve(t->vm, &t->queue[queue], print_buffer,
						  t->dev.state));
}

/* The console, in a window at base, interrupting on irq. */
struct device virtio_console_device(struct virtio_console *console, const struct vm *vm,
				    __u64 base, __u32 irq)
{
	struct virtio dev = {
		.name = "virtio console",
		.id = VIRTIO_ID_CONSOLE,
		.queues = 2,
		.notify = console_notify,
		.state = console,
	};

	console->sent = 0;
	return virtio_mmio_device(&console->mmio, vm, base, irq, dev);
}

static void destroy_vm(struct vm *vm)
{
	int size = ioctl(vm->kvm, KVM_GET_VCPU_MMAP_SIZE, 0);

	if (size == -1)
		err(1, "KVM_GET_VCPU_MMAP_SIZE");
	if (munmap(vm->run, size) == -1 || munmap(vm->mem, GUEST_MEM_SIZE) == -1)
		err(1, "munmap");
	if (close(vm->vcpu) == -1 || close(vm->fd) == -1 || close(vm->kvm) == -1)
		err(1, "close");
}

#define WINDOW		0x8000	/* the console's registers */
#define QUEUE_WORDS	0x1f00	/* the queue's size and places, as the guest reads them */
#define DATA		0x1b00	/* the bytes a good buffer holds */

static const __u8 guest_code[] = {
	0x66, 0xc7, 0x06, 0x30, 0x80, 1, 0, 0, 0,	/* movl $1, 0x8030 */
	0x66, 0xa1, 0x00, 0x1f,				/* mov 0x1f00, %eax */
	0x66, 0xa3, 0x38, 0x80,				/* mov %eax, 0x8038 */
	0x66, 0xa1, 0x04, 0x1f,				/* mov 0x1f04, %eax */
	0x66, 0xa3, 0x80, 0x80,				/* mov %eax, 0x8080 */
	0x66, 0xa1, 0x08, 0x1f,				/* mov 0x1f08, %eax */
	0x66, 0xa3, 0x90, 0x80,				/* mov %eax, 0x8090 */
	0x66, 0xa1, 0x0c, 0x1f,				/* mov 0x1f0c, %eax */
	0x66, 0xa3, 0xa0, 0x80,				/* mov %eax, 0x80a0 */
	0x66, 0xc7, 0x06, 0x44, 0x80, 1, 0, 0, 0,	/* movl $1, 0x8044 */
	0x66, 0xc7, 0x06, 0x50, 0x80, 1, 0, 0, 0,	/* movl $1, 0x8050 */
	0xf4,						/* hlt */
};

/* What a driver hands the device: the queue, its first descriptor, and the
 * available ring's index and first entry. */
struct attack {
	const char *what;
	__u32 queue[4];			/* size, table, available and used rings */
	struct vring_desc desc;		/* the table's first entry */
	__u16 avail_idx;
	__u16 head;
};

#define GOOD_QUEUE	{ 2, 0x1800, 0x1900, 0x1a00 }
#define GOOD_BUFFER	{ DATA, 6, 0, 0 }

static const struct attack attacks[] = {
	{ "a buffer in memory", GOOD_QUEUE, GOOD_BUFFER, 1, 0 },
	{ "a buffer past the end of memory", GOOD_QUEUE, { 0x1ffc, 6, 0, 0 }, 1, 0 },
	{ "a buffer that wraps around", GOOD_QUEUE, { ~0ull - 1, 6, 0, 0 }, 1, 0 },
	{ "a chain that loops", GOOD_QUEUE, { DATA, 6, VRING_DESC_F_NEXT, 0 }, 1, 0 },
	{ "a head past the table", GOOD_QUEUE, GOOD_BUFFER, 1, 5 },
	{ "more chains than the queue holds", GOOD_QUEUE, GOOD_BUFFER, 3, 0 },
	{ "a table past the end of memory", { 2, 0x1ff0, 0x1900, 0x1a00 }, GOOD_BUFFER, 1, 0 },
	{ "a queue of three entries", { 3, 0x1800, 0x1900, 0x1a00 }, GOOD_BUFFER, 1, 0 },
};

static void run_attack(const struct attack *a)
{
	struct machine m = { 0 };
	struct virtio_console console;
	struct device window = virtio_console_device(&console, &m.vm, WINDOW, 0);
	struct vring_avail *avail;
	struct vring_used *used;

	m.mmio = (struct bus) { &window, 1 };
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	memcpy(guest_ptr(&m.vm, QUEUE_WORDS, sizeof(a->queue)), a->queue, sizeof(a->queue));
	memcpy(guest_ptr(&m.vm, a->queue[1], sizeof(a->desc)), &a->desc, sizeof(a->desc));
	memcpy(guest_ptr(&m.vm, DATA, 6), "hello\n", 6);
	avail = guest_ptr(&m.vm, a->queue[2], sizeof(*avail) + sizeof(avail->ring[0]));
	avail->flags = VRING_AVAIL_F_NO_INTERRUPT;
	avail->idx = a->avail_idx;
	avail->ring[0] = a->head;
	printf("%s:\n", a->what);
	fflush(stdout);
	run_machine(&m);
	used = guest_ptr(&m.vm, a->queue[3], sizeof(*used));
	printf("%-20s %#x\n", "device status", console.mmio.status);
	print_count("queue ready", console.mmio.queue[1].ready);
	print_count("chains used", used->idx);
	destroy_vm(&m.vm);
}

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attacks); i++)
		run_attack(&attacks[i]);
	return 0;
}

