/* From the chapter "A device in memory", book/19-mmio-device.nw. */
/* lab-id's guest: copy the identity ROM's string to the console's data
   register, read the console's status, print it as two decimal digits. */
	.code16
	mov	$0x9000, %si		/* the identity ROM */
1:	lodsb				/* an MMIO read: the next byte of the id */
	test	%al, %al
	jz	2f
	mov	%al, 0x8000		/* the console's data register */
	jmp	1b
2:
	mov	0x8001, %al		/* the console's status register */
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
