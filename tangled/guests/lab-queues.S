/* From the chapter "ioeventfd and irqfd", book/23-ioeventfd-irqfd.nw. */
/* lab-queues' guest: notify queues on the doorbell, the value written
   naming the queue, from a table; queue 2 does not exist. */
	.code16
start:
	mov	$0x1000 + queues - start, %si
	mov	$end - queues, %cx
1:	lodsb
	out	%al, $0xf0		/* the doorbell: AL is the queue */
	loop	1b
	hlt
queues:	.byte	0, 1, 1, 0, 1, 2, 1
end:
