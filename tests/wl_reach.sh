#!/bin/sh
# A committed workload must reach its class from a plain start (the file
# name: EXIT__CAUSE.wl): `irqsim sim --expect` finds the class among the
# divergences at the slowpath kernel's device interrupts under the
# proposal, every reached state admitted by the checker; under the
# corrected fastpath no device interrupt diverges.
set -u
bin=$1
file=$2
want=$(basename "$file" .wl | sed 's/--.*//; s/__/\//')
out=$("$bin" sim --fastpath pr1227 --expect "$want" "$file")
rc=$?
if [ $rc -ne 0 ]; then
  echo "$file: expected class $want to be reached under pr1227, exit $rc"; echo "$out"; exit 1
fi
out=$("$bin" sim --fastpath fixed "$file")
rc=$?
if [ $rc -ne 0 ] || ! echo "$out" | grep -q "diverged, 0 classes"; then
  echo "$file: expected no divergence under the corrected fastpath, exit $rc"; echo "$out"; exit 1
fi
echo "$file: reaches $want under pr1227; fixed agrees"
