/* From the chapter "When things go wrong", book/08-failures.nw. */
/* in-port's guest: read a byte from COM1, which kvmtest only writes. */
	.code16
	mov	$0x3f8, %dx
	in	(%dx), %al	/* an exit the program refuses */
	hlt
