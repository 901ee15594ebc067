#!/bin/sh
# A committed reproducer must keep diverging under the proposal, in its own
# class (the file name: EXIT__CAUSE.scen or EXIT__CAUSE--NOTE.scen), and
# agree under the corrected fastpath.
set -u
bin=$1
file=$2
want=$(basename "$file" .scen | sed 's/--.*//; s/__/\//')
out=$("$bin" check --fastpath pr1227 "$file")
rc=$?
if [ $rc -ne 1 ]; then
  echo "$file: expected a divergence under pr1227 (exit 1), got exit $rc"; echo "$out"; exit 1
fi
got=$(echo "$out" | sed -n 's/^class: //p')
if [ "$got" != "$want" ]; then
  echo "$file: expected class $want, got $got"; echo "$out"; exit 1
fi
out=$("$bin" check --fastpath fixed "$file")
rc=$?
if [ $rc -ne 0 ]; then
  echo "$file: expected agreement under the corrected fastpath, got exit $rc"; echo "$out"; exit 1
fi
echo "$file: diverges as $want under pr1227, agrees under fixed"
