#!/bin/sh
# test-kernel-features.sh IRQSIM KERNELS_DIR CACHE: issue 29 item 1, a tree
# between base and master gets a model of its own features, probed one by
# one from the tree (real/build-kernel.sh, kernel.info model_features),
# not base's or master's as a whole.
#   1. base (43607edb6) and master (1326364bc): the probes find none and
#      all fifteen of master's row (VCPU_FAULT_UNQUEUED, a feature of the trees
#      between 6dbe58ef0 and 232471e90 only, is not one); the model is that
#      version (no features line).
#   2. master with c88c066a8 ("SMP: Only migrate when needed") undone,
#      as a branch without it has it: migrateTCB's early return for a
#      thread already on the new core (src/model/smp.c:15 at 1326364bc)
#      made never taken. Two cores. The probes find every feature but
#      MIGRATE_ONLY_WHEN_NEEDED; the model says so and agrees with the
#      kernel on every state (validate --real, 50,000 states), where
#      master's model as a whole (--kernel master) mismatches it.
# Exit 77 (CTest: skipped) without the tarballs or a prerequisite of the
# kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
base=$kernels/seL4-43607edb6.tar.gz master=$kernels/seL4-1326364bc.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$base" "$master"

# build NAME TREE ARG...: the build folder on stdout
build() {
    name=$1 tree=$2
    shift 2
    b=$("$irqsim" kernel build --sel4 "$tree" --board imx8mm-evk --cache "$cache" --quiet "$@" 2>"$tmp/$name.err" | tail -1)
    [ -d "$b" ] && { echo "$b"; return; }
    grep -q "cannot be built here" "$tmp/$name.err" && { echo "SKIP: $(tail -1 "$tmp/$name.err")" >&2; exit 77; }
    echo "FAIL: $name: kernel build: $(tail -3 "$tmp/$name.err")" >&2
    exit 1
}

b=$(build base "$base")
grep -qx 'model_features=none' "$b/kernel.info" && ok "base: no feature probed" || bad "base: $(grep model_features "$b/kernel.info")"
m=$(build master "$master")
line=$(grep model_features "$m/kernel.info")
n=$(echo "${line#model_features=}" | tr '+' '\n' | grep -c .)
[ "$n" = 15 ] && ok "master: all fifteen features of its row probed" || bad "master: $line"
"$irqsim" validate --real "$m" --checks 100 --seed 1 | grep -q 'model: kernel master (the build' ||
    bad "master: the model is not master's own"

tree=$(rt_tree mix "$master")
rt_sub "$tree/src/model/smp.c" '1,$' 'if (new_core == tcb->tcbAffinity) {' 'if (0) {'
x=$(build mix "$tree" --cores 2)
"$irqsim" validate --real "$x" --checks 50000 --seed 1 >"$tmp/own.out" 2>&1
rc=$?
grep -q "kernel master's but without MIGRATE_ONLY_WHEN_NEEDED" "$tmp/own.out" || bad "mix: the model does not say the tree lacks MIGRATE_ONLY_WHEN_NEEDED"
if [ $rc = 0 ] && grep -q ' 0 unexplained mismatches' "$tmp/own.out"; then
    ok "mix: its own features, 0 mismatches in 50,000 states"
else
    bad "mix: exit $rc with its own features"; grep mismatches "$tmp/own.out"
fi
"$irqsim" validate --real "$x" --checks 50000 --seed 1 --kernel master >"$tmp/whole.out" 2>&1
rc=$?
[ $rc = 1 ] && ok "mix: master's model as a whole mismatches: $(grep -o '[0-9]* unexplained mismatches' "$tmp/whole.out")" ||
    bad "mix: --kernel master exit $rc, expected 1 (the feature matters on these states)"

# an intermediate commit whose signal fastpath does not compile (as
# 771c9e43c, before 7c11116b6 followed its queue change): the build says
# the tree's own fastpath code fails and how to build without it; with
# -D KernelSignalFastpath=OFF it builds, kernel.info says so, and the IRQ
# path still agrees with the model
tree=$(rt_tree nosig "$master")
rt_sub "$tree/src/fastpath/fastpath.c" '1,$' '    bool_t schedulable = false;' '    bool_t schedulable = no_such_name;'
"$irqsim" kernel build --sel4 "$tree" --board imx8mm-evk --cache "$cache" --quiet --release >/dev/null 2>"$tmp/nosig.err"
rc=$?
[ $rc != 0 ] && grep -q "the tree's own fastpath code does not compile.*-D KernelSignalFastpath=OFF" "$tmp/nosig.err" &&
    ok "nosig: refused, the tree's own fastpath named (exit $rc)" || { bad "nosig: exit $rc"; tail -2 "$tmp/nosig.err"; }
y=$(build nosig "$tree" -D KernelSignalFastpath=OFF)
grep -qx 'signal_fastpath=0' "$y/kernel.info" && ok "nosig: -D KernelSignalFastpath=OFF builds, kernel.info signal_fastpath=0" ||
    bad "nosig: kernel.info: $(grep signal_fastpath "$y/kernel.info")"
"$irqsim" validate --real "$y" --checks 5000 --seed 1 --quiet 2>&1 | grep -q ' 0 unexplained mismatches' &&
    ok "nosig: validate --real, 0 mismatches" || bad "nosig: validate --real mismatches"
exit $fail
