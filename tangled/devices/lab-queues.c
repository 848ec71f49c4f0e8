// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "ioeventfd and irqfd", book/23-ioeventfd-irqfd.nw. */
#include "kvm.h"
/* lab-queues: two eventfds on one doorbell port, told apart by the value written. */
#include "irq.h"
#include "machine.h"
#include "stats.h"
#define MAILBOX_ADDR	0x1f00	/* guest-physical: where the next byte is left */
#define DOORBELL_PORT	0xf0	/* write: the guest asks for the next byte */
#define MAILBOX_IRQ	5	/* the byte is there */
#include "guests/lab-queues.h"
static void doorbell_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	(void)state;
	(void)offset;
	(void)len;
	printf("doorbell: no queue %u\n", data[0]);
	flush_stdout();
}

static __u64 rings(int fd)
{
	__u64 count;

	if (fcntl(fd, F_SETFL, O_NONBLOCK) == -1)
		err(1, "fcntl O_NONBLOCK");
	if (read(fd, &count, sizeof(count)) == sizeof(count))
		return count;
	if (errno != EAGAIN)
		err(1, "read eventfd");
	return 0;
}

static const char * const compared_stats[] = {
	"io_exits",
};
#define QUEUES	2	/* the device's queues: 0 and 1 */

int main(void)
{
	struct machine m = { 0 };
	const struct device pio_devices[] = {
		{ DOORBELL_PORT, 1, NULL, NULL, doorbell_write, "doorbell" },
	};
	int queue[QUEUES];
	char name[20];
	int q;

	bus_add(&m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	set_up_vm(&m.vm, guest_code, sizeof(guest_code));
	for (q = 0; q < QUEUES; q++)
		queue[q] = bind_ioeventfd(&m.vm, DOORBELL_PORT, 1,
					  KVM_IOEVENTFD_FLAG_PIO | KVM_IOEVENTFD_FLAG_DATAMATCH, q);
	run_machine(&m);
	for (q = 0; q < QUEUES; q++) {
		snprintf(name, sizeof(name), "queue %d rings", q);
		print_count(name, rings(queue[q]));
	}
	print_count("exits to the VMM", m.exits);
	print_vcpu_stats(m.vm.vcpu, compared_stats, ARRAY_SIZE(compared_stats));
	return 0;
}
