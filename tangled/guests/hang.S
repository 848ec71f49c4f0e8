/* hang's guest: a jump to itself. */
	.code16
	jmp	.
