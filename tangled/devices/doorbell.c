// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "ioeventfd and irqfd", book/23-ioeventfd-irqfd.nw. */
#include "kvm.h"
/* doorbell: a mailbox device, with and without ioeventfd and irqfd. */
#include "irq.h"
#include "machine.h"
#include "stats.h"
#include <pthread.h>
#include <stdlib.h>
#define MAILBOX_ADDR	0x1f00	/* guest-physical: where the next byte is left */
#define DOORBELL_PORT	0xf0	/* write: the guest asks for the next byte */
#define MAILBOX_IRQ	5	/* the byte is there */
#define BUFFER_ADDR	0x1e00	/* guest-physical: the bytes the guest took */
struct mailbox {
	int vmfd;		/* for KVM_IRQ_LINE */
	int irqfd;		/* an eventfd bound to MAILBOX_IRQ, or -1 */
	int doorbell;		/* an eventfd bound to DOORBELL_PORT, or -1 */
	__u8 *slot;		/* the mailbox, in the VMM's view of guest memory */
	FILE *input;		/* where the bytes come from */
	bool ended;		/* the zero byte has been delivered */
	unsigned long delivered;
};

static void mailbox_interrupt(const struct mailbox *mb)
{
	__u64 one = 1;

	if (mb->irqfd == -1) {
		irq_line(mb->vmfd, MAILBOX_IRQ, 1);
		irq_line(mb->vmfd, MAILBOX_IRQ, 0);
	} else if (write(mb->irqfd, &one, sizeof(one)) != sizeof(one)) {
		err(1, "write irqfd");
	}
}

/* Leave the next byte of input in the mailbox, then interrupt the guest. */
static void mailbox_deliver(struct mailbox *mb)
{
	int c = getc(mb->input);

	*mb->slot = c == EOF ? 0 : c;
	mb->ended = c == EOF;
	mb->delivered++;
	mailbox_interrupt(mb);
}

static void mailbox_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	(void)offset;
	(void)data;
	(void)len;
	mailbox_deliver(state);
}

static void *doorbell_thread(void *arg)
{
	struct mailbox *mb = arg;
	__u64 rings;

	while (!mb->ended) {
		if (read(mb->doorbell, &rings, sizeof(rings)) != sizeof(rings))
			err(1, "read doorbell");
		mailbox_deliver(mb);
	}
	return NULL;
}

#include "guests/doorbell.h"
static void print_guest_buffer(const struct vm *vm)
{
	const char *buffer = guest_ptr(vm, BUFFER_ADDR, MAILBOX_ADDR - BUFFER_ADDR);
	int len = strnlen(buffer, MAILBOX_ADDR - BUFFER_ADDR);

	printf("%.*s", len, buffer);
}

static const char * const compared_stats[] = {
	"io_exits", "halt_exits",
};
int main(int argc, char **argv)
{
	struct machine m = { 0 };
	struct mailbox mb = { .irqfd = -1, .doorbell = -1, .input = stdin };
	const struct device pio_devices[] = {
		{ DOORBELL_PORT, 1, &mb, NULL, mailbox_write, "mailbox" },
		{ DONE_PORT, 1, &m.done, NULL, done_write, "done" },
	};
	bool bound;
	pthread_t thread;

	if (argc != 2 || (strcmp(argv[1], "exit") && strcmp(argv[1], "ioeventfd") &&
			  strcmp(argv[1], "irqfd")))
		errx(1, "usage: doorbell exit|ioeventfd|irqfd");
	bound = strcmp(argv[1], "exit");
	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	create_machine(&m.vm, guest_code, sizeof(guest_code));
	create_irqchip_and_pit(m.vm.fd);
	add_vcpu(&m.vm);
	mb.vmfd = m.vm.fd;
	mb.slot = guest_ptr(&m.vm, MAILBOX_ADDR, 1);
	if (!strcmp(argv[1], "irqfd"))
		mb.irqfd = bind_irqfd(&m.vm, MAILBOX_IRQ);
	if (bound) {
		mb.doorbell = bind_ioeventfd(&m.vm, DOORBELL_PORT, 1, KVM_IOEVENTFD_FLAG_PIO, 0);
		thread = start_thread(doorbell_thread, &mb);
	}
	run_machine(&m);
	if (bound) {
		errno = pthread_join(thread, NULL);
		if (errno)
			err(1, "pthread_join");
	}
	print_guest_buffer(&m.vm);
	print_count("bytes delivered", mb.delivered);
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
