#!/bin/sh
# Two builds of irqsim on one command, side by side in one run (the
# machine is shared: absolute times mean little, their ratio more): the
# builds alternate ROUNDS times, each run's user CPU seconds are printed,
# then the ratio of the sums and of the least run of each (A / B: above
# 1, B is faster; the least is the steadier under another agent's load:
# interference only adds), and whether
# their JSON outputs are equal but for the timings ("seconds",
# "checks_per_second", "first_seconds").
#
#   bench/ab.sh A B ROUNDS irqsim-arguments...  (without --json: added)
#   e.g. bench/ab.sh old/irqsim build/irqsim 3 exhaust --executions --depth 2 --no-ipi-latency --cores 2 --quiet
set -u
a=${1:?usage: ab.sh A B ROUNDS args...}
b=${2:?}
rounds=${3:?}
shift 3
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
sa=0 sb=0 ma=999999 mb=999999
i=1
while [ "$i" -le "$rounds" ]; do
  for x in a b; do
    eval bin=\$$x
    /usr/bin/time -f %U -o "$work/t" "$bin" "$@" --json "$work/$x.json" > /dev/null 2>&1
    t=$(tail -1 "$work/t")
    echo "round $i $x: $t s user"
    eval s$x=\$\(echo \"\$s$x $t\" \| awk \'{print \$1 + \$2}\'\)
    eval m$x=\$\(echo \"\$m$x $t\" \| awk \'{print \$2 \< \$1 ? \$2 : \$1}\'\)
    sed -f "$(dirname "$0")/untimed.sed" "$work/$x.json" > "$work/$x.$i.out"
  done
  i=$((i + 1))
done
echo "user seconds: A $sa, B $sb; A / B = $(echo "$sa $sb" | awk '{printf "%.2f", $1 / $2}')"
echo "least run: A $ma, B $mb; A / B = $(echo "$ma $mb" | awk '{printf "%.2f", $1 / $2}')"
if cmp -s "$work/a.1.out" "$work/b.1.out"; then echo "outputs: equal but for the timings"; else echo "outputs: DIFFER"; diff "$work/a.1.out" "$work/b.1.out" | head -20; fi
