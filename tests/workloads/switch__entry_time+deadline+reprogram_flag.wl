# workload reaching class switch/entry_time+deadline+reprogram_flag from a plain start, found as workload 673 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 28202 ticks
# first divergence: t=28201 irq 32, fastpath exit switch, class switch/entry_time+deadline+reprogram_flag
#   fields: refills+timer_deadline+reprogram_flag+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                28200      28200      +0
# threads (run time from t=28201 to the horizon; first run in that span)
#   t0           slow          1 first 28201 | fast          1 first 28201
#   t2           slow          0 first never | fast          0 first never
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 9000 period 18000: slow 1 (0 over) | fast 1 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   switch/entry_time+deadline+reprogram_flag    first t=28201 irq 32, 1 hit, defects F4+F6+F8
# checker (slowpath kernel): 28201 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 28201 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 28202
timer_irq 27
ntfn n0
ntfn n1
ep ep0
reply r0
reply r1
sc sc0 budget=9000 period=18000 refills=1 sporadic=1
sc sc2 budget=2200 period=2200
thread t0 prio=24 sc=sc0 prog=wait:n1
thread t2 prio=0 sc=sc2 prog=yield,loop
irq 32 ntfn=n1 badge=1 at=28201
