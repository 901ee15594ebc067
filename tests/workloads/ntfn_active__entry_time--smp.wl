# How to reach ntfn_active/entry_time on two cores (F4 there): core 0's x
# computes; IRQ 40 at 5000 makes n0 active (no one waits), x acks it at
# about 5600, and its next arrival at 6000 finds n0 still active: the
# proposal ORs in the badge and returns to x without
# reading the clock. On two cores the unread time is lost to x's budget:
# another core's remote stall commits ksConsumed without reading the
# clock (ipiStallCoreCallback, src/smp/ipi.c:67-79).
board imx8mm
horizon 20000
cores 2
ntfn n0
sc s_x budget=8000 period=8000
thread x prio=10 sc=s_x prog=compute:5600,ack:40,compute:1000000,loop
irq 40 ntfn=n0 at=5000,6000
