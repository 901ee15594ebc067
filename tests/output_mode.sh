#!/bin/sh
# output_mode.sh IRQSIM WORKDIR: an output that replaces a file keeps that
# file's permission bits (issue 32 item 9: a 0600 JSON came out 0644); a
# new one is 0666 less the umask; a hard link to the old file keeps the
# old contents (the replacement is a new file: docs/inputs.md, "Outputs").
# SPDX-License-Identifier: BSD-2-Clause
set -u
irqsim=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0
ok() { echo "ok   $*"; }
ko() { echo "FAIL $*"; fail=1; }

umask 022
echo old > private.json && chmod 600 private.json && ln private.json link.json
echo old > shared.json && chmod 664 shared.json
"$irqsim" fuzz --checks 10 --quiet --json private.json > /dev/null
"$irqsim" fuzz --checks 10 --quiet --json shared.json > /dev/null
"$irqsim" fuzz --checks 10 --quiet --json new.json > /dev/null
m=$(stat -c %a private.json)
[ "$m" = 600 ] && ok "a 0600 output replaced stays 0600" || ko "a 0600 output replaced is $m"
m=$(stat -c %a shared.json)
[ "$m" = 664 ] && ok "a 0664 output replaced stays 0664" || ko "a 0664 output replaced is $m"
m=$(stat -c %a new.json)
[ "$m" = 644 ] && ok "a new output is 0666 less the umask (022)" || ko "a new output is $m"
grep -q '"checks"' private.json && [ "$(cat link.json)" = old ] && [ "$(stat -c %h private.json)" = 1 ] &&
  ok "the replaced file is a new one: its hard link keeps the old contents (documented)" ||
  ko "the hard link: $(cat link.json | head -c 40), links $(stat -c %h private.json)"
exit $fail
