/* From the chapter "Model-specific registers", book/27-cpu-msrs.nw. */
/* msr's guest: read IA32_SYSENTER_ESP, print it in hex, write it back plus 1. */
	.code16
	mov	$0x175, %ecx		/* IA32_SYSENTER_ESP */
	rdmsr				/* EDX:EAX = the MSR */
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
	inc	%ebx			/* EBX is back to the value read: add 1 */
	mov	%ebx, %eax
	xor	%edx, %edx
	mov	$0x175, %ecx
	wrmsr
	hlt
