# How to reach spurious/entry_time+entry_budget (F1) from a plain start,
# on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us WCET =
# 160 ticks; timer precision 0).
#
# spin runs on a 1 ms round-robin SC (8000 ticks). An interrupt whose
# acknowledge reads the GIC's spurious ID 1023 (a level-triggered line its
# device withdrew before the kernel acknowledged it: getActiveIRQ gives
# irqInvalid, handleSpuriousIRQ) arrives at t=7950, inside the last
# MIN_BUDGET of spin's timeslice, where the slowpath's checkBudget ends
# the slice (chargeBudget: spin goes to the back of its queue, schedule()
# picks again and programs the timer). The pr1227 fastpath skips the
# budget check (it runs handleSpuriousIRQ only), so spin runs on into the
# time the kernel reserves for itself.
sc sspin budget=8000 period=8000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
spurious at=7950
horizon 9000
