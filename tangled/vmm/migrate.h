/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "Moving it live", book/45-sending-live.nw. */
/* migrate.h: moving a running machine live, and receiving it. */
#ifndef MIGRATE_H
#define MIGRATE_H
#include <pthread.h>
#include <time.h>
#include "aps.h"
#include "machine.h"
#include "snapshot.h"

struct vmm;

#define ROUNDS_MAX	16	/* live rounds at most: then the guest stops whatever it writes */

struct migration {
	const struct vm *vm;
	struct pause *pause;
	struct snapshot_writer *w;
	__u64 *bitmap;			/* KVM_GET_DIRTY_LOG's: a bit a page */
	__u64 *written;			/* the devices' writes, logged by virtq.c: the same */
	pthread_t thread;
	unsigned int rounds;
	unsigned long pages[ROUNDS_MAX + 1];	/* sent in each round; the last, stopped */
	struct timespec stopped;	/* when the vCPU was paused */
};

void prepare_migration(struct migration *mg, const struct vm *vm, struct pause *pause,
		       const char *to);
void start_migration(void *arg);
void finish_migration(struct migration *mg, const struct vmm *v);
int accept_one(const char *at, const char *who, unsigned int life);
void receive_machine(struct snapshot_reader *r, const char *at, unsigned int life,
		     size_t ram_max);
#endif
