#!/bin/sh
# test-review-screen.sh IRQSIM KERNELS_DIR CACHE: issue 30 item 3, one
# screen first. The PR head 2b302023d with one step of fastpath_irq
# skipped (the woken thread's badge register is not written), reviewed
# against the unmodified PR head on two configurations:
#   - exit 1; the report's first screen (before the table of
#     configurations, at most 25 lines) is the verdict and ONE group: the
#     tree's fastpath_irq, unexplained, in both configurations; every new
#     kind of both is in it (each is about the tree's fastpath_irq: its
#     divergence from its slowpath, from the baseline's, from the model),
#     and badge_register is its most frequent field (the one write skipped)
#   - the kinds lists are collapsed (<details>); the JSON has the group
#     per configuration and across them
#   - the summary on stdout leads with the same one group
#   - the group's replay command, run, exits 1: check --real's status
#     for a divergence of the real fastpath from the real slowpath, in
#     badge_register
# Two configurations (imx8mm-evk release; 16 domains, debug), 300 states.
# Exit 77 (CTest: skipped) without the tarball or a prerequisite of the
# kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
head=$kernels/seL4-2b302023d.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$head"

tree=$(rt_tree tree "$head")
# the badge write after fastpath_irq's point of no return (fastpath_signal,
# above it, has the same line: the address range keeps it)
rt_sub "$tree/src/fastpath/fastpath.c" '/^void NORETURN fastpath_irq()/,$' \
    'setRegister(dest, badgeRegister, badge);' '(void)badge;'

rt_review r 1 --sel4 "$tree" --baseline "$head" --configs imx8mm-evk:release,imx8mm-evk:debug:d16 \
    --checks 300 --out "$tmp/out" || exit 1
echo "ok   review: exit 1"

# the first screen: up to the table of configurations
sed '/^| configuration /,$d' "$tmp/r.md" >"$tmp/screen.md"
lines=$(wc -l <"$tmp/screen.md")
groups=$(grep -c '^[0-9][0-9]*\. \*\*' "$tmp/screen.md")
echo "---- the first screen ($lines lines)"
cat "$tmp/screen.md"
echo "----"
[ "$lines" -le 25 ] && grep -q '^\*\*Something new\*\*$' "$tmp/screen.md" && [ "$groups" = 1 ] &&
    grep -q "^1\. \*\*IRQ target, unexplained: the tree's fastpath_irq differs from .* in badge_register" "$tmp/screen.md" &&
    grep -q '1\. .*, all 2 configurations; smallest reproducer' "$tmp/screen.md" &&
    echo "ok   first screen: the verdict and one group, the tree's fastpath_irq in both configurations" ||
    bad "first screen: $lines lines, $groups groups"
[ "$(grep -c '^<details><summary>New kinds' "$tmp/r.md")" = 2 ] &&
    echo "ok   each configuration's new kinds collapsed" || bad "the new kinds are not collapsed per configuration"

python3 - "$tmp/r.json" <<'EOF' || bad "the JSON's groups"
import json, sys
d = json.load(open(sys.argv[1]))
g, cfgs = d['groups'], d['configs']
new = sum(c['new'] for c in cfgs)
assert len(g) == 1, g
g = g[0]
assert g['key'] == 'irq:path:fastpath' and len(g['configs']) == 2, g
# every new kind of both configurations is this group's, and there are
# more than one (the grouping did something)
assert g['kinds'] == new > 1, (g['kinds'], new)
assert g['fields'][0] == 'badge_register', g['fields']
assert g['replays'] and g['reproducer'] and g['replay'].startswith('irqsim check --real '), g
for c in cfgs:
    assert len(c['groups']) == 1 and c['groups'][0]['key'] == 'irq:path:fastpath', c['groups']
    assert c['groups'][0]['kinds'] == c['new'], (c['groups'][0]['kinds'], c['new'])
print("ok   JSON: one group, %d new kinds in it over both configurations, badge_register first" % new)
EOF

head -2 "$tmp/r.out" | sed -n '1p' | grep -q '^irqsim review: what is new, by defect (1 group;' &&
    sed -n 2p "$tmp/r.out" | grep -q "^  1\. IRQ target, unexplained: the tree's fastpath_irq" &&
    [ "$(grep -c '^  [0-9][0-9]*\. ' "$tmp/r.out")" = 1 ] &&
    echo "ok   stdout leads with the one group" || { bad "stdout does not lead with the group"; cat "$tmp/r.out"; }

# the replay command, with this build's irqsim
replay=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['groups'][0]['replay'])" "$tmp/r.json")
set -- $replay
shift
"$irqsim" "$@" >"$tmp/check.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^verdict (real kernel): DIVERGE in .*badge_register" "$tmp/check.out" &&
    echo "ok   replay: $replay: exit 1, DIVERGE in badge_register" ||
    { bad "replay: $replay: exit $rc"; tail -5 "$tmp/check.out"; }
exit $fail
