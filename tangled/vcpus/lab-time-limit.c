// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Several vCPUs", book/24-vcpus.nw. */
#include "kvm.h"
/* lab-time-limit: two-vcpus' guest, that never finishes, stopped after a time limit. */
#include "irq.h"
#include "machine.h"
#include "vcpus.h"
#define LOCKED_COUNTER		0x1f00	/* guest-physical: the locked counter */
#define UNLOCKED_COUNTER	0x1f04	/* and the unlocked one */
static __u32 guest_u32(const struct vm *vm, __u64 addr)
{
	__u32 value;

	memcpy(&value, guest_ptr(vm, addr, sizeof(value)), sizeof(value));
	return value;
}

#include <time.h>

#define TIME_LIMIT_MS	100	/* how long the guest runs before the VMM stops it */
#include "guests/two-vcpus.h"
/* Sleep for the time limit, then end the run as the device on DONE_PORT does. */
static void *end_at_time_limit(void *arg)
{
	struct smp_machine *sm = arg;
	const struct timespec limit = { .tv_nsec = TIME_LIMIT_MS * 1000000L };

	if (nanosleep(&limit, NULL) == -1)
		err(1, "nanosleep");
	lock(&sm->lock);
	if (!sm->m.done) {
		printf("time is up after %d ms\n", TIME_LIMIT_MS);
		flush_stdout();
		sm->m.done = true;
		errno = pthread_cond_broadcast(&sm->changed);
		if (errno)
			err(1, "pthread_cond_broadcast");
	}
	unlock(&sm->lock);
	return NULL;
}

int main(void)
{
	static struct smp_machine sm;
	const struct device pio_devices[] = {
		{ DONE_PORT, 1, &sm.m.done, NULL, done_write, "done" },
	};
	pthread_t limit;
	int i;

	bus_add(&sm.m.pio, pio_devices, ARRAY_SIZE(pio_devices));
	create_machine(&sm.m.vm, guest_code, sizeof(guest_code));
	add_vcpus(&sm);
	for (i = 0; i < NR_VCPUS; i++) {
		if (i > 0) {
			set_special_registers(sm.vcpus[i].fd);
			set_registers(sm.vcpus[i].fd);
		}
		set_entry(sm.vcpus[i].fd, GUEST_ADDR, 2 * i);	/* vCPU 1: 2, a turn never given */
	}
	install_kick();
	for (i = 0; i < NR_VCPUS; i++)
		start_vcpu(&sm.vcpus[i]);
	limit = start_thread(end_at_time_limit, &sm);
	stop_vcpus_when_done(&sm);
	errno = pthread_join(limit, NULL);
	if (errno)
		err(1, "pthread_join");
	print_count("locked total", guest_u32(&sm.m.vm, LOCKED_COUNTER));
	print_count("unlocked total", guest_u32(&sm.m.vm, UNLOCKED_COUNTER));
	print_vcpus(&sm);
	return 0;
}
