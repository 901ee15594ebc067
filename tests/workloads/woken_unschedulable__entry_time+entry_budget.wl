# How to reach woken_unschedulable/entry_time+entry_budget (F1) from a
# plain start, on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the
# 10 us WCET = 160 ticks; timer precision 0).
#
# spin runs on a 1 ms round-robin SC (8000 ticks). The waker is IRQ 40 on
# n0, and the woken thread drv is passive with a donated SC that was never
# configured: drv first waits on n0 with its own SC sdrv, spin then
# unbinds sdrv (SchedContext_Unbind; drv stays blocked, now passive), and
# blank, never passed to SchedControl_Configure, is bound to n0
# (SchedContext_Bind checks sc_released only for a thread). The signal
# donates blank to drv, which is not schedulable (refillMax 0). This IRQ
# arrives at t=7950, inside the last MIN_BUDGET of spin's timeslice, where
# the slowpath's checkBudget ends the slice (chargeBudget: spin goes to
# the back of its queue, schedule() picks again and programs the timer).
# The pr1227 fastpath skips the budget check (it wakes drv, masks and
# acks), so spin runs on into the time the kernel reserves for itself.
ntfn n0
sc sspin budget=8000 period=8000
sc sdrv budget=8000 period=8000
sc blank ntfn=n0
thread spin prio=10 sc=sspin prog=unbind:sdrv,compute:1000000,loop:1
thread drv prio=30 sc=sdrv prog=wait:n0
irq 40 ntfn=n0 at=7950
horizon 9000
