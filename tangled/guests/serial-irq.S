/* From the chapter "An interrupt the VMM raises", book/22-irq-line.nw. */
/* serial-irq's guest: echo what the serial port receives, upper case,
   from the UART's interrupt handler. */
	.code16
start:
	cli
	mov	$0x2000, %sp
	lidt	0x1000 + idtr - start
	movw	$0x1000 + irq4 - start, 0x1800 + 0x24 * 4	/* vector 0x24 */
	movw	$0, 0x1800 + 0x24 * 4 + 2
	mov	$0x11, %al
	out	%al, $0x20
	mov	$0x20, %al
	out	%al, $0x21
	mov	$0x04, %al
	out	%al, $0x21
	mov	$0x01, %al
	out	%al, $0x21
	mov	$0xef, %al		/* only IRQ 4 */
	out	%al, $0x21
	mov	$0x3f9, %dx		/* IER */
	mov	$1, %al			/* received data available */
	out	%al, (%dx)
1:	sti
	hlt
	jmp	1b
irq4:	mov	$0x3fd, %dx		/* LSR */
	in	(%dx), %al
	test	$1, %al
	jz	3f
	mov	$0x3f8, %dx
	in	(%dx), %al
	cmp	$4, %al			/* ^D */
	je	4f
	cmp	$'a', %al
	jb	2f
	cmp	$'z', %al
	ja	2f
	sub	$0x20, %al
2:	out	%al, (%dx)
	jmp	irq4
3:	mov	$0x20, %al
	out	%al, $0x20
	iret
4:	out	%al, $0xf4
idtr:	.word	0x93
	.long	0x1800
