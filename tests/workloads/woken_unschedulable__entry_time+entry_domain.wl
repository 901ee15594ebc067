# How to reach woken_unschedulable/entry_time+entry_domain (F2) from a
# plain start, on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the
# 10 us WCET = 160 ticks; timer precision 0).
#
# Two domains of 1 ms (8000 ticks); spin (domain 0) has a budget far
# beyond the domain's end. The waker is IRQ 40 on n0, and the woken thread
# drv is passive with a donated SC that was never configured: drv first
# waits on n0 with its own SC sdrv, spin then unbinds sdrv
# (SchedContext_Unbind; drv stays blocked, now passive), and blank, never
# passed to SchedControl_Configure, is bound to n0 (SchedContext_Bind
# checks sc_released only for a thread). The signal donates blank to drv,
# which is not schedulable (refillMax 0). This IRQ arrives at t=7950, 50
# ticks before domain 0 ends: updateTimestamp finds less than MIN_BUDGET
# of domain time left and sets it to 0 (isCurDomainExpired). The
# slowpath's schedule() moves to domain 1 (only the idle thread there);
# the pr1227 fastpath ignores the expiry (it wakes drv, masks and acks),
# and spin keeps running in an expired domain.
domain_schedule 0:1,1:1
ntfn n0
sc sspin budget=80000 period=80000
sc sdrv budget=8000 period=8000
sc blank ntfn=n0
thread spin prio=10 sc=sspin prog=unbind:sdrv,compute:1000000,loop:1
thread drv prio=30 sc=sdrv prog=wait:n0
irq 40 ntfn=n0 at=7950
horizon 9000
