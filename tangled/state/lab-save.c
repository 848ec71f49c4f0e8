// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Snapshot and restore", book/32-snapshot.nw. */
#include "kvm.h"
/* lab-save: save the counting guest in a file, and restore it in another process. */
#include "state.h"
#include <stdlib.h>
#include "guests/snapshot.h"
static void write_all(FILE *f, const void *data, size_t size, const char *path)
{
	if (fwrite(data, 1, size, f) != size)
		err(1, "write %s", path);
}

static void save_to_file(const char *path)
{
	static struct snapshot s;
	struct vm vm;
	FILE *f;

	set_up_vm(&vm, guest_code, sizeof(guest_code));
	if (!run_lines(&vm, STOP_AFTER))
		errx(1, "the guest halted before line %d", STOP_AFTER);
	complete_exit(&vm);
	take_snapshot(&vm, &s, false);
	f = fopen(path, "w");
	if (!f)
		err(1, "%s", path);
	write_all(f, &s, sizeof(s), path);
	write_all(f, s.msrs, sizeof(*s.msrs) + s.msrs->nmsrs * sizeof(s.msrs->entries[0]), path);
	write_all(f, vm.mem, GUEST_MEM_SIZE, path);
	if (fclose(f) == EOF)
		err(1, "close %s", path);
	printf("-- snapshot saved in %s\n", path);
}

#define MSRS_MAX	16	/* more than a snapshot of this program holds */

static void read_all(FILE *f, void *data, size_t size, const char *path)
{
	if (fread(data, 1, size, f) != size)
		errx(1, "%s: not a snapshot of this program", path);
}

static void restore_from_file(const char *path)
{
	static struct snapshot s;
	struct kvm_msrs count;
	struct vm vm;
	FILE *f = fopen(path, "r");

	if (!f)
		err(1, "%s", path);
	read_all(f, &s, sizeof(s), path);
	read_all(f, &count, sizeof(count), path);
	if (count.nmsrs > MSRS_MAX)
		errx(1, "%s: %u MSRs, more than %d", path, count.nmsrs, MSRS_MAX);
	s.msrs = malloc(sizeof(count) + count.nmsrs * sizeof(s.msrs->entries[0]));
	if (!s.msrs)
		err(1, "malloc");
	*s.msrs = count;
	read_all(f, s.msrs->entries, count.nmsrs * sizeof(s.msrs->entries[0]), path);
	create_empty_vm(&vm, false);
	read_all(f, vm.mem, GUEST_MEM_SIZE, path);
	fclose(f);
	restore_snapshot(&vm, &s, "", false);
	printf("-- snapshot restored from %s\n", path);
	flush_stdout();
	run_until_halt(&vm);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "save"))
		save_to_file(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "restore"))
		restore_from_file(argv[2]);
	else
		errx(1, "usage: lab-save save|restore FILE");
	return 0;
}
