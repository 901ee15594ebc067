# shellcheck shell=sh
# shellcheck disable=SC2154,SC2034  # irqsim, kernels, cache are the sourcing test's; fail is read there
# review-test-lib.sh: what the real-kernel tests of `irqsim review`
# (real/test-review*.sh, test-verdicts.sh) share. Sourced after
# `irqsim=$1 kernels=$2 cache=$3`.
# SPDX-License-Identifier: BSD-2-Clause

# rt_need TARBALL...: exit 77 (CTest: skipped) without one of them; else
# the kernels' folder exported, a scratch folder $tmp removed at exit,
# fail=0
rt_need() {
    for t in "$@"; do
        [ -f "$t" ] || { echo "SKIP: no $t (set IRQSIM_KERNELS_DIR)"; exit 77; }
    done
    export IRQSIM_KERNELS_DIR=$kernels
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    fail=0
}

bad() { echo "FAIL $*"; fail=1; }

# rt_kbuild TREE OPTION...: `irqsim kernel build` of TREE for imx8mm-evk,
# release, in the cache; its build directory on stdout (SKIP and 77, or
# FAIL and 1, when it cannot be built: the caller's $(...) gets that)
rt_kbuild() {
    t=$1
    shift
    out=$("$irqsim" kernel build --sel4 "$t" --board imx8mm-evk --cache "$cache" --quiet --release \
        "$@" 2>"$tmp/build.err" | tail -1)
    [ -d "$out" ] || { grep -q "cannot\|missing" "$tmp/build.err" && { echo "SKIP: $(tail -1 "$tmp/build.err")"; exit 77; }
        echo "FAIL: kernel build: $(tail -3 "$tmp/build.err")"; exit 1; }
    echo "$out"
}
ok() { echo "ok   $*"; }

# rt_review NAME WANT ARG...: irqsim review ARG... with the cache, quiet,
# its report, JSON, stdout and stderr in $tmp/NAME.{md,json,out,err};
# exit 77 when the kernel cannot be built here (3); the exit must be WANT
rt_review() {
    name=$1 want=$2
    shift 2
    "$irqsim" review "$@" --cache "$cache" --quiet -o "$tmp/$name.md" --json "$tmp/$name.json" \
        >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    [ $rc = 3 ] && { echo "SKIP: $(tail -1 "$tmp/$name.err")"; exit 77; }
    [ $rc = "$want" ] || { bad "$name: exit $rc, expected $want"; cat "$tmp/$name.out"; tail -3 "$tmp/$name.err"; return 1; }
    echo "ok   $name: exit $rc: $(cat "$tmp/$name.out")"
}

# rt_tree NAME TARBALL: the tarball unpacked into $tmp/NAME; its seL4
# folder on stdout
rt_tree() {
    mkdir -p "$tmp/$1" && tar -xzf "$2" -C "$tmp/$1" || { echo "FAIL: cannot unpack $2" >&2; exit 1; }
    ls -d "$tmp/$1"/*/ | sed 's|/$||'
}

# rt_sub FILE RANGE FROM TO: a bug put into a kernel file: FROM (a fixed
# string, found exactly once within the sed address RANGE, e.g.
# '/^void NORETURN fastpath_irq()/,$' or '1,$') made TO there
rt_sub() {
    n=$(sed -n "$2p" "$1" | grep -cF -- "$3")
    [ "$n" = 1 ] || { echo "FAIL: '$3' is in $1 ($2) $n times, expected once" >&2; exit 1; }
    from=$(printf '%s' "$3" | sed 's/[][\.*^$/]/\\&/g') to=$(printf '%s' "$4" | sed 's/[\/&]/\\&/g')
    sed -i "$2 s/$from/$to/" "$1"
}
