# workload reaching class ntfn_active/entry_time+entry_budget from a plain start, found as workload 69 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 21202 ticks
# first divergence: t=21201 irq 32, fastpath exit ntfn_active, class ntfn_active/entry_time+entry_budget
#   fields: sc_consumed+node_consumed+timer_deadline+unpayable_consumed
# kernel entries        slowpath   fastpath   extra
#   timer                      2          3      +1  (+1.000 per device interrupt)
#   device                     1          1      +0
#   syscall                    2          2      +0
# threads (run time from t=21201 to the horizon; first run in that span)
#   t0           slow          1 first 21201 | fast          1 first 21201
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   ntfn_active/entry_time+entry_budget          first t=21201 irq 32, 1 hit, defects F1
# checker (slowpath kernel): 5 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 6 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 21202
timer_irq 27
domain_schedule 0:2,1:1
ntfn n0
ntfn n1
ntfn n2
ep ep0
reply r0
reply r1
sc sc0 budget=2600 period=2600
thread t0 prio=18 domain=1 sc=sc0 prog=signal:n2,yield,compute:8851
irq 32 ntfn=n2 badge=1 at=21201
