# workload reaching class ntfn_idle/entry_time+entry_release from a plain start, found as workload 371 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 288733 ticks
# first divergence: t=8201 irq 32, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills
# kernel entries        slowpath   fastpath   extra
#   timer                     26         10     -16  (-0.471 per device interrupt)
#   device                    34         34      +0
#   syscall                 2528       1907    -621
# threads (run time from t=8201 to the horizon; first run in that span)
#   t0           slow      60275 first 8269 | fast      67084 first 8269
#   t2           slow       2436 first 67769 | fast       1812 first 119461  late by 51692
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 34/34/0 MASKED | fast 34/34/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 9800 period 39200: slow 8984 (0 over) | fast 10820 (20 over)  OVER BUDGET
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 34 checked, 11 diverged, 3 classes
#   switch/cb_unblock+reprogram_flag             first t=8201 irq 32, 9 hits, defects F7+F8
#   ntfn_idle/entry_time+entry_budget            first t=271716 irq 32, 1 hit, defects F1
#   ntfn_idle/entry_time+entry_release           first t=288732 irq 32, 1 hit, defects F3
# checker (slowpath kernel): 2588 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 1951 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 288733
timer_irq 27
entry_latency 68
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=9800 period=39200 refills=5
sc sc2 budget=11400 period=11400
thread t0 prio=222 sc=sc0 prog=wait:n0,compute:2161,ack:32,ack:32,loop
thread t2 prio=21 sc=sc2 prog=wait:n0,ack:32,loop:1
irq 32 ntfn=n0 badge=1 start=8201 period=8500
