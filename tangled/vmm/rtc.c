// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* rtc.c: the PC's clock, stopped at midnight on 1 January 2000. */
#include "vmm.h"

#define RTC_REG_A	0x0a	/* bit 7: update in progress */
#define RTC_REG_B	0x0b	/* bit 1: 24-hour; bit 2 clear: BCD */
#define RTC_REG_D	0x0d	/* bit 7: battery good */

static __u8 rtc_register(__u8 index)
{
	switch (index) {
	case 0x06:
		return 0x07;		/* day of the week: Saturday */
	case 0x07:
	case 0x08:
		return 0x01;		/* day and month: 1 January */
	case 0x32:
		return 0x20;		/* century */
	case RTC_REG_A:
		return 0x26;		/* a 32.768 kHz crystal, no update */
	case RTC_REG_B:
		return 0x02;
	case RTC_REG_D:
		return 0x80;
	default:
		return 0x00;		/* 00:00:00, year 00, alarms off */
	}
}

void rtc_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	struct rtc *rtc = state;

	if (offset == 1 && len == 1)
		*data = rtc_register(rtc->index);
}

void rtc_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct rtc *rtc = state;

	if (!offset && len == 1)
		rtc->index = *data & 0x7f;
}

