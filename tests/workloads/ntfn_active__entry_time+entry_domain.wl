# How to reach ntfn_active/entry_time+entry_domain (F2) from a plain
# start, on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us
# WCET = 160 ticks; timer precision 0).
#
# Two domains of 1 ms (8000 ticks); spin (domain 0) has a budget far
# beyond the domain's end. IRQ 40 on n0, which sig made active with
# seL4_Signal at the start (nobody waits on it), arrives at t=7950, 50
# ticks before domain 0 ends: updateTimestamp finds less than MIN_BUDGET
# of domain time left and sets it to 0 (isCurDomainExpired). The
# slowpath's schedule() moves to domain 1 (only the idle thread there);
# the pr1227 fastpath ignores the expiry (it ORs the badge into n0), and
# spin keeps running in an expired domain.
domain_schedule 0:1,1:1
ntfn n0
sc ssig budget=8000 period=8000
sc sspin budget=80000 period=80000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
thread sig prio=20 sc=ssig prog=signal:n0
irq 40 ntfn=n0 at=7950
horizon 9000
