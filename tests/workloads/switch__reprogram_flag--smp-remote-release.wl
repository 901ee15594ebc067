# How to reach switch/reprogram_flag on two cores, with no IPI: core 0 runs
# t (priority 50) until its 1000-tick budget is spent (t=1000: postponed to
# its release at 100000, in core 0's release queue), then x. At t=3000 core
# 1's killer suspends t (tcbReleaseRemove of core 0's release-queue head
# sets core 0's ksReprogram, src/object/tcb.c:268, and sends no IPI), at
# 3101 resumes it (schedContext_resume -> postpone -> tcbReleaseEnqueue:
# head again, ksReprogram again, tcb.c:299). Core 0 stays at user level
# with ksReprogram set. IRQ 40 at 5000 wakes w, which outranks x: the
# slowpath's schedule() reprograms and clears the flag; the proposal
# switches directly and leaves it set. The corrected fastpath falls back
# at entry on a pending ksReprogram (slow_reprogram) and agrees.
board imx8mm
horizon 20000
cores 2
ntfn n0
sc s_t budget=1000 period=100000
sc s_x budget=8000 period=8000
sc s_w budget=8000 period=8000
sc s_k budget=8000 period=8000 core=1
thread t prio=50 sc=s_t prog=compute:100000,loop
thread x prio=10 sc=s_x prog=compute:1000000,loop
thread w prio=100 sc=s_w prog=wait:n0,compute:100,ack:40,loop
thread k prio=50 sc=s_k prog=compute:3000,suspend:t,compute:100,resume:t,compute:1000000,loop
irq 40 ntfn=n0 at=5000
