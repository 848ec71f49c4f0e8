/* From the chapter "Beyond real mode: protected and long mode", book/16-protected-and-long-mode.nw. */
/* pmode's guest: print P and a newline from one 32-bit register. */
	.code32
	mov	$0x3f8, %edx
	mov	$('\n' << 8 | 'P'), %eax	/* AL = 'P', AH = '\n' */
	out	%al, (%dx)
	shr	$8, %eax
	out	%al, (%dx)
	hlt
