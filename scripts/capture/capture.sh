#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Boots one workload built by scripts/capture/setup.sh in qemu-system-aarch64
# (-icount shift=4), records its interrupt path with gdb (irqcap.py) and
# writes a gzipped version-1 irqsim trace (docs/TRACES.md).
#
# Usage: scripts/capture/capture.sh [options] WORKLOAD OUT.jsonl.gz
#   WORKLOAD        test | bench | bench-eq | app | app-dom | app-wl (a build of setup.sh)
#   --max N         records to keep (default 2000)
#   --secs S        wall-clock bound of the capture (default 300); QEMU and
#                   gdb are killed at S + 60 s whatever happens
#   --filter F      all (default) | signal | timer-every=N (irqcap.py)
#   --no-entry-clock  do not read the counter at entry (one injected mrs)
#   --inject SPEC   fault injection, KIND@N: out_of_range, spurious or both
#                   every N-th record (irqcap.py, IRQCAP_INJECT)
#   --keep          keep the uncompressed trace, serial log and gdb log
#                   beside OUT (OUT without .gz, .serial, .gdb.log)
# Environment: IRQSIM_CAPTURE_WORK (setup.sh's work directory).
# Exit status: 0 a trace was written; 1 the capture failed (named).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
W=${IRQSIM_CAPTURE_WORK:-$HOME/.cache/irqsim/capture}
die() { echo "capture: error: $*" >&2; exit 1; }
say() { echo "capture: $*" >&2; }

MAX=2000 SECS=300 FILTER=all ECLK=1 KEEP=0 INJECT=
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --max) MAX=$2; shift 2 ;;
    --secs) SECS=$2; shift 2 ;;
    --filter) FILTER=$2; shift 2 ;;
    --inject) INJECT=$2; shift 2 ;;
    --no-entry-clock) ECLK=0; shift ;;
    --keep) KEEP=1; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#args[@]} -eq 2 ] || die "usage: capture.sh [options] test|bench|bench-eq|app|app-dom|app-wl OUT.jsonl.gz"
WL=${args[0]}
OUT=$(realpath -m "${args[1]}")
case "$OUT" in *.gz) ;; *) die "OUT must end in .gz (the trace is gzipped)" ;; esac
case "$WL" in
  test) ws=$W/sel4test-ws STOP='Test suite passed|Test suite failed|All is well in the universe' ;;
  bench) ws=$W/sel4bench-ws STOP='All is well in the universe' ;;
  bench-eq) ws=$W/sel4bench-eq-ws STOP='All is well in the universe' ;;
  app|app-dom) ws=$W/app-ws STOP='irqcov: done' ;;
  app-wl) ws=$W/app-wl-ws STOP='irqcov: done' ;;
  *) die "unknown workload '$WL' (test, bench, bench-eq, app, app-dom, app-wl)" ;;
esac
BD=$W/build-$WL
for t in qemu-system-aarch64 gdb-multiarch aarch64-linux-gnu-objdump python3 gzip timeout; do
  command -v "$t" >/dev/null || die "$t not found: run scripts/capture/setup.sh first"
done
IMG=$(ls "$BD"/images/*-image-arm-qemu-arm-virt 2>/dev/null | head -1) || true
[ -n "$IMG" ] || die "no image in $BD/images: run scripts/capture/setup.sh $WL"
ELF=$BD/kernel/kernel.elf
GEN=$BD/kernel/generated/arch/object/structures_gen.h
for f in "$ELF" "$GEN" "$BD/kernel-commit"; do [ -f "$f" ] || die "missing $f: run scripts/capture/setup.sh $WL"; done

WLNAME=$WL   # app-wl: the workload file the app was generated from
[ "$WL" = app-wl ] && [ -f "$BD/workload-file" ] && WLNAME="app-wl:$(cat "$BD/workload-file")"
HEADER=$(python3 "$HERE/kconfig.py" "$BD" "$(cat "$BD/kernel-commit")" "$WLNAME") || die "cannot derive the trace header"
RAW=${OUT%.gz}
mkdir -p "$(dirname "$OUT")"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/irqcap.XXXXXX")
QPID=
cleanup() {
  if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then kill "$QPID" 2>/dev/null || true; sleep 0.5; kill -9 "$QPID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
# A free TCP port for QEMU's gdbstub (other captures may run beside this one).
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# -icount shift=4: guest time follows the instruction count (16 ns, one tick of
# the 62.5 MHz counter, per instruction), so gdb's stops do not move the guest
# clock. Do not add sleep=off: the guest then stalls after the first stop.
say "[$WL] booting $IMG in QEMU (-icount shift=4, gdbstub :$PORT); up to $MAX records or ${SECS} s"
timeout -s KILL $((SECS + 60)) qemu-system-aarch64 -machine virt -cpu cortex-a53 -m size=2G -icount shift=4 \
  -display none -monitor none -serial file:"$TMP/serial" -no-reboot \
  -kernel "$IMG" -gdb tcp:127.0.0.1:$PORT -S >"$TMP/qemu.log" 2>&1 &
QPID=$!
for _ in $(seq 50); do
  python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $PORT)))" 2>/dev/null && break
  kill -0 "$QPID" 2>/dev/null || { cat "$TMP/qemu.log" >&2; die "QEMU exited before its gdbstub came up"; }
  sleep 0.1
done
t0=$(date +%s.%N)
set +e
IRQCAP_ELF=$ELF IRQCAP_GEN=$GEN IRQCAP_SRC=$ws/kernel IRQCAP_OUT=$RAW IRQCAP_HEADER=$HEADER \
IRQCAP_MAX=$MAX IRQCAP_SECS=$SECS IRQCAP_PORT=$PORT IRQCAP_FILTER=$FILTER IRQCAP_ENTRY_CLOCK=$ECLK IRQCAP_INJECT=$INJECT \
IRQCAP_STOP_ON="$STOP" IRQCAP_SERIAL=$TMP/serial IRQCAP_STOPFILE=$TMP/stop \
  timeout -s KILL $((SECS + 50)) gdb-multiarch -q -batch -nx -x "$HERE/irqcap.py" >"$TMP/gdb.log" 2>&1 &
GPID=$!
# A guest that halts at its end takes no more interrupts: watch the serial
# log and interrupt gdb (SIGINT stops the guest; irqcap.py then finishes).
while kill -0 "$GPID" 2>/dev/null; do
  if [ ! -e "$TMP/stop" ] && grep -aqE "$STOP" "$TMP/serial" 2>/dev/null; then
    sleep 2; touch "$TMP/stop"
    for p in $(pgrep -P "$GPID"); do kill -INT "$p" 2>/dev/null || true; done
  fi
  sleep 1
done
wait "$GPID"
grc=$?
set -e
t1=$(date +%s.%N)
kill "$QPID" 2>/dev/null || true
wait "$QPID" 2>/dev/null || true
QPID=
grep '^IRQCAP' "$TMP/gdb.log" >&2 || true
if [ $grc -ne 0 ] || grep -q '^IRQCAP error' "$TMP/gdb.log" || ! grep -q '^IRQCAP done' "$TMP/gdb.log"; then
  tail -20 "$TMP/gdb.log" >&2
  [ "$KEEP" = 1 ] && cp "$TMP/gdb.log" "$RAW.gdb.log" && cp "$TMP/serial" "$RAW.serial"
  die "[$WL] capture failed (gdb status $grc)"
fi
n=$(($(wc -l <"$RAW") - 1))
[ "$n" -gt 0 ] || die "[$WL] no records captured"
if [ "$KEEP" = 1 ]; then
  cp "$TMP/serial" "$RAW.serial"; cp "$TMP/gdb.log" "$RAW.gdb.log"
  gzip -9 -c "$RAW" >"$OUT"
else
  gzip -9 -f "$RAW"
  [ "$RAW.gz" = "$OUT" ] || mv "$RAW.gz" "$OUT"
fi
say "[$WL] $n records in $(python3 -c "print(round($t1 - $t0, 1))") s -> $OUT ($(du -k "$OUT" | cut -f1) KB)"
say "[$WL] guest serial (last lines):"
tail -3 "$TMP/serial" | sed 's/^/  | /' >&2 || true
