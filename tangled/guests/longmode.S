/* From the chapter "Beyond real mode: protected and long mode", book/16-protected-and-long-mode.nw. */
/* longmode's guest: print L from the top byte of a 64-bit register. */
	.code64
	movabs	$'L' << 56, %rax
	shr	$56, %rax
	mov	$0x3f8, %edx
	out	%al, (%dx)
	mov	$'\n', %al
	out	%al, (%dx)
	hlt
