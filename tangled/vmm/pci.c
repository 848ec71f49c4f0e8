// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* pci.c: PCI's configuration mechanism, with a host bridge and no other function. */
#include <string.h>
#include "vmm.h"

#define PCI_ENABLE	0x80000000U	/* bit 31: the data port reaches configuration space */
#define PCI_FUNCTION	0x00ffff00U	/* bus, device and function */
#define PCI_REGISTER	0xfcU		/* the register's dword */
#define HOST_VENDOR	0x8086		/* Intel, as Cloud Hypervisor's bridge says */
#define HOST_DEVICE	0x0d57
#define HOST_CLASS	0x060000	/* a bridge, to the host; revision 0 below it */

/* Byte reg of the host bridge's configuration space: its ids and class, then zeros. */
static __u8 host_bridge_byte(unsigned int reg)
{
	const __u32 header[] = {
		[0] = HOST_VENDOR | HOST_DEVICE << 16,
		[2] = HOST_CLASS << 8,
	};

	return reg < sizeof(header) ? header[reg / 4] >> (reg % 4 * 8) : 0;
}

/* A byte of the data port: the host bridge's at 00:00.0, all ones where no function is. */
static __u8 config_byte(__u32 address, unsigned int byte)
{
	if (!(address & PCI_ENABLE) || (address & PCI_FUNCTION))
		return 0xff;
	return host_bridge_byte((address & PCI_REGISTER) + byte);
}

void pci_read(void *state, __u64 offset, __u8 *data, __u32 len)
{
	const struct pci *pci = state;
	__u32 i;

	if (offset == 0 && len == 4)
		memcpy(data, &pci->address, len);
	else if (offset >= PCI_DATA)
		for (i = 0; i < len; i++)
			data[i] = config_byte(pci->address, offset - PCI_DATA + i);
}

void pci_write(void *state, __u64 offset, const __u8 *data, __u32 len)
{
	struct pci *pci = state;

	/* The bridge has nothing to set: a write of data changes nothing. */
	if (offset == 0 && len == 4)
		memcpy(&pci->address, data, len);
}

