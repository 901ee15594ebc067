# The GIC's order among interrupts pending at once (issue 19; docs/workload-format.md, gic_order).
# r's SC (1000 of every 5000 ticks) runs out at about t=1001 and is released at t=5001,
# when the kernel timer fires; IRQ 40 arrives at the same tick. The kernel gives
# the timer and SPIs one priority, so a board's GIC may take either first.
# - Timer first (the default order): the timer's entry wakes r (awaken); the
#   device IRQ then wakes h, and PR #1227's fastpath diverges on the deadline
#   it programs (class switch/deadline, F6).
# - Device first (gic_order device,timer,ipi below): the device IRQ meets r's
#   release already due at its clock; the slowpath's schedule() awakens r,
#   PR #1227's fastpath does not (class switch/entry_time+entry_release, F3).
# The corrected fastpath agrees with the slowpath in both orders.
board imx8mm
horizon 20000
ntfn n0
sc s_h budget=10000 period=10000
sc s_r budget=1000 period=5000
thread h prio=20 sc=s_h prog=wait:n0,ack:40,loop
thread r prio=10 sc=s_r prog=compute:1000000,loop
irq 40 ntfn=n0 badge=1 at=5001
gic_order device,timer,ipi
