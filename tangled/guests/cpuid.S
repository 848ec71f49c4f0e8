/* From the chapter "The CPU's identity: CPUID", book/26-cpu-identity.nw. */
/* cpuid's guest: print the vendor string and the bits for VMX and SVM. */
	.code16
start:
	xor	%eax, %eax		/* leaf 0: the vendor */
	cpuid
	mov	%ebx, 0x1000 + vendor - start
	mov	%edx, 0x1000 + vendor + 4 - start
	mov	%ecx, 0x1000 + vendor + 8 - start
	mov	$1, %eax		/* leaf 1: ECX bit 5 is VMX */
	cpuid
	shr	$5, %ecx
	and	$1, %cl
	add	%cl, 0x1000 + vmx - start
	mov	$0x80000001, %eax	/* leaf 0x80000001: ECX bit 2 is SVM */
	cpuid
	shr	$2, %ecx
	and	$1, %cl
	add	%cl, 0x1000 + svm - start
	mov	$0x1000 + vendor - start, %si
	mov	$end - vendor, %cx
	mov	$0x3f8, %dx
1:	lodsb
	test	%al, %al		/* a vendor of zeros prints nothing */
	jz	2f
	out	%al, (%dx)
2:	loop	1b
	hlt
vendor:	.ascii	"............\n"
	.ascii	"vmx "
vmx:	.ascii	"0 svm "
svm:	.ascii	"0\n"
end:
