/* From the chapter "Appendix: a device of your own", book/c-project.nw. */
/* project-counter's guest: add 10 down to 1 to the counter, read its count,
   print it as two decimal digits. */
	.code16
	mov	$10, %cx
1:	mov	%cx, 0xa004		/* the counter's ADD register */
	loop	1b
	mov	0xa000, %al		/* its COUNT register */
	aam				/* AH = AL / 10, AL = AL % 10 */
	add	$('0' << 8 | '0'), %ax
	mov	$0x3f8, %dx
	xchg	%ah, %al
	out	%al, (%dx)
	mov	%ah, %al
	out	%al, (%dx)
	mov	$'\n', %al
	out	%al, (%dx)
	hlt
