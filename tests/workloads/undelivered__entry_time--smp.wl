# How to reach undelivered/entry_time on two cores (F4 there): core 0's x
# computes; IRQ 40, issued but with no notification (as after
# IRQHandler_Clear), arrives at 5000: the proposal masks and acks it
# without reading the clock. On two cores the unread time is lost to x's
# budget: another core's remote stall commits ksConsumed without reading
# the clock (ipiStallCoreCallback, src/smp/ipi.c:67-79).
board imx8mm
horizon 20000
cores 2
sc s_x budget=8000 period=8000
thread x prio=10 sc=s_x prog=compute:1000000,loop
irq 40 at=5000
