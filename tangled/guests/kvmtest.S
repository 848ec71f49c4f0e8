/* From the chapter "A virtual machine that adds 2+2", book/01-sample-vm.nw. */
/* kvmtest's guest: add 2+2, write the digit and a newline to COM1, halt. */
	.code16			/* real mode: sixteen-bit code */
	mov	$0x3f8, %dx	/* DX holds the serial port */
	add	%bl, %al	/* AL = 2 + 2 */
	add	$'0', %al	/* the character '4' */
	out	%al, (%dx)	/* the first exit */
	mov	$'\n', %al
	out	%al, (%dx)	/* the second exit */
	hlt			/* the third */
