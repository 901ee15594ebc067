# workload reaching class enqueue/reprogram_flag from a plain start, found as workload 714 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 167002 ticks
# first divergence: t=5001 irq 33, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills+timer_deadline
# kernel entries        slowpath   fastpath   extra
#   timer                     27         27      +0  (+0.000 per device interrupt)
#   device                     5          5      +0
#   syscall                   61         63      +2
# threads (run time from t=5001 to the horizon; first run in that span)
#   t0           slow          3 first 45501 | fast          3 first 48004  late by 2503
#   t2           slow          0 first never | fast          0 first never
#   t3           slow         54 first 5001 | fast         55 first 5001
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 33   slow 5/5/0 MASKED | fast 5/5/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 10600 period 21200: slow 1 (0 over) | fast 1 (0 over)
#   sc2          budget 5000 period 35000: slow 2 (0 over) | fast 2 (0 over)
#   sc3          budget 3000 period 6000: slow 3 (0 over) | fast 3 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 5 checked, 5 diverged, 3 classes
#   switch/cb_unblock+reprogram_flag             first t=5001 irq 33, 1 hit, defects F7+F8
#   append/entry_time+idle_switch+reprogram_flag first t=45501 irq 33, 3 hits, defects F4+F5+F8
#   enqueue/reprogram_flag                       first t=167001 irq 33, 1 hit, defects F8
# checker (slowpath kernel): 93 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 95 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 167002
timer_irq 27
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=10600 period=21200 refills=4 sporadic=1
sc sc2 budget=5000 period=35000
sc sc3 budget=3000 period=6000
thread t0 prio=0 sc=sc0 prog=wait:n0,loop
thread t2 prio=246 sc=sc2 prog=wait:n0
thread t3 prio=73 sc=sc3 prog=signal:n0,wait:n0,yield,ack:33,loop:2
irq 33 ntfn=n0 badge=2 start=5001 period=40500
