# workload reaching class switch/deadline from a plain start, found as workload 52 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 302 ticks
# first divergence: t=301 irq 32, fastpath exit switch, class switch/deadline
#   fields: timer_deadline
# kernel entries        slowpath   fastpath   extra
#   timer                      0          0      +0  (+0.000 per device interrupt)
#   device                     1          1      +0
#   syscall                  300        300      +0
# threads (run time from t=301 to the horizon; first run in that span)
#   t0           slow          1 first 301 | fast          1 first 301
#   t1           slow          0 first never | fast          0 first never
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 1/1/0 MASKED | fast 1/1/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc1          budget 9800 period 78400: slow 300 (0 over) | fast 300 (0 over)
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 1 checked, 1 diverged, 1 class
#   switch/deadline                              first t=301 irq 32, 1 hit, defects F6
# checker (slowpath kernel): 301 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 301 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 302
timer_irq 27
ntfn n0
ep ep0
reply r0
reply r1
sc sc0 budget=15400 period=15400
sc sc1 budget=9800 period=78400
thread t0 prio=219 sc=sc0 prog=wait:n0
thread t1 prio=35 sc=sc1 prog=ack:32,loop
irq 32 ntfn=n0 badge=1 start=301 period=2500
