# Two cores (an SMP kernel, one domain): core 1's threads act on core 0's.
# The spinner on core 1 signals the waiter on core 0 (a reschedule IPI to
# core 0 when the waiter outranks what core 0 runs); the killer on core 1
# suspends, resumes and re-prioritises the victim on core 0 (remoteTCBStall
# when the victim is running there). Device interrupts go to core 0.
board imx8mm
horizon 2000000
cores 2
ntfn n0
sc s_wait budget=8000 period=8000
sc s_victim budget=8000 period=8000
sc s_low budget=2000 period=10000
sc s_spin budget=8000 period=8000 core=1
sc s_kill budget=4000 period=20000 core=1
thread waiter prio=100 sc=s_wait prog=wait:n0,compute:500,ack:40,loop
thread victim prio=10 sc=s_victim prog=compute:1000000,loop
thread low prio=5 sc=s_low prog=compute:300,yield,loop
thread spinner prio=50 sc=s_spin prog=compute:20000,signal:n0,loop
thread killer prio=60 sc=s_kill prog=compute:5000,suspend:victim,compute:7000,resume:victim,prio:victim:20,compute:3000,prio:victim:10,loop
irq 40 ntfn=n0 badge=1 start=3001 period=33000
