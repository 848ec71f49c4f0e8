/* From the chapter "Interrupts from the kernel's own chips", book/21-in-kernel-irqchip.nw. */
/* pit-ticks' guest: program the PIC and the PIT, count ten timer
   interrupts, printing a dot for each. */
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
	xor	%cx, %cx
	mov	$0x3f8, %dx
1:	sti
	hlt
	cli
	mov	$'.', %al
	out	%al, (%dx)
	cmp	$10, %cx
	jb	1b
	mov	$'\n', %al
	out	%al, (%dx)
	out	%al, $0xf4
tick:	push	%ax
	inc	%cx
	mov	$0x20, %al		/* end of interrupt */
	out	%al, $0x20
	pop	%ax
	iret
idtr:	.word	0x83			/* limit */
	.long	0x1800			/* base */
