# workload reaching class enqueue/entry_time+reprogram_flag from a plain start, found as workload 2 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 3302 ticks
# first divergence: t=1001 irq 33, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     2          2      +0
#   syscall                    2          2      +0
# threads (run time from t=1001 to the horizon; first run in that span)
#   t0           slow       2301 first 1001 | fast       2301 first 1001
#   t1           slow          0 first never | fast          0 first never
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 1/1/0 MASKED | fast 1/1/0 MASKED
#   irq 33   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 14200 period 85200: slow 2302 (0 over) | fast 2302 (0 over)
#   sc1          budget 1000 period 4000: slow 1 (0 over) | fast 1 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 2 checked, 2 diverged, 2 classes
#   switch/cb_unblock+reprogram_flag             first t=1001 irq 33, 1 hit, defects F7+F8
#   enqueue/entry_time+reprogram_flag            first t=3301 irq 32, 1 hit, defects F4+F8
# checker (slowpath kernel): 4 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 4 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 3302
timer_irq 27
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=14200 period=85200
sc sc1 budget=1000 period=4000 refills=3 sporadic=1
thread t0 prio=50 sc=sc0 prog=wait:n0,compute:3421
thread t1 prio=0 sc=sc1 prog=wait:n0
irq 32 ntfn=n0 badge=1 start=3301 period=7000
irq 33 ntfn=n0 badge=2 at=1001
