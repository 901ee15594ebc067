#!/bin/sh
# test-review-change.sh IRQSIM KERNELS_DIR CACHE: issue 30 item 2, the
# change measured. `irqsim review` reads the kernel C the tree changes
# against the baseline, runs the review's states again on the tree's
# coverage build and says which changed lines and functions ran:
#   1. the PR head 2b302023d against itself: no kernel C changed, exit 0
#   2. the PR head with one code line of deleteASIDPool respaced (no
#      behaviour changes; the function is reached only by the
#      finalisation of an ASID pool cap, which no review state makes):
#      nothing new, the function listed as never entered, exit 6
#      ("nothing new, but part of the change never ran"); the JSON's
#      change: 1 line with code, 0 executed. The same content again at
#      another path, the first copy deleted: the cached coverage build
#      names its files where it compiled them (kernel.info
#      compiled_source=), and the change is measured the same (before,
#      "no changed line has code of its own")
#   3. the PR head with one code line of possibleSwitchTo respaced (the
#      slowpath's sendSignal wakes a thread through it on signal and
#      interrupt states): nothing new, 1 of 1 changed line executed, the
#      function entered on some states, exit 0
# One configuration (imx8mm-evk, release), 300 states. Exit 77 (CTest:
# skipped) without the tarball or a prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
head=$kernels/seL4-2b302023d.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$head"

# review NAME TREE WANT: the tree against the PR head
review() {
    rt_review "$1" "$3" --sel4 "$2" --baseline "$head" --configs imx8mm-evk:release --checks 300
}

# change NAME EXPR WANT: a Python expression over the JSON's "change" (c)
# and its configuration's (k) must be WANT
change() {
    got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['change']; k=d['configs'][0]['change']
print($2)" "$tmp/$1.json")
    [ "$got" = "$3" ] || { bad "$1: $2 = $got, expected $3"; return 1; }
    echo "ok   $1: $2 = $got"
}

# has NAME TEXT: the Markdown's "The change" line says TEXT
has() {
    grep '^\*\*The change\*\*' "$tmp/$1.md" | grep -qF -- "$2" || { bad "$1: the change line lacks '$2'"; grep '^\*\*The change' "$tmp/$1.md"; return 1; }
    echo "ok   $1: says '$2'"
}

# tree NAME FILE FUNCTION LINE: the PR head with the line holding LINE
# (once) in FUNCTION's definition in FILE given one more space after its
# "(" (the same C, another line); prints the tree's folder
tree() {
    d=$(rt_tree "$1" "$head")
    rt_sub "$d/$2" "/^void $3(/,/^}/" "$4(" "$4( "
    echo "$d"
}

# 1. the PR head against itself
review self "$head" 0
has self "no kernel C changed"

# 2. a change in a function no review state enters; then the same tree at
# another path, the first one gone
unrun() {
    review "$1" "$2" 6
    change "$1" "(c['code'], c['executed'], c['functions'], c['functions_entered'], c['unrun'])" "(1, 0, 1, 0, True)"
    change "$1" "[(f['name'], f['calls'], f['states']) for f in k['functions']]" "[('deleteASIDPool', 0, 0)]"
    has "$1" "not executed: \`deleteASIDPool()\` src/arch/arm/64/kernel/vspace.c:"
    has "$1" "(never entered)"
    grep -q 'the change: .*deleteASIDPool' "$tmp/$1.err" || bad "$1: stderr does not name the function"
}
t2=$(tree unrun src/arch/arm/64/kernel/vspace.c deleteASIDPool setVMRoot) || exit 1
unrun unrun "$t2"
t2b=$(tree unrun-moved src/arch/arm/64/kernel/vspace.c deleteASIDPool setVMRoot) || exit 1
rm -rf "$t2"
unrun unrun-moved "$t2b"

# 3. a change the states run
t3=$(tree ran src/kernel/thread.c possibleSwitchTo rescheduleRequired) || exit 1
review ran "$t3" 0
change ran "(c['code'], c['executed'], c['functions'], c['functions_entered'], c['unrun'])" "(1, 1, 1, 1, False)"
change ran "[(f['name'], f['states'] > 0, f['states'] <= k['states']) for f in k['functions']]" "[('possibleSwitchTo', True, True)]"
has ran "1 of 1 changed line with code executed"

[ $fail = 0 ] && echo "review change: all passed"
exit $fail
