# A passive server and two clients over master's fastpath_call
# (docs/FINDINGS-call.md). The server receives on ep0 with reply r0 on its
# own SC, then its first client unbinds that SC (it stays blocked, now
# passive) and every call donates the caller's SC along the call stack;
# seL4_ReplyRecv gives it back. The clients compute and call in a loop.
board imx8mm
kernel master
target call
horizon 2000000
ep ep0
reply r0
sc sc_srv budget=8000 period=80000
sc sc_a budget=20000 period=100000
sc sc_b budget=10000 period=50000
thread srv prio=220 sc=sc_srv prog=recv:ep0:r0,replyrecv:ep0:r0,loop:1
thread a prio=100 sc=sc_a prog=unbind:sc_srv,compute:3000,call:ep0,loop:1
thread b prio=90 sc=sc_b prog=compute:2000,call:ep0,loop
