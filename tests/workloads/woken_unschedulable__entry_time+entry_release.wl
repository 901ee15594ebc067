# How to reach woken_unschedulable/entry_time+entry_release (F3) from a
# plain start, on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the
# 10 us WCET = 160 ticks; timer precision 0).
#
# per (priority 20) has 1000 ticks every 10000: it runs first, exhausts
# its budget and waits in the release queue while spin (priority 10) runs.
# The kernel reads the clock 40 ticks after an event (entry_latency). The
# waker is IRQ 40 on n0, and the woken thread drv is passive with a
# donated SC that was never configured: drv first waits on n0 with its own
# SC sdrv, spin then unbinds sdrv (SchedContext_Unbind; drv stays blocked,
# now passive), and blank, never passed to SchedControl_Configure, is
# bound to n0 (SchedContext_Bind checks sc_released only for a thread).
# The signal donates blank to drv, which is not schedulable (refillMax 0).
# This IRQ arrives less than 40 ticks before per's release (t=10081, after
# drv's wait; its timer is due then), so the entry clock is past it: the
# slowpath's schedule() -> awaken() releases per, which preempts spin. The
# pr1227 fastpath never looks at the release queue (it wakes drv, masks
# and acks); per runs one kernel entry late.
entry_latency 40
ntfn n0
sc sspin budget=80000 period=80000
sc sper budget=1000 period=10000
sc sdrv budget=8000 period=8000
sc blank ntfn=n0
thread spin prio=10 sc=sspin prog=unbind:sdrv,compute:1000000,loop:1
thread per prio=20 sc=sper prog=compute:1000000,loop
thread drv prio=30 sc=sdrv prog=wait:n0
irq 40 ntfn=n0 at=10060
horizon 12000
