# workload reaching class append/entry_time+reprogram_flag from a plain start, found as workload 457 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 30305 ticks
# first divergence: t=30304 irq 32, fastpath exit append, class append/entry_time+reprogram_flag
#   fields: refills+reprogram_flag+exit_invariant
# kernel entries        slowpath   fastpath   extra
#   timer                      2          2      +0  (+0.000 per device interrupt)
#   device                     6          6      +0
#   syscall                   11         11      +0
# threads (run time from t=30304 to the horizon; first run in that span)
#   t0           slow          0 first never | fast          0 first never
#   t2           slow          0 first never | fast          0 first never
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 17/6/11 MASKED | fast 17/6/11 MASKED
# budget per window of one period (most received; windows over budget)
#   sc2          budget 11800 period 23600: slow 13133 (2 over) | fast 13133 (2 over)  OVER BUDGET
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 6 checked, 1 diverged, 1 class
#   append/entry_time+reprogram_flag             first t=30304 irq 32, 1 hit, defects F4+F8
# checker (slowpath kernel): 19 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 19 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 30305
timer_irq 27
entry_latency 4
domain_schedule 0:2,1:4,0:3
ntfn n0
ntfn n1
ntfn n2
ep ep0
reply r0
reply r1
sc sc0 budget=11400 period=11400
sc sc2 budget=11800 period=23600 refills=2 sporadic=1
thread t0 prio=0 domain=1 sc=sc0 prog=wait:n2,compute:1101,ack:32
thread t2 prio=0 domain=1 sc=sc2 prog=wait:n2,compute:3281,ack:32,loop
irq 32 ntfn=n2 badge=1 start=6201 period=1500
