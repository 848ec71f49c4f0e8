/* From the chapter "An interrupt the VMM raises", book/22-irq-line.nw. */
/* lab-thre's guest: send a message one byte per "transmitter empty"
   interrupt of the UART, then finish. */
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
	mov	$0x1000 + message - start, %si
	mov	$0x3f9, %dx		/* IER */
	mov	$2, %al			/* transmitter empty */
	out	%al, (%dx)
1:	sti
	hlt
	jmp	1b
irq4:	mov	$0x3fa, %dx		/* IIR: the read acknowledges the interrupt */
	in	(%dx), %al
	lodsb				/* the next byte of the message */
	test	%al, %al
	jz	2f
	mov	$0x3f8, %dx		/* THR */
	out	%al, (%dx)
	mov	$0x20, %al		/* end of interrupt */
	out	%al, $0x20
	iret
2:	out	%al, $0xf4
idtr:	.word	0x93
	.long	0x1800
message: .asciz	"sent on interrupts\n"
