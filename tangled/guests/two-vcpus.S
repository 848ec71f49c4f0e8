/* From the chapter "Several vCPUs", book/24-vcpus.nw. */
/* two-vcpus' guest, run by both vCPUs (BL holds the vCPU's number): add 1
   to two counters 100000 times, with and without a lock; wait for its
   turn, say hello, pass the turn on.  vCPU 1 then finishes the machine;
   vCPU 0 waits for ever. */
	.code16
start:
	mov	$100000, %ecx
1:	mov	$1, %eax
	lock xadd %eax, 0x1f00		/* the locked counter */
	mov	$1, %eax
	xadd	%eax, 0x1f04		/* the unlocked one */
	dec	%ecx
	jnz	1b
2:	pause
	cmp	%bl, 0x1f08		/* whose turn is it? */
	jne	2b
	mov	$0x3f8, %dx
	mov	$0x1000 + hello - start, %si
3:	lodsb
	test	%al, %al
	jz	4f
	out	%al, (%dx)
	jmp	3b
4:	mov	%bl, %al
	add	$'0', %al
	out	%al, (%dx)
	mov	$'\n', %al
	out	%al, (%dx)
	incb	0x1f08			/* the next vCPU's turn */
	test	%bl, %bl
	jnz	6f
5:	pause				/* vCPU 0: wait to be stopped */
	jmp	5b
6:	out	%al, $0xf4		/* vCPU 1: the guest is done */
hello:	.asciz	"hello from vCPU "
