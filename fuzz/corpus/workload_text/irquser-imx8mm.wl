# The sel4bench irquser situation (examples/irquser-imx8mm.scen is one entry
# of it) as a system over time: a handler at priority 254 waits on the IRQ's
# notification, a spinner at 253 computes; the device interrupts once a
# millisecond (8,000 ticks at 8 MHz; 8,131 so that arrivals drift across the
# spinner's 5 ms timeslices). On each interrupt the handler runs for 50 us,
# acks the IRQ and waits again.
board imx8mm
horizon 80000000
timer_irq 27
ntfn irq_ntfn
sc sc_handler budget=40000 period=40000
sc sc_spin budget=40000 period=40000
thread handler prio=254 sc=sc_handler prog=wait:irq_ntfn,compute:400,ack:40,loop
thread spinner prio=253 sc=sc_spin prog=compute:1000000,loop
irq 40 ntfn=irq_ntfn badge=1 start=8131 period=8131
