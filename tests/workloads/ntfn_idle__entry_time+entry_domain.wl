# workload reaching class ntfn_idle/entry_time+entry_domain from a plain start, found as workload 369 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 7902 ticks
# first divergence: t=7901 irq 33, fastpath exit ntfn_idle, class ntfn_idle/entry_time+entry_domain
#   fields: domain+timer_deadline+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                    0          0      +0
# threads (run time from t=7901 to the horizon; first run in that span)
#   t0           slow          0 first never | fast          0 first never
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 33   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   ntfn_idle/entry_time+entry_domain            first t=7901 irq 33, 1 hit, defects F2
# checker (slowpath kernel): 1 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 1 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 7902
timer_irq 27
domain_schedule 0:1,1:1,0:4
ntfn n0
ep ep0
reply r0
reply r1
thread t0 prio=118 prog=
irq 33 ntfn=n0 badge=2 start=7901 period=40000
