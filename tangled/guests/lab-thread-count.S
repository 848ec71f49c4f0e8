/* From the chapter "Model-specific registers", book/27-cpu-msrs.nw. */
/* lab-thread-count's guest: read MSR_CORE_THREAD_COUNT, print it in hex. */
	.code16
	mov	$0x35, %ecx		/* MSR_CORE_THREAD_COUNT */
	rdmsr				/* EDX:EAX = the MSR, from the VMM */
	mov	%eax, %ebx
	mov	$0x3f8, %dx
	mov	$8, %cx			/* eight hex digits, the highest first */
	1:	rol	$4, %ebx
	mov	%bl, %al
	and	$0xf, %al
	add	$'0', %al
	cmp	$'9', %al
	jbe	2f
	add	$'a' - '9' - 1, %al
	2:	out	%al, (%dx)
	loop	1b
	mov	$'\n', %al
	out	%al, (%dx)
	hlt
