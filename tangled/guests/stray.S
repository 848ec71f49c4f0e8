/* From the chapter "The guest is hostile", book/38-hostile-guest.nw. */
/* stray's guest: string instructions to the UART, then accesses no device takes. */
	.code16
start:
	mov	$0x1000 + name - start, %si
	mov	$6, %cx
	mov	$0x3f8, %dx
	rep outsb			/* six bytes, an exit each */
	mov	$0x3ff, %dx		/* the UART's scratch register */
	mov	$'*', %al
	out	%al, (%dx)
	mov	$0x1108, %di
	mov	$4, %cx
	rep insb			/* four reads of it, in one exit */
	movl	0xa000, %eax		/* no memory and no device: all ones */
	movl	%eax, 0x1100		/* kept for the VMM to print */
	movl	$0x12345678, 0xa000	/* a write that goes nowhere */
	mov	$0xffff, %dx
	in	(%dx), %ax		/* the last port, and one past the end */
	mov	%ax, 0x1104
	hlt
name:	.ascii	"stray\n"
