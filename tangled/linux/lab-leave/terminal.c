// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A machine to use", book/39-machine-to-use.nw. */
/* terminal.c: the VMM's terminal, whose leave key works in paced input too. */
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "vmm.h"

/* What was typed goes into the receiver, if the guest has read all it held. */
static void hand_over_typed(struct console_input *in)
{
	if (in->io->pos < in->io->len || !in->waiting)
		return;
	memcpy(in->receiving, in->typed, in->waiting);
	console_receive(in->io, in->receiving, in->waiting);
	in->waiting = 0;
	errno = pthread_cond_signal(&in->drained);
	if (errno)
		err(1, "pthread_cond_signal");
}

/* The guest found the receiver empty; the machine's lock is held. */
static void next_typed(void *owner)
{
	hand_over_typed(owner);
}

#define LEAVE_KEY	0x1d	/* Ctrl-]: the VMM ends */

static struct termios saved_terminal;

static void restore_terminal(void)
{
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_terminal);
}

static void make_terminal_raw(void)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, &saved_terminal) == -1)
		err(1, "-i: the standard input is not a terminal");
	raw = saved_terminal;
	cfmakeraw(&raw);
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == -1)
		err(1, "tcsetattr");
	if (atexit(restore_terminal))
		errx(1, "atexit");
}

/* The input's thread: each key typed, to the guest, until Ctrl-]. */
static void *read_typed(void *arg)
{
	struct console_input *in = arg;
	char key;

	while (read(STDIN_FILENO, &key, 1) == 1) {
		if (key == LEAVE_KEY) {
			fprintf(stderr, "\r\nvmm: Ctrl-]: the VMM ends\r\n");
			exit(0);
		}
		lock(in->mutex);
		while (in->waiting == sizeof(in->typed)) {
			errno = pthread_cond_wait(&in->drained, in->mutex);
			if (errno)
				err(1, "pthread_cond_wait");
		}
		in->typed[in->waiting++] = key;
		hand_over_typed(in);
		unlock(in->mutex);
	}
	return NULL;
}

/* After a prompt, the next line goes in, once the receiver is empty; a line
 * with the leave key in it ends the VMM instead. */
static void give_next_line(struct console_input *in)
{
	ssize_t n;

	if (!in->prompted || in->io->pos < in->io->len)
		return;
	in->prompted = false;
	n = getline(&in->line, &in->size, stdin);
	if (n > 0 && memchr(in->line, LEAVE_KEY, n)) {
		fprintf(stderr, "\r\nvmm: Ctrl-]: the VMM ends\r\n");
		exit(0);
	}
	if (n > 0)
		console_receive(in->io, in->line, n);
	if (n <= 0 && in->at_end) {
		in->at_end(in->at_end_arg);
		in->at_end = NULL;
	}
}

/* The prompt is complete: the next line goes in as soon as it can. */
void prompt_came(struct console_input *in)
{
	in->prompted = true;
	in->matched = 0;
	give_next_line(in);
}

/* The guest sent byte: note when it completes the prompt. */
static void watch_for_prompt(void *owner, __u8 byte)
{
	struct console_input *in = owner;

	if (byte != (__u8)in->prompt[in->matched])
		in->matched = 0;
	if (byte == (__u8)in->prompt[in->matched] && !in->prompt[++in->matched])
		prompt_came(in);
}

/* The guest found the receiver empty. */
static void next_line_after_prompt(void *owner)
{
	give_next_line(owner);
}

void start_console(struct console_input *in, struct console_io *io, pthread_mutex_t *mutex,
		   bool typed, const char *prompt)
{

	*in = (struct console_input) {
		.io = io, .mutex = mutex, .prompt = prompt,
		.drained = PTHREAD_COND_INITIALIZER,
	};
	io->owner = in;
	if (prompt && *prompt) {
		io->transmitted = watch_for_prompt;
		io->refill = next_line_after_prompt;
	} else if (typed) {
		make_terminal_raw();
		fprintf(stderr, "vmm: the guest's console is this terminal; Ctrl-] ends the VMM\r\n");
		io->refill = next_typed;
		start_thread(read_typed, in);
	}
}

