/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A network card", book/41-network.nw. */
/* virtio-net.h: a virtio network card, plugged into a TAP device. */
#ifndef VIRTIO_NET_H
#define VIRTIO_NET_H
#include "virtio.h"
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
#endif
