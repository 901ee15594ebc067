# A JSON summary of irqsim without its timings, so that two builds' or two
# runs' summaries compare equal when they computed the same (bench/ab.sh,
# tests/pgo_same.sh): `sed -f bench/untimed.sed FILE`
/"seconds"/d
/"checks_per_second"/d
/"workloads_per_second"/d
s/"first_seconds": [0-9.]*//g
