# workload reaching class switch/reprogram_flag from a plain start, found as workload 920 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 29587 ticks
# first divergence: t=25201 irq 32, fastpath exit switch, class switch/entry_time+reprogram_flag
#   fields: refills+timer_deadline+reprogram_flag+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     3          3      +0
#   syscall                    5          5      +0
# threads (run time from t=25201 to the horizon; first run in that span)
#   t0           slow       3604 first 25201 | fast       3604 first 25201
#   t2           slow        782 first 28804 | fast        782 first 28804
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 3/3/0 MASKED | fast 3/3/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 6200 period 24800: slow 3604 (0 over) | fast 3604 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 3 checked, 2 diverged, 2 classes
#   switch/entry_time+reprogram_flag             first t=25201 irq 32, 1 hit, defects F4+F8
#   switch/reprogram_flag                        first t=29586 irq 32, 1 hit, defects F8
# checker (slowpath kernel): 8 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 8 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 29587
timer_irq 27
ntfn n0
ntfn n1
ntfn n2
ep ep0
reply r0
reply r1
sc sc0 budget=6200 period=24800 refills=3 sporadic=1
sc sc2 budget=8200 period=8200
thread t0 prio=23 sc=sc0 prog=wait:n2,compute:3601,ack:32,loop
thread t2 prio=0 sc=sc2 prog=wait:n2,compute:781,ack:32
irq 32 ntfn=n2 badge=1 at=25201,25602,29003
