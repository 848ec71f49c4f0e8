/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "A machine to use", book/39-machine-to-use.nw. */
/* terminal.h: the VMM's standard input, for the guest's console. */
#ifndef TERMINAL_H
#define TERMINAL_H
#include <pthread.h>
#include <stdbool.h>
#include "serial.h"

#define TYPED_MAX	256	/* bytes typed and not yet received */

/* The VMM's standard input, for the guest's console: the serial port's or
 * the virtio console's. */
struct console_input {
	struct console_io *io;
	pthread_mutex_t *mutex;		/* the machine's, held while a device is used */
	const char *prompt;		/* paced: a line after each of these; else NULL */
	size_t matched;			/* bytes of the prompt the guest has just sent */
	bool prompted;			/* the prompt came since the last line */
	char *line;			/* paced: the line the receiver holds */
	size_t size;			/* and its buffer's size */
	char typed[TYPED_MAX];		/* typed: waiting for the receiver */
	size_t waiting;
	char receiving[TYPED_MAX];	/* typed: what the receiver holds */
	pthread_cond_t drained;		/* the receiver took what was waiting */
	void (*at_end)(void *arg);	/* paced: called when the input ends at a prompt */
	void *at_end_arg;
};

void start_console(struct console_input *in, struct console_io *io, pthread_mutex_t *mutex,
		   bool typed, const char *prompt);
void prompt_came(struct console_input *in);
#endif
