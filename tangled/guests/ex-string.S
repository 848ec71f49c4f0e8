/* From the chapter "Exercises", book/17-exercises.nw. */
/* ex-string's guest: print a zero-terminated string, byte by byte. */
	.code16
start:
	mov	$0x3f8, %dx
	mov	$0x1000 + string - start, %si	/* GUEST_ADDR + the string's offset */
1:	lodsb
	test	%al, %al
	jz	2f
	out	%al, (%dx)
	jmp	1b
2:	hlt
string:	.asciz	"2+2=4\n"
