// SPDX-License-Identifier: GPL-2.0 OR MIT
/* virtio.c: the VMM's virtio devices on the memory bus (chapter "A virtio device"). */
#include "vmm.h"

/* Put the device with window on the memory bus and in the VMM's list of virtio devices. */
void plug_virtio(struct vmm *v, struct device window, struct virtio_mmio *t)
{
	v->windows[v->in_memory] = window;
	v->virtio[v->in_memory++] = t;
	v->m.mmio = (struct bus) { v->windows, v->in_memory };
}
