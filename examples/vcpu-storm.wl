# A guest on a round-robin SC of budget MIN_BUDGET (160 ticks on imx8mm)
# and kernel entries that take time (entry_latency 20): every entry's
# budget check finds the SC insufficient (refill_sufficient: the head
# less what was consumed is below MIN_BUDGET) and round-robins the guest
# (chargeBudget -> endTimeslice -> tcbSchedAppend), so VPPIEvent finds it
# tcbQueued and sends nothing (master vcpu.c:123-124, base vcpu.c:121),
# the level-triggered PPI is taken again at the return to user, and the
# guest never receives its timer: an interrupt storm, on base and master.
# irqsim stops each kernel after 1,000 such entries in a row and says so.
# With budget 320 the second entry delivers the fault.
board imx8mm
kernel master
hyp 1
entry_latency 20
horizon 100000
ep fep
reply r0
sc gsc budget=160 period=160
sc vsc budget=8000 period=8000
thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:100000
thread vmm prio=200 sc=vsc prog=recv:fep:r0,ackvppi:g,replyrecv:fep:r0,loop:1
vtimer at=5000
