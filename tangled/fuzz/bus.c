// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "Appendix: fuzzing the rest of the machine", book/b-fuzzing-the-machine.nw. */
/* fuzz/bus.c: the Linux VMM's buses and devices, given exits built from the input. */
#include "fuzz.h"

#define RAM_SIZE	0x2000	/* two pages of guest memory */
#define RUN_PAGES	2	/* struct kvm_run, then the data of a port access */

enum exit_kind { PORT_IN, PORT_OUT, MMIO_READ, MMIO_WRITE, STORE, KINDS };

/* An exit, after its kind: what KVM would have put in struct kvm_run. */
struct exit_input {
	__u32 addr;	/* the port, or the guest-physical address */
	__u16 count;	/* of a port access: how many */
	__u8 size;	/* of each, or of the MMIO access */
	__u8 unused;
	__u8 data[8];	/* what the guest writes */
};

struct pc_machine {
	struct machine m;
	struct serial uart;
	struct pc pc;
	struct virtio_console console;
	struct device devices[1 + PC_DEVICES];
	struct kvm_run *run;
};

static void build_machine(struct pc_machine *pcm)
{
	struct machine *m = &pcm->m;

	struct device console = virtio_console_device(&pcm->console, &m->vm, VIRTIO_CONSOLE_BASE,
						      VIRTIO_CONSOLE_IRQ);

	pcm->devices[0] = serial_device(&pcm->uart, FUZZ_VMFD);
	bus_add(&m->pio, pcm->devices, 1 + pc_devices(&pcm->pc, &m->done, pcm->devices + 1));
	bus_add(&m->mmio, &console, 1);
}

static void make_exit(struct kvm_run *run, enum exit_kind kind, const struct exit_input *e)
{
	memset(run, 0, RUN_PAGES * PAGE_SIZE);
	if (kind == PORT_IN || kind == PORT_OUT) {
		run->exit_reason = KVM_EXIT_IO;
		run->io.direction = kind == PORT_OUT ? KVM_EXIT_IO_OUT : KVM_EXIT_IO_IN;
		run->io.size = e->size;
		run->io.port = e->addr;
		run->io.count = e->count;
		run->io.data_offset = PAGE_SIZE;
		memcpy((__u8 *)run + PAGE_SIZE, e->data, sizeof(e->data));
	} else {
		run->exit_reason = KVM_EXIT_MMIO;
		run->mmio.phys_addr = e->addr;
		run->mmio.len = e->size;
		run->mmio.is_write = kind == MMIO_WRITE;
		memcpy(run->mmio.data, e->data, sizeof(e->data));
	}
}

static void dispatch(void *arg)
{
	struct pc_machine *pcm = arg;

	dispatch_exit(&pcm->m, pcm->run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct pc_machine pcm = { 0 };
	struct exit_input e;
	__u8 kind;

	fuzz_start(&pcm.m.vm, RAM_SIZE);
	pcm.run = malloc(RUN_PAGES * PAGE_SIZE);
	if (!pcm.run)
		err(1, "malloc");
	build_machine(&pcm);
	while (!pcm.m.done && fuzz_take(&in, &kind, sizeof(kind))) {
		if (kind % KINDS == STORE) {
			fuzz_store(pcm.m.vm.mem, pcm.m.vm.mem_size, &in);
			continue;
		}
		fuzz_take(&in, &e, sizeof(e));
		make_exit(pcm.run, kind % KINDS, &e);
		if (!fuzz_survives(dispatch, &pcm))
			break;
		if (fuzz_level(UART_IRQ) != pcm.uart.line ||
		    fuzz_level(VIRTIO_CONSOLE_IRQ) != pcm.console.mmio.line)
			abort();
	}
	free(pcm.run);
	fuzz_end(&pcm.m.vm);
	return 0;
}

