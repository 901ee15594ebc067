# workload reaching class append/entry_time+entry_release from a plain start, found as workload 779 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 319902 ticks
# first divergence: t=9401 irq 32, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills
# kernel entries        slowpath   fastpath   extra
#   timer                     21         23      +2  (+0.038 per device interrupt)
#   device                    52         29     -23
#   syscall                  103         57     -46
# threads (run time from t=9401 to the horizon; first run in that span)
#   t1           slow      31072 first 9465 | fast      35496 first 9465
#   t2           slow         90 first 14961 | fast         42 first 14961
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 70/52/18 MASKED | fast 70/29/40 MASKED pending since 319901
# budget per window of one period (most received; windows over budget)
#   sc1          budget 15800 period 142200: slow 15224 (0 over) | fast 17022 (2 over)  OVER BUDGET
#   sc2          budget 11400 period 45600: slow 22 (0 over) | fast 10 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 52 checked, 38 diverged, 3 classes
#   switch/cb_unblock+reprogram_flag             first t=9401 irq 32, 5 hits, defects F7+F8
#   append/idle_switch+cb_unblock+reprogram_flag first t=54401 irq 32, 32 hits, defects F5+F7+F8
#   append/entry_time+entry_release              first t=319901 irq 32, 1 hit, defects F3
# checker (slowpath kernel): 176 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 109 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 319902
timer_irq 27
entry_latency 64
domain_schedule 0:2,1:3,0:3
ntfn n0
ntfn n1
ntfn n2
ep ep0
reply r0
reply r1
sc sc1 budget=15800 period=142200 refills=3
sc sc2 budget=11400 period=45600
thread t1 prio=14 sc=sc1 prog=wait:n1,compute:701,ack:32,compute:4601,loop
thread t2 prio=0 sc=sc2 prog=wait:n1,ack:32,loop
irq 32 ntfn=n1 badge=1 start=9401 period=4500
