// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the devices", book/a-fuzzing-the-devices.nw. */
/* fuzz.c: the host's stand-ins for KVM and for the VMM's exit. */
#include <setjmp.h>
#include <stdarg.h>
#include "fuzz.h"

#define FUZZ_IRQS	24	/* the IOAPIC's lines */

static int levels[FUZZ_IRQS];

void irq_line(int vmfd, __u32 irq, int level)
{
	if (vmfd != FUZZ_VMFD || irq >= FUZZ_IRQS || (level != 0 && level != 1) ||
	    level == levels[irq]) {
		fprintf(stderr, "fuzz: irq_line(%d, %u, %d) with the line at %d\n", vmfd, irq,
			level, irq < FUZZ_IRQS ? levels[irq] : -1);
		abort();
	}
	levels[irq] = level;
}

int fuzz_level(__u32 irq)
{
	return levels[irq];
}

void create_irqchip_and_pit(int vmfd)
{
	fprintf(stderr, "fuzz: create_irqchip_and_pit(%d): a fuzzed VM has no chips\n", vmfd);
	abort();
}

static unsigned int pauses;

void pause_vcpu(void *arg)
{
	(void)arg;
	pauses++;
}

unsigned int fuzz_pauses(void)
{
	return pauses;
}

void fuzz_start(struct vm *vm, size_t mem_size)
{
	*vm = (struct vm) { .kvm = -1, .fd = FUZZ_VMFD, .vcpu = -1, .mem_size = mem_size };
	vm->mem = calloc(1, mem_size);
	if (!vm->mem)
		err(1, "calloc");
	memset(levels, 0, sizeof(levels));
}

void fuzz_end(struct vm *vm)
{
	free(vm->mem);
}

void fuzz_check_in_memory(const struct vm *vm, const void *data, __u64 len)
{
	uintptr_t start = (uintptr_t)vm->mem, p = (uintptr_t)data;

	if (p < start || p - start > vm->mem_size || len > vm->mem_size - (p - start)) {
		fprintf(stderr, "fuzz: a buffer of %llu bytes at %#lx, outside guest memory\n",
			(unsigned long long)len, (unsigned long)(p - start));
		abort();
	}
}

static jmp_buf stopped;
static bool armed;		/* within fuzz_survives: err and errx return there */
static unsigned long warnings;

static void leave_if_armed(void)
{
	if (armed) {
		armed = false;
		longjmp(stopped, 1);
	}
}

void err(int status, const char *format, ...)
{
	va_list args;

	leave_if_armed();
	va_start(args, format);
	vwarn(format, args);
	va_end(args);
	exit(status);
}

void errx(int status, const char *format, ...)
{
	va_list args;

	leave_if_armed();
	va_start(args, format);
	vwarnx(format, args);
	va_end(args);
	exit(status);
}

void warnx(const char *format, ...)
{
	(void)format;
	warnings++;
}

bool fuzz_survives(void (*step)(void *arg), void *arg)
{
	if (setjmp(stopped))
		return false;
	armed = true;
	step(arg);
	armed = false;
	return true;
}

bool fuzz_take(struct fuzz_input *in, void *to, size_t len)
{
	size_t n = len < in->size ? len : in->size;

	memcpy(to, in->data, n);
	memset((__u8 *)to + n, 0, len - n);
	in->data += n;
	in->size -= n;
	return n == len;
}

void fuzz_store(void *mem, size_t mem_size, struct fuzz_input *in)
{
	__u16 addr;
	__u8 len;
	__u8 bytes[255];

	fuzz_take(in, &addr, sizeof(addr));
	fuzz_take(in, &len, sizeof(len));
	fuzz_take(in, bytes, len);
	if (addr < mem_size)
		memcpy((__u8 *)mem + addr, bytes, len < mem_size - addr ? len : mem_size - addr);
}

