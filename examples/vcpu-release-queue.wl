# The guest's virtual timer fires 100 ticks before its sporadic SC's
# budget ends, within MIN_BUDGET: the IRQ entry's budget check postpones
# the guest into the release queue before VPPIEvent runs. On base
# (43607edb6: VPPIEvent tests tcbQueued only, vcpu.c:121) the guest is
# sent the fault anyway: blocked on its reply and in the release queue,
# which the checker refuses at the next entry (the bug 6dbe58ef0 fixed).
# `irqsim sim --kernel base examples/vcpu-release-queue.wl` shows it.
# On master (vcpu.c:123-124: tcbQueued || !isSchedulable) VPPIEvent
# leaves the level-triggered PPI pending; the guest takes it when its
# refill comes, and the VMM gets the fault then.
board imx8mm
kernel master
hyp 1
horizon 100000
ep fep
reply r0
sc gsc budget=4000 period=40000 sporadic=1
sc vsc budget=8000 period=8000
thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:100000
thread vmm prio=200 sc=vsc prog=recv:fep:r0,ackvppi:g,replyrecv:fep:r0,loop:1
vtimer at=3900
