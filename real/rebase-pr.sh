#!/bin/bash
# rebase-pr.sh: PR #1227 rebased onto another seL4 tree (master), as a
# tarball for build-kernel.sh / `irqsim kernel build --sel4`.
#
#   rebase-pr.sh --base TAR --pr TAR --onto TAR --out TARBALL
#
# Everything happens in a temporary directory: the PR's change is the
# difference between the --pr and --base trees, applied to --onto with
# patch(1); nothing of any tree is written into irqsim. The three changes
# master needs (docs/model.md, "PR #1227 on master"):
#  - config.cmake: the KernelIRQFastpath option is declared after
#    KernelSignalFastpath (master reformatted the file, so the PR's hunk
#    does not apply); its dependencies are the PR's;
#  - the PR's notification dequeue helper is gone (7c11116b6): the call
#    takes master's tcbNTFNDequeue, same arguments;
#  - ksReleaseHead is gone (686bba4d2): getNextInterrupt reads
#    ksReleaseQueue.head.
# Exit status: 0 written, 1 failed.
#
# SPDX-License-Identifier: BSD-2-Clause
set -euo pipefail
die() { echo "rebase-pr: $*" >&2; exit 1; }
BASE="" PR="" ONTO="" OUT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --base) BASE=$2; shift 2 ;;
        --pr) PR=$2; shift 2 ;;
        --onto) ONTO=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1" ;;
    esac
done
[ -f "$BASE" ] && [ -f "$PR" ] && [ -f "$ONTO" ] && [ -n "$OUT" ] || die "--base, --pr, --onto (tarballs) and --out are required"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for t in base:"$BASE" pr:"$PR" onto:"$ONTO"; do
    mkdir -p "$W/${t%%:*}"
    tar -xzf "${t#*:}" -C "$W/${t%%:*}"
done
top() { find "$W/$1" -mindepth 1 -maxdepth 1 -type d | head -1; }
B=$(top base) P=$(top pr) O=$(top onto)
# the PR's files, config.cmake aside
(cd "$B" && find . -type f | sort) >"$W/files.b"
(cd "$P" && find . -type f | sort) >"$W/files.p"
sort -u "$W/files.b" "$W/files.p" | while read -r f; do
    [ "$f" = ./config.cmake ] && continue
    cmp -s "$B/$f" "$P/$f" && continue
    [ -f "$B/$f" ] || { mkdir -p "$(dirname "$O/$f")"; cp "$P/$f" "$O/$f"; continue; }
    diff -u "$B/$f" "$P/$f" >"$W/p" || true
    patch -s --no-backup-if-mismatch "$O/$f" <"$W/p" || die "the PR's change to $f does not apply"
done
grep -q KernelIRQFastpath "$O/config.cmake" || {
    grep -q KernelSignalFastpath "$O/config.cmake" || die "no KernelSignalFastpath option to place KernelIRQFastpath after"
    # after the option block that declares KernelSignalFastpath (it ends at the first ')')
    awk '{ print } /KernelSignalFastpath/ { seen = 1 } seen && /\)/ && !done {
        print ""
        print "config_option(KernelIRQFastpath IRQ_FASTPATH \"Enable IRQ fastpath\" DEFAULT OFF"
        print "  DEPENDS \"KernelIsMCS; KernelFastpath; KernelSel4ArchAarch64; NOT KernelVerificationBuild\""
        print "  DEFAULT_DISABLED OFF)"
        done = 1 }' "$O/config.cmake" >"$W/c" && mv "$W/c" "$O/config.cmake"
}
grep -rl 'ntfn_queue_dequeue_fp(dest, ntfn_ptr)' "$O/src" | xargs -r sed -i 's/ntfn_queue_dequeue_fp(dest, ntfn_ptr)/tcbNTFNDequeue(dest, ntfn_ptr)/'
grep -rl 'NODE_STATE(ksReleaseHead)' "$O/include" "$O/src" | xargs -r sed -i 's/NODE_STATE(ksReleaseHead)/NODE_STATE(ksReleaseQueue.head)/g'
! grep -rq 'ntfn_queue_dequeue_fp(\|ksReleaseHead' "$O/src" "$O/include" || die "a use of a name master removed is left"
# byte-for-byte the same tarball on every run (names sorted, no times or
# owners): build-kernel.sh keys its cache by the tarball's hash
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - -C "$(dirname "$O")" "$(basename "$O")" |
    gzip -n >"$OUT"
echo "$OUT"
