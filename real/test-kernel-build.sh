#!/bin/sh
# test-kernel-build.sh IRQSIM SOURCE_DIR: `irqsim kernel build` on bad input
# (issue 20) and its help (issue 21), without building a kernel: each bad
# input is refused with exit 2 and a message naming the option, path or
# directory at fault; nothing is left behind in the cache (no .tmp
# folders); `irqsim kernel --help` exits 0 and names every option the
# script takes and IRQSIM_KERNEL_CACHE; the usage of the real commands
# names every option their parser takes.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 src=$2
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fails=0
# the tests below need no tools: any "cannot build here" (3) would hide them
export IRQSIM_KERNEL_CACHE="$tmp/cache"

# expect NAME STATUS PATTERN ARGS...: irqsim ARGS, want STATUS and a line
# of its output matching the extended regex PATTERN
expect() {
    name=$1 want=$2 pattern=$3
    shift 3
    (cd "$tmp/cwd" && "$irqsim" "$@") >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
        echo "FAIL $name: exit $rc (want $want), output:"
        head -c 1500 "$tmp/out"
        echo "(wanted a line matching: $pattern)"
        fails=$((fails + 1))
    else
        echo "ok   $name: $(grep -E -m1 -- "$pattern" "$tmp/out")"
    fi
}
# no_tmp NAME: nothing of a failed extraction is left in the cache
no_tmp() {
    left=$(find "$tmp/cache" -name '*.tmp*' 2>/dev/null)
    if [ -n "$left" ]; then
        echo "FAIL $1: left in the cache: $left"
        fails=$((fails + 1))
    fi
}
mkdir -p "$tmp/cwd" "$tmp/notsel4/src"
echo "not a kernel" >"$tmp/notsel4/src/README"

# ---- options without a value: a usage error naming the option ----
expect sel4-no-value 2 'build-kernel: --sel4 needs a value' kernel build --sel4
expect board-no-value 2 'build-kernel: --board needs a value' kernel build --sel4 "$tmp/notsel4" --board
expect cache-then-option 2 'build-kernel: --cache needs a value' kernel build --cache --force --sel4 x
if grep -q 'unbound variable' "$tmp/out"; then echo "FAIL: a shell error reached the user"; fails=$((fails + 1)); fi
expect unknown-option 2 'build-kernel: unknown option --nosuch' kernel build --nosuch
expect domains-range 2 'build-kernel: --domains must be 1..16' kernel build --sel4 "$tmp/notsel4" --domains 0

# ---- trees that do not exist or are not seL4: bad input, 2, with the path ----
expect missing-tree 2 "build-kernel: --sel4 $tmp/nosuch: no such file or directory" kernel build --sel4 "$tmp/nosuch"
expect missing-tree-relative 2 "build-kernel: --sel4 $tmp/cwd/nosuch: no such file or directory" kernel build --sel4 nosuch
expect not-sel4-dir 2 "build-kernel: --sel4 $tmp/notsel4: not a seL4 tree" kernel build --sel4 "$tmp/notsel4"
tar -czf "$tmp/notsel4.tar.gz" -C "$tmp" notsel4
expect not-sel4-tarball 2 "build-kernel: --sel4 $tmp/notsel4.tar.gz: not a seL4 tree" kernel build --sel4 "$tmp/notsel4.tar.gz"
no_tmp not-sel4-tarball
head -c 60 "$tmp/notsel4.tar.gz" >"$tmp/cut.tar.gz"
expect cut-tarball 2 "build-kernel: --sel4 $tmp/cut.tar.gz: cannot extract" kernel build --sel4 "$tmp/cut.tar.gz"
no_tmp cut-tarball
# a relative tarball from the caller's folder (resolved there, not in the checkout)
expect relative-tarball 2 "build-kernel: --sel4 $tmp/notsel4.tar.gz: not a seL4 tree" kernel build --sel4 ../notsel4.tar.gz

# ---- a cache that cannot be written: named, with IRQSIM_KERNEL_CACHE ----
# /proc: a folder no one can create files in, root included
expect cache-readonly 2 'build-kernel: the cache /proc is not writable .*IRQSIM_KERNEL_CACHE' \
    kernel build --sel4 "$tmp/notsel4.tar.gz" --cache /proc
export IRQSIM_KERNEL_CACHE=/proc
expect cache-env-readonly 2 'build-kernel: the cache /proc is not writable' kernel build --sel4 "$tmp/notsel4.tar.gz"
export IRQSIM_KERNEL_CACHE="$tmp/cache"
if grep -qi pyfdt "$tmp/out"; then echo "FAIL cache-env-readonly: pyfdt blamed"; fails=$((fails + 1)); fi
expect cache-not-dir 2 "build-kernel: the cache $tmp/notsel4.tar.gz/c cannot be created" \
    kernel build --sel4 "$tmp/notsel4.tar.gz" --cache "$tmp/notsel4.tar.gz/c"
# a path with white space: the kernel's CMake build splits its file list
# and flags there, so it is refused by name before anything is made (a
# path with another character the shell reads, as in fd14374e9^, builds)
mkdir -p "$tmp/sp ace"
expect tree-space 2 "build-kernel: --sel4 '$tmp/sp ace' has white space in its path" kernel build --sel4 "$tmp/sp ace"
expect cache-space 2 "build-kernel: the cache '$tmp/c d' has white space in its path" \
    kernel build --sel4 "$tmp/notsel4.tar.gz" --cache "$tmp/c d"
if [ -e "$tmp/c d" ]; then echo "FAIL cache-space: the cache was made"; fails=$((fails + 1)); fi

# ---- help: exit 0, every option of the script, the cache variable ----
expect kernel-help 0 'IRQSIM_KERNEL_CACHE' kernel --help
cp "$tmp/out" "$tmp/help"
expect kernel-build-help 0 'IRQSIM_KERNEL_CACHE' kernel build --help
expect kernel-alone 2 'usage: irqsim kernel build' kernel
cp "$tmp/out" "$tmp/usage"
# every option the script's parser takes (its case labels)
opts=$(sed -n '/^while \[ \$# -gt 0 \]/,/^done/p' "$src/real/build-kernel.sh" | grep -oE '^ *--[a-z0-9-]+(\|--?[a-z0-9-]+)*\)' |
       tr -d ' )' | tr '|' '\n' | grep -- '^--' | grep -v '^--help$')
[ -n "$opts" ] || { echo "FAIL: no options found in build-kernel.sh"; fails=$((fails + 1)); }
for o in $opts; do
    grep -q -- "$o\b" "$tmp/help" || { echo "FAIL kernel --help does not name $o"; fails=$((fails + 1)); }
    grep 'kernel build' "$tmp/usage" | grep -q -- "$o\b" ||
        sed -n '/irqsim kernel build/,/irqsim validate/p' "$tmp/usage" | grep -q -- "$o\b" ||
        { echo "FAIL the usage line of kernel build does not name $o"; fails=$((fails + 1)); }
done
echo "ok   kernel --help and the usage name: $(echo $opts)"
# the real commands: every option their table (tools/cli.c reads it) takes is in the usage
ropts=$(sed -n '/^static const struct cli_opt real_table\[\]/,/^};/p' "$src/tools/realcmd.c" |
        grep -oE '"--[a-z-]+"' | tr -d '"' | sort -u)
[ -n "$ropts" ] || { echo "FAIL: no options found in realcmd.c's real_table"; fails=$((fails + 1)); }
for o in $ropts; do
    grep -q -- "$o\b" "$tmp/usage" || { echo "FAIL the usage does not name $o"; fails=$((fails + 1)); }
done
echo "ok   the usage of the real commands names: $(echo $ropts)"
exit $((fails != 0))
