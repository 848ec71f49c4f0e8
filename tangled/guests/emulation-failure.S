/* From the chapter "When things go wrong", book/08-failures.nw. */
/* emulation-failure's guest: an x87 load from where no memory is. */
	.code16
	flds	0x2000		/* fld, single precision: /0 of opcode d9 */
	hlt
