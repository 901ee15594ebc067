# How to reach undelivered/entry_time+entry_domain (F2) from a plain
# start, on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us
# WCET = 160 ticks; timer precision 0).
#
# Two domains of 1 ms (8000 ticks); spin (domain 0) has a budget far
# beyond the domain's end. IRQ 40, issued by IRQControl_Get (which unmasks
# it) but with no notification on its handler (IRQHandler_SetNotification
# never called, as after IRQHandler_Clear) arrives at t=7950, 50 ticks
# before domain 0 ends: updateTimestamp finds less than MIN_BUDGET of
# domain time left and sets it to 0 (isCurDomainExpired). The slowpath's
# schedule() moves to domain 1 (only the idle thread there); the pr1227
# fastpath ignores the expiry (it masks and acks the IRQ only), and spin
# keeps running in an expired domain.
domain_schedule 0:1,1:1
sc sspin budget=80000 period=80000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
irq 40 at=7950
horizon 9000
