# How to reach undelivered/entry_time+entry_release (F3) from a plain
# start, on imx8mm (8,000,000 ticks a second; MIN_BUDGET = 2 x the 10 us
# WCET = 160 ticks; timer precision 0).
#
# per (priority 20) has 1000 ticks every 10000: it runs first, exhausts
# its budget and waits in the release queue while spin (priority 10) runs.
# The kernel reads the clock 40 ticks after an event (entry_latency). IRQ
# 40, issued by IRQControl_Get (which unmasks it) but with no notification
# on its handler (IRQHandler_SetNotification never called, as after
# IRQHandler_Clear) arrives less than 40 ticks before per's release
# (t=10040; its timer is due then), so the entry clock is past it: the
# slowpath's schedule() -> awaken() releases per, which preempts spin. The
# pr1227 fastpath never looks at the release queue (it masks and acks the
# IRQ only); per runs one kernel entry late.
entry_latency 40
sc sspin budget=80000 period=80000
sc sper budget=1000 period=10000
thread spin prio=10 sc=sspin prog=compute:1000000,loop
thread per prio=20 sc=sper prog=compute:1000000,loop
irq 40 at=10020
horizon 12000
