# workload reaching class switch/entry_time+reprogram_flag from a plain start, found as workload 21 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 4102 ticks
# first divergence: t=4101 irq 33, fastpath exit switch, class switch/entry_time+reprogram_flag
#   fields: refills+reprogram_flag+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                    1          1      +0
# threads (run time from t=4101 to the horizon; first run in that span)
#   t0           slow          1 first 4101 | fast          1 first 4101
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 33   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 6600 period 19800: slow 2 (0 over) | fast 2 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   switch/entry_time+reprogram_flag             first t=4101 irq 33, 1 hit, defects F4+F8
# checker (slowpath kernel): 2 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 2 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 4102
timer_irq 27
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=6600 period=19800 refills=3 sporadic=1
thread t0 prio=98 sc=sc0 prog=wait:n0
irq 33 ntfn=n0 badge=2 start=4101 period=12500
