# seL4Bench-style periodic server: a client at 100 with a round-robin SC
# computes; a periodic server at 200 (1 ms every 10 ms, constant bandwidth,
# 4 extra refills) is woken by its device's interrupt every 2.5 ms and
# works 300 us per interrupt: more than its budget allows over a period, so
# the budget throttles it. What it receives in any window of one period
# must stay within its budget.
board imx8mm
horizon 40000000
ntfn dev_ntfn
sc sc_client budget=40000 period=40000
sc sc_server budget=8000 period=80000 refills=4
thread client prio=100 sc=sc_client prog=compute:1000000,loop
thread server prio=200 sc=sc_server prog=wait:dev_ntfn,compute:2400,ack:42,loop
irq 42 ntfn=dev_ntfn badge=1 start=20000 period=20000
