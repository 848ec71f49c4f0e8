/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Appendix: the book's library", book/e-library.nw. */
/*
 * kvmbook.h: the book's library, what the programs after Part I share.
 * Each function is defined, and explained, in the chapter that teaches it:
 * the appendix "The book's library" names which.
 */
#ifndef KVMBOOK_H
#define KVMBOOK_H
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/kvm.h>
#define GUEST_ADDR	0x1000	/* guest-physical address of the code */
#define SERIAL_PORT	0x3f8	/* COM1, the PC's first serial port */
#define GUEST_MEM_SIZE	0x1000	/* one page */
#define RUN_TIMEOUT	3	/* seconds the guest gets to halt */
/* What a VMM keeps for a VM with one vCPU, and where its memory is. */
struct vm {
	int kvm;		/* /dev/kvm: system ioctls */
	int fd;			/* the VM: its memory and its vCPUs */
	int vcpu;		/* the vCPU: its registers, KVM_RUN */
	void *mem;		/* the guest's memory, as this process sees it */
	struct kvm_run *run;	/* shared with the kernel: why KVM_RUN returned */
	__u64 mem_base;		/* guest-physical address of mem[0] */
	size_t mem_size;	/* bytes of memory from there */
};
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Put each name at its own number; numbers nobody defined stay NULL. */
#define NAME(value) \
	[value] = #value

/* Chapter "Opening KVM and checking its API" */
int open_kvm(void);
void check_api_version(int kvm);
void check_extension(int kvm, int cap, const char *name);
/* Chapter "A VM and its memory" */
int create_vm(int kvm);
void *add_guest_memory(int vmfd);
void load_code(void *mem, const __u8 *code, size_t size);
/* Chapter "The vCPU and its registers" */
int create_vcpu(int vmfd);
struct kvm_run *map_run(int kvm, int vcpufd);
void set_special_registers(int vcpufd);
void set_registers(int vcpufd);
void create_machine(struct vm *vm, const __u8 *code, size_t size);
void add_vcpu(struct vm *vm);
void set_up_vm(struct vm *vm, const __u8 *code, size_t size);
/* Chapter "The run loop" */
const char *lookup_name(const char * const *names, size_t count, unsigned int value);
const char *exit_reason_name(unsigned int reason);
void flush_stdout(void);
void handle_io(const struct kvm_run *run);
void report_fail_entry(const struct kvm_run *run);
const char *suberror_name(unsigned int suberror);
void report_internal_error(const struct kvm_run *run);
void report_mmio(const struct kvm_run *run);
void enter_guest(const struct vm *vm);
bool respond_to_exit(const struct kvm_run *run);
void run_until_halt(const struct vm *vm);
/* Chapter "A run with a time limit" */
void stop_guest(int signal);
void start_timer(struct kvm_run *run);
void stop_timer(void);

int kvm_ioctl(int fd, unsigned long request, void *arg, const char *name);
void run_with_change(const __u8 *code, size_t size, void (*change)(struct vm *vm));
void get_sregs(int vcpufd, struct kvm_sregs *sregs);
void set_sregs(int vcpufd, const struct kvm_sregs *sregs);
#include <asm/processor-flags.h>
#define BOOT_CS		0x10	/* Linux's boot protocols: GDT entry 2 */
#define BOOT_DS		0x18	/* and entry 3 */
#define CODE_TYPE	0xb	/* code: execute/read, accessed */
#define DATA_TYPE	0x3	/* data: read/write, accessed */
struct kvm_segment flat_segment(__u16 selector, __u8 type, int code64);
void set_flat_segments(struct kvm_sregs *sregs, int code64);
void start_in_long_mode(struct vm *vm);
void set_memory_slot(int vmfd, __u32 slot, __u64 gpa, __u64 size, void *mem, __u32 flags);
void *add_memory_slot(int vmfd, __u32 slot, __u64 gpa, __u64 size, __u32 flags);
void print_vcpu_stats(int vcpufd, const char * const *names, size_t count);
/* A device as the bus sees it: a window and the two calls it answers, both optional. */
struct device {
	__u64 base;			/* first address of its window */
	__u64 size;			/* bytes in the window */
	void *state;			/* what read and write are given */
	void (*read)(void *state, __u64 offset, __u8 *data, __u32 len);
	void (*write)(void *state, __u64 offset, const __u8 *data, __u32 len);
	const char *name;		/* for the bus's errors and the VMM's reports */
};

#define MAX_DEVICES	8	/* on a bus */

struct bus {
	struct device devices[MAX_DEVICES];
	unsigned long exits[MAX_DEVICES];	/* exits given to each device */
	size_t count;
};

struct machine {
	struct vm vm;
	struct bus mmio;			/* devices by guest-physical address */
	struct bus pio;				/* devices by port */
	unsigned long exits;			/* times KVM_RUN returned to the VMM */
	bool done;				/* set by a device when the guest has finished */
	bool answers_unclaimed;			/* answer what no device takes, and go on */
	unsigned long unclaimed;		/* accesses no device took, answered */
};

void bus_add(struct bus *bus, const struct device *devices, size_t count);
const struct device *find_device(const struct bus *bus, __u64 addr, __u32 len);
void access_device(const struct device *dev, __u64 offset, __u32 len, bool write,
		   __u8 *data);
const struct device *bus_mmio(struct bus *bus, struct kvm_run *run);
const struct device *bus_pio(struct bus *bus, struct kvm_run *run);
bool dispatch_exit(struct machine *m, struct kvm_run *run);
bool handle_exit(struct machine *m);
void run_machine(struct machine *m);
void print_count(const char *name, unsigned long value);
#define CONSOLE_ADDR	0x8000	/* guest-physical: the console's page */
#define CONSOLE_SIZE	0x1000
#define CONSOLE_DATA	0	/* write: a byte to print */
#define CONSOLE_STATUS	1	/* read: bytes printed so far */
struct console {
	unsigned int printed;	/* bytes written to the data register */
	unsigned int reads;	/* reads of the status register */
};

void console_read(void *state, __u64 offset, __u8 *data, __u32 len);
void console_write(void *state, __u64 offset, const __u8 *data, __u32 len);
#include <pthread.h>
#define DONE_PORT	0xf4	/* write: the guest has finished */
void done_write(void *state, __u64 offset, const __u8 *data, __u32 len);
void create_irqchip_and_pit(int vmfd);
void irq_line(int vmfd, __u32 irq, int level);
int new_eventfd(void);
int bind_ioeventfd(const struct vm *vm, __u64 addr, __u32 len, __u32 flags, __u64 datamatch);
int bind_irqfd(const struct vm *vm, __u32 gsi);
pthread_t start_thread(void *(*fn)(void *), void *arg);
#define UART_PORT	0x3f8	/* COM1 */
#define UART_IRQ	4	/* COM1's interrupt line */
#define UART_RBR	0	/* read: the received byte */
#define UART_THR	0	/* write: a byte to send */
#define UART_IER	1	/* interrupt enable */
#define UART_IER_RDI	0x01	/* interrupt when a byte was received */
#define UART_IER_THRI	0x02	/* interrupt when the transmitter is empty */
#define UART_IIR	2	/* read: the pending interrupt */
#define UART_IIR_NONE	0x01	/* no interrupt pending */
#define UART_IIR_THRI	0x02	/* the transmitter is empty */
#define UART_IIR_RDI	0x04	/* a byte was received */
#define UART_LCR	3	/* line control */
#define UART_LCR_DLAB	0x80	/* offsets 0 and 1 are the divisor */
#define UART_MCR	4	/* modem control */
#define UART_MCR_LOOP	0x10	/* loopback: MCR's outputs come back in MSR */
#define UART_LSR	5	/* line status */
#define UART_LSR_DR	0x01	/* a received byte is waiting */
#define UART_LSR_TX_IDLE	0x60	/* ready to send (THR and shifter empty) */
#define UART_MSR	6	/* modem status */
#define UART_MSR_LINES	0xb0	/* carrier, data set ready, clear to send */
#define UART_SCR	7	/* scratch */
#include <stddef.h>
/* The structure of type whose member is at ptr, as the kernel's macro finds it. */
#define container_of(ptr, type, member)	((type *)((char *)(ptr) - offsetof(type, member)))

/* A console's input as its device holds it, and whom it tells. */
struct console_io {
	const char *bytes;	/* received: bytes[pos] to bytes[len - 1] wait for the guest */
	size_t len, pos;
	void (*arrived)(struct console_io *io);	/* the device's: bytes came */
	void (*refill)(void *owner);	/* asked for more when the guest has taken all */
	void (*transmitted)(void *owner, __u8 byte);	/* told of each byte sent */
	void *owner;		/* what refill and transmitted are given */
};

struct serial {
	int vmfd;		/* for its interrupt line */
	__u8 ier, lcr, mcr, scr, dll, dlm;
	struct console_io io;	/* what it received */
	bool thr_empty;		/* "transmitter empty" raised, IIR not yet read */
	bool keeps_high;	/* never lowers its line: an experiment's mistake */
	bool line;		/* the level last given to KVM */
	unsigned long sent, raised, lowered;
};

struct device serial_device(struct serial *uart, int vmfd);
void console_receive(struct console_io *io, const char *bytes, size_t len);
/* The serial port's registers and the level it gave its line, in a stream. */
struct uart_state {
	__u8 ier, lcr, mcr, scr, dll, dlm, thr_empty, line;
};

void serial_save(const struct serial *uart, struct uart_state *s);
void serial_restore(struct serial *uart, const struct uart_state *s);
#define NR_VCPUS	2

/* A vCPU, and what its thread and the VMM know of it. */
struct vcpu_thread {
	struct machine *m;		/* the machine whose exits it handles */
	pthread_mutex_t *lock;		/* held while it handles one */
	pthread_cond_t *changed;	/* signalled when its loop ends */
	const struct vcpu_thread *leader;	/* kicked when its loop ends; NULL: none */
	int id;
	int fd;
	struct kvm_run *run;
	pthread_t thread;
	bool started;		/* its thread has been created */
	bool running;		/* its thread is in its run loop */
	bool stopped;		/* the VMM stopped it: KVM_RUN failed with EINTR */
	unsigned long exits;	/* times KVM_RUN returned to its thread */
	unsigned long eagains;	/* times KVM_RUN failed with EAGAIN */
};

/* Part III's machine, its vCPUs, and the lock they take to reach a device. */
struct smp_machine {
	struct machine m;	/* memory, buses, done; m.vm holds vCPU 0 */
	struct vcpu_thread vcpus[NR_VCPUS];
	pthread_mutex_t lock;	/* held while a vCPU's exit is handled */
	pthread_cond_t changed;	/* signalled when a vCPU's run loop ends */
};

void lock(pthread_mutex_t *mutex);
void unlock(pthread_mutex_t *mutex);
int create_vcpu_with_id(int vmfd, int id);
void add_vcpus(struct smp_machine *sm);
bool enter_vcpu(int fd, int id, unsigned long *eagains);
void set_entry(int vcpufd, __u64 rip, __u64 rbx);
void install_kick(void);
void kick_vcpu(const struct vcpu_thread *v);
void run_vcpu_here(struct vcpu_thread *v);
void start_vcpu(struct vcpu_thread *v);
void stop_vcpus_when_done(struct smp_machine *sm);
void print_vcpus(const struct smp_machine *sm);
void print_mp_state(const struct vcpu_thread *v);
struct kvm_cpuid2 *get_supported_cpuid(int kvm);
void hide_virtualization(struct kvm_cpuid2 *cpuid);
void offer_hypervisor_bits(int kvm, struct kvm_cpuid2 *cpuid);
void set_cpuid(int vcpufd, const struct kvm_cpuid2 *cpuid);
void *guest_ptr(const struct vm *vm, __u64 gpa, __u64 len);
/* virtq.c */
#define VIRTQ_SIZE	64	/* the most entries a queue may have */
#define VIRTQ_CHAIN_MAX	(64 << 10)	/* the most bytes a chain may hold */

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

/* One buffer of a checked chain, where the VMM sees it. */
struct virtq_buf {
	void *data;
	__u32 len;
	bool writable;		/* the device's to write: input for the driver */
};

/* One buffer of a chain, given to a device; returns the bytes written to it. */
typedef __u32 (*virtq_buffer)(void *state, void *data, __u32 len, bool writable);
/* A whole chain of n buffers, given to a device; the bytes written to them. */
typedef __u32 (*virtq_chain)(void *state, const struct virtq_buf *buf, int n);

int virtq_start(const struct vm *vm, struct virtq *q);
int virtq_serve_chains(const struct vm *vm, struct virtq *q, virtq_chain fn, void *state,
		       unsigned int max);
int virtq_serve(const struct vm *vm, struct virtq *q, virtq_buffer fn, void *state,
		unsigned int max);
bool virtq_wants_interrupt(const struct vm *vm, const struct virtq *q);
bool virtq_has_chain(const struct vm *vm, const struct virtq *q);
int virtq_refuse(struct virtq *q, const char *why);
void virtq_log_writes(__u64 *log);
/* virtio-mmio.c */
#define VIRTIO_QUEUES		2	/* the most queues a device of this VMM has */
#define VIRTIO_NO_IRQ		(~0u)	/* the line of a device its VMM gives none */
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
	const void *config;		/* its configuration, read from offset 0x100 */
	__u32 config_size;
	/* A device that also waits for input: the descriptor, or -1 while it
	 * has nowhere to put it, and what to do when it is readable */
	int (*waits_on)(struct virtio_mmio *t);
	void (*readable)(struct virtio_mmio *t);
	void (*report)(const struct virtio_mmio *t);	/* its counts, for the VMM's report */
};

/* Version 2 of virtio's MMIO registers, and the device behind them. */
struct virtio_mmio {
	const struct vm *vm;
	__u64 base;			/* its window's first address */
	__u32 irq;			/* its interrupt line */
	int irqfd;			/* an eventfd bound to irq, or -1 */
	int doorbell[VIRTIO_QUEUES];	/* with a thread: each queue's ioeventfd */
	pthread_mutex_t *lock;		/* with a thread: held while the device is used */
	struct virtio dev;
	__u32 device_features_sel, driver_features_sel, queue_sel;
	__u64 driver_features;		/* accepted by the driver */
	__u32 status;			/* VIRTIO_CONFIG_S_*: the driver's progress */
	__u32 interrupt_status;		/* VIRTIO_MMIO_INT_*: why the line is up */
	bool line;			/* the level last given to KVM */
	struct virtq queue[VIRTIO_QUEUES];
	unsigned long notifications;	/* doorbells rung */
	unsigned long interrupts;	/* times the line went up */
};

struct device virtio_mmio_device(struct virtio_mmio *t, const struct vm *vm, __u64 base,
				 __u32 irq, struct virtio dev);
void virtio_used(struct virtio_mmio *t, unsigned int queue, int served);
void virtio_update_line(struct virtio_mmio *t);
/* virtio-console.c */
struct virtio_console {
	struct virtio_mmio mmio;
	struct console_io io;		/* its input */
	unsigned long sent;		/* bytes written by the guest */
	unsigned long received;		/* bytes put in its buffers */
};

struct device virtio_console_device(struct virtio_console *console, const struct vm *vm,
				    __u64 base, __u32 irq);
/* virtio-thread.c */
void serve_in_thread(struct virtio_mmio *t, pthread_mutex_t *lock, bool exits);
/* virtio-blk.c */
#include <linux/virtio_blk.h>	/* a request's header, the configuration */

#define SECTOR		512	/* bytes: the unit of a request's sector and of capacity */
#define DISK_SEGMENT	4096	/* size_max: the most bytes of data in one buffer */
#define DISK_SEGMENTS	15	/* seg_max: the most buffers of data in one request */

/* The requests the disk counts, by type. */
enum disk_request { DISK_READ, DISK_WRITE, DISK_FLUSH, DISK_GET_ID, DISK_OTHER, DISK_TYPES };

struct virtio_disk {
	struct virtio_mmio mmio;
	int fd;					/* the image */
	bool read_only;
	char id[VIRTIO_BLK_ID_BYTES];		/* the name T_GET_ID gives: NUL-padded */
	struct virtio_blk_config config;	/* capacity, size_max, seg_max */
	unsigned long requests[DISK_TYPES];	/* answered, by type */
	unsigned long failed;			/* of those, not with VIRTIO_BLK_S_OK */
	unsigned long refused;			/* chains that are no request */
	unsigned long long read, written;	/* bytes, from the image and to it */
};

void open_disk(struct virtio_disk *disk, const char *path, bool read_only);
struct device virtio_disk_device(struct virtio_disk *disk, const struct vm *vm, __u64 base,
				 __u32 irq);
/* virtio-mmio.c, chapter "Saving its devices": a device in a stream */
#define VIRTIO_CONFIG_MAX	128	/* bytes of configuration a device of the book's has */

/* A queue as its driver set it up, and how far the device has got in it. */
struct virtq_state {
	__u64 desc, avail, used;
	__u16 num, next_avail, next_used;
	__u8 ready;
	__u8 reserved;
};

/* A virtio device: what it is and offers, its transport's registers, its queues. */
struct virtio_state {
	__u32 id;			/* VIRTIO_ID_*: which kind of device */
	__u32 config_size;
	__u64 base;			/* its window */
	__u64 features;			/* offered besides VIRTIO_F_VERSION_1 */
	__u8 config[VIRTIO_CONFIG_MAX];	/* as the driver reads it */
	__u64 driver_features;
	__u32 device_features_sel, driver_features_sel, queue_sel;
	__u32 status, interrupt_status;
	__u32 reserved;
	struct virtq_state queue[VIRTIO_QUEUES];
};

void virtio_save(const struct virtio_mmio *t, struct virtio_state *s);
const char *virtio_restore(struct virtio_mmio *t, const struct virtio_state *s);
void virtio_resume(struct virtio_mmio *t);
/* virtio-net.c */
#include <linux/virtio_net.h>
#define NET_RECEIVE	0	/* the receive queue: buffers for the frames that arrive */
#define NET_TRANSMIT	1	/* the transmit queue: the frames the guest sends */
#define NET_HEADER	sizeof(struct virtio_net_hdr_v1)	/* 12 bytes before each frame */
#define NET_FRAME_MAX	1518	/* bytes of the longest frame: Ethernet's 1514 and a VLAN tag */

/* A frame and its header, between a chain and the TAP device. */
struct net_packet {
	__u8 bytes[NET_HEADER + NET_FRAME_MAX];
	__u32 len;		/* bytes of it that hold the packet */
	__u32 pos;		/* receiving: bytes of it put in the chain so far */
	const char *fault;	/* what was wrong with the chain, if anything */
};

/* A virtio network card, plugged into a TAP device. */
struct virtio_net {
	struct virtio_mmio mmio;
	int tap;				/* the TAP device, non-blocking */
	struct virtio_net_config config;	/* its MAC address and link status */
	struct net_packet in, out;		/* the frame arriving, the frame leaving */
	unsigned long frames_sent, bytes_sent;	/* frames the guest sent, without headers */
	unsigned long frames_received, bytes_received;
	unsigned long dropped;			/* frames the TAP would not take */
};

int open_tap(const char *name);
struct device virtio_net_device(struct virtio_net *net, const struct vm *vm, __u64 base,
				__u32 irq, int tap);
#define DR7_L0		0x1		/* DR7: enable the breakpoint in DR0 */
#define DR6_B0		0x1		/* DR6: the breakpoint in DR0 was hit */
#define DR6_BS		0x4000		/* DR6: a single step */
#define RFLAGS_RF	0x10000		/* RFLAGS: resume, ignoring instruction breakpoints */
void set_guest_debug(int vcpufd, __u32 control, __u64 dr0);
void get_regs(int vcpufd, struct kvm_regs *regs);
#define STOP_AFTER	3	/* lines the guest prints before the snapshot */
/* Everything that makes up a VM with one vCPU. */
struct snapshot {
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	struct kvm_fpu fpu;
	struct kvm_msrs *msrs;		/* with msrs->nmsrs entries after it */
	struct kvm_vcpu_events events;
	struct kvm_mp_state mp_state;
	__u8 mem[GUEST_MEM_SIZE];
	struct kvm_irqchip pic[2];		/* the master and the slave PIC */
	struct kvm_irqchip ioapic;
	struct kvm_pit_state2 pit;
	struct kvm_lapic_state lapic;
};

/* One piece of a VM's state: how to save it and how to put it back. */
struct piece {
	const char *name;
	void (*save)(const struct vm *vm, struct snapshot *s);
	void (*restore)(const struct vm *vm, struct snapshot *s);
	bool chip;		/* only in a VM with in-kernel chips */
};

extern const struct piece pieces[];
extern const size_t nr_pieces;
bool run_lines(const struct vm *vm, unsigned int lines);
void complete_exit(struct vm *vm);
void destroy_vm(struct vm *vm);
void create_empty_vm(struct vm *vm, bool chips);
void snapshot_and_restore(struct vm *vm, const char *skip, bool chips);
#define PAGE_SIZE	0x1000
#define DATA_ADDR	0x2000	/* guest-physical: the data pages */
#define DATA_PAGES	8
#define TICK_PORT	0x80	/* the guest's "a pass is done" */
/* A memory slot as both VMs have it: the same guest-physical range, two copies. */
struct slot {
	__u32 id;
	__u64 addr;		/* guest-physical */
	__u32 pages;
	__u8 *src;		/* in the VM the guest leaves */
	__u8 *dst;		/* in the VM it arrives in */
	__u64 dirty;		/* the pages its log marked last */
};
bool run_to_tick(const struct vm *vm);
void set_slot(int vmfd, const struct slot *slot, void *mem, __u32 flags);
__u8 *add_data_slot(int vmfd, const struct slot *slot);
void read_dirty_logs(int vmfd, struct slot *slots, size_t count);
unsigned int count_marked_pages(struct slot *slots, size_t count, bool all);
void copy_marked_pages(const struct slot *slots, size_t count);
void move_vcpu(const struct vm *from, const struct vm *to);
unsigned int count_differing_pages(const struct slot *slots, size_t count);
#endif
