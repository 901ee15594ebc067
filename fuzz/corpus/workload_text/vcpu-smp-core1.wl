# Two cores with the hypervisor, the guest on core 1: examples/vcpu-smp.wl
# the other way round. The guest g runs on core 1 (its own SC, configured
# with core 1's SchedControl cap), its VMM on core 0, and the virtual
# timer is core 1's (`vtimer core=1`: the PPI is banked per core, and
# fires for the VCPU loaded there). Each event is core 1's VPPIEvent: g's
# VPPI and core 1's virtual timer masked, the fault sent to fep, where the
# VMM waits on core 0 (a reschedule IPI to core 0, remoteQueueUpdate); the
# VMM acks the VPPI from core 0 (invokeVCPUAckVPPI: the flag only) and
# replies, which resumes g on core 1 (a reschedule IPI to core 1); g's
# next switch there enables its VCPU and unmasks core 1's timer
# (restore_virt_timer). Core 0 never loads a VCPU.
# `irqsim sim examples/vcpu-smp-core1.wl`.
board imx8mm
kernel master
hyp 1
cores 2
horizon 200000
ep fep
reply r0
sc gsc budget=8000 period=8000 core=1
sc vsc budget=8000 period=8000
thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:1000,loop
thread vmm prio=200 sc=vsc prog=recv:fep:r0,ackvppi:g,replyrecv:fep:r0,loop:1
vtimer core=1 at=5000,50000,50010
