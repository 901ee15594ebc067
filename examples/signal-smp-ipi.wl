# Master's signal fastpath on two cores (irqsim sim --target signal): S9.
# The receiver rx (priority 0) waits on n with its SC on core 1, which
# runs its idle thread; the sender tx on core 0 is woken by IRQ 40,
# signals n, then computes 4,000 ticks. fastpath_signal passes its
# priority test (rx's 0 is not above core 1's idle thread's 0) and
# enqueues rx on core 1 (crossnode); remoteQueueUpdate marks the
# reschedule IPI (core 1 idles), and restore_user_context returns without
# schedule(), so the IPI is sent only at core 0's next kernel entry (tx's
# ack after its compute): rx first runs about 4,000 ticks later than on the
# slowpath kernel, where schedule() sends the IPI at once
# (doMaskReschedule). --fastpath fixed (reschedule_ipi) agrees.
board imx8mm
target signal
cores 2
horizon 400000
ntfn n
ntfn m
sc s_tx budget=8000 period=8000
sc s_rx budget=8000 period=8000 core=1
thread tx prio=100 sc=s_tx prog=wait:m,signal:n,compute:4000,ack:40,loop
thread rx prio=0 sc=s_rx prog=wait:n,compute:100,loop
irq 40 ntfn=m period=100000
