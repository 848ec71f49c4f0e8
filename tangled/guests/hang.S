/* hang's guest: interrupts on, then a jump to itself. */
	.code16
	sti
	jmp	.
