/* From the chapter "Migration with the dirty log", book/35-migration.nw. */
/* migrate's guest: write eight data pages, then three times the first two,
   ticking on port 0x80 after each pass; print the sum of their first bytes. */
	.code16
start:
	mov	$0x2000, %bx		/* the first data page */
1:	incb	(%bx)			/* dirty it */
	add	$0x10, %bh		/* the next page */
	cmp	$0xa0, %bh
	jne	1b
	out	%al, $0x80		/* a tick: the VMM may copy */
	mov	$3, %cx
2:	incb	0x2000			/* the two hot pages */
	incb	0x3000
	out	%al, $0x80
	loop	2b
	xor	%al, %al		/* the sum of every page's first byte */
	mov	$0x2000, %bx
3:	add	(%bx), %al
	add	$0x10, %bh
	cmp	$0xa0, %bh
	jne	3b
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
