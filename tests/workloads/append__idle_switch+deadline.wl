# How to reach append/idle_switch+deadline (F5, F6) from a plain start, on
# imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET = 160
# ticks; timer precision 0).
#
# Domain 0 lasts 10 ms, domain 1 1 ms; drv (priority 0, the idle thread's
# priority) is the only thread, in domain 0, and waits on n0 from the
# start. At t=88000 the timer ends domain 1 and schedule() returns to
# domain 0 with only the idle thread to run, reading the clock and
# programming the idle SC's end (88000 + 40000: the idle SC has the 5 ms
# boot time slice) as the deadline. IRQ 40 on n0 arrives at the same tick,
# right after that timer entry, so the kernel's clock is current. The
# slowpath's schedule() switches from the idle thread to drv (the idle
# thread is never schedulable) and programs drv's deadline; the pr1227
# fastpath compares priorities only (0 >= 0), appends drv and returns to
# the idle thread (F5). drv's round-robin budget is 48000 ticks, so its
# end (136000) is later than the idle deadline (128000): with the idle fix
# alone the fastpath would switch but keep the old deadline, because it
# reprograms only for an earlier event (F6).
domain_schedule 0:10,1:1
ntfn n0
sc sdrv budget=48000 period=48000
thread drv prio=0 sc=sdrv prog=wait:n0,ack:40,loop
irq 40 ntfn=n0 at=88000
horizon 90000
