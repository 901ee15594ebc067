# workload reaching class append/idle_switch from a plain start, found as workload 14 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 38402 ticks
# first divergence: t=38401 irq 32, fastpath exit append, class append/idle_switch
#   fields: current_thread+ready_queues+current_sc+timer_deadline+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                    1          1      +0
# threads (run time from t=38401 to the horizon; first run in that span)
#   t0           slow          1 first 38401 | fast          0 first never  NEVER RUNS on the fastpath kernel (runs on the slowpath one)
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   append/idle_switch                           first t=38401 irq 32, 1 hit, defects F5
# checker (slowpath kernel): 2 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 2 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 38402
timer_irq 27
ntfn n0
ntfn n1
ep ep0
reply r0
reply r1
sc sc0 budget=7400 period=7400
thread t0 prio=0 sc=sc0 prog=wait:n1
irq 32 ntfn=n1 badge=1 at=38401
