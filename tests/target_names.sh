#!/bin/sh
# No command, shared checking module, real-kernel bridge or fuzz target
# names a target's descriptor (issue 28, "targets as plug-ins"): outside the descriptor files
# (check/target_NAME.c) and the registration (check/target.c, target.h)
# code asks for a target: target_by_name, target_get (by entry),
# target_default, target_at, or the target a run carries. The descriptors
# are found as their files define them (`const struct target NAME =`), so
# a new target is covered without a change here; a file's own name in a
# comment ("check/target_irq.c") is not a reference.
# Usage: target_names.sh [ROOT] (default: the folder above this script).
# Prints each reference and exits 1; exits 0 with a line saying none.
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
names=$(sed -n 's/^const struct target \([A-Za-z_][A-Za-z0-9_]*\) =.*/\1/p' check/target_*.c 2>/dev/null | sort -u)
[ -n "$names" ] || { echo "target_names: no descriptor defined in $root/check/target_*.c" >&2; exit 2; }
words=$(echo "$names" | paste -sd '|' -)
# the files that hold one of the words at all (then each is read closely)
files=$(for d in check tools real fuzz; do [ -d "$d" ] && find "$d" -name '*.[ch]' -not -path '*/fixtures/*'; done |
        grep -Ev '^check/target(_[^/]*)?\.[ch]$' | sort | xargs grep -lwE "$words")
bad=0
for f in $files; do
  # a descriptor file's name ("target_irq.c") is no reference: cut it first
  hits=$(sed -E "s/\\b($words)\\.[ch]\\b//g" "$f" | grep -nwE "$words")
  [ -n "$hits" ] || continue
  echo "$hits" | sed "s|^|$f:|; s|\$|   <- names a descriptor: ask for the target (target.h)|"
  bad=1
done
[ $bad = 0 ] || exit 1
echo "no descriptor named outside check/target*: $(echo "$names" | paste -sd ' ' -)"
