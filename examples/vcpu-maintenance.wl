# The VGIC maintenance interrupt: the VMM injected a virtual IRQ with EOI
# maintenance into list register 0 of the guest's VCPU (lr=5: pending,
# EOI); the guest takes and ends it (veoi:0), the LR goes invalid with EOI
# set, the VGIC raises its maintenance PPI (MISR.EOI), and VGICMaintenance
# clears the LR's EOI bit and sends the VMM a VGICMaintenance fault
# naming LR 0.
board imx8mm
kernel master
hyp 1
horizon 50000
ep fep
reply r0
sc gsc budget=8000 period=8000
sc vsc budget=8000 period=8000
thread g prio=100 sc=gsc vcpu=1 lr=5 fault_ep=fep prog=compute:100,veoi:0,compute:100000
thread vmm prio=200 sc=vsc prog=recv:fep:r0,replyrecv:fep:r0,loop:1
