// SPDX-License-Identifier: GPL-2.0 OR MIT
/* From the chapter "A virtio device", book/37-virtio-console.nw. */
/* virtio.c: the VMM's virtio devices on the memory bus (chapter "A virtio device"). */
#include "vmm.h"

/* Put the device with window on the memory bus and in the VMM's list of virtio devices. */
void plug_virtio(struct vmm *v, struct device window, struct virtio_mmio *t)
{
	bus_add(&v->m.mmio, &window, 1);
	v->virtio[v->in_memory++] = t;
}
