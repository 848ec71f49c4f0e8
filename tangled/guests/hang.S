/* From the chapter "When things go wrong", book/08-failures.nw. */
/* hang's guest: interrupts on, then a jump to itself. */
	.code16
	sti
	jmp	.
