/* From the chapter "Snapshot and restore", book/32-snapshot.nw. */
/* snapshot's guest: count from 1 to 9 in the x87 FPU, one number a line. */
	.code16
start:
	mov	$0x3f8, %dx
	mov	$9, %cx			/* nine rounds */
	fninit
	fldz				/* the count, ST(0): 0 */
1:	fld1
	faddp				/* the count + 1 */
	fists	0x1100			/* as a 16-bit integer in memory */
	mov	0x1100, %al
	add	$'0', %al
	out	%al, (%dx)
	mov	$'\n', %al
	out	%al, (%dx)
	loop	1b
	hlt
