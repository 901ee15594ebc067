# How to reach append/entry_time+entry_budget (F1) from a plain start, on
# imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET = 160
# ticks; timer precision 0).
#
# spin runs on a 1 ms round-robin SC (8000 ticks). IRQ 40 on n0, waking
# drv (priority 10 like spin; drv runs first, because TCB_Resume enqueues
# at the head of the ready queue, and waits), arrives at t=7950, inside
# the last MIN_BUDGET of spin's timeslice, where the slowpath's
# checkBudget ends the slice (chargeBudget: spin goes to the back of its
# queue, schedule() picks again and programs the timer). The pr1227
# fastpath skips the budget check (it appends drv to the ready queue), so
# spin runs on into the time the kernel reserves for itself.
ntfn n0
sc sdrv budget=8000 period=8000
sc sspin budget=8000 period=8000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
thread drv prio=10 sc=sdrv prog=wait:n0,ack:40,loop
irq 40 ntfn=n0 at=7950
horizon 9000
