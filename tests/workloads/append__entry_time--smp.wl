# How to reach append/entry_time on two cores (F4 there): w (priority 20,
# its own SC) runs first and waits on n0; core 0's x (priority 10) sets
# w's priority to 10 (TCB_SetPriority of a thread blocked on n0:
# reorderNTFN) and computes; IRQ 40 at 5000 wakes w at x's priority: the proposal appends w and
# returns to x without reading the clock. On two cores the unread time
# is lost to x's budget: another core's remote stall commits ksConsumed
# without reading the clock (ipiStallCoreCallback, src/smp/ipi.c:67-79).
board imx8mm
horizon 20000
cores 2
ntfn n0
sc s_x budget=8000 period=8000
sc s_w budget=8000 period=8000
thread w prio=20 sc=s_w prog=wait:n0,compute:100,loop
thread x prio=10 sc=s_x prog=prio:w:10,compute:1000000,loop:1
irq 40 ntfn=n0 at=5000
