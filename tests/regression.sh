#!/bin/sh
# A committed reproducer must keep diverging under the proposal, in its own
# class (the file name: EXIT__CAUSE.scen or EXIT__CAUSE--NOTE.scen), and
# agree under the corrected fastpath. A name starting sig-, call- or rr-
# is a reproducer of master's signal, call or reply_recv fastpath (the file's
# syscall line names its target): as written is `merged`.
set -u
bin=$1
file=$2
base=$(basename "$file" .scen)
case $base in
  sig-*|call-*|rr-*) aswritten=merged; base=${base#*-} ;;
  *) aswritten=pr1227 ;;
esac
want=$(echo "$base" | sed 's/--.*//; s/__/\//')
out=$("$bin" check --fastpath $aswritten "$file")
rc=$?
if [ $rc -ne 1 ]; then
  echo "$file: expected a divergence under $aswritten (exit 1), got exit $rc"; echo "$out"; exit 1
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
echo "$file: diverges as $want under $aswritten, agrees under fixed"
