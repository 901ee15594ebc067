# workload reaching class switch/entry_time+entry_budget from a plain start, found as workload 474 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 67102 ticks
# first divergence: t=2101 irq 32, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills
# kernel entries        slowpath   fastpath   extra
#   timer                     15         15      +0  (+0.000 per device interrupt)
#   device                    14         14      +0
#   syscall                   27         27      +0
# threads (run time from t=2101 to the horizon; first run in that span)
#   t1           slow      64974 first 2103 | fast      64974 first 2103
#   t2           slow         27 first 2101 | fast         27 first 2101
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 14/14/0 MASKED | fast 14/14/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc2          budget 2600 period 20800: slow 10 (0 over) | fast 10 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 14 checked, 14 diverged, 2 classes
#   switch/cb_unblock+reprogram_flag             first t=2101 irq 32, 13 hits, defects F7+F8
#   switch/entry_time+entry_budget               first t=67101 irq 32, 1 hit, defects F1
# checker (slowpath kernel): 56 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 56 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 67102
timer_irq 27
ntfn n0
ntfn n1
ntfn n2
ep ep0
reply r0
reply r1
sc sc1 budget=4200 period=4200
sc sc2 budget=2600 period=20800
thread t1 prio=154 sc=sc1 prog=compute:3161,loop
thread t2 prio=165 sc=sc2 prog=wait:n1,ack:32,loop
irq 32 ntfn=n1 badge=1 start=2101 period=5000
