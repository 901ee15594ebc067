# workload reaching class ntfn_idle/entry_time+entry_budget from a plain start, found as workload 3 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 25802 ticks
# first divergence: t=25801 irq 32, fastpath exit ntfn_idle, class ntfn_idle/entry_time+entry_budget
#   fields: current_thread+release_queue+current_sc+refills+sc_consumed+node_consumed+timer_deadline+unpayable_consumed
# kernel entries        slowpath   fastpath   extra
#   timer                    128        128      +0  (+0.000 per device interrupt)
#   device                     2          2      +0
#   syscall                   11         11      +0
# threads (run time from t=25801 to the horizon; first run in that span)
#   t0           slow          0 first never | fast          1 first 25801
#   t1           slow          0 first never | fast          0 first never
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 2/2/0 MASKED | fast 2/2/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 200 period 400: slow 200 (0 over) | fast 200 (0 over)
#   sc1          budget 9000 period 54000: slow 9000 (0 over) | fast 9000 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 2 checked, 1 diverged, 1 class
#   ntfn_idle/entry_time+entry_budget            first t=25801 irq 32, 1 hit, defects F1
# checker (slowpath kernel): 141 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 141 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 25802
timer_irq 27
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=200 period=400
sc sc1 budget=9000 period=54000
thread t0 prio=190 sc=sc0 prog=compute:3701,signal:n0,loop
thread t1 prio=117 sc=sc1 prog=wait:n0,compute:3861,ack:32,loop
irq 32 ntfn=n0 badge=1 start=8301 period=17500
