/* From the chapter "The guest is hostile", book/38-hostile-guest.nw. */
/* hostile's guest: accept VERSION_1, place the virtio console's transmit
   queue where the words at 0x1f00 say, say it and the driver are ready and
   ring its doorbell. */
	.code16
	movl	$1, 0x8024		/* DRIVER_FEATURES_SEL: the second word */
	movl	$1, 0x8020		/* DRIVER_FEATURES: VIRTIO_F_VERSION_1 */
	movl	$0xb, 0x8070		/* STATUS: ACKNOWLEDGE, DRIVER, FEATURES_OK */
	movl	$1, 0x8030		/* QUEUE_SEL: the transmit queue */
	movl	0x1f00, %eax
	movl	%eax, 0x8038		/* QUEUE_NUM */
	movl	0x1f04, %eax
	movl	%eax, 0x8080		/* QUEUE_DESC_LOW */
	movl	0x1f08, %eax
	movl	%eax, 0x8090		/* QUEUE_AVAIL_LOW */
	movl	0x1f0c, %eax
	movl	%eax, 0x80a0		/* QUEUE_USED_LOW */
	movl	$1, 0x8044		/* QUEUE_READY */
	movl	$0xf, 0x8070		/* STATUS: and DRIVER_OK */
	movl	$1, 0x8050		/* QUEUE_NOTIFY: the transmit queue */
	hlt
