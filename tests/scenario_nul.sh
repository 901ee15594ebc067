#!/bin/sh
# scenario_nul.sh IRQSIM WORKDIR: a scenario file holding a NUL byte is
# refused as such, at its line (it was read as text cut at the NUL: a
# valid board line with a NUL after it said "unknown board 'imx8mm'"),
# from a file and from standard input.
# SPDX-License-Identifier: BSD-2-Clause
set -u
irqsim=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0
printf 'board imx8mm\nnode cur=idle\nclock 5\0\n' > nul.scen
"$irqsim" check nul.scen > out.txt 2> err.txt
rc=$?
[ $rc = 2 ] && grep -q '^nul.scen:3: a NUL byte' err.txt && echo "ok   file: $(cat err.txt)" ||
  { echo "FAIL file: exit $rc: $(cat err.txt)"; fail=1; }
"$irqsim" run --path slow - < nul.scen > out.txt 2> err.txt
rc=$?
[ $rc = 2 ] && grep -q '^-:3: a NUL byte' err.txt && echo "ok   stdin: $(cat err.txt)" ||
  { echo "FAIL stdin: exit $rc: $(cat err.txt)"; fail=1; }
exit $fail
