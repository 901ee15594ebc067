# workload reaching class append/idle_switch+cb_unblock+reprogram_flag from a plain start, found as workload 23 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 46202 ticks
# first divergence: t=46201 irq 33, fastpath exit append, class append/idle_switch+cb_unblock+reprogram_flag
#   fields: current_thread+ready_queues+current_sc+refills+timer_deadline+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      1          1      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                    1          1      +0
# threads (run time from t=46201 to the horizon; first run in that span)
#   t1           slow          1 first 46201 | fast          0 first never  NEVER RUNS on the fastpath kernel (runs on the slowpath one)
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 33   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc1          budget 9400 period 18800: slow 1 (0 over) | fast 1 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   append/idle_switch+cb_unblock+reprogram_flag first t=46201 irq 33, 1 hit, defects F5+F7+F8
# checker (slowpath kernel): 3 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 3 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 46202
timer_irq 27
ntfn n0
ntfn n1
ep ep0
reply r0
reply r1
sc sc1 budget=9400 period=18800
thread t1 prio=0 sc=sc1 prog=wait:n0
irq 33 ntfn=n0 badge=2 at=46201
