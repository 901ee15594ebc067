# Two cores: a device IRQ taken in core 0's lock wait (issue 19, F10).
# At about t=5085 the killer on core 1 raises the victim's priority while the
# victim runs on core 0: remoteTCBStall stalls core 0 (ipiStallCoreCallback:
# the victim back in its ready queue, the idle thread current) and core 1
# sends core 0 a reschedule IPI at its exit. IRQ 40 arrives at t=5100,
# while core 1 is still in the kernel (at=5090..5120 all do): core 0 takes it at
# once and waits for the big lock (c_handle_interrupt), so the IRQ is
# handled before the IPI. It wakes the waiter (15), below the victim (20):
# schedule() runs the victim; PR #1227's fastpath switches to the waiter
# (class switch/outranked); the corrected fastpath falls back
# (slow_outranked) and agrees. With the IRQ at t=5300 (after the IPI) the
# lock wait does not happen.
board imx8mm
horizon 60000
cores 2
entry_latency 40
ntfn n0
sc s_wait budget=8000 period=8000
sc s_victim budget=80000 period=80000
sc s_kill budget=8000 period=80000 core=1
thread waiter prio=15 sc=s_wait prog=wait:n0,ack:40,loop
thread victim prio=10 sc=s_victim prog=compute:1000000,loop
thread killer prio=60 sc=s_kill prog=compute:5000,prio:victim:20,compute:100000,loop
irq 40 ntfn=n0 badge=1 at=5100
