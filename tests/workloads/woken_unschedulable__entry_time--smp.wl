# How to reach woken_unschedulable/entry_time on two cores (F4 there):
# drv waits on n0 with its own SC; x (core 0) unbinds that SC
# (SchedContext_Unbind: drv stays blocked, now passive) and computes; n0
# holds the never-configured SC blank (SchedContext_Bind checks
# sc_released only for a thread). IRQ 40 at 5000 donates blank to drv
# (Running, not schedulable), and the proposal returns to x without
# reading the clock. On two cores the unread time is lost to x's budget:
# another core's remote stall commits ksConsumed without reading the clock
# (ipiStallCoreCallback, src/smp/ipi.c:67-79).
board imx8mm
horizon 20000
cores 2
ntfn n0
sc s_x budget=8000 period=8000
sc s_drv budget=8000 period=8000
sc blank ntfn=n0
thread x prio=10 sc=s_x prog=unbind:s_drv,compute:1000000,loop:1
thread drv prio=30 sc=s_drv prog=wait:n0
irq 40 ntfn=n0 at=5000
