#!/bin/sh
# test-kernel-cache.sh IRQSIM KERNELS_DIR: `irqsim kernel build` never
# returns a stale kernel from its cache (issue 21). A copy of the PR tree
# gets one kernel file that includes include/irqsim_probe.inc, a file whose
# extension the build does not name and that git does not track; the
# marker string in it must be in the hostkernel.so returned, whatever was
# built before:
#   1. plain directory, marker A: built
#   2. marker B: rebuilt (not the kernel of step 1: .inc was not hashed)
#   3. git init, everything committed but the marker (untracked), B: the
#      kernel of step 2 (same content), or a new one
#   4. the untracked marker back to A: the kernel with A (git status does
#      not change with an untracked file's content)
#   5. the marker ignored (.git/info/exclude) and B again: a kernel with B
# Exit 77 (CTest: skipped) without the tarball or a prerequisite.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2
tarball=$kernels/seL4-2b302023d.tar.gz
if [ ! -f "$tarball" ]; then
    echo "SKIP: no $tarball (set IRQSIM_KERNELS_DIR)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$tarball" -C "$tmp" || exit 1
tree=$tmp/seL4
[ -f "$tree/src/kernel/thread.c" ] || { echo "no src/kernel/thread.c in $tarball"; exit 1; }
# on the kernel's include path (its build concatenates the sources first)
echo '#include <irqsim_probe.inc>' >>"$tree/src/kernel/thread.c"
probe=$tree/include/irqsim_probe.inc
fail=0

# step N MARKER: build, the kernel returned must hold irqsim-probe-MARKER
step() {
    printf '__attribute__((used)) static const char irqsim_probe[] = "irqsim-probe-%s";\n' "$2" >"$probe"
    out=$(IRQSIM_KERNELS_DIR=$kernels "$irqsim" kernel build --sel4 "$tree" --cache "$tmp/cache" 2>"$tmp/err")
    rc=$?
    if [ $rc = 3 ]; then
        echo "SKIP: $(cat "$tmp/err")"
        exit 77
    fi
    dir=$(echo "$out" | tail -1)
    how=$(grep -q '^build-kernel: cached' "$tmp/err" && echo cached || echo built)
    if [ $rc != 0 ]; then
        echo "FAIL step $1: exit $rc"; tail -5 "$tmp/err"; fail=1
    elif grep -q "irqsim-probe-$2" "$dir/hostkernel.so"; then
        echo "ok   step $1: marker $2 in the kernel returned ($how, $(basename "$dir"))"
    else
        echo "FAIL step $1: the kernel returned ($how, $(basename "$dir")) lacks marker $2: a stale kernel"; fail=1
    fi
}
step 1 A
step 2 B
git -C "$tree" init -q && git -C "$tree" add -A && git -C "$tree" rm -q --cached include/irqsim_probe.inc &&
    git -C "$tree" -c user.name=irqsim -c user.email=irqsim@invalid commit -qm tree || exit 1
step 3 B
step 4 A
echo 'include/irqsim_probe.inc' >>"$tree/.git/info/exclude"
[ -z "$(git -C "$tree" status --porcelain)" ] || { echo "the marker is not ignored"; exit 1; }
step 5 B
exit $fail
