# A timeout fault with a waiting handler (endpoint.c sendIPC -> the receive
# side): the server overruns its periodic budget; handleTimeout sends the
# fault to fault_ep, where the handler at 250 waits with a reply object:
# the handler is woken, the server blocks on the reply. The handler's next
# receive on the same reply cancels the server's pending reply (receiveIPC:
# "Reply object already has unexecuted reply"), leaving it Inactive.
board imx8mm
horizon 4000000
ntfn dev_ntfn
ep fault_ep
reply fault_reply
sc sc_client budget=40000 period=40000
sc sc_server budget=8000 period=80000
sc sc_fh budget=8000 period=8000
thread client prio=100 sc=sc_client prog=compute:1000000,loop
thread server prio=200 sc=sc_server timeout_ep=fault_ep prog=wait:dev_ntfn,compute:20000,ack:42,loop
thread faulth prio=250 sc=sc_fh prog=recv:fault_ep:fault_reply,compute:80,loop
irq 42 ntfn=dev_ntfn badge=1 at=20000
