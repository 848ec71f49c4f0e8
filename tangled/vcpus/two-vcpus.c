// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "kvmbook.h"
/* two-vcpus: two vCPUs, two threads, an order kept through shared memory. */
#define LOCKED_COUNTER		0x1f00	/* guest-physical: the locked counter */
#define UNLOCKED_COUNTER	0x1f04	/* and the unlocked one */
static __u32 guest_u32(const struct vm *vm, __u64 addr)
{
	__u32 value;

	memcpy(&value, (const char *)vm->mem + (addr - GUEST_ADDR), sizeof(value));
	return value;
}

static const __u8 guest_code[] = {
	0x66, 0xb9, 0xa0, 0x86, 0x01, 0x00,		/* mov $100000, %ecx */
	0x66, 0xb8, 0x01, 0x00, 0x00, 0x00,		/* mov $1, %eax */
	0x66, 0xf0, 0x0f, 0xc1, 0x06, 0x00, 0x1f,	/* lock xadd %eax, 0x1f00 */
	0x66, 0xb8, 0x01, 0x00, 0x00, 0x00,		/* mov $1, %eax */
	0x66, 0x0f, 0xc1, 0x06, 0x04, 0x1f,		/* xadd %eax, 0x1f04 */
	0x66, 0x49,					/* dec %ecx */
	0x75, 0xe3,					/* jnz 0x1006 */
	0xf3, 0x90,					/* pause */
	0x38, 0x1e, 0x08, 0x1f,				/* cmp %bl, 0x1f08 */
	0x75, 0xf8,					/* jne 0x1023 */
	0xba, 0xf8, 0x03,				/* mov $0x3f8, %dx */
	0xbe, 0x4f, 0x10,				/* mov $0x104f, %si */
	0xac,						/* lodsb */
	0x84, 0xc0,					/* test %al, %al */
	0x74, 0x03,					/* jz 0x1039 */
	0xee,						/* out %al, (%dx) */
	0xeb, 0xf8,					/* jmp 0x1031 */
	0x88, 0xd8,					/* mov %bl, %al */
	0x04, '0',					/* add $'0', %al */
	0xee,						/* out %al, (%dx) */
	0xb0, '\n',					/* mov $'\n', %al */
	0xee,						/* out %al, (%dx) */
	0xfe, 0x06, 0x08, 0x1f,				/* incb 0x1f08 */
	0x84, 0xdb,					/* test %bl, %bl */
	0x75, 0x04,					/* jnz 0x104d */
	0xf3, 0x90,					/* pause */
	0xeb, 0xfc,					/* jmp 0x1049 */
	0xe6, 0xf4,					/* out %al, $0xf4 */
	'h', 'e', 'l', 'l', 'o', ' ', 'f', 'r', 'o', 'm', ' ',	/* .asciz */
	'v', 'C', 'P', 'U', ' ', 0,
};
int main(void)
{
	static struct smp_machine sm;
	const struct device pio_devices[] = {
		{ DONE_PORT, 1, &sm.m.done, done_read, done_write, "done" },
	};
	int i;

	sm.m.pio = (struct bus) { pio_devices, ARRAY_SIZE(pio_devices) };
	create_machine(&sm.m.vm, guest_code, sizeof(guest_code));
	check_extension(sm.m.vm.kvm, KVM_CAP_MP_STATE, "KVM_CAP_MP_STATE");
	add_vcpus(&sm);
	for (i = 0; i < NR_VCPUS; i++) {
		if (i > 0) {
			set_special_registers(sm.vcpus[i].fd);
			set_registers(sm.vcpus[i].fd);
		}
		set_entry(sm.vcpus[i].fd, GUEST_ADDR, i);
		print_mp_state(&sm.vcpus[i]);
	}
	install_kick();
	for (i = 0; i < NR_VCPUS; i++)
		start_vcpu(&sm.vcpus[i]);
	stop_vcpus_when_done(&sm);
	print_count("locked total", guest_u32(&sm.m.vm, LOCKED_COUNTER));
	print_count("unlocked total", guest_u32(&sm.m.vm, UNLOCKED_COUNTER));
	print_vcpus(&sm);
	return 0;
}
