# Two cores, a kernel that builds KernelSignalFastpath beside the IRQ
# fastpath (issue 19, F11). At about t=1000 'sig' on core 0 signals n1:
# the kernel's own fastpath_signal wakes 'far', whose SC is on core 1,
# queues it there (SCHED_ENQUEUE: remoteQueueUpdate marks
# ipiReschedulePending, core 1 runs its idle thread) and returns without
# schedule(), the IPI unsent (S9). Both kernels run that fastpath alike.
# IRQ 40 at t=1500 is the next entry on core 0: the slowpath's schedule()
# sends the IPI; PR #1227's fastpath leaves it unsent (class
# ntfn_idle/owed_ipi); the corrected fastpath falls back (slow_owed_ipi).
# With 'signal_fastpath 0' the signal takes the slowpath and there is no
# owed IPI.
board imx8mm
horizon 100000
cores 2
signal_fastpath 1
ntfn n0
ntfn n1
sc s_sig budget=8000 period=8000
sc s_far budget=8000 period=8000 core=1
sc s_h budget=8000 period=8000
thread sig prio=50 sc=s_sig prog=compute:1000,signal:n1,compute:100000,loop
thread far prio=0 sc=s_far prog=wait:n1,loop
thread h prio=10 sc=s_h prog=wait:n0,ack:40,loop
irq 40 ntfn=n0 badge=1 at=1500
