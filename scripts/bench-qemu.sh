#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The price of correctness (issue 22): sel4bench irquser on three kernels of
# one tree, in QEMU, in a deterministic unit.
#
# Kernels (seL4 at PR #1227's head, aarch64, MCS, release, qemu-arm-virt):
#   slowpath  KernelIRQFastpath=OFF
#   pr1227    KernelIRQFastpath=ON, the PR's fastpath_irq
#   fixed     KernelIRQFastpath=ON, fastpath_irq replaced at build time by
#             irqsim's corrected fastpath (real/glue/hk_fixed.c, inserted
#             by scripts/bench-qemu/kedit.py; nothing of the kernel is stored)
# each for GICv2 and GICv3 (QEMU virt gic-version=2/3; the PR tree builds
# qemu-arm-virt with GICv2 only: kedit.py makes the controller a CMake
# variable; on GICv3, bench-qemu/gicv3-fw.S does first what board firmware
# does, wake the redistributor and make the interrupts group 1) and for
# three situations:
#   switch    sel4bench irquser as it is (handler 254 above a spinner 253)
#   noswitch  the PR's variant (scripts/bench-qemu/irquser_noswitch.c:
#             handler 253 below a spinner 254 in another address space,
#             5 s budgets)
#   timer     the kernel's own timer IRQ under a lone spinner
#             (scripts/bench-qemu/irquser_timer.c): the fallback overhead
#             of a non-signal IRQ
#
# Unit: QEMU runs with -icount shift=S,sleep=off (S = IRQSIM_BENCH_SHIFT,
# default 3): the virtual clock advances exactly 2^S ns per guest
# instruction, and the PMU cycle counter that sel4bench reads
# (PMCCNTR_EL0) is QEMU's virtual clock at 1 GHz, so a difference of two
# reads is 2^S times the instructions executed in between; collect.py
# divides by 2^S. A run is deterministic (docs/results/irquser-qemu.md).
# S=3 makes the guest's 10 ms interrupt period 1.25 M instructions rather
# than 10 M: eight times less to emulate for the same samples.
#
# Usage: scripts/bench-qemu.sh [--no-apt] [--out FILE] [--fixes] [--only GLOB] [--list] [STEP...]
#   STEP  build | run | json | all (default all = build run json)
#         sel4test: the full sel4test suite (debug, MCS, the user-level
#         timer exported) on the fixed kernel for GICv2 and GICv3, in
#         QEMU (-icount); logs $W/out/sel4test-fixed-gic<N>.log, "All
#         is well" or the failing tests (IRQSIM_SEL4TEST_GICS="2 3")
#   --out FILE   JSON written by 'json' (default bench/irquser-qemu.json)
#   --fixes      also build the fixed kernel with each fix off alone
#                (kernel "fixed-no-<FIX>", HK_FIXED_OFF_<FIX>) and with one
#                clock read (fixed-one-clock, HK_FIXED_ONE_CLOCK): GICv2
#   --only GLOB  build and run: only the images whose name
#                (KERNEL-gicN-SITUATION, e.g. 'fixed-no-*', '*-gic2-*')
#                matches GLOB, so that two runs can share the work; a GLOB
#                that matches no image is refused (exit 2) with the names
#   --list       print the names of the images selected and stop
#   --no-apt     name missing Debian packages instead of installing them
# Environment: IRQSIM_SHARED (default ../shared), IRQSIM_BENCH_WORK
# (default ~/.cache/irqsim/bench-qemu: shared by every clone, as its
# builds take an hour; the build and sel4test steps hold WORK/.lock
# (flock) while they edit its sources, a run holds it shared, and each
# image's run its own lock, so concurrent runs wait rather than mix),
# IRQSIM_CAPTURE_JOBS (ninja -j, default 2), IRQSIM_BENCH_TIMEOUT
# (seconds per QEMU run, default 1800).
set -euo pipefail
# The whole script is one compound command, read before it runs: editing
# this file while a long run is under way does not change that run.
{

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SH=${IRQSIM_SHARED:-$(cd "$REPO/.." && pwd)/shared}
W=${IRQSIM_BENCH_WORK:-$HOME/.cache/irqsim/bench-qemu}
JOBS=${IRQSIM_CAPTURE_JOBS:-2}
TMO=${IRQSIM_BENCH_TIMEOUT:-1800}
SHIFT=${IRQSIM_BENCH_SHIFT:-3}
KERNEL=2b302023d38ad959e774eaf034945330cacb28b7   # refs/pull/1227/head
OUT=$REPO/bench/irquser-qemu.json

die() { echo "bench-qemu: error: $*" >&2; exit 1; }
say() { echo "bench-qemu: $*" >&2; }

apt=1 fixes=0 only='*' list=0 steps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-apt) apt=0 ;;
    --out) OUT=$(realpath -m "$2"); shift ;;
    --fixes) fixes=1 ;;
    --only) only=$2; shift ;;
    --list) list=1 ;;
    build|run|json|sel4test) steps+=("$1") ;;
    all) steps+=(build run json) ;;
    -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
[ ${#steps[@]} -gt 0 ] || steps=(build run json)
has() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

KERNELS=(slowpath pr1227 fixed)
SITUATIONS=(switch noswitch timer)
[ "$fixes" = 1 ] && KERNELS+=(fixed-no-entry-time fixed-no-entry-budget fixed-no-entry-domain fixed-no-entry-release
                              fixed-no-idle-switch fixed-no-cb-unblock fixed-no-deadline fixed-no-reprogram-flag
                              fixed-one-clock)
# every image the build makes, KERNEL-gicN-SITUATION (the fix variants on
# GICv2 only), and those --only selects: the build and the run take the same
selected() { # shellcheck disable=SC2254
  case "$1" in $only) return 0 ;; esac
  return 1
}
IMAGES=() SELECTED=()
for gic in 2 3; do
  for k in "${KERNELS[@]}"; do
    case "$k" in fixed-*) [ "$gic" = 2 ] || continue ;; esac
    for sit in "${SITUATIONS[@]}"; do
      IMAGES+=("$k-gic$gic-$sit")
      selected "$k-gic$gic-$sit" && SELECTED+=("$k-gic$gic-$sit")
    done
  done
done
if [ ${#SELECTED[@]} -eq 0 ]; then
  {
    echo "bench-qemu: error: --only '$only' matches no image; the images are:"
    printf '  %s\n' "${IMAGES[@]}"
    [ "$fixes" = 1 ] || echo "(--fixes adds fixed-no-<FIX>-gic2-* and fixed-one-clock-gic2-*)"
  } >&2
  exit 2
fi
if [ "$list" = 1 ]; then
  printf '%s\n' "${SELECTED[@]}"
  exit 0
fi

# lock_work ex|sh: hold WORK/.lock (fd 9) until the script ends, exclusive
# for the steps that edit the workspace's sources in place (kernel_variant,
# app_variant: two builds at once would compile each other's variant),
# shared for runs, which only read the images
lock_work() {
  mkdir -p "$W"
  exec 9>>"$W/.lock"
  local how=-x; [ "$1" = sh ] && how=-s
  flock -n $how 9 && return 0
  say "waiting for $W/.lock: another bench-qemu run is using $W"
  flock $how 9
}

PKGS=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-system-arm ipxe-qemu
      cmake ninja-build device-tree-compiler cpio libxml2-utils protobuf-compiler
      python3-jinja2 python3-ply python3-pyelftools python3-libarchive-c python3-lxml
      python3-six python3-future python3-yaml python3-protobuf python3-sortedcontainers
      python3-jsonschema)
install_pkgs() {
  local missing=() p
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$apt" = 1 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    die "missing Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})"
  fi
}

export PATH=/usr/bin:/bin:$PATH   # the build runs plain python3: Debian's
WS=$W/ws

wt() { # tarball name, directory, commit: extract once
  local name=$1 dir=$2 commit=$3 tb
  [ -d "$dir" ] && return 0
  if [ "$name" = seL4 ]; then tb="$SH/kernels/seL4-${commit:0:9}.tar.gz"
  else tb="$SH/sel4-workspace/$name-${commit:0:9}.tar.gz"; fi
  [ -f "$tb" ] || die "missing pinned tarball $tb"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  tar -xzf "$tb" -C "$dir.tmp" --strip-components=1
  mv "$dir.tmp" "$dir"
}

workspace() { # the sel4bench manifest's layout (scripts/capture/setup.sh)
  mkdir -p "$WS/projects" "$WS/tools"
  local pyfdt
  pyfdt=$(ls "$SH"/kernels/pyfdt-*.tar.gz 2>/dev/null | head -1) || true
  [ -n "$pyfdt" ] || die "missing $SH/kernels/pyfdt-*.tar.gz"
  [ -d "$W/pyfdt" ] || { mkdir -p "$W/pyfdt" && tar -xzf "$pyfdt" -C "$W/pyfdt" --strip-components=1; }
  wt seL4               "$WS/kernel"                      $KERNEL
  wt musllibc           "$WS/projects/musllibc"           9798aedbc3ee5fa3c1d7f788e9312df9203e7b0b
  wt seL4_libs          "$WS/projects/seL4_libs"          d74993182938128cab327c21bf63f4d91870d863
  wt seL4_projects_libs "$WS/projects/sel4_projects_libs" 97360824eebc80e9a68fef9ef699f3c0ff8bd792
  wt sel4runtime        "$WS/projects/sel4runtime"        bb75358167fe8bdc0e3df565bb419dc6eb150a60
  wt util_libs          "$WS/projects/util_libs"          ff7c25b7bcf8f812eecfa55d721912cf9c9654a3
  wt seL4_tools         "$WS/tools/seL4"                  8c660fd6d8ba60aa4c76d5c9586e3892502d8e0e
  wt nanopb             "$WS/tools/nanopb"                1466e6f953835b191a7f5acf0c06c941d4cd33d9
  wt projects_libs      "$WS/projects/projects_libs"      1e7f0b6ec0405b3288c606fd7e782660ace4aa07
  wt sel4bench          "$WS/projects/sel4bench"          0594cd5c5e744cad2a1823d37832c9b6eebf8495
  ln -sfn tools/seL4/cmake-tool/init-build.sh "$WS/init-build.sh"
  ln -sfn projects/sel4bench/easy-settings.cmake "$WS/easy-settings.cmake"
  ln -sfn tools/nanopb "$WS/nanopb"
  local mk="$WS/projects/musllibc/Makefile"   # binutils 2.40: see setup.sh
  if ! grep -q -- '--disable-visibility' "$mk"; then
    sed -i 's/--disable-shared --enable-static$/--disable-shared --enable-static --disable-visibility/' "$mk"
    grep -q -- '--disable-visibility' "$mk" || die "could not patch $mk"
  fi
  # pristine copies of the two files the variants rewrite
  local f
  for f in kernel/src/fastpath/fastpath.c projects/sel4bench/apps/irquser/src/main.c; do
    [ -f "$WS/$f.orig" ] || cp -p "$WS/$f" "$WS/$f.orig"
  done
  python3 "$HERE/bench-qemu/kedit.py" gic "$WS/kernel/src/plat/qemu-arm-virt/config.cmake" ||
    die "cannot make the GIC version selectable in the kernel's qemu-arm-virt config"
}

put() { # new content file, target: replace only if different (keeps ninja quiet)
  cmp -s "$1" "$2" || cp "$1" "$2"
  rm -f "$1"
}

kernel_variant() { # pr1227 | fixed | fixed-no-<FIX>
  local fp=$WS/kernel/src/fastpath/fastpath.c tmp=$W/fastpath.c.new defs=()
  cp "$WS/kernel/src/fastpath/fastpath.c.orig" "$tmp"
  case "$1" in
    pr1227) ;;
    fixed) python3 "$HERE/bench-qemu/kedit.py" fixed "$tmp" "$REPO/real/glue/hk_fixed.c" || die "kedit fixed failed" ;;
    fixed-no-*|fixed-one-clock)
      defs=("HK_FIXED_OFF_$(echo "${1#fixed-no-}" | tr a-z- A-Z_)")
      [ "$1" = fixed-one-clock ] && defs=(HK_FIXED_ONE_CLOCK)
      python3 "$HERE/bench-qemu/kedit.py" fixed "$tmp" "$REPO/real/glue/hk_fixed.c" "${defs[@]}" || die "kedit fixed failed" ;;
    *) die "unknown kernel variant $1" ;;
  esac
  put "$tmp" "$fp"
}

app_variant() { # switch | noswitch | timer
  local m=$WS/projects/sel4bench/apps/irquser/src/main.c tmp=$W/main.c.new
  case "$1" in
    switch) cp "$m.orig" "$tmp" ;;
    noswitch) cp "$HERE/bench-qemu/irquser_noswitch.c" "$tmp" ;;
    timer) cp "$HERE/bench-qemu/irquser_timer.c" "$tmp" ;;
  esac
  put "$tmp" "$m"
}

dtb() { # gic version -> the DTB QEMU makes for that machine
  local f=$W/virt-gic$1.dtb
  [ -s "$f" ] || qemu-system-aarch64 -machine "virt,secure=off,gic-version=$1,dumpdtb=$f" \
    -cpu cortex-a53 -smp 1 -m 1024 -nographic >/dev/null 2>&1 || true
  [ -s "$f" ] || die "qemu-system-aarch64 could not dump the gic-version=$1 DTB"
  echo "$f"
}

configure() { # build dir, irq fastpath ON/OFF, gic
  local bd=$1 irqfp=$2 gic=$3
  [ -f "$bd/build.ninja" ] && grep -q array-bounds "$bd/CMakeCache.txt" && return 0
  mkdir -p "$bd"
  local v3=OFF; [ "$gic" = 3 ] && v3=ON
  say "configuring $bd"
  (cd "$bd" && "$WS/init-build.sh" -DPLATFORM=qemu-arm-virt -DAARCH64=1 -DRELEASE=ON -DMCS=ON \
      -DFASTPATH=ON -DKernelIRQFastpath="$irqfp" -DIRQUSER=ON -DIPC=OFF -DSCHED=OFF -DSIGNAL=OFF \
      -DMAPPING=OFF -DSYNC=OFF -DKernelArmExportPCNTUser=ON -DKernelArmExportPTMRUser=ON \
      -DKernelArmExportPMUUser=ON -DCMAKE_C_FLAGS=-Wno-error=array-bounds -DKernelArmGicV3="$v3" -DIRQSIM_QEMU_GIC="gic_v$gic" \
      -DQEMU_DTB="$(dtb "$gic")" >"$bd/configure.log" 2>&1) ||
    { tail -30 "$bd/configure.log" >&2; rm -f "$bd/build.ninja"; die "configure failed: $bd/configure.log"; }
}

build_one() { # build dir, kernel, gic, situation -> $W/images/<kernel>-gic<gic>-<situation>
  local bd=$1 k=$2 gic=$3 sit=$4 t0=$SECONDS
  local img=$W/images/$k-gic$gic-$sit stamp
  # an image is rebuilt when what it is made of changed: irqsim's inputs
  # (content, not time) and the build directory's configuration
  stamp=$( { echo "$k $gic $sit"; cat "$REPO/real/glue/hk_fixed.c" "$HERE/bench-qemu/kedit.py";
             [ "$sit" = switch ] || cat "$HERE/bench-qemu/irquser_$sit.c";
             sed -n 's/^#define CONFIG_\(IRQ_FASTPATH\|ARM_GIC_V3_SUPPORT\) .*/&/p' "$bd/kernel/gen_config/kernel/gen_config.h" 2>/dev/null; } |
           sha256sum | cut -c1-16)
  [ -f "$img" ] && [ "$(cat "$img.inputs" 2>/dev/null)" = "$stamp" ] && return 0
  [ "$k" = slowpath ] || kernel_variant "$k"
  app_variant "$sit"
  say "[$k gic$gic $sit] ninja -j$JOBS (log $bd/build.log)"
  (cd "$bd" && ninja -j"$JOBS" >"$bd/build.log" 2>&1) ||
    { tail -40 "$bd/build.log" >&2; die "[$k gic$gic $sit] build failed: $bd/build.log"; }
  local want=1; [ "$k" = slowpath ] && want=0
  if [ $want = 1 ]; then
    grep -q '#define CONFIG_IRQ_FASTPATH  *1' "$bd/kernel/gen_config/kernel/gen_config.h" || die "$bd: CONFIG_IRQ_FASTPATH is not 1"
  else
    ! grep -q '#define CONFIG_IRQ_FASTPATH  *1' "$bd/kernel/gen_config/kernel/gen_config.h" || die "$bd: CONFIG_IRQ_FASTPATH is set"
  fi
  # the kernel compiled is the one asked for (the corrected fastpath is in
  # the preprocessed translation unit of a fixed kernel only)
  local kall=$bd/kernel/kernel_all.i
  case "$k" in
    fixed*) grep -q 'fastpath_irq_corrected' "$kall" || die "$bd: $k kernel without fastpath_irq_corrected" ;;
    *) ! grep -q 'fastpath_irq_corrected' "$kall" || die "$bd: $k kernel contains the corrected fastpath" ;;
  esac
  if [ "$gic" = 3 ]; then
    grep -q '#define CONFIG_ARM_GIC_V3_SUPPORT  *1' "$bd/kernel/gen_config/kernel/gen_config.h" || die "$bd: not a GICv3 kernel"
  fi
  mkdir -p "$W/images"
  cp "$(ls "$bd"/images/*-image-arm-qemu-arm-virt | head -1)" "$img"
  echo "$stamp" >"$img.inputs"
  say "[$k gic$gic $sit] built in $((SECONDS - t0)) s"
}

if has build; then
  lock_work ex
  install_pkgs
  [ -d "$SH/kernels" ] && [ -d "$SH/sel4-workspace" ] || die "pinned sources not found under $SH"
  export PYTHONPATH=$W/pyfdt
  workspace
  for gic in 2 3; do
    for k in "${KERNELS[@]}"; do
      case "$k" in fixed-*) [ "$gic" = 2 ] || continue ;; esac
      sits=()
      for sit in "${SITUATIONS[@]}"; do selected "$k-gic$gic-$sit" && sits+=("$sit"); done
      [ ${#sits[@]} -gt 0 ] || continue
      irqfp=ON bd=$W/build-fp-gic$gic
      [ "$k" = slowpath ] && { irqfp=OFF; bd=$W/build-slow-gic$gic; }
      configure "$bd" "$irqfp" "$gic"
      for sit in "${sits[@]}"; do build_one "$bd" "$k" "$gic" "$sit"; done
    done
  done
  # leave the workspace as extracted (plus the GIC variable)
  kernel_variant pr1227; app_variant switch
fi

fw_opts() { # gic, image -> the QEMU options that boot it (GICv3: gicv3-fw.S first)
  [ "$1" = 3 ] || return 0
  local entry stub
  stub=$W/fw/$(basename "$2").bin
  entry=$(aarch64-linux-gnu-readelf -h "$2" | sed -n 's/^ *Entry point address: *//p')
  [ -n "$entry" ] || die "no entry point in $2"
  mkdir -p "$W/fw"
  aarch64-linux-gnu-as --defsym ENTRY="$entry" "$HERE/bench-qemu/gicv3-fw.S" -o "$stub.o" &&
    aarch64-linux-gnu-objcopy -O binary "$stub.o" "$stub" || die "cannot assemble gicv3-fw.S"
  # CPU 0 starts at the stub (loaded 128 MiB into RAM, clear of the
  # elfloader's and the kernel's images), which jumps to the elfloader
  echo "-device loader,file=$stub,addr=0x48000000,cpu-num=0"
}

run_one() { # image -> $W/out/<name>.log (the serial output)
  local img=$1 name gic log
  name=$(basename "$img"); gic=${name#*-gic}; gic=${gic%%-*}
  log=$W/out/$name.log
  local stamp
  stamp="$(cat "$img.inputs") shift=$SHIFT"
  [ "$gic" = 3 ] && stamp="$stamp fw=$(sha256sum <"$HERE/bench-qemu/gicv3-fw.S" | cut -c1-16)"
  # one run of an image at a time (fd 8): a second waits, then finds its log
  mkdir -p "$W/out"
  exec 8>>"$log.lock"
  flock 8
  [ -f "$log" ] && [ "$(cat "$log.inputs" 2>/dev/null)" = "$stamp" ] &&
    grep -q 'END JSON OUTPUT' "$log" && { exec 8>&-; return 0; }
  say "[$name] running in QEMU (-icount shift=$SHIFT,sleep=off)"
  local t0=$SECONDS
  rm -f "$log.tmp"
  local fw
  fw=$(fw_opts "$gic" "$img")
  # shellcheck disable=SC2086
  timeout -s KILL "$TMO" qemu-system-aarch64 -machine "virt,secure=off,gic-version=$gic" \
    -cpu cortex-a53 -smp 1 -m 1024 -icount shift="$SHIFT",sleep=off -display none -monitor none \
    -serial file:"$log.tmp" -no-reboot -kernel "$img" $fw </dev/null >"$log.qemu" 2>&1 &
  local qpid=$!
  while kill -0 "$qpid" 2>/dev/null; do
    grep -q 'All is well in the universe' "$log.tmp" 2>/dev/null && break
    sleep 2
  done
  kill "$qpid" 2>/dev/null || true
  wait "$qpid" 2>/dev/null || true
  grep -q 'END JSON OUTPUT' "$log.tmp" || { tail -20 "$log.tmp" >&2; die "[$name] no JSON output (log $log.tmp)"; }
  mv "$log.tmp" "$log"
  echo "$stamp" >"$log.inputs"
  exec 8>&-
  say "[$name] done in $((SECONDS - t0)) s"
}

if has run; then
  lock_work sh
  command -v qemu-system-aarch64 >/dev/null || die "qemu-system-aarch64 not found (run the build step first)"
  for img in "$W"/images/*; do
    case "$img" in *.inputs) continue ;; esac
    selected "$(basename "$img")" || continue
    [ -f "$img.inputs" ] || die "$img has no .inputs stamp: rebuild it (build step)"
    run_one "$img"
  done
fi

sel4test_ws() { # a sel4test workspace whose kernel has the corrected fastpath
  local t=$W/test-ws
  mkdir -p "$t/projects" "$t/tools"
  wt seL4               "$t/kernel"                      $KERNEL
  wt musllibc           "$t/projects/musllibc"           9798aedbc3ee5fa3c1d7f788e9312df9203e7b0b
  wt seL4_libs          "$t/projects/seL4_libs"          d74993182938128cab327c21bf63f4d91870d863
  wt seL4_projects_libs "$t/projects/sel4_projects_libs" 97360824eebc80e9a68fef9ef699f3c0ff8bd792
  wt sel4runtime        "$t/projects/sel4runtime"        bb75358167fe8bdc0e3df565bb419dc6eb150a60
  wt util_libs          "$t/projects/util_libs"          ff7c25b7bcf8f812eecfa55d721912cf9c9654a3
  wt seL4_tools         "$t/tools/seL4"                  8c660fd6d8ba60aa4c76d5c9586e3892502d8e0e
  wt nanopb             "$t/tools/nanopb"                1466e6f953835b191a7f5acf0c06c941d4cd33d9
  wt sel4test           "$t/projects/sel4test"           e0cb8031d586fec78dc949d4c284a545dbfec93d
  ln -sfn tools/seL4/cmake-tool/init-build.sh "$t/init-build.sh"
  ln -sfn projects/sel4test/easy-settings.cmake "$t/easy-settings.cmake"
  local mk="$t/projects/musllibc/Makefile"
  grep -q -- '--disable-visibility' "$mk" ||
    sed -i 's/--disable-shared --enable-static$/--disable-shared --enable-static --disable-visibility/' "$mk"
  python3 "$HERE/bench-qemu/kedit.py" gic "$t/kernel/src/plat/qemu-arm-virt/config.cmake" || die "kedit gic failed"
  # edit the tarball's fastpath.c every time: kedit.py leaves an edited
  # file alone, so editing in place kept the #include path of the first
  # checkout that ran this (another worktree's hk_fixed.c, or none)
  local fp=$t/kernel/src/fastpath/fastpath.c tmp=$W/fastpath-test.c.new
  tar -xzOf "$SH/kernels/seL4-${KERNEL:0:9}.tar.gz" --wildcards '*/src/fastpath/fastpath.c' >"$tmp" ||
    die "cannot read src/fastpath/fastpath.c from the kernel tarball"
  python3 "$HERE/bench-qemu/kedit.py" fixed "$tmp" "$REPO/real/glue/hk_fixed.c" || die "kedit fixed failed"
  put "$tmp" "$fp"
}

if has sel4test; then
  lock_work ex
  install_pkgs
  export PYTHONPATH=$W/pyfdt
  workspace   # pyfdt and the DTBs
  sel4test_ws
  for gic in ${IRQSIM_SEL4TEST_GICS:-2 3}; do
    bd=$W/test-fixed-gic$gic
    v3=OFF; [ "$gic" = 3 ] && v3=ON
    if [ ! -f "$bd/build.ninja" ]; then
      mkdir -p "$bd"
      say "configuring $bd"
      (cd "$bd" && "$W/test-ws/init-build.sh" -DPLATFORM=qemu-arm-virt -DAARCH64=1 -DMCS=TRUE \
          -DSIMULATION=TRUE -DRELEASE=FALSE -DKernelIRQFastpath=ON -DKernelArmExportPCNTUser=ON \
          -DKernelArmExportPTMRUser=ON -DKernelArmGicV3="$v3" -DIRQSIM_QEMU_GIC="gic_v$gic" \
          -DQEMU_DTB="$(dtb "$gic")" >"$bd/configure.log" 2>&1) ||
        { tail -30 "$bd/configure.log" >&2; rm -f "$bd/build.ninja"; die "configure failed: $bd/configure.log"; }
    fi
    say "[sel4test fixed gic$gic] ninja -j$JOBS (log $bd/build.log)"
    (cd "$bd" && ninja -j"$JOBS" >"$bd/build.log" 2>&1) || { tail -30 "$bd/build.log" >&2; die "sel4test build failed: $bd/build.log"; }
    grep -q 'fastpath_irq_corrected' "$bd/kernel/kernel_all.i" || die "$bd: kernel without the corrected fastpath"
    grep -qF "\"$REPO/real/glue/hk_fixed.c\"" "$bd/kernel/kernel_all.i" || die "$bd: kernel not built from $REPO/real/glue/hk_fixed.c"
    grep -q '#define CONFIG_IRQ_FASTPATH  *1' "$bd/kernel/gen_config/kernel/gen_config.h" || die "$bd: CONFIG_IRQ_FASTPATH is not 1"
    log=$W/out/sel4test-fixed-gic$gic.log
    mkdir -p "$W/out"
    say "[sel4test fixed gic$gic] running in QEMU (log $log)"
    rm -f "$log"
    img=$(ls "$bd"/images/sel4test-driver-image-arm-qemu-arm-virt)
    fw=$(fw_opts "$gic" "$img")
    # -icount: guest time follows the instructions executed, so the
    # timing tests (SCHED0011's accuracy) do not depend on the host's load
    # shellcheck disable=SC2086
    timeout -s KILL "$TMO" qemu-system-aarch64 -machine "virt,secure=off,gic-version=$gic" \
      -cpu cortex-a53 -smp 1 -m 1024 -icount shift="$SHIFT",sleep=off -display none -monitor none \
      -serial file:"$log" -no-reboot -kernel "$img" $fw </dev/null >"$log.qemu" 2>&1 &
    qpid=$!
    while kill -0 "$qpid" 2>/dev/null; do
      grep -qE 'All is well in the universe|Test suite failed|halting|FAILED' "$log" 2>/dev/null && { sleep 2; break; }
      sleep 3
    done
    kill "$qpid" 2>/dev/null || true
    wait "$qpid" 2>/dev/null || true
    if grep -q 'All is well in the universe' "$log"; then
      say "[sel4test fixed gic$gic] $(grep -c '^Starting test' "$log") tests started; All is well in the universe"
    else
      tail -20 "$log" >&2
      say "[sel4test fixed gic$gic] did NOT pass (log $log)"
    fi
  done
fi

if has json; then
  mkdir -p "$(dirname "$OUT")"
  python3 "$HERE/bench-qemu/collect.py" "$W/out" "$OUT" || die "collect.py failed"
  say "wrote $OUT"
fi
exit 0
}
