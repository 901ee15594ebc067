# Two cores with the hypervisor: the guest g runs on core 0 (its own SC,
# configured with core 0's SchedControl cap), its VMM on core 1. Each
# virtual timer event is core 0's VPPIEvent: g's VPPI and core 0's
# virtual timer masked, the fault sent to fep, where the VMM waits on
# core 1 (a reschedule IPI to core 1, remoteQueueUpdate); the VMM acks the
# VPPI from core 1 (invokeVCPUAckVPPI: the flag only) and replies, which
# resumes g on core 0 (a reschedule IPI to core 0); g's next switch
# enables its VCPU and unmasks the timer (restore_virt_timer). Core 1
# never loads a VCPU. `irqsim sim examples/vcpu-smp.wl`.
board imx8mm
kernel master
hyp 1
cores 2
horizon 200000
ep fep
reply r0
sc gsc budget=8000 period=8000
sc vsc budget=8000 period=8000 core=1
thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:1000,loop
thread vmm prio=200 sc=vsc prog=recv:fep:r0,ackvppi:g,replyrecv:fep:r0,loop:1
vtimer at=5000,50000,50010
