// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A network card", book/41-network.nw. */
/* virtio-net.c: a virtio network card, plugged into a TAP device. */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <linux/if_tun.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include "machine.h"
#include "virtio-net.h"
#include "virtio.h"

/* The TAP device called name, made if there is none, non-blocking: its
 * descriptor, or the VMM stops, saying why. */
int open_tap(const char *name)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
	size_t len = strlen(name);
	int fd;

	if (!len || len >= IFNAMSIZ)
		errx(1, "-n %s: not an interface's name, 1 to %d bytes", name, IFNAMSIZ - 1);
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		err(1, "/dev/net/tun");
	memcpy(ifr.ifr_name, name, len + 1);
	if (ioctl(fd, TUNSETIFF, &ifr) == -1)
		err(1, "TUNSETIFF %s", name);
	return fd;
}

/* Note what is wrong with the chain p is made from; the first fault stays. */
static void fault(struct net_packet *p, const char *why)
{
	if (!p->fault)
		p->fault = why;
}

/* One buffer of a chain on the transmit queue, added to the packet. */
static __u32 gather(void *state, void *data, __u32 len, bool writable)
{
	struct net_packet *p = state;

	if (writable)
		fault(p, "a buffer the device may write, on the transmit queue");
	else if (len > sizeof(p->bytes) - p->len)
		fault(p, "a frame longer than 1518 bytes");
	else {
		memcpy(p->bytes + p->len, data, len);
		p->len += len;
	}
	return 0;
}

/* Send each frame the driver made available; a malformed one stops the queue. */
static void transmit(struct virtio_net *net)
{
	struct virtio_mmio *t = &net->mmio;
	struct virtq *q = &t->queue[NET_TRANSMIT];
	struct net_packet *p = &net->out;
	int served = 0, n;

	for (;;) {
		p->len = 0;
		p->fault = NULL;
		n = virtq_serve(t->vm, q, gather, p, 1);
		if (n <= 0)
			break;
		if (p->len < NET_HEADER)
			fault(p, "a chain shorter than the header");
		if (p->fault) {
			n = virtq_refuse(q, p->fault);
			break;
		}
		served++;
		if (write(net->tap, p->bytes + NET_HEADER, p->len - NET_HEADER) !=
		    (ssize_t)(p->len - NET_HEADER)) {
			net->dropped++;
			continue;
		}
		net->frames_sent++;
		net->bytes_sent += p->len - NET_HEADER;
	}
	virtio_used(t, NET_TRANSMIT, n < 0 ? n : served);
}

/* The TAP device, while the receive queue has a chain for what comes; else -1. */
static int net_waits_on(struct virtio_mmio *t)
{
	struct virtio_net *net = t->dev.state;

	if (!(t->status & VIRTIO_CONFIG_S_DRIVER_OK) ||
	    !virtq_has_chain(t->vm, &t->queue[NET_RECEIVE]))
		return -1;
	return net->tap;
}

/* One buffer of a chain on the receive queue, filled from the packet. */
static __u32 scatter(void *state, void *data, __u32 len, bool writable)
{
	struct net_packet *p = state;
	__u32 n = p->len - p->pos < len ? p->len - p->pos : len;

	if (!writable) {
		fault(p, "a buffer the device may not write, on the receive queue");
		return 0;
	}
	memcpy(data, p->bytes + p->pos, n);
	p->pos += n;
	return n;
}

/* A frame waits in the TAP device, and a chain for it on the receive queue. */
static void net_readable(struct virtio_mmio *t)
{
	struct virtio_net *net = t->dev.state;
	struct virtq *q = &t->queue[NET_RECEIVE];
	struct net_packet *p = &net->in;
	struct virtio_net_hdr_v1 header = { .num_buffers = 1 };
	ssize_t n = read(net->tap, p->bytes + NET_HEADER, NET_FRAME_MAX);
	int served;

	if (n == -1 && errno == EAGAIN)
		return;
	if (n == -1)
		err(1, "read the TAP device");
	memcpy(p->bytes, &header, NET_HEADER);
	p->len = NET_HEADER + n;
	p->pos = 0;
	p->fault = NULL;
	served = virtq_serve(t->vm, q, scatter, p, 1);
	if (served == 1 && p->pos < p->len)
		fault(p, "a chain too short for the frame");
	if (served == 1 && p->fault)
		served = virtq_refuse(q, p->fault);
	if (served == 1) {
		net->frames_received++;
		net->bytes_received += n;
	} else {
		net->dropped++;
	}
	virtio_used(t, NET_RECEIVE, served);
}

/* 02, locally administered and unicast, then "kvmb" and a 0 */
static const __u8 net_mac[ETH_ALEN] = { 0x02, 0x6b, 0x76, 0x6d, 0x62, 0x00 };

static void net_notify(struct virtio_mmio *t, unsigned int queue)
{
	if (queue == NET_TRANSMIT)
		transmit(t->dev.state);
}

/* Fill in the card's configuration, and in dev the features that make the
 * driver read it and the bytes of it there are. */
static void describe_card(struct virtio_net *net, struct virtio *dev)
{
	memcpy(net->config.mac, net_mac, ETH_ALEN);
	net->config.status = VIRTIO_NET_S_LINK_UP;
	dev->features = 1ull << VIRTIO_NET_F_MAC | 1ull << VIRTIO_NET_F_STATUS;
	dev->config_size = offsetof(struct virtio_net_config, max_virtqueue_pairs);
}

static void net_report(const struct virtio_mmio *t)
{
	const struct virtio_net *net = t->dev.state;

	printf("%-20s %lu, %lu bytes\n", "frames sent", net->frames_sent, net->bytes_sent);
	printf("%-20s %lu, %lu bytes\n", "frames received", net->frames_received,
	       net->bytes_received);
	printf("%-20s %lu\n", "frames dropped", net->dropped);
	printf("%-20s %lu\n", "net notifications", t->notifications);
	printf("%-20s %lu\n", "net interrupts", t->interrupts);
}

/* The card, plugged into the TAP device tap, in a window at base,
 * interrupting on irq. */
struct device virtio_net_device(struct virtio_net *net, const struct vm *vm, __u64 base,
				__u32 irq, int tap)
{
	struct virtio dev = {
		.name = "virtio net",
		.id = VIRTIO_ID_NET,
		.queues = 2,
		.notify = net_notify,
		.state = net,
		.report = net_report,
		.config = &net->config,
		.waits_on = net_waits_on,
		.readable = net_readable,
	};

	*net = (struct virtio_net) { .tap = tap };
	describe_card(net, &dev);
	return virtio_mmio_device(&net->mmio, vm, base, irq, dev);
}

