# Master's signal fastpath on two cores with a reschedule IPI in flight
# (irqsim sim --target signal): S10 from boot. The GIC delivers an IPI
# ipi_latency ticks after the entry that sent it, and until then its
# core runs on. c1 on core 1 computes 3,000 ticks and signals n1, waking
# hi (priority 100, its SC on core 0): possibleSwitchTo queues hi on
# core 0 and remoteQueueUpdate marks the IPI, which core 1's schedule()
# sends (doMaskReschedule) at about t=3,041. Core 0 meanwhile runs lo
# (priority 10), which signals n0 (waking r, also 10, who waits again at
# once) and yields, a system call every tick. lo's next signal enters
# with the IPI in flight and hi queued above it. The slowpath's
# schedule() chooses hi (the highest ready priority). Master's
# fastpath_signal appends r and returns to lo, passing over hi until the
# IPI is taken (S10, class append/outranked). With ipi_latency 0 the IPI
# is taken first and the sweep shows no S10; --fastpath fixed
# (outranked: isHighestPrio) agrees. tests/test_sim_signal.c,
# test_smp_s10_ipi_race.
board imx8mm
target signal
cores 2
horizon 20000
ipi_latency 40
ntfn n0
ntfn n1
sc s_lo budget=8000 period=8000
sc s_r budget=8000 period=8000
sc s_hi budget=8000 period=8000
sc s_c1 budget=8000 period=8000 core=1
thread hi prio=100 sc=s_hi prog=wait:n1,compute:100,loop
thread r prio=10 sc=s_r prog=wait:n0,loop
thread lo prio=10 sc=s_lo prog=signal:n0,yield,loop
thread c1 prio=50 sc=s_c1 prog=compute:3000,signal:n1,loop
