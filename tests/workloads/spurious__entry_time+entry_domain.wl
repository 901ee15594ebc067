# How to reach spurious/entry_time+entry_domain (F2) from a plain start,
# on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET =
# 160 ticks; timer precision 0).
#
# Two domains of 1 ms (8000 ticks); spin (domain 0) has a budget far
# beyond the domain's end. An interrupt whose acknowledge reads the GIC's
# spurious ID 1023 (a level-triggered line its device withdrew before the
# kernel acknowledged it: getActiveIRQ gives irqInvalid,
# handleSpuriousIRQ) arrives at t=7950, 50 ticks before domain 0 ends:
# updateTimestamp finds less than MIN_BUDGET of domain time left and sets
# it to 0 (isCurDomainExpired). The slowpath's schedule() moves to domain
# 1 (only the idle thread there); the pr1227 fastpath ignores the expiry
# (it runs handleSpuriousIRQ only), and spin keeps running in an expired
# domain.
domain_schedule 0:1,1:1
sc sspin budget=80000 period=80000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
spurious at=7950
horizon 9000
