// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* pc.c: the keyboard controller, a boot timer, and the table of the ports. */
#include <err.h>
#include <string.h>
#include <time.h>
#include "vmm.h"

#define I8042_PORT	0x60	/* data; status and command at 0x64 */
#define I8042_COMMAND	4	/* offset of the command port */
#define I8042_STATUS	0x01	/* output buffer full, input buffer empty */
#define I8042_RESET	0xfe	/* pulse the reset line */

static void i8042_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	(void)state;
	if (offset == I8042_COMMAND && len == 1)
		*data = I8042_STATUS;
}

static void i8042_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	bool *done = state;

	if (offset == I8042_COMMAND && len == 1 && *data == I8042_RESET)
		*done = true;
}

#define BOOT_TIMER_PORT	0x440	/* the nested init writes it when it starts */

static long since_ms(const struct timespec *start)
{
	struct timespec now;

	if (clock_gettime(CLOCK_MONOTONIC, &now) == -1)
		err(1, "clock_gettime");
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

static void boot_timer_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct boot_timer *timer = state;

	(void)offset;
	(void)data;
	(void)len;
	if (timer->init_ms < 0)
		timer->init_ms = since_ms(&timer->start);
}

size_t pc_devices(struct pc *pc, bool *done, struct device *devices)
{
	const struct device table[] = {
		{ RTC_PORT, 2, &pc->rtc, rtc_read, rtc_write, "clock" },
		{ I8042_PORT, 5, done, i8042_read, i8042_write, "keyboard" },
		{ PCI_CONFIG_PORT, 8, &pc->pci, pci_read, pci_write, "PCI" },
		{ BOOT_TIMER_PORT, 1, &pc->timer, NULL, boot_timer_write, "boot timer" },
	};

	pc->timer.init_ms = -1;
	if (clock_gettime(CLOCK_MONOTONIC, &pc->timer.start) == -1)
		err(1, "clock_gettime");
	memcpy(devices, table, sizeof(table));
	return ARRAY_SIZE(table);
}

/* Take the device called name out of the table; the count left. */
size_t remove_device(struct device *devices, size_t count, const char *name)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (!strcmp(devices[i].name, name)) {
			memmove(&devices[i], &devices[i + 1], (count - i - 1) * sizeof(*devices));
			return count - 1;
		}
	}
	errx(2, "-w %s: no such device", name);
}

