/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* From the chapter "The PC's other ports", book/31-pc-ports.nw. */
/* pci.h: PCI's configuration ports, with no device behind them. */
#ifndef PCI_H
#define PCI_H
#include <linux/types.h>

#define PCI_CONFIG_PORT	0xcf8	/* the address register; data at 0xcfc */
#define PCI_DATA	4	/* the data port's offset */

struct pci {
	__u32 address;		/* the last address written to 0xcf8 */
};
void pci_read(void *state, __u64 offset, __u8 *data, __u32 len);
void pci_write(void *state, __u64 offset, const __u8 *data, __u32 len);
#endif
