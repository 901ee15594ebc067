# How to reach switch/deadline+reprogram_flag (F6, F8) from a plain start,
# on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET =
# 160 ticks; timer precision 0).
#
# spin runs on a 1 ms round-robin SC; drv (priority 20) waits on n0 from
# the start. At t=8001 spin's timeslice ends: the timer entry reads the
# clock, refills spin and programs its next end (16001). IRQ 40 on n0
# arrives at the same tick, right after that entry, so the clock is
# current. drv's SC is sporadic, so the wake-up runs refill_unblock_check,
# which sets ksReprogram; the slowpath's schedule() clears it, the pr1227
# fastpath returns with it set (F8). drv outranks spin: the fastpath
# switches directly, but drv's budget (16000) ends later than spin's
# deadline (16001 < 8001 + 16000), so it keeps spin's deadline,
# reprogramming only for an earlier event (F6).
ntfn n0
sc sdrv budget=16000 period=96000 sporadic=1
sc sspin budget=8000 period=8000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
thread drv prio=20 sc=sdrv prog=wait:n0,ack:40,loop
irq 40 ntfn=n0 at=8001
horizon 9000
