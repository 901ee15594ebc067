#!/bin/sh
# The progress line (check/progress.c, issue 27): into a file it is one
# line per second without a carriage return; on a terminal it is rewritten
# in place with '\r'; --quiet prints none. `script` gives the terminal; the
# terminal half is skipped where it is missing.
#
#   progress_lines.sh IRQSIM
set -u
irqsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$irqsim" fuzz --seconds 2.5 --seed 1 > /dev/null 2> "$tmp/file.txt"
if [ "$(tr -cd '\r' < "$tmp/file.txt" | wc -c)" -ne 0 ]; then
  echo "progress_lines: FAIL: a carriage return in the progress written to a file"
  fail=1
fi
lines=$(grep -c 'checks .*/s  exits' "$tmp/file.txt")
if [ "$lines" -lt 2 ]; then
  echo "progress_lines: FAIL: $lines progress lines in 2.5 s into a file (want one a second and the last)"
  cat "$tmp/file.txt"
  fail=1
fi
"$irqsim" fuzz --seconds 1.5 --seed 1 --quiet > /dev/null 2> "$tmp/quiet.txt"
if [ -s "$tmp/quiet.txt" ]; then
  echo "progress_lines: FAIL: --quiet printed on stderr:"
  cat "$tmp/quiet.txt"
  fail=1
fi
if command -v script > /dev/null 2>&1; then
  script -qc "\"$irqsim\" fuzz --seconds 2.5 --seed 1 > /dev/null" /dev/null > "$tmp/tty.txt" < /dev/null
  if [ "$(tr -cd '\r' < "$tmp/tty.txt" | wc -c)" -lt 2 ]; then
    echo "progress_lines: FAIL: no in-place updates ('\\r') on a terminal"
    fail=1
  fi
else
  echo "progress_lines: no script(1): the terminal half skipped"
fi
[ $fail = 0 ] && echo "progress_lines: $lines lines into a file, none with --quiet, in place on a terminal"
exit $fail
