# workload reaching class append/entry_time+entry_domain from a plain start, found as workload 258 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 23902 ticks
# first divergence: t=12901 irq 32, fastpath exit append, class append/idle_switch+cb_unblock+reprogram_flag
#   fields: current_thread+ready_queues+current_sc+refills+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      1          1      +0  (+0.000 per device interrupt)
#   device                     4          2      -2
#   syscall                    7          3      -4
# threads (run time from t=12901 to the horizon; first run in that span)
#   t1           slow          4 first 12901 | fast          0 first never  NEVER RUNS on the fastpath kernel (runs on the slowpath one)
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 4/4/0 MASKED | fast 4/2/1 MASKED pending since 18401
# budget per window of one period (most received; windows over budget)
#   sc1          budget 11400 period 91200: slow 7 (0 over) | fast 3 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 4 checked, 3 diverged, 2 classes
#   append/idle_switch+cb_unblock+reprogram_flag first t=12901 irq 32, 2 hits, defects F5+F7+F8
#   append/entry_time+entry_domain               first t=23901 irq 32, 1 hit, defects F2
# checker (slowpath kernel): 12 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 6 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 23902
timer_irq 27
domain_schedule 0:1,1:2,0:3
ntfn n0
ep ep0
reply r0
reply r1
sc sc1 budget=11400 period=91200
thread t1 prio=0 domain=1 sc=sc1 prog=wait:n0,ack:32,loop
irq 32 ntfn=n0 badge=1 start=7401 period=5500
