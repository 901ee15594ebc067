# How to reach enqueue/entry_time+entry_domain (F2) from a plain start, on
# imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET = 160
# ticks; timer precision 0).
#
# Domain 0 lasts 2 ms (16000 ticks), then domain 1 1 ms. spin (priority
# 10) has 7000 ticks every 10000: it runs [0, 7000) and from 10000 on; drv
# (priority 5) runs in the gap and waits on n0. IRQ 40 on n0 arrives at
# t=15950 while spin runs (its budget is not nearly used), 50 ticks before
# domain 0 ends: updateTimestamp finds less than MIN_BUDGET of domain time
# left and sets it to 0 (isCurDomainExpired). The slowpath's schedule()
# moves to domain 1; the pr1227 fastpath ignores the expiry (it enqueues
# drv below spin), and spin keeps running in an expired domain.
domain_schedule 0:2,1:1
ntfn n0
sc sdrv budget=8000 period=8000
sc sspin budget=7000 period=10000
thread drv prio=5 sc=sdrv prog=wait:n0,ack:40,loop
thread spin prio=10 sc=sspin prog=compute:1000000,loop
irq 40 ntfn=n0 at=15950
horizon 17000
