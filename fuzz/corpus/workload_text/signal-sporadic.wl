# Master's signal fastpath (irqsim sim --target signal): a sporadic
# receiver woken by seL4_Signal. The sender (prio 100) is woken by IRQ 40,
# computes 1,500 ticks, signals n and acks the IRQ; the receiver (prio 10, a sporadic SC
# whose head refill is ready) waits on n. fastpath_signal wakes it below
# the caller (enqueue) and runs refill_unblock_check on ksCurTime of the
# IRQ entry, 1,501 ticks stale (the compute and the call's tick): S4 (the
# head refill is stamped 1,501 ticks early) and S5 (ksReprogram left set); the slowpath stamps it with the
# entry clock and schedule() reprograms. --fastpath fixed agrees.
board imx8mm
target signal
horizon 400000
ntfn n
ntfn m
sc s_tx budget=8000 period=8000
sc s_rx budget=800 period=80000 sporadic=1
thread tx prio=100 sc=s_tx prog=wait:m,compute:1500,signal:n,ack:40,loop
thread rx prio=10 sc=s_rx prog=wait:n,compute:100,loop
irq 40 ntfn=m period=100000
