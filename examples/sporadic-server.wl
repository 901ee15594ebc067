# seL4Bench-style sporadic server: as the periodic server, with the
# sporadic flag and 8 refills, woken at irregular times; what it receives
# in any window of one period must stay within its budget.
board imx8mm
horizon 40000000
ntfn dev_ntfn
sc sc_client budget=40000 period=40000
sc sc_server budget=8000 period=80000 refills=8 sporadic=1
thread client prio=100 sc=sc_client prog=compute:1000000,loop
thread server prio=200 sc=sc_server prog=wait:dev_ntfn,compute:1500,ack:43,loop
irq 43 ntfn=dev_ntfn badge=1 start=7000 period=13333
