#!/bin/sh
# test-review.sh IRQSIM KERNELS_DIR CACHE: `irqsim review` (issue 21).
#   1. the PR head, extracted into a folder (a build of its own: the key of
#      a folder is not a tarball's), against the PR head's tarball: nothing
#      new (on both targets, IRQ and signal), exit 0; the report's totals are
#      the same on both sides
#   2. a bug put into the slowpath's domain check (possibleSwitchTo: `<`
#      for `!=`): exit 1, the slowpath against the baseline's is new
#   3. a bug put into fastpath_irq's priority check (`>` for `>=`): exit 1,
#      the fastpath against the baseline's is new, unexplained divergences
#   4. bad input: exit 2
# One configuration (imx8mm-evk, debug, 16 domains: domain paths taken),
# 20,000 states. Exit 77 (CTest: skipped) without the tarball or a
# prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
tarball=$kernels/seL4-2b302023d.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$tarball"
tar -xzf "$tarball" -C "$tmp" || exit 1
cfg=imx8mm-evk:debug:d16

# run NAME TREE WANT: review TREE against the tarball; exit WANT
run() {
    "$irqsim" review --sel4 "$2" --baseline "$tarball" --configs $cfg --checks 20000 --cache "$cache" --quiet \
        -o "$tmp/$1.md" --json "$tmp/$1.json" --out "$tmp/$1-out" >"$tmp/$1.out" 2>"$tmp/$1.err"
    rc=$?
    if [ $rc = 3 ]; then
        echo "SKIP: $(tail -1 "$tmp/$1.err")"
        exit 77
    fi
    if [ $rc != "$3" ]; then
        echo "FAIL $1: exit $rc, expected $3"; cat "$tmp/$1.out"; tail -5 "$tmp/$1.err"; fail=1
        return 1
    fi
    echo "ok   $1: exit $rc: $(cat "$tmp/$1.out")"
}

# json NAME PYTHON-EXPRESSION MESSAGE: the expression holds on the JSON (d; c its one configuration)
json() {
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['configs'][0]; sys.exit(0 if ($2) else 1)" \
        "$tmp/$1.json" || { echo "FAIL $1: $3"; fail=1; return 1; }
    echo "ok   $1: $3"
}

new_kinds() { echo "[k for k in c['kinds'] if k['new'] and k['check'] == '$1']"; }

cp -a "$tmp/seL4" "$tmp/same"
run same "$tmp/same" 0 &&
    json same "d['new'] == 0 and c['ran'] and not c['same_build'] and c['states'] == 20000" \
        "nothing new on 20000 states of two builds of the same content" &&
    json same "c['tree']['diverged'] == c['baseline']['diverged'] > 0 and c['tree']['defects'] == c['baseline']['defects'] and c['tree']['defects'].get('F2', 0) > 0" \
        "the same divergences and defects on both (F2, the domain defect, among them)" &&
    json same "sum(c['changed'].values()) == 0 and c['tree']['unexplained'] == 0" "no changed outcome, nothing unexplained"

cp -a "$tmp/seL4" "$tmp/dom"
f=$tmp/dom/src/kernel/thread.c
grep -q 'if (ksCurDomain != target->tcbDomain' "$f" || { echo "FAIL: no domain check in possibleSwitchTo"; exit 1; }
sed -i 's/if (ksCurDomain != target->tcbDomain/if (ksCurDomain < target->tcbDomain/' "$f"
run dom "$tmp/dom" 1 &&
    json dom "len($(new_kinds slowpath-vs-baseline)) > 0 and c['changed']['slowpath'] > 0" \
        "the changed slowpath is new" &&
    json dom "all(k['reproducer'] for k in c['kinds'] if k['new'])" "every new kind has a reproducer"
# a reproducer of the slowpath change reads back on the tree's build and shows it
if [ $fail = 0 ]; then
    b=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['configs'][0]['tree']['build'])" "$tmp/dom.json")
    r=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; print([k for k in c['kinds'] if k['new']][0]['reproducer'])" "$tmp/dom.json")
    "$irqsim" check --real "$b" "$r" >"$tmp/check.out" 2>&1
    rc=$?
    if [ $rc -le 1 ]; then echo "ok   dom: its first reproducer reads back on the tree's build (check --real exit $rc)"
    else echo "FAIL dom: check --real on its first reproducer: exit $rc"; tail -3 "$tmp/check.out"; fail=1; fi
fi

cp -a "$tmp/seL4" "$tmp/fast"
f=$tmp/fast/src/fastpath/fastpath.c
grep -q 'tcbPriority >= dest->tcbPriority' "$f" || { echo "FAIL: no priority check in fastpath_irq"; exit 1; }
sed -i 's/tcbPriority >= dest->tcbPriority/tcbPriority > dest->tcbPriority/' "$f"
run fast "$tmp/fast" 1 &&
    json fast "len($(new_kinds fastpath-vs-baseline)) > 0 and c['changed']['slowpath'] == 0" \
        "the changed fastpath_irq is new, the slowpath unchanged" &&
    json fast "c['tree']['unexplained'] > 0 == c['baseline']['unexplained']" "unexplained divergences on the tree only"

"$irqsim" review --sel4 "$tarball" --configs 'imx8mm-evk:d3:c2' >/dev/null 2>"$tmp/bad.err"
[ $? = 2 ] && echo "ok   bad --configs: exit 2" || { echo "FAIL bad --configs"; fail=1; }
"$irqsim" review --sel4 "$tarball" --configs nosuchboard --cache "$cache" --quiet >/dev/null 2>"$tmp/bad.err"
rc=$?
[ $rc = 2 ] && echo "ok   unknown board: exit 2" || { echo "FAIL unknown board: exit $rc"; tail -2 "$tmp/bad.err"; fail=1; }
exit $fail
