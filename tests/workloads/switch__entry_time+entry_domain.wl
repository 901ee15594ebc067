# workload reaching class switch/entry_time+entry_domain from a plain start, found as workload 538 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 207902 ticks
# first divergence: t=5401 irq 32, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills
# kernel entries        slowpath   fastpath   extra
#   timer                     15         15      +0  (+0.000 per device interrupt)
#   device                    10         10      +0
#   syscall                   19         19      +0
# threads (run time from t=5401 to the horizon; first run in that span)
#   t0           slow         18 first 5401 | fast         19 first 5401
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 10/10/0 MASKED | fast 10/10/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 10200 period 91800: slow 12 (0 over) | fast 12 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 10 checked, 5 diverged, 2 classes
#   switch/cb_unblock+reprogram_flag             first t=5401 irq 32, 4 hits, defects F7+F8
#   switch/entry_time+entry_domain               first t=207901 irq 32, 1 hit, defects F2
# checker (slowpath kernel): 44 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 44 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 207902
timer_irq 27
domain_schedule 0:1,1:3,0:1
ntfn n0
ntfn n1
ep ep0
reply r0
reply r1
sc sc0 budget=10200 period=91800
thread t0 prio=73 sc=sc0 prog=wait:n1,ack:32,loop
irq 32 ntfn=n1 badge=1 start=5401 period=22500
