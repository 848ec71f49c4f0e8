// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A stub for gdb", book/46-stub-for-gdb.nw. */
/* gdb.c: a gdb stub, the remote serial protocol over TCP, on KVM's debugging controls. */
#define _GNU_SOURCE	/* F_SETOWN_EX and gettid */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "vmm.h"

/* Whether the -l bound has run out: its one-shot timer then reads 0. */
static bool bound_over(const struct gdb_stub *stub)
{
	struct itimerval left;

	return stub->life && getitimer(ITIMER_REAL, &left) == 0 && !timerisset(&left.it_value);
}

/* Read the next byte gdb sends; false when it has gone. */
static bool receive_byte(struct gdb_stub *stub, char *c)
{
	ssize_t n;

	while ((n = read(stub->fd, c, 1)) == -1 && errno == EINTR)
		if (bound_over(stub))
			errx(1, "Linux did not reset within the time -l gave it");
	return n == 1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The next packet's data in stub->packet, acknowledged; false when gdb has gone. */
static bool receive_packet(struct gdb_stub *stub)
{
	char c = 0, sum[2];

	for (;;) {
		size_t len = 0;
		__u8 check = 0;

		do	/* skip gdb's acknowledgements, and a Ctrl-C */
			if (!receive_byte(stub, &c))
				return false;
		while (c != '$');
		while (receive_byte(stub, &c) && c != '#' && len < PACKET_MAX - 1) {
			stub->packet[len++] = c;
			check += (__u8)c;
		}
		if (c != '#' || !receive_byte(stub, &sum[0]) || !receive_byte(stub, &sum[1]))
			return false;
		stub->packet[len] = '\0';
		if (hex_digit(sum[0]) * 16 + hex_digit(sum[1]) == check)
			return write(stub->fd, "+", 1) == 1;
		if (write(stub->fd, "-", 1) != 1)	/* gdb sends it again */
			return false;
	}
}

static void send_packet(struct gdb_stub *stub, const char *data)
{
	char frame[PACKET_MAX + 4];
	size_t len = strlen(data), i;
	__u8 check = 0;

	for (i = 0; i < len; i++)
		check += (__u8)data[i];
	snprintf(frame, sizeof(frame), "$%s#%02x", data, check);
	if (write(stub->fd, frame, len + 4) != (ssize_t)len + 4)
		stub->gone = true;
}

static void put_hex(char *out, const void *data, size_t len)
{
	const __u8 *bytes = data;
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", bytes[i]);
}

/* Where gdb's amd64 registers 0 to 16, RAX to RIP, are in r. */
static void wide_registers(struct kvm_regs *r, __u64 *wide[WIDE_REGS])
{
	__u64 *in_order[WIDE_REGS] = {
		&r->rax, &r->rbx, &r->rcx, &r->rdx, &r->rsi, &r->rdi, &r->rbp, &r->rsp,
		&r->r8, &r->r9, &r->r10, &r->r11, &r->r12, &r->r13, &r->r14, &r->r15, &r->rip,
	};

	memcpy(wide, in_order, sizeof(in_order));
}

/* gdb's registers 17 to 23: EFLAGS and the segment selectors, four bytes each. */
static void narrow_registers(const struct kvm_regs *r, const struct kvm_sregs *s,
			     __u32 narrow[NARROW_REGS])
{
	__u32 in_order[NARROW_REGS] = { r->rflags, s->cs.selector, s->ss.selector,
					s->ds.selector, s->es.selector, s->fs.selector,
					s->gs.selector };

	memcpy(narrow, in_order, sizeof(in_order));
}

/* g: the registers in gdb's amd64 order, as far as the segment selectors. */
static void send_registers(struct gdb_stub *stub)
{
	struct kvm_regs r;
	struct kvm_sregs s;
	__u64 *wide[WIDE_REGS];
	__u32 narrow[NARROW_REGS];
	char out[2 * (WIDE_REGS * 8 + NARROW_REGS * 4) + 1];
	int i;

	get_regs(stub->cpus[stub->g].fd, &r);
	get_sregs(stub->cpus[stub->g].fd, &s);
	wide_registers(&r, wide);
	for (i = 0; i < WIDE_REGS; i++)
		put_hex(out + 16 * i, wide[i], 8);
	narrow_registers(&r, &s, narrow);
	put_hex(out + 16 * WIDE_REGS, narrow, sizeof(narrow));
	send_packet(stub, out);
}

/* len bytes from the hex at *p, in memory order, as gdb sends them; false: not hex. */
static bool get_hex(const char **p, void *data, size_t len)
{
	__u8 *bytes = data;
	size_t i;

	for (i = 0; i < len; i++) {
		int high = hex_digit((*p)[0]), low = high < 0 ? -1 : hex_digit((*p)[1]);

		if (low < 0)
			return false;
		bytes[i] = (__u8)(high * 16 + low);
		*p += 2;
	}
	return true;
}

/* P N=VALUE: one register, a general one, RIP or EFLAGS. */
static const char *write_register(struct gdb_stub *stub, const char *p)
{
	struct kvm_regs r;
	__u64 *wide[WIDE_REGS], value = 0;	/* EFLAGS fills its low four bytes */
	char *end;
	unsigned long n = strtoul(p, &end, 16);

	p = end + 1;
	if (*end != '=' || n > WIDE_REGS || !get_hex(&p, &value, n < WIDE_REGS ? 8 : 4) || *p)
		return "E16";	/* a selector, a register the stub does not send, or bad hex */
	get_regs(stub->cpus[stub->g].fd, &r);
	wide_registers(&r, wide);
	*(n < WIDE_REGS ? wide[n] : &r.rflags) = value;
	kvm_ioctl(stub->cpus[stub->g].fd, KVM_SET_REGS, &r, "KVM_SET_REGS");
	return "OK";
}

/* G: all the registers g sends; the selectors must be the guest's. */
static const char *write_registers(struct gdb_stub *stub, const char *p)
{
	struct kvm_regs r;
	struct kvm_sregs s;
	__u64 *wide[WIDE_REGS];
	__u32 narrow[NARROW_REGS], now[NARROW_REGS];
	int i;

	get_regs(stub->cpus[stub->g].fd, &r);
	get_sregs(stub->cpus[stub->g].fd, &s);
	wide_registers(&r, wide);
	for (i = 0; i < WIDE_REGS; i++)
		if (!get_hex(&p, wide[i], 8))
			return "E16";
	narrow_registers(&r, &s, now);
	if (!get_hex(&p, narrow, sizeof(narrow)) || *p ||
	    memcmp(narrow + 1, now + 1, sizeof(narrow) - sizeof(narrow[0])))
		return "E16";
	r.rflags = narrow[0];
	kvm_ioctl(stub->cpus[stub->g].fd, KVM_SET_REGS, &r, "KVM_SET_REGS");
	return "OK";
}

/* The byte at a guest-virtual address, in RAM, and its guest-physical address in *gpa
 * unless gpa is NULL; NULL when the page tables map none. */
static __u8 *guest_byte(const struct gdb_stub *stub, __u64 virt, __u64 *gpa)
{
	struct kvm_translation t = { .linear_address = virt };

	if (ioctl(stub->cpus[stub->g].fd, KVM_TRANSLATE, &t) == -1 || !t.valid)
		return NULL;
	if (gpa)
		*gpa = t.physical_address;
	return guest_ptr(stub->vm, t.physical_address, 1);
}

/* The index of the software breakpoint at addr, or nbreaks when there is none. */
static size_t find_break(const struct gdb_stub *stub, __u64 addr)
{
	size_t i;

	for (i = 0; i < stub->nbreaks && stub->breaks[i].addr != addr; i++)
		;
	return i;
}

/* m ADDR,LEN: the guest's memory, as it would be without the stub's int3s. */
static void send_memory(struct gdb_stub *stub, __u64 addr, __u64 len)
{
	char out[PACKET_MAX];
	__u64 i;

	len = len < (PACKET_MAX - 1) / 2 ? len : (PACKET_MAX - 1) / 2;
	for (i = 0; i < len; i++) {
		__u8 *byte = guest_byte(stub, addr + i, NULL), value;
		size_t b = find_break(stub, addr + i);

		if (!byte)
			break;
		value = b < stub->nbreaks ? stub->breaks[b].saved : *byte;
		put_hex(out + 2 * i, &value, 1);
	}
	send_packet(stub, i ? out : "E0e");	/* EFAULT, when not one byte is mapped */
}

/* M ADDR,LEN:BYTES: the guest's memory, or the byte an int3 of the stub's replaced. */
static const char *write_memory(struct gdb_stub *stub, const char *p)
{
	unsigned long long addr, len, i;
	int at = 0;

	if (sscanf(p, "%llx,%llx:%n", &addr, &len, &at) != 2 || !at)
		return "E16";
	for (p += at, i = 0; i < len; i++) {
		__u8 *byte = guest_byte(stub, addr + i, NULL), value;
		size_t b = find_break(stub, addr + i);

		if (!get_hex(&p, &value, 1))
			return "E16";
		if (!byte)
			return "E0e";
		*(b < stub->nbreaks ? &stub->breaks[b].saved : byte) = value;
	}
	return *p ? "E16" : "OK";
}

/* Wait a second at most for owner or parked to change; the -l bound ends the wait. */
static void wait_changed(struct gdb_stub *stub)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec++;
	errno = pthread_cond_timedwait(&stub->changed, &stub->lock, &until);
	if (errno && errno != ETIMEDOUT)
		err(1, "pthread_cond_timedwait");
	if (bound_over(stub))
		errx(1, "Linux did not reset within the time -l gave it");
}

static void tell_changed(struct gdb_stub *stub)
{
	errno = pthread_cond_broadcast(&stub->changed);
	if (errno)
		err(1, "pthread_cond_broadcast");
}

/* vCPU cpu's thread: wait while another vCPU has the machine. */
static void hold(struct gdb_stub *stub, int cpu)
{
	lock(&stub->lock);
	stub->parked++;
	tell_changed(stub);
	while (stub->owner != -1 && stub->owner != cpu)
		wait_changed(stub);
	stub->parked--;
	unlock(&stub->lock);
}

/* Stop every vCPU for vCPU cpu's thread; false when another vCPU had stopped them first. */
static bool stop_all(struct gdb_stub *stub, int cpu)
{
	lock(&stub->lock);
	if (stub->owner != -1 && stub->owner != cpu) {
		unlock(&stub->lock);
		hold(stub, cpu);
		return false;
	}
	if (stub->owner == -1)
		for (int i = 0; i < stub->ncpus; i++)
			if (i != cpu)
				kick_vcpu(&stub->cpus[i]);
	stub->owner = stub->g = cpu;
	while (stub->parked < stub->ncpus - 1)
		wait_changed(stub);
	unlock(&stub->lock);
	return true;
}

/* Give the machine to vCPU owner, to step it, or to none (-1): every vCPU goes on. */
static void release(struct gdb_stub *stub, int owner)
{
	lock(&stub->lock);
	stub->owner = owner;
	tell_changed(stub);
	unlock(&stub->lock);
}

/* A stop reply: the signal, the owner's thread, and what else gdb should know. */
static void send_stop(struct gdb_stub *stub, int signal, const char *why)
{
	char reply[64];

	snprintf(reply, sizeof(reply), "T%02xthread:%x;%s", signal, stub->owner + 1, why);
	send_packet(stub, reply);
}

/* vCPU cpu's debugging controls from the stub's breakpoints, with more flags. */
static void set_debug(struct gdb_stub *stub, int cpu, __u32 control)
{
	struct kvm_guest_debug debug = { .control = KVM_GUESTDBG_ENABLE | control };
	int i;

	if (stub->nbreaks)
		debug.control |= KVM_GUESTDBG_USE_SW_BP;
	for (i = 0; i < HW_BREAKS; i++) {
		if (stub->hw[i].dr7) {
			debug.control |= KVM_GUESTDBG_USE_HW_BP;
			debug.arch.debugreg[i] = stub->hw[i].addr;
			debug.arch.debugreg[7] |= stub->hw[i].dr7;
		}
	}
	kvm_ioctl(stub->cpus[cpu].fd, KVM_SET_GUEST_DEBUG, &debug, "KVM_SET_GUEST_DEBUG");
}

/* Z0/z0: plant an int3 at addr, or put back the byte it replaced, where it was planted. */
static const char *software_break(struct gdb_stub *stub, bool insert, __u64 addr)
{
	size_t i = find_break(stub, addr);
	__u64 gpa;
	__u8 *byte;

	if (insert && i == stub->nbreaks) {
		byte = guest_byte(stub, addr, &gpa);
		if (!byte)	/* not mapped yet: paging may be off, use hbreak */
			return "E0e";
		if (i == SW_BREAKS)
			return "E1c";	/* ENOSPC */
		stub->breaks[stub->nbreaks++] = (struct sw_break) { addr, gpa, *byte };
		*byte = INT3;
	} else if (!insert && i < stub->nbreaks) {
		byte = guest_ptr(stub->vm, stub->breaks[i].gpa, 1);	/* RAM when planted, still */
		*byte = stub->breaks[i].saved;
		stub->breaks[i] = stub->breaks[--stub->nbreaks];
	}
	return "OK";
}

/* Z1/z1: a debug register on addr, or off it. */
static const char *hardware_break(struct gdb_stub *stub, bool insert, __u64 addr)
{
	int i;

	for (i = 0; i < HW_BREAKS; i++) {
		struct hw_break *b = &stub->hw[i];

		if (insert ? !b->dr7 : b->dr7 && b->addr == addr) {
			*b = insert ? (struct hw_break) { addr, DR7_L0 << (2 * i) } :
				      (struct hw_break) { 0 };
			return "OK";
		}
	}
	return insert ? "E1c" : "OK";
}

/* Z and z: "Z0,ADDR,KIND"; the empty answer for the kinds not served. */
static const char *breakpoint(struct gdb_stub *stub)
{
	bool insert = stub->packet[0] == 'Z';
	unsigned long long addr;
	unsigned int type;

	if (sscanf(stub->packet + 1, "%u,%llx", &type, &addr) != 2)
		return "E16";	/* EINVAL */
	if (type == 0)
		return software_break(stub, insert, addr);
	if (type == 1)
		return hardware_break(stub, insert, addr);
	return "";
}

/* A debug register stopped the guest. */
static void send_hardware_stop(struct gdb_stub *stub)
{
	send_stop(stub, 5, "hwbreak:;");
}

static volatile sig_atomic_t knocked;	/* gdb sent a byte while the guest ran */
static struct kvm_run *knocked_run;	/* the vCPU's, for the signal's handler */

static void knock(int signal)
{
	(void)signal;
	knocked = 1;
	knocked_run->immediate_exit = 1;	/* if the thread is between two KVM_RUNs */
}

/* Have gdb's bytes, while O_ASYNC is on, raise SIGIO in this thread, the vCPU's. */
static void prepare_knock(struct gdb_stub *stub)
{
	struct sigaction action = { .sa_handler = knock };	/* no SA_RESTART */
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = gettid() };

	knocked_run = stub->cpus[0].run;
	if (sigaction(SIGIO, &action, NULL) == -1)
		err(1, "sigaction SIGIO");
	if (fcntl(stub->fd, F_SETOWN_EX, &owner) == -1)
		err(1, "F_SETOWN_EX");
}

/* O_ASYNC on while the guest runs, off while the stub reads the socket itself. */
static void hear_while_running(struct gdb_stub *stub, bool on)
{
	int flags = fcntl(stub->fd, F_GETFL);
	char c;

	if (flags == -1 || fcntl(stub->fd, F_SETFL, on ? flags | O_ASYNC : flags & ~O_ASYNC) == -1)
		err(1, "O_ASYNC");
	if (on && recv(stub->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) != -1)
		knock(SIGIO);	/* a byte, or gdb's leaving, came before O_ASYNC: no signal told */
}

/* The vCPU of the thread id at p: -1 for 0 (any) and -1 (all), -2 for none. */
static int thread_vcpu(const struct gdb_stub *stub, const char *p)
{
	char *end;
	long id = strtol(p, &end, 16);

	if (end == p || *end)
		return -2;
	if (id == 0 || id == -1)
		return -1;
	return id >= 1 && id <= stub->ncpus ? id - 1 : -2;
}

/* Hg and Hc: the vCPU of g, G, P, m and M, or of s. */
static const char *choose_thread(struct gdb_stub *stub, char op, const char *id)
{
	int cpu = thread_vcpu(stub, id);

	if (cpu == -2 || (op != 'g' && op != 'c'))
		return "E16";
	if (op == 'c')
		stub->c = cpu;
	else if (cpu >= 0)
		stub->g = cpu;
	return "OK";
}

/* qfThreadInfo, qsThreadInfo, qC; false for another question. */
static bool thread_query(struct gdb_stub *stub, const char *p)
{
	char out[64];

	if (!strcmp(p, "qfThreadInfo")) {
		for (int i = 0, n = 0; i < stub->ncpus; i++)
			n += snprintf(out + n, sizeof(out) - n, "%c%x", i ? ',' : 'm', i + 1);
	} else if (!strcmp(p, "qsThreadInfo")) {
		strcpy(out, "l");
	} else if (!strcmp(p, "qC")) {
		snprintf(out, sizeof(out), "QC%x", stub->owner + 1);
	} else {
		return false;
	}
	send_packet(stub, out);
	return true;
}

static struct gdb_stub *the_stub;	/* for the application processors' threads */

/* An application processor's loop under gdb: the library's, with holds and debug exits. */
static void *run_ap(void *arg)
{
	struct vcpu_thread *c = arg;
	bool done = false;

	run_vcpu_here(c);
	while (!done) {
		if (!enter_vcpu(c->fd, c->id, &c->eagains)) {
			c->run->immediate_exit = 0;
			hold(the_stub, c->id);
		} else if (c->run->exit_reason == KVM_EXIT_DEBUG) {
			gdb_stop(the_stub, c->id);
		} else {
			lock(c->lock);
			c->exits++;
			c->m->exits++;
			done = dispatch_exit(c->m, c->run);
			unlock(c->lock);
		}
	}
	kick_vcpu(c->leader);
	return NULL;
}

/* Move application processor c from the library's loop to the stub's. */
static void take_over(struct gdb_stub *stub, struct vcpu_thread *c)
{
	the_stub = stub;
	kick_vcpu(c);
	errno = pthread_join(c->thread, NULL);
	if (errno)
		err(1, "pthread_join");
	c->thread = start_thread(run_ap, c);
}

/* Let every vCPU go on, or only vCPU step (-1: none) for a step. */
static void resume(struct gdb_stub *stub, int step)
{
	int i;

	for (i = 0; i < stub->ncpus; i++)
		set_debug(stub, i, i == step ? KVM_GUESTDBG_SINGLESTEP | KVM_GUESTDBG_BLOCKIRQ : 0);
	release(stub, step);
	hear_while_running(stub, true);
}

/* Serve gdb's packets until it resumes the guest (true) or leaves it (false). */
static bool serve(struct gdb_stub *stub)
{
	unsigned long long addr, len;
	int step;

	hear_while_running(stub, false);
	while (!stub->gone && receive_packet(stub)) {
		const char *p = stub->packet;

		switch (p[0]) {
		case '?':
			send_stop(stub, 5, "");
			break;
		case 'g':
			send_registers(stub);
			break;
		case 'G':
			send_packet(stub, write_registers(stub, p + 1));
			break;
		case 'P':
			send_packet(stub, write_register(stub, p + 1));
			break;
		case 'm':
			if (sscanf(p + 1, "%llx,%llx", &addr, &len) == 2)
				send_memory(stub, addr, len);
			else
				send_packet(stub, "E16");
			break;
		case 'M':
			send_packet(stub, write_memory(stub, p + 1));
			break;
		case 'Z':
		case 'z':
			send_packet(stub, breakpoint(stub));
			break;
		case 'c':
			resume(stub, -1);
			return true;
		case 's':
			step = stub->c < 0 ? stub->g : stub->c;
			get_regs(stub->cpus[step].fd, &stub->before_step);
			resume(stub, step);
			return true;
		case 'D':
			send_packet(stub, "OK");
			stub->gone = true;
			break;
		case 'k':
			printf("\ngdb killed the machine\n");
			exit(0);
		case 'H':
			send_packet(stub, choose_thread(stub, p[1], p + 2));
			break;
		case 'T':
			send_packet(stub, thread_vcpu(stub, p + 1) >= 0 ? "OK" : "E16");
			break;
		case 'q':
			if (!strncmp(p, "qSupported", 10))
				send_packet(stub, "PacketSize=fff;swbreak+;hwbreak+");
			else if (!thread_query(stub, p))
				send_packet(stub, strcmp(p, "qAttached") ? "" : "1");
			break;
		default:
			send_packet(stub, "");
		}
	}
	return false;
}

/* gdb has left: take out what it planted, and let the guest run free. */
static void leave(struct gdb_stub *stub)
{
	struct kvm_guest_debug off = { 0 };
	int i;

	while (stub->nbreaks)
		software_break(stub, false, stub->breaks[0].addr);
	for (i = 0; i < stub->ncpus; i++)
		kvm_ioctl(stub->cpus[i].fd, KVM_SET_GUEST_DEBUG, &off, "KVM_SET_GUEST_DEBUG");
	close(stub->fd);
	stub->fd = -1;
	release(stub, -1);
}

/* vCPU cpu's thread has stopped the machine: serve gdb, then go on when the guest does. */
static void serve_then_go_on(struct gdb_stub *stub, int cpu)
{
	if (serve(stub))
		hold(stub, cpu);	/* while another vCPU takes a step */
	else
		leave(stub);
}

void wait_for_gdb(struct gdb_stub *stub, const struct vm *vm, struct vcpu_thread *cpus,
		  int ncpus, const char *at, unsigned int life)
{
	int i;

	*stub = (struct gdb_stub) {
		.vm = vm, .cpus = cpus, .ncpus = ncpus, .c = -1, .owner = -1,
		.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER,
		.fd = accept_one(at, "gdb", life), .life = life,
	};
	for (i = 1; i < ncpus; i++)
		take_over(stub, &cpus[i]);
	prepare_knock(stub);
	stop_all(stub, 0);
	serve_then_go_on(stub, 0);
}

/* A KVM_EXIT_DEBUG of vCPU cpu: let it go on if the stop is not gdb's, else tell gdb and
 * serve it. */
void gdb_stop(struct gdb_stub *stub, int cpu)
{
	const struct kvm_debug_exit_arch *why = &stub->cpus[cpu].run->debug.arch;
	struct kvm_regs now;

	if (why->exception == BP_VECTOR && find_break(stub, why->pc) == stub->nbreaks) {
		set_debug(stub, cpu, KVM_GUESTDBG_INJECT_BP);
		return;
	}
	if (why->exception != BP_VECTOR && (why->dr6 & DR6_BS)) {
		get_regs(stub->cpus[cpu].fd, &now);
		if (!memcmp(&now, &stub->before_step, sizeof(now)))
			return;	/* an empty step: the trap flag stays, the step is taken again */
	}
	if (!stop_all(stub, cpu))
		return;	/* another vCPU stopped the machine first: this one meets its stop again */
	if (why->exception == BP_VECTOR)
		send_stop(stub, 5, "swbreak:;");
	else if (why->dr6 & DR6_BS)
		send_stop(stub, 5, "");
	else
		send_hardware_stop(stub);
	serve_then_go_on(stub, cpu);
}

/* The machine ended: tell gdb, as a process's end. */
void gdb_end(struct gdb_stub *stub)
{
	if (stub->fd == -1)
		return;
	send_packet(stub, "W00");
	close(stub->fd);
}

/* vCPU 0's KVM_RUN ended for a signal: false when it was the bound's, else the guest goes on. */
bool gdb_heard(struct gdb_stub *stub)
{
	ssize_t n;
	char c = 0;

	if (bound_over(stub))
		return false;
	stub->cpus[0].run->immediate_exit = 0;
	if (!knocked || stub->fd == -1) {	/* no knock, or gdb knocked as it left */
		knocked = 0;
		hold(stub, 0);	/* while another vCPU's thread has the machine stopped */
		return true;
	}
	knocked = 0;
	do
		n = recv(stub->fd, &c, 1, MSG_DONTWAIT);
	while (n == 1 && c != '\x03');	/* gdb sends nothing else while the guest runs */
	if ((n == 1 || n == 0 || errno != EAGAIN) && stop_all(stub, 0)) {
		if (n == 1) {
			send_stop(stub, 2, "");
			serve_then_go_on(stub, 0);
		} else {
			leave(stub);
		}
	}
	return true;
}

