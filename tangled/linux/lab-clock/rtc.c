// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A machine to use", book/39-machine-to-use.nw. */
/* rtc.c of lab-clock: the PC's clock, telling the host's time in UTC. */
#include <err.h>
#include <time.h>
#include "vmm.h"

#define RTC_REG_A	0x0a	/* bit 7: update in progress */
#define RTC_REG_B	0x0b	/* bit 1: 24-hour; bit 2 clear: BCD */
#define RTC_REG_D	0x0d	/* bit 7: battery good */

#define RTC_SECONDS	0x00
#define RTC_MINUTES	0x02
#define RTC_HOURS	0x04
#define RTC_WEEKDAY	0x06	/* 1 is Sunday */
#define RTC_DAY		0x07
#define RTC_MONTH	0x08	/* 1 is January */
#define RTC_YEAR	0x09	/* in its century */
#define RTC_CENTURY	0x32

static __u8 bcd(int n)
{
	return (n / 10) << 4 | n % 10;
}

static __u8 rtc_register(__u8 index)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm))
		err(1, "gmtime_r");
	switch (index) {
	case RTC_SECONDS:
		return bcd(tm.tm_sec);
	case RTC_MINUTES:
		return bcd(tm.tm_min);
	case RTC_HOURS:
		return bcd(tm.tm_hour);
	case RTC_WEEKDAY:
		return bcd(tm.tm_wday + 1);
	case RTC_DAY:
		return bcd(tm.tm_mday);
	case RTC_MONTH:
		return bcd(tm.tm_mon + 1);
	case RTC_YEAR:
		return bcd(tm.tm_year % 100);
	case RTC_CENTURY:
		return bcd(19 + tm.tm_year / 100);
	case RTC_REG_A:
		return 0x26;		/* a 32.768 kHz crystal, no update */
	case RTC_REG_B:
		return 0x02;		/* 24-hour, BCD */
	case RTC_REG_D:
		return 0x80;		/* the battery is good */
	default:
		return 0x00;		/* alarms off */
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

