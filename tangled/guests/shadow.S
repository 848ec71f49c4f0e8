/* From the chapter "Shadow paging against EPT and NPT", book/29-shadow-paging.nw. */
/* shadow's guest: map 512 pages of 4 KiB, touch each, switch between two
   roots, then change two entries of its own tables. */
	.code64
	.set	PDPT, 0x11000		/* root A's tables, built by the VMM */
	.set	PD, 0x12000
	.set	PT, 0x1fe000		/* this guest's page table */
	.set	ROOT_B, 0x1ff000	/* and its second PML4 */
	.set	ROOT_A, 0x10000
	.set	PAGES, 0x200000		/* the 512 pages PT maps: 2 to 4 MiB */
	.set	RW, 3			/* present, writable */
	mov	$PT, %rdi
	mov	$PAGES | RW, %rax
	mov	$512, %ecx
map:	mov	%rax, (%rdi)		/* PT's entry for one page */
	add	$8, %rdi
	add	$0x1000, %rax
	loop	map
	movq	$PT | RW, PD + 8	/* PD's entry 1: 2 to 4 MiB through PT */
	movq	$PDPT | RW, ROOT_B	/* root B shares root A's PDPT */
	mov	$PAGES, %rdi
	mov	$512, %ecx
touch:	movb	$1, (%rdi)
	add	$0x1000, %rdi
	loop	touch
	mov	$ROOT_A, %rax
	mov	$ROOT_B, %rdx
	mov	$100, %ecx
switch:	mov	%rdx, %cr3
	mov	%rax, %cr3
	loop	switch
	movq	$0, PT			/* unmap the first page */
	invlpg	PAGES
	movq	$PT | RW, PD + 16	/* and map PT again at 4 to 6 MiB */
	hlt
