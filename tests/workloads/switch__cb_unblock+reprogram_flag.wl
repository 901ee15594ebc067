# workload reaching class switch/cb_unblock+reprogram_flag from a plain start, found as workload 1 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 18402 ticks
# first divergence: t=18401 irq 33, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills+timer_deadline
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                    1          1      +0
# threads (run time from t=18401 to the horizon; first run in that span)
#   t0           slow          1 first 18401 | fast          1 first 18401
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 33   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 6200 period 18600: slow 2 (0 over) | fast 2 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   switch/cb_unblock+reprogram_flag             first t=18401 irq 33, 1 hit, defects F7+F8
# checker (slowpath kernel): 2 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 2 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 18402
timer_irq 27
ntfn n0
ntfn n1
ep ep0
reply r0
reply r1
sc sc0 budget=6200 period=18600
thread t0 prio=142 sc=sc0 prog=wait:n1
irq 33 ntfn=n1 badge=2 at=18401
