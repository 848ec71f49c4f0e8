/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* rtc.h: the PC's clock, on ports 0x70 and 0x71. */
#ifndef RTC_H
#define RTC_H
#include <linux/types.h>

#define RTC_PORT	0x70	/* index; data at 0x71 */

struct rtc {
	__u8 index;		/* the register 0x71 reads */
};

void rtc_read(void *state, __u64 offset, __u8 *data, __u32 len);
void rtc_write(void *state, __u64 offset, const __u8 *data, __u32 len);
#endif
