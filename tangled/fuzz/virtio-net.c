// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the rest of the machine", book/b-fuzzing-the-machine.nw. */
/* fuzz/virtio-net.c: the network card's registers and queues, and frames from its wire. */
#include <sys/socket.h>
#include "fuzz.h"

#define RAM_SIZE	0x2000	/* two pages of guest memory */
#define WIRE_MAX	(NET_FRAME_MAX + 64)	/* the longest frame that may arrive */

static int wire[2] = { -1, -1 };	/* the card's TAP device, and the target's end */

static void make_wire(void)
{
	if (wire[0] == -1 &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, wire) == -1)
		err(1, "socketpair");
}

/* Read away what waits at end fd; with check, each must be a frame the card may send. */
static void drain(int fd, bool check)
{
	static __u8 frame[WIRE_MAX + 1];
	ssize_t n;

	while ((n = recv(fd, frame, sizeof(frame), MSG_DONTWAIT)) >= 0) {
		if (check && n > NET_FRAME_MAX) {
			fprintf(stderr, "fuzz: the card sent a frame of %zd bytes\n", n);
			abort();
		}
	}
	if (errno != EAGAIN)
		err(1, "recv");
}

/* A frame arrives, as the input says; the card takes it as its thread would. */
static void arrive(void *state, struct fuzz_input *in)
{
	struct virtio_net *net = state;
	static __u8 frame[WIRE_MAX];
	__u16 len;

	fuzz_take(in, &len, sizeof(len));
	len %= WIRE_MAX + 1;
	fuzz_take(in, frame, len);
	if (send(wire[1], frame, len, MSG_DONTWAIT) == -1 && errno != EAGAIN)
		err(1, "send");
	if (net->mmio.dev.waits_on(&net->mmio) != -1)
		net->mmio.dev.readable(&net->mmio);
}

/* Each frame the card sent must be one it may send. */
static void check_sent(void *state)
{
	(void)state;
	drain(wire[1], true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct virtio_net net;
	struct fuzz_world world = { arrive, check_sent, &net };
	struct device dev;
	struct vm vm;

	make_wire();
	fuzz_start(&vm, RAM_SIZE);
	dev = virtio_net_device(&net, &vm, VIRTIO_NET_BASE, VIRTIO_NET_IRQ, wire[0]);
	fuzz_virtio(&vm, &dev, &net.mmio, &in, &world);
	drain(wire[0], false);
	fuzz_end(&vm);
	return 0;
}

