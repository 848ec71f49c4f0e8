// SPDX-License-Identifier: GPL-2.0 OR MIT
/* fuzz/snapshot.c: the reader of snapshots and migrations, given the input as its stream. */
#include <stdio.h>
#include <unistd.h>
#include "fuzz.h"

#define RAM_SIZE	(1 << 20)

struct restore {
	struct snapshot_reader r;
	int fd;
	const struct vm *vm;
	struct saved_machine *saved;
};

static void restore(void *arg)
{
	struct restore *x = arg;

	open_snapshot(&x->r, x->fd, "input", RAM_SIZE);
	read_machine(&x->r, x->vm, x->saved);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct saved_machine saved;
	struct restore x = { .saved = &saved };
	FILE *stream = tmpfile();
	size_t body = size < sizeof(__u64) ? size : size - sizeof(__u64);
	__u64 checksum = fnv1a(FNV_OFFSET, data, body);
	struct vm vm;

	if (!stream)
		err(1, "tmpfile");
	if (fwrite(data, 1, body, stream) != body ||
	    (body < size && fwrite(&checksum, sizeof(checksum), 1, stream) != 1) ||
	    fflush(stream) || fseek(stream, 0, SEEK_SET))
		err(1, "tmpfile");
	x.fd = fileno(stream);
	fuzz_start(&vm, RAM_SIZE);
	x.vm = &vm;
	fuzz_survives(restore, &x);
	fuzz_end(&vm);
	fclose(stream);
	return 0;
}
