# workload reaching class ntfn_active/entry_time+entry_release from a plain start, found as workload 474 of seed 1, shrunk
# irqsim sim --fastpath pr1227 FILE:
# fastpath pr1227, horizon 142102 ticks
# first divergence: t=2101 irq 32, fastpath exit switch, class switch/cb_unblock+reprogram_flag
#   fields: refills
# kernel entries        slowpath   fastpath   extra
#   timer                     47         47      +0  (+0.000 per device interrupt)
#   device                    29         29      +0
#   syscall                  116        121      +5
# threads (run time from t=2101 to the horizon; first run in that span)
#   t1           slow     101183 first 4215 | fast      99385 first 4215
#   t2           slow      13993 first 7111 | fast      15741 first 7111
#   t3           slow      22934 first 2111 | fast      22934 first 2111
# device interrupts (arrived, delivered, coalesced while pending; at the horizon)
#   irq 32   slow 29/29/0 MASKED | fast 29/29/0 MASKED
# budget per window of one period (most received; windows over budget)
#   sc2          budget 2600 period 20800: slow 2520 (0 over) | fast 2915 (15 over)  OVER BUDGET
#   sc3          budget 2200 period 13200: slow 2163 (0 over) | fast 4169 (2 over)  OVER BUDGET
# sweep (the one-entry check at every device interrupt of the slowpath kernel): 29 checked, 15 diverged, 3 classes
#   switch/cb_unblock+reprogram_flag             first t=2101 irq 32, 13 hits, defects F7+F8
#   ntfn_idle/entry_time+entry_budget            first t=67101 irq 32, 1 hit, defects F1
#   ntfn_active/entry_time+entry_release         first t=142101 irq 32, 1 hit, defects F3
# checker (slowpath kernel): 192 entry states, 0 refused, 0 failed kernel assertions
# checker (fastpath kernel): 197 entry states, 0 refused, 0 failed kernel assertions
# irqsim workload
board imx8mm
horizon 142102
timer_irq 27
entry_latency 10
ntfn n0
ntfn n1
ntfn n2
ep ep0
reply r0
reply r1
sc sc1 budget=4200 period=4200
sc sc2 budget=2600 period=20800 refills=1
sc sc3 budget=2200 period=13200
thread t1 prio=154 sc=sc1 prog=compute:3161,ack:32,loop
thread t2 prio=165 sc=sc2 prog=wait:n1,compute:581,ack:32,loop
thread t3 prio=211 sc=sc3 prog=wait:n1,compute:1041,ack:32,loop:1
irq 32 ntfn=n1 badge=1 start=2101 period=5000
