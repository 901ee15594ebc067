# How to reach append/reprogram_flag (F8) from a plain start, on imx8mm
# (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET = 160 ticks;
# timer precision 0).
#
# spin runs on a 1 ms round-robin SC; drv (priority 10 like spin; it runs
# first, because TCB_Resume enqueues at the head of the ready queue) waits
# on n0 from the start. At t=8001 spin's timeslice ends: the timer entry
# reads the clock, refills spin and programs its next end (16001). IRQ 40
# on n0 arrives at the same tick, right after that entry, so the clock is
# current. drv's SC is sporadic, so the wake-up runs refill_unblock_check,
# which sets ksReprogram; the slowpath's schedule() clears it, the pr1227
# fastpath returns with it set (F8). drv has spin's priority, so both
# paths append it to the ready queue; nothing else differs (the clock is
# current: no F4).
ntfn n0
sc sdrv budget=8000 period=96000 sporadic=1
sc sspin budget=8000 period=8000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
thread drv prio=10 sc=sdrv prog=wait:n0,ack:40,loop
irq 40 ntfn=n0 at=8001
horizon 9000
