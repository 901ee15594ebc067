# FINDINGS F5 over time: a quiet core. The only thread, at priority 0 (the
# idle thread's), waits for its device's interrupt; the core idles. When
# the interrupt arrives the slowpath switches to the thread; PR #1227's
# fastpath compares priorities only (0 >= 0), queues the thread behind the
# idle thread and returns to it. Nothing else reschedules this core: the
# idle thread's timer only reprograms itself.
board imx8mm
horizon 8000000
ntfn dev_ntfn
sc sc_low budget=8000 period=80000
thread low prio=0 sc=sc_low prog=wait:dev_ntfn,compute:800,ack:41,loop
irq 41 ntfn=dev_ntfn badge=1 at=100000
