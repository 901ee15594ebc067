# A guest thread with a VCPU and its VMM on master (hyp 1): the guest's
# virtual timer fires three times; each time VPPIEvent masks the PPI and
# sends the guest's fault handler (the VMM, on endpoint fep) a VPPIEvent
# fault; the VMM acks the VPPI and replies, which restarts the guest, whose
# VCPU is enabled again with the PPI unmasked (docs/workload-format.md,
# "Hypervisor workloads").
board imx8mm
kernel master
hyp 1
horizon 200000
ep fep
reply r0
sc gsc budget=8000 period=8000
sc vsc budget=8000 period=8000
thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:1000,loop
thread vmm prio=200 sc=vsc prog=recv:fep:r0,ackvppi:g,replyrecv:fep:r0,loop:1
vtimer at=5000,50000,50010
