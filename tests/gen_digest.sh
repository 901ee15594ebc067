#!/bin/sh
# The states behind the seeds are the same on every build: GCC and Clang,
# Debug and Release, with and without sanitizers. A reproducer given as a
# seed ("seed 42, clock 0"), a --checks budget compared across builds and
# the fast-exit figures (tests/fast-exit-share*.txt) rely on it. C leaves
# the order of a call's arguments, and of the operands of +, unspecified,
# and GCC and Clang differed on three generator lines that drew a choice
# in two operands (fixed in check/gen.c: one choice per statement). This
# test prints the states of seeds 0..N-1 for both targets and compares
# their digest with the one in DIGEST_FILE; CI runs it under both
# compilers. The digest changes only when the generator does: update it in
# the same commit (`sh tests/gen_digest.sh IRQSIM FILE N --print`).
#
#   gen_digest.sh IRQSIM DIGEST_FILE N [--print]
#
# DIGEST_FILE holds one line "N DIGEST" per number of seeds checked (the
# quick tier takes 40, the campaign tier 200).
set -u
irqsim=$1 file=$2 n=$3
digest() {
  s=0
  while [ $s -lt $n ]; do
    "$irqsim" gen --seed $s || exit 1
    "$irqsim" gen --seed $s --target signal --kernel master || exit 1
    s=$((s + 1))
  done | md5sum | cut -d' ' -f1
}
got=$(digest)
if [ "${4:-}" = --print ]; then
  echo "$got"
  exit 0
fi
want=$(awk -v n="$n" '!/^#/ && $1 == n { print $2 }' "$file")
[ -n "$want" ] || { echo "gen_digest: $file has no digest for $n seeds" >&2; exit 1; }
echo "digest of seeds 0..$((n - 1)) (irq on base, signal on master): $got (committed: $want)"
[ "$got" = "$want" ] || {
  echo "gen_digest: the generated states differ from the committed ones: a generator change (update $file" >&2
  echo "  in the same commit) or a build that draws the choices in another order" >&2
  exit 1
}
