/* From the chapter "Saving the kernel's chips", book/33-saving-chips.nw. */
/* snapshot-chips' guest: count the PIT's ticks, one line a tick, 1 to 9. */
	.code16
start:
	cli
	mov	$0x2000, %sp
	lidt	0x1000 + idtr - start
	movw	$0x1000 + tick - start, 0x1800 + 0x20 * 4	/* vector 0x20 */
	movw	$0, 0x1800 + 0x20 * 4 + 2
	mov	$0x11, %al		/* the PIC: ICW1 */
	out	%al, $0x20
	mov	$0x20, %al		/* ICW2: vectors from 0x20 */
	out	%al, $0x21
	mov	$0x04, %al		/* ICW3 */
	out	%al, $0x21
	mov	$0x01, %al		/* ICW4 */
	out	%al, $0x21
	mov	$0xfe, %al		/* only IRQ 0 */
	out	%al, $0x21
	mov	$0x34, %al		/* the PIT: channel 0, mode 2 */
	out	%al, $0x43
	mov	$0x9c, %al
	out	%al, $0x40
	mov	$0x2e, %al
	out	%al, $0x40
	xor	%cx, %cx		/* the count, which the handler keeps */
	mov	$0x3f8, %dx
1:	sti
	hlt				/* until the next tick */
	cli
	mov	%cl, %al
	add	$'0', %al
	out	%al, (%dx)
	mov	$'\n', %al
	out	%al, (%dx)		/* where the VMM may stop */
	cmp	$9, %cx
	jb	1b
	hlt				/* with interrupts off: for good */
tick:	push	%ax
	inc	%cx
	mov	$0x20, %al		/* end of interrupt */
	out	%al, $0x20
	pop	%ax
	iret
idtr:	.word	0x83			/* limit */
	.long	0x1800			/* base */
