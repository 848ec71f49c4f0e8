/* From the chapter "Exercises", book/17-exercises.nw. */
/* ex-keyboard's guest: read a key from port 0x60, echo it in upper case. */
	.code16
	in	$0x60, %al	/* an exit: the VMM answers with the key */
	sub	$'a' - 'A', %al	/* lower case to upper case: 0x20 */
	mov	$0x3f8, %dx
	out	%al, (%dx)
	mov	$'\n', %al
	out	%al, (%dx)
	hlt
