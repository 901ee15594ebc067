#!/bin/sh
# damaged-so.sh BUILD IRQSIM: a build folder whose hostkernel.so is not the
# file that was built is refused before dlopen (issue 32 item 7): exit 2
# and a message naming the file, never a SIGBUS inside dlopen. Copies of
# BUILD: the .so cut to half its size (with the size and CRC-32 that
# build-kernel.sh records, and with those lines removed, as in a build
# made before them: the ELF layout check alone), the .so cut to 100 bytes,
# one byte changed (same size: the CRC-32), a build of an older ABI
# (refused by its version), one of this ABI with another hk_state (refused
# by the size it reports), and an intact copy (loads).
# SPDX-License-Identifier: BSD-2-Clause
build=$1 irqsim=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
ko() { echo "FAIL $*"; fail=1; }

grep -q '^so_size=' "$build/kernel.info" && grep -q '^so_crc32=' "$build/kernel.info" &&
    ok "kernel.info records so_size and so_crc32" || ko "kernel.info records no so_size or so_crc32"

# copy NAME: a copy of BUILD's hostkernel.so and kernel.info in $tmp/NAME
copy() {
    mkdir "$tmp/$1" && cp "$build/hostkernel.so" "$build/kernel.info" "$tmp/$1/"
}
# refused NAME WHAT PATTERN: validate --real on $tmp/NAME exits 2 with a
# message naming its hostkernel.so and matching PATTERN
refused() {
    "$irqsim" validate --real "$tmp/$1" --checks 10 >"$tmp/$1.out" 2>"$tmp/$1.err"
    rc=$?
    if [ $rc = 2 ] && grep -q "$tmp/$1/hostkernel.so: .*$3" "$tmp/$1.err"; then
        ok "$2: exit 2, $(cat "$tmp/$1.err")"
    else
        ko "$2: exit $rc (2 and a message naming the file wanted)"
        cat "$tmp/$1.err"
    fi
}

size=$(stat -c %s "$build/hostkernel.so")
copy half && truncate -s $((size / 2)) "$tmp/half/hostkernel.so"
refused half "cut to half, size recorded" "kernel.info says $size"

copy half-old && truncate -s $((size / 2)) "$tmp/half-old/hostkernel.so" &&
    sed -i '/^so_size=/d; /^so_crc32=/d' "$tmp/half-old/kernel.info"
refused half-old "cut to half, nothing recorded (an older build)" "past its end"

copy tiny && truncate -s 100 "$tmp/tiny/hostkernel.so" && sed -i '/^so_size=/d; /^so_crc32=/d' "$tmp/tiny/kernel.info"
refused tiny "cut to 100 bytes, nothing recorded" "past its end"

copy flipped && printf 'X' | dd of="$tmp/flipped/hostkernel.so" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
refused flipped "one byte changed, same size" "CRC-32"

# a build of an older irqsim (another ABI version, without the newer
# hk_* symbols): refused by its version, before any symbol is missed
copy old-abi && sed -i '/^so_size=/d; /^so_crc32=/d' "$tmp/old-abi/kernel.info" &&
    printf 'int hk_abi_version(void) { return 9; }\nvoid hk_info(void *p) { (void)p; }\n' >"$tmp/old.c" &&
    cc -shared -fPIC -o "$tmp/old-abi/hostkernel.so" "$tmp/old.c"
err=$("$irqsim" validate --real "$tmp/old-abi" --checks 10 2>&1 >/dev/null)
rc=$?
[ $rc = 2 ] && echo "$err" | grep -q 'ABI version 9, this irqsim speaks [0-9]*: rebuild it' &&
    ok "an older ABI: exit 2, $err" || ko "an older ABI: exit $rc: $err"

# a build of another irqsim of this ABI version whose hk_state differs
# (the layout changed within a version): refused by the size it reports
abi=$(sed -n 's/^#define HK_ABI_VERSION \([0-9]*\)$/\1/p' "$(dirname "$0")/hostkernel.h")
copy same-abi && sed -i '/^so_size=/d; /^so_crc32=/d' "$tmp/same-abi/kernel.info" &&
    printf 'int hk_abi_version(void) { return %s; }\nvoid hk_info(void *p) { (void)p; }\n' "$abi" >"$tmp/same.c" &&
    cc -shared -fPIC -o "$tmp/same-abi/hostkernel.so" "$tmp/same.c"
err=$("$irqsim" validate --real "$tmp/same-abi" --checks 10 2>&1 >/dev/null)
rc=$?
[ $rc = 2 ] && echo "$err" | grep -q "its hk_state is 0 bytes, this irqsim's [0-9]* (a build of another irqsim" &&
    ok "another layout of ABI $abi: exit 2, $err" || ko "another layout of ABI $abi: exit $rc: $err"

copy intact
"$irqsim" validate --real "$tmp/intact" --checks 10 >"$tmp/intact.out" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] && ok "an intact copy loads and runs (exit $rc)" ||
    { ko "an intact copy: exit $rc"; tail -3 "$tmp/intact.out"; }
exit $fail
