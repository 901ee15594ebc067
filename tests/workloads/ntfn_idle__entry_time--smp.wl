# How to reach ntfn_idle/entry_time on two cores (F4 there): core 0's x
# computes; IRQ 40 at 5000 signals n0, on which no one waits: the
# proposal makes n0 active and returns to x without
# reading the clock. On two cores the unread time is lost to x's budget:
# another core's remote stall commits ksConsumed without reading the
# clock (ipiStallCoreCallback, src/smp/ipi.c:67-79).
board imx8mm
horizon 20000
cores 2
ntfn n0
sc s_x budget=8000 period=8000
thread x prio=10 sc=s_x prog=compute:1000000,loop
irq 40 ntfn=n0 at=5000
