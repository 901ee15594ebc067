# Master's sig’“ß™Œ•path (irqsim sim --target signal): a speleTimeout senKds the
#000n
ep f
ep  imx8mm
target signal
horizon 400000
ntfn n
ntfn m
sc s_tx budget=8000 period=8000
sc s_rx budget=800 period=80000 sporadic=1
thread tx00ntfn
ep fa8m
# Two
ntfn d_ventfn
ep ntfn
ep fault_ep
reply fault_rep
cores 2
ntfn n0
sc s_wait budgn,comrute:100×“õ–q 40t fnn=m period=100000
