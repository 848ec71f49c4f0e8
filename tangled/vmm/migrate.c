// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Moving it live", book/45-sending-live.nw. */
/* migrate.c: a running Linux moved to another VMM process, in rounds of dirty pages. */
#include <err.h>
#include <errno.h>
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "vmm.h"

#define PAGES_FEW	256	/* a live round this small (1 MiB): stop the guest now */

/* ADDRESS:PORT, as a socket address, or the VMM stops, naming it. */
static struct sockaddr_in socket_address(const char *spec)
{
	struct sockaddr_in address = { .sin_family = AF_INET };
	const char *colon = strrchr(spec, ':');
	char host[INET_ADDRSTRLEN];
	unsigned long port = 0;
	char *end = NULL;

	if (colon && colon - spec < (long)sizeof(host)) {
		memcpy(host, spec, colon - spec);
		host[colon - spec] = '\0';
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
	}
	if (!end || end == colon + 1 || *end || errno || port < 1 || port > 65535 ||
	    inet_pton(AF_INET, host, &address.sin_addr) != 1)
		errx(2, "%s: not ADDRESS:PORT, an IPv4 address and a port from 1 to 65535", spec);
	address.sin_port = htons(port);
	return address;
}

/* A TCP socket, whose writes fail with EPIPE once its peer has gone. */
static int tcp_socket(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd == -1)
		err(1, "socket");
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		err(1, "signal SIGPIPE");
	return fd;
}

/* -M: connect to the destination now and send the header. */
void prepare_migration(struct migration *mg, const struct vm *vm, struct pause *pause,
		       const char *to)
{
	struct sockaddr_in address = socket_address(to);
	int fd = tcp_socket();

	if (connect(fd, (struct sockaddr *)&address, sizeof(address)) == -1)
		err(1, "-M %s: no vmm -I listens there", to);
	*mg = (struct migration) {
		.vm = vm, .pause = pause,
		.w = start_snapshot(fd, to, NULL, vm),
		.bitmap = calloc((vm->mem_size / PAGE_SIZE + 63) / 64, sizeof(__u64)),
		.written = calloc((vm->mem_size / PAGE_SIZE + 63) / 64, sizeof(__u64)),
	};
	if (!mg->bitmap || !mg->written)
		err(1, "calloc");
}

/* Send the pages the guest or its devices wrote since the last call; returns how many. */
static unsigned long send_dirty(struct migration *mg)
{
	struct kvm_dirty_log log = { .slot = 0, .dirty_bitmap = mg->bitmap };
	unsigned long sent = 0;
	__u64 page, word;

	kvm_ioctl(mg->vm->fd, KVM_GET_DIRTY_LOG, &log, "KVM_GET_DIRTY_LOG");
	for (word = 0; word < (mg->vm->mem_size / PAGE_SIZE + 63) / 64; word++)
		mg->bitmap[word] |= __atomic_exchange_n(&mg->written[word], 0, __ATOMIC_SEQ_CST);
	for (page = 0; page < mg->vm->mem_size / PAGE_SIZE; page++) {
		if (mg->bitmap[page / 64] & 1ULL << page % 64) {
			put_page(mg->w, mg->vm, page);
			sent++;
		}
	}
	return sent;
}

/* The migration's thread: rounds while the guest runs, then the pause. */
static void *send_rounds(void *arg)
{
	struct migration *mg = arg;

	virtq_log_writes(mg->written);
	register_ram(mg->vm, KVM_MEM_LOG_DIRTY_PAGES);
	mg->pages[mg->rounds++] = put_ram(mg->w, mg->vm);
	while (mg->rounds < ROUNDS_MAX && mg->pages[mg->rounds - 1] > PAGES_FEW)
		mg->pages[mg->rounds++] = send_dirty(mg);
	if (clock_gettime(CLOCK_MONOTONIC, &mg->stopped) == -1)
		err(1, "clock_gettime");
	pause_vcpu(mg->pause);
	return NULL;
}

/* The input ended at a prompt: the rounds begin, the guest running. */
void start_migration(void *arg)
{
	struct migration *mg = arg;

	mg->thread = start_thread(send_rounds, mg);
}

/* The vCPU is paused and the devices still: the last round, the devices and the state. */
void finish_migration(struct migration *mg, const struct vmm *v)
{
	struct timespec now;
	unsigned int i;

	errno = pthread_join(mg->thread, NULL);
	if (errno)
		err(1, "pthread_join");
	mg->pages[mg->rounds++] = send_dirty(mg);
	virtq_log_writes(NULL);
	finish_snapshot(mg->w, v);
	if (clock_gettime(CLOCK_MONOTONIC, &now) == -1)
		err(1, "clock_gettime");
	fprintf(stderr, "vmm: moved in %u rounds, pages:", mg->rounds);
	for (i = 0; i < mg->rounds; i++)
		fprintf(stderr, " %lu", mg->pages[i]);
	fprintf(stderr, "; stopped for the last %ld ms\n",
		(now.tv_sec - mg->stopped.tv_sec) * 1000 +
		(now.tv_nsec - mg->stopped.tv_nsec) / 1000000);
	free(mg->bitmap);
	free(mg->written);
}

/* Listen at ADDRESS:PORT, say so, and take one connection, from who, within life s (0: ever). */
int accept_one(const char *at, const char *who, unsigned int life)
{
	struct sockaddr_in address = socket_address(at);
	struct pollfd waiting = { .events = POLLIN };
	int fd, on = 1;

	waiting.fd = tcp_socket();
	if (setsockopt(waiting.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1)
		err(1, "setsockopt SO_REUSEADDR");
	if (bind(waiting.fd, (struct sockaddr *)&address, sizeof(address)) == -1 ||
	    listen(waiting.fd, 1) == -1)
		err(1, "%s", at);
	warnx("waiting for %s at %s", who, at);
	if (poll(&waiting, 1, life ? (int)life * 1000 : -1) != 1)
		errx(1, "%s: no %s came within %u s", at, who, life);
	fd = accept(waiting.fd, NULL, NULL);
	if (fd == -1)
		err(1, "accept");
	close(waiting.fd);
	return fd;
}

void receive_machine(struct snapshot_reader *r, const char *at, unsigned int life,
		     size_t ram_max)
{
	open_snapshot(r, accept_one(at, "a machine", life), at, ram_max);
}

