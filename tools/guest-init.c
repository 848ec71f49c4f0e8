// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init: /init of the guest's initramfs.  Mounts the pseudo file
 * systems, makes the second serial port the result channel, runs the boot's
 * sessions (/sessions.sh, written by tools/build-initramfs) with their output
 * on that channel, then powers the machine off, which ends the emulator.
 *
 * The host reads the channel (a file, apart from the kernel console on ttyS0)
 * and judges it: lines starting with MARK are this harness's own, everything
 * else is what the book's transcripts must show.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define MARK "@@kvmbook@@"
#define CHANNEL "/dev/ttyS1"

static void mount_fs(const char *type, const char *dir)
{
	if (mount(type, dir, type, 0, NULL) < 0)
		warn("mount %s on %s", type, dir);
}

/*
 * Open the result channel in raw mode: the tty layer must not turn "\n"
 * into "\r\n" or otherwise touch the bytes the book compares.
 */
static int open_channel(void)
{
	struct termios t;
	int fd;

	fd = open(CHANNEL, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		err(1, "open %s", CHANNEL);
	if (tcgetattr(fd, &t) < 0)
		err(1, "tcgetattr %s", CHANNEL);
	cfmakeraw(&t);
	if (tcsetattr(fd, TCSANOW, &t) < 0)
		err(1, "tcsetattr %s", CHANNEL);
	return fd;
}

/*
 * Run /bin/sh /sessions.sh in /, stdin empty, stdout and stderr on fd.  The
 * originals close on exec: sessions get fds 0, 1 and 2 only, as at a terminal.
 */
static void run_sessions(int fd)
{
	int null, status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0)
			err(1, "redirect to %s", CHANNEL);
		execl("/bin/sh", "sh", "/sessions.sh", (char *)NULL);
		err(1, "exec /bin/sh");
	}
	if (waitpid(pid, &status, 0) < 0)
		err(1, "waitpid");
}

int main(void)
{
	int fd;

	mount_fs("devtmpfs", "/dev");
	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("tracefs", "/sys/kernel/tracing");
	if (chdir("/") < 0)
		err(1, "chdir /");
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/", 1);

	fd = open_channel();
	/* Without /dev/kvm no session can pass: say so once, run nothing. */
	if (access("/dev/kvm", F_OK) < 0)
		dprintf(fd, MARK " no-kvm\n");
	else
		run_sessions(fd);
	dprintf(fd, MARK " done\n");
	/* Let the UART send every byte before the machine goes away. */
	tcdrain(fd);
	reboot(RB_POWER_OFF);
	err(1, "reboot(RB_POWER_OFF)");
}
