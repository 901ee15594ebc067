# How to reach enqueue/entry_time+entry_release (F3) from a plain start,
# on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET =
# 160 ticks; timer precision 0).
#
# per (priority 20) has 1000 ticks every 9000, spin (priority 10) 4000
# every 6000: per runs first and waits in the release queue; spin runs
# until its budget is used, and drv (priority 5) runs in the gap and waits
# on n0; spin runs again from its release. The kernel reads the clock 40
# ticks after an event (entry_latency). IRQ 40 on n0 arrives at t=9020,
# while spin runs and less than 40 ticks before per's release, so the
# entry clock is past it: the slowpath's schedule() -> awaken() releases
# per, which preempts spin. The pr1227 fastpath never looks at the release
# queue (it enqueues drv below spin); per runs one kernel entry late.
entry_latency 40
ntfn n0
sc sdrv budget=8000 period=8000
sc sper budget=1000 period=9000
sc sspin budget=4000 period=6000
thread drv prio=5 sc=sdrv prog=wait:n0,ack:40,loop
thread per prio=20 sc=sper prog=compute:1000000,loop
thread spin prio=10 sc=sspin prog=compute:1000000,loop
irq 40 ntfn=n0 at=9020
horizon 12000
