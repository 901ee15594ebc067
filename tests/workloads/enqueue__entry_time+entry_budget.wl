# How to reach enqueue/entry_time+entry_budget (F1) from a plain start, on
# imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET = 160
# ticks; timer precision 0).
#
# spin (priority 10) has 8000 ticks every 16000: it runs [0, 8000) and
# [16000, 24000); drv (priority 5) runs in the gap and waits on n0. IRQ 40
# on n0 arrives at t=23950, inside the last MIN_BUDGET of spin's second
# budget, where the slowpath's checkBudget ends it (chargeBudget: spin is
# postponed to its next release, drv runs). The pr1227 fastpath skips the
# budget check (it enqueues drv below spin), so spin runs on into the time
# the kernel reserves for itself.
ntfn n0
sc sdrv budget=8000 period=8000
sc sspin budget=8000 period=16000
thread drv prio=5 sc=sdrv prog=wait:n0,ack:40,loop
thread spin prio=10 sc=sspin prog=compute:1000000,loop
irq 40 ntfn=n0 at=23950
horizon 25000
