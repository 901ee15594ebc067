# The sel4bench no-switch variant (examples/noswitch-imx8mm.scen is one
# entry of it): the spinner at 254 outranks the handler at 253. The spinner
# starts once the handler waits (the handler signals go first); each
# interrupt then wakes the handler into its ready queue behind the
# spinner, which never blocks, so the handler never acks and its IRQ stays
# masked after the first: on both kernels.
board imx8mm
horizon 80000000
ntfn irq_ntfn
ntfn go
sc sc_spin budget=40000 period=40000
sc sc_handler budget=40000 period=40000
thread spinner prio=254 sc=sc_spin prog=wait:go,compute:1000000,loop:1
thread handler prio=253 sc=sc_handler prog=signal:go,wait:irq_ntfn,compute:400,ack:40,loop:1
irq 40 ntfn=irq_ntfn badge=1 start=8131 period=8131
