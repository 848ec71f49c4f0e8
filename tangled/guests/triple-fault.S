/* From the chapter "When things go wrong", book/08-failures.nw. */
/* triple-fault's guest: an exception with no interrupt table to deliver it. */
	.code16
	lidt	0x1010		/* six zero bytes: limit 0, base 0 */
	int3
	hlt			/* never reached */
