/* From the chapter "When things go wrong", book/08-failures.nw. */
/* mmio-write's guest: compute '4' and store it where no memory is. */
	.code16
	add	%bl, %al
	add	$'0', %al
	mov	%al, 0x2000	/* guest-physical 0x2000: no memory slot */
	hlt
