#!/bin/sh
# test-kernel-boards.sh IRQSIM KERNELS_DIR CACHE: `irqsim kernel build`'s
# boards (issue 21): the model's preset name imx8mm builds the kernel's
# imx8mm-evk (the same build, kernel.info board=imx8mm-evk); an unknown
# board is refused (exit 2) with the tree's aarch64 platforms with a GIC,
# and nothing else (no aarch32, x86 or RISC-V platform, no stray ")"); a
# relative --sel4 from a folder outside the checkout is the caller's. The
# builds go to CACHE (the real-kernel tests' cache: imx8mm-evk is built
# once for all). Exit 77 (CTest: skipped) without the tarballs or a
# prerequisite of the kernel build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
pr=$kernels/seL4-2b302023d.tar.gz master=$kernels/seL4-1326364bc.tar.gz
for t in "$pr" "$master"; do
    [ -f "$t" ] || { echo "SKIP: no $t (set IRQSIM_KERNELS_DIR)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export IRQSIM_KERNELS_DIR="$kernels"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# build NAME ARGS...: irqsim kernel build ARGS; the build directory in $dir
build() {
    name=$1
    shift
    out=$("$irqsim" kernel build --cache "$cache" --quiet "$@" 2>"$tmp/err")
    rc=$?
    if [ $rc = 3 ]; then
        echo "SKIP: $(cat "$tmp/err")"
        exit 77
    fi
    dir=$(echo "$out" | tail -1)
    [ $rc = 0 ] && [ -f "$dir/kernel.info" ] || { fail "$name: exit $rc"; cat "$tmp/err"; dir=""; }
}

build imx8mm-evk --sel4 "$pr" --board imx8mm-evk
evk=$dir
build imx8mm --sel4 "$pr" --board imx8mm
if [ -n "$dir" ] && [ "$dir" = "$evk" ] && grep -qx 'board=imx8mm-evk' "$dir/kernel.info"; then
    echo "ok   --board imx8mm: the imx8mm-evk build ($(basename "$dir"))"
else
    fail "--board imx8mm: $dir, not the imx8mm-evk build $evk"
fi
# a relative tarball from a folder outside the checkout
mkdir -p "$tmp/elsewhere"
rel=$(realpath --relative-to="$tmp/elsewhere" "$pr")
dir=$(cd "$tmp/elsewhere" && "$irqsim" kernel build --sel4 "$rel" --cache "$cache" --quiet | tail -1)
[ "$dir" = "$evk" ] && echo "ok   --sel4 $rel from $tmp/elsewhere: the same build" ||
    fail "--sel4 $rel from $tmp/elsewhere: '$dir', not $evk"

# unknown boards: exit 2, the aarch64 platforms with a GIC of the tree
# unknown TREE BOARD WANT...: each of WANT in the list, none of the
# aarch32/x86/RISC-V/GIC-less platforms
unknown() {
    tree=$1 board=$2
    shift 2
    "$irqsim" kernel build --sel4 "$tree" --cache "$cache" --board "$board" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || { fail "--board $board: exit $rc (want 2)"; cat "$tmp/err"; return; }
    list=$(sed -n 's/.*platforms with a GIC: \(.*\) (the model.*/\1/p' "$tmp/err")
    for w in "$@"; do
        echo " $list " | grep -q " $w " || fail "--board $board: $w not offered: $list"
    done
    for n in pc99 spike exynos4 imx6 tk1 bcm2837 qemu-arm-virt hifive; do
        echo " $list " | grep -q " $n " && fail "--board $board: $n offered: $list"
    done
    echo "$list" | grep -q '^[a-z0-9 -]*[a-z0-9]$' || fail "--board $board: stray characters in the list: '$list'"
    echo "ok   --board $board: $(head -c 300 "$tmp/err")"
}
unknown "$pr" nosuch imx8mm-evk imx8mq-evk odroidc4 rockpro64 tqma8xqp1gb tx1 zynqmp
unknown "$pr" pc99 imx8mm-evk odroidc4
unknown "$master" imx8mm-evkk imx8mm-evk imx8mp-evk odroidc4
exit $((fails != 0))
