// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A VMM that boots Linux", book/30-booting-linux.nw. */
/* nested-init: /init of the kernel the book's VMM boots. */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define BOOT_TIMER_PORT	0x440	/* the nested init writes it when it starts */

/* Print the lines of /proc/cpuinfo that name the vendor, and say whether
 * the flags include a virtualization extension. */
static void show_cpu(void)
{
	char line[4096];
	FILE *cpuinfo = fopen("/proc/cpuinfo", "r");

	if (!cpuinfo)
		err(1, "/proc/cpuinfo");
	while (fgets(line, sizeof(line), cpuinfo)) {
		if (!strncmp(line, "vendor_id", 9))
			fputs(line, stdout);
		if (!strncmp(line, "flags", 5))
			printf("virtualization: %s\n",
			       strstr(line, " svm") || strstr(line, " vmx") ? "yes" : "none");
	}
	fclose(cpuinfo);
}

static void tell_boot_timer(void)
{
	int port = open("/dev/port", O_WRONLY | O_CLOEXEC);

	if (port == -1 || pwrite(port, "", 1, BOOT_TIMER_PORT) != 1)
		err(1, "/dev/port");
	close(port);
}

static void show_kernel_clock(void)
{
	struct timespec now;

	if (clock_gettime(CLOCK_BOOTTIME, &now) == -1)
		err(1, "clock_gettime");
	printf("init after %ld ms of the kernel's clock\n",
	       now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

int main(void)
{
	struct utsname name;

	if (mount("proc", "/proc", "proc", 0, NULL) == -1 ||
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) == -1)
		err(1, "mount");
	tell_boot_timer();
	if (getenv("timed"))
		show_kernel_clock();
	if (uname(&name) == -1)
		err(1, "uname");
	printf("Hello from the nested guest: %s %s\n", name.sysname, name.release);
	show_cpu();
	fflush(stdout);
	reboot(RB_AUTOBOOT);
	err(1, "reboot");
}
