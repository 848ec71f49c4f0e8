/* From the chapter "ioeventfd and irqfd", book/23-ioeventfd-irqfd.nw. */
/* doorbell's guest: ring the doorbell, and on each interrupt fetch a
   byte from the mailbox, upper case, until a zero. */
	.code16
start:
	cli
	mov	$0x2000, %sp
	lidt	0x1000 + idtr - start
	movw	$0x1000 + irq5 - start, 0x1800 + 0x25 * 4	/* vector 0x25 */
	movw	$0, 0x1800 + 0x25 * 4 + 2
	mov	$0x11, %al
	out	%al, $0x20
	mov	$0x20, %al
	out	%al, $0x21
	mov	$0x04, %al
	out	%al, $0x21
	mov	$0x01, %al
	out	%al, $0x21
	mov	$0xdf, %al		/* only IRQ 5 */
	out	%al, $0x21
	mov	$0x1e00, %di
1:	out	%al, $0xf0		/* the doorbell */
	sti
	hlt
	cli
	mov	0x1f00, %al		/* the mailbox */
	cmp	$'a', %al
	jb	2f
	cmp	$'z', %al
	ja	2f
	sub	$0x20, %al
2:	stosb
	test	%al, %al
	jnz	1b
	out	%al, $0xf4
irq5:	push	%ax
	mov	$0x20, %al
	out	%al, $0x20
	pop	%ax
	iret
idtr:	.word	0x97
	.long	0x1800
