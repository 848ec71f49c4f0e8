/* From the chapter "What the hardware does for a hypervisor", book/28-hardware-for-a-hypervisor.nw. */
/* hypercall's guest: four hypercalls, each answer kept in memory for the
   VMM; DI chooses the instruction, 0 for vmcall, else vmmcall. */
	.code16
start:
	jmp	main
	.org	2			/* at 0x1002, where the VMM looks */
vmcall_site:
	vmcall
	ret
	.org	6			/* at 0x1006 */
vmmcall_site:
	vmmcall
	ret
	.org	10			/* at 0x100a: EAX after each call */
answers:
	.long	0, 0, 0, 0
main:
	mov	$0x2000, %sp		/* the stack at the top of the page */
	mov	$100, %eax		/* a number no KVM defines */
	call	hypercall
	mov	%eax, 0x1000 + answers - start
	mov	$1, %eax		/* KVM_HC_VAPIC_POLL_IRQ */
	call	hypercall
	mov	%eax, 0x1000 + answers + 4 - start
	mov	$11, %eax		/* KVM_HC_SCHED_YIELD */
	xor	%ebx, %ebx		/* to the vCPU with APIC id 0 */
	call	hypercall
	mov	%eax, 0x1000 + answers + 8 - start
	mov	$12, %eax		/* KVM_HC_MAP_GPA_RANGE */
	mov	$0x1000, %ebx		/* from this page */
	mov	$1, %ecx		/* one page */
	xor	%edx, %edx		/* no attributes */
	call	hypercall
	mov	%eax, 0x1000 + answers + 12 - start
	hlt
hypercall:
	test	%di, %di
	jz	vmcall_site		/* whose ret returns to our caller */
	jmp	vmmcall_site
