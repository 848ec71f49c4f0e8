/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A stub for gdb", book/46-stub-for-gdb.nw. */
/* gdb.h: the stub that lets gdb debug the guest. */
#ifndef GDB_H
#define GDB_H
#include <pthread.h>
#include <stdbool.h>
#include "machine.h"
#include "vcpus.h"

#define PACKET_MAX	4096	/* bytes of a packet's data and its NUL: PacketSize=fff */
#define SW_BREAKS	64
#define HW_BREAKS	4	/* DR0 to DR3 */
#define INT3		0xcc
#define BP_VECTOR	3	/* #BP, the exception of an int3 */
#define WIDE_REGS	17	/* gdb's amd64 registers of 8 bytes: RAX to R15, RIP */
#define NARROW_REGS	7	/* and of 4: EFLAGS and the six selectors */

struct sw_break {
	__u64 addr;
	__u64 gpa;	/* where the int3 is: addr's page when it was planted */
	__u8 saved;	/* the byte the int3 replaced */
};

struct hw_break {
	__u64 addr;
	__u64 dr7;	/* its bits of DR7; 0: the register is free */
};

struct gdb_stub {
	const struct vm *vm;
	struct vcpu_thread *cpus;	/* the machine's vCPUs: gdb's threads 1 to ncpus */
	int ncpus;
	int g;				/* the vCPU whose registers and memory gdb reads (Hg) */
	int c;				/* the vCPU a step steps (Hc); -1: the one Hg chose */
	int owner;			/* the vCPU whose thread serves gdb, or steps; -1: all run */
	int parked;			/* threads held while the owner has the machine */
	pthread_mutex_t lock;		/* held while owner and parked change */
	pthread_cond_t changed;		/* signalled when they do */
	int fd;				/* the connection to gdb; -1 once it left */
	bool gone;			/* gdb detached, or the connection broke */
	char packet[PACKET_MAX];	/* the last packet's data */
	struct sw_break breaks[SW_BREAKS];
	size_t nbreaks;
	struct hw_break hw[HW_BREAKS];	/* DR0 to DR3 */
	struct kvm_regs before_step;
	unsigned int life;		/* -l: 0 when the guest has no bound */
};

void wait_for_gdb(struct gdb_stub *stub, const struct vm *vm, struct vcpu_thread *cpus,
		  int ncpus, const char *at, unsigned int life);
void gdb_stop(struct gdb_stub *stub, int cpu);
bool gdb_heard(struct gdb_stub *stub);
void gdb_end(struct gdb_stub *stub);
#endif
