# workload reaching class switch/deadline+cb_unblock+reprogram_flag from a plain start, found as workload 75 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 99304 ticks
# first divergence: t=45601 irq 32, fastpath exit append, class append/entry_time+idle_switch+reprogram_flag
#   fields: current_thread+ready_queues+current_sc+refills+timer_deadline+reprogram_flag+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      5          5      +0  (+0.000 per device interrupt)
#   device                     5          4      -1
#   syscall                   10          8      -2
# threads (run time from t=45601 to the horizon; first run in that span)
#   t0           slow       6605 first 45601 | fast       3302 first 96001  late by 50400
#   t2           slow          2 first 96000 | fast          2 first 96000
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 5/5/0 MASKED | fast 5/4/1 MASKED
# budget per window of one period (most received; windows over budget)
#   sc0          budget 10200 period 30600: slow 6607 (0 over) | fast 3304 (0 over)
#   sc2          budget 8200 period 57400: slow 3 (0 over) | fast 3 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 5 checked, 2 diverged, 2 classes
#   append/entry_time+idle_switch+reprogram_flag first t=45601 irq 32, 1 hit, defects F4+F5+F8
#   switch/deadline+cb_unblock+reprogram_flag    first t=99303 irq 32, 1 hit, defects F6+F7+F8
# checker (slowpath kernel): 20 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 17 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 99304
timer_irq 27
domain_schedule 0:4,1:3,0:1
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=10200 period=30600 refills=1 sporadic=1
sc sc2 budget=8200 period=57400
thread t0 prio=0 domain=1 sc=sc0 prog=wait:n0,compute:3301,ack:32,loop
thread t2 prio=55 domain=1 sc=sc2 prog=wait:n0,ack:32,yield,loop
irq 32 ntfn=n0 badge=1 start=5601 period=20000
