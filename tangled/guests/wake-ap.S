/* From the chapter "Waking a processor: INIT and SIPI", book/25-waking-a-processor.nw. */
/* wake-ap's guest.  vCPU 1 starts at 0x1000 in real mode when vCPU 0's
   SIPI says so: it says hello, tells vCPU 0 and halts.  vCPU 0 starts in
   32-bit protected mode and sends INIT and SIPI through its local APIC. */
	.code16
ap:	mov	$0x3f8, %dx
	mov	$0x1000 + hello - ap, %si
1:	lodsb
	test	%al, %al
	jz	2f
	out	%al, (%dx)
	jmp	1b
2:	movb	$1, 0x1f00		/* tell vCPU 0 */
3:	cli
	hlt
	jmp	3b
	.code32
bsp:	movl	$0x01000000, 0xfee00310	/* ICR, high half: APIC id 1 */
	movl	$0x00004500, 0xfee00300	/* ICR, low half: INIT */
	mov	$1, %al
	out	%al, $0xf5		/* step 1 */
	movl	$0x00000601, 0xfee00300	/* SIPI, vector 1: start at 0x1000 */
	mov	$2, %al
	out	%al, $0xf5		/* step 2 */
4:	pause
	cmpb	$0, 0x1f00		/* has vCPU 1 said hello? */
	je	4b
	out	%al, $0xf4		/* the guest is done */
hello:	.asciz	"hello from vCPU 1, in real mode\n"
