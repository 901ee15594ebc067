# Master's signal fastpath (irqsim sim --target signal): S6 over time.
# tx, woken by IRQ 40, makes seL4_Send(n, info) with one extra cap whose
# cptr does not resolve (send:n:badcap) while rx waits on n. The slowpath
# looks the extra caps up (handleInvocation -> lookupExtraCaps fails):
# a cap fault, no fault handler, tx becomes Inactive and nothing is
# signalled: rx never runs again and IRQ 40 stays masked (tx never acks).
# fastpath_signal never reads the message info: rx is woken (enqueue, below
# tx), tx acks and goes on. --fastpath fixed (msg_info: fall back when
# extraCaps != 0) faults tx as the slowpath does.
board imx8mm
target signal
horizon 400000
ntfn n
ntfn m
sc s_tx budget=8000 period=8000
sc s_rx budget=8000 period=8000
thread tx prio=100 sc=s_tx prog=wait:m,compute:500,send:n:badcap,ack:40,loop
thread rx prio=10 sc=s_rx prog=wait:n,compute:100,loop
irq 40 ntfn=m period=100000
