#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds the seL4 systems whose interrupt path scripts/capture/capture.sh
# records: PR #1227 head (aarch64, MCS, debug, qemu-arm-virt,
# KernelIRQFastpath=ON) with
#   test      sel4test, only the INTERRUPT/TIMER tests, user-level timer IRQ 30
#   bench     sel4bench irquser (the PR's benchmark: spinner + handler thread)
#   bench-eq  the same with the handler ("ticker") at the spinner's priority
#   app       irqsim's own coverage workload (scripts/capture/app/)
#   app-dom   the same app on a kernel with two domains (KernelNumDomains=2,
#             the schedule scripts/capture/app/domain_schedule.c)
#   app-vtable  the app's vtable phase only (an empty VTable slot: the
#             debug kernel halts; run it without capture, docs/TRACES.md)
#   app-wl=FILE.wl  the root task scripts/capture/wl2app.py generates from
#             an irqsim workload file (its own workspace, app-wl-ws, and
#             build directory, build-app-wl; each call replaces the last;
#             options for wl2app.py in $WL2APP_OPTS, e.g. --offset-us=200)
#
# Usage: scripts/capture/setup.sh [--no-apt] [test|bench|bench-eq|app|app-dom|app-vtable|app-wl=FILE.wl|all]...
#        (default: all = every target but app-vtable)
#
# Sources: the pinned tarballs in $IRQSIM_SHARED (default ../shared beside
# the checkout): kernels/ (seL4 at the PR head, pyfdt) and sel4-workspace/
# (the sel4test/sel4bench manifests of 2024-04-11). They are extracted into
# the work directory $IRQSIM_CAPTURE_WORK (default ~/.cache/irqsim/capture),
# never into the repository. Nothing is fetched from the network except
# Debian packages (installed with apt-get when run as root, else named).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SH=${IRQSIM_SHARED:-$(cd "$REPO/.." && pwd)/shared}
W=${IRQSIM_CAPTURE_WORK:-$HOME/.cache/irqsim/capture}
JOBS=${IRQSIM_CAPTURE_JOBS:-2}
KERNEL=2b302023d38ad959e774eaf034945330cacb28b7   # refs/pull/1227/head

die() { echo "capture/setup: error: $*" >&2; exit 1; }
say() { echo "capture/setup: $*" >&2; }

apt=1
targets=()
WLFILE=
for a in "$@"; do
  case "$a" in
    --no-apt) apt=0 ;;
    test|bench|bench-eq|app|app-dom|app-vtable) targets+=("$a") ;;
    all) targets+=(test bench bench-eq app app-dom) ;;
    app-wl=*) targets+=(app-wl); WLFILE=$(realpath "${a#app-wl=}") ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) die "unknown argument '$a' (expected test, bench, bench-eq, app, app-dom, app-vtable, all or --no-apt)" ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(test bench bench-eq app app-dom)

# ---- Debian packages (the brief's list plus ipxe-qemu and protobuf-compiler,
# which the proof of concept found necessary)
PKGS=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-system-arm ipxe-qemu gdb-multiarch
      cmake ninja-build device-tree-compiler cpio libxml2-utils protobuf-compiler
      python3-jinja2 python3-ply python3-pyelftools python3-libarchive-c python3-lxml
      python3-six python3-future python3-yaml python3-protobuf python3-sortedcontainers
      python3-jsonschema gzip)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$apt" = 1 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing Debian packages: ${missing[*]}"
    die "install them with: sudo apt-get install ${missing[*]}  (or run this script as root)"
  fi
fi

# ---- sources
[ -d "$SH/kernels" ] && [ -d "$SH/sel4-workspace" ] ||
  die "pinned sources not found: $SH/kernels and $SH/sel4-workspace (set IRQSIM_SHARED)"
need_tar() { [ -f "$1" ] || die "missing pinned tarball $1"; }

mkdir -p "$W"
# The build runs plain "python3"; it must be Debian's (a pyenv/venv shim lacks
# the dist-packages): PATH starts with /usr/bin.
export PATH=/usr/bin:/bin:$PATH
PYFDT=$(ls "$SH"/kernels/pyfdt-*.tar.gz 2>/dev/null | head -1) || true
[ -n "$PYFDT" ] || die "missing $SH/kernels/pyfdt-*.tar.gz (the kernel's device.py imports pyfdt)"
if [ ! -d "$W/pyfdt" ]; then
  mkdir -p "$W/pyfdt" && tar -xzf "$PYFDT" -C "$W/pyfdt" --strip-components=1
fi
export PYTHONPATH=$W/pyfdt

wt() { # repo name, checkout path, commit: extract the pinned tarball once
  local name=$1 dir=$2 commit=$3 tb
  [ -d "$dir" ] && return 0
  if [ "$name" = seL4 ]; then tb="$SH/kernels/seL4-${commit:0:9}.tar.gz"
  else tb="$SH/sel4-workspace/$name-${commit:0:9}.tar.gz"; fi
  need_tar "$tb"
  mkdir -p "$dir.tmp"
  tar -xzf "$tb" -C "$dir.tmp" --strip-components=1
  mv "$dir.tmp" "$dir"
}

common() { # $1 = workspace, laid out as the repo manifests do
  local ws=$1
  mkdir -p "$ws/projects" "$ws/tools"
  wt seL4               "$ws/kernel"                      $KERNEL
  wt musllibc           "$ws/projects/musllibc"           9798aedbc3ee5fa3c1d7f788e9312df9203e7b0b
  wt seL4_libs          "$ws/projects/seL4_libs"          d74993182938128cab327c21bf63f4d91870d863
  wt seL4_projects_libs "$ws/projects/sel4_projects_libs" 97360824eebc80e9a68fef9ef699f3c0ff8bd792
  wt sel4runtime        "$ws/projects/sel4runtime"        bb75358167fe8bdc0e3df565bb419dc6eb150a60
  wt util_libs          "$ws/projects/util_libs"          ff7c25b7bcf8f812eecfa55d721912cf9c9654a3
  wt seL4_tools         "$ws/tools/seL4"                  8c660fd6d8ba60aa4c76d5c9586e3892502d8e0e
  wt nanopb             "$ws/tools/nanopb"                1466e6f953835b191a7f5acf0c06c941d4cd33d9
  ln -sfn tools/seL4/cmake-tool/init-build.sh "$ws/init-build.sh"
  # binutils 2.40 (Debian 12) rejects musl's protected-visibility copy
  # relocations ("copy relocation against non-copyable protected symbol
  # `__stdin_used'"): build musl with --disable-visibility.
  local mk="$ws/projects/musllibc/Makefile"
  if ! grep -q -- '--disable-visibility' "$mk"; then
    sed -i 's/--disable-shared --enable-static$/--disable-shared --enable-static --disable-visibility/' "$mk"
    grep -q -- '--disable-visibility' "$mk" || die "could not patch $mk (configure line not found)"
  fi
}

# The kernel commit recorded by git-archive in the tarball, checked against the pin.
kcommit=$(gzip -dc "$SH/kernels/seL4-${KERNEL:0:9}.tar.gz" | git get-tar-commit-id 2>/dev/null || true)
[ -z "$kcommit" ] || [ "$kcommit" = "$KERNEL" ] || die "kernel tarball is commit $kcommit, expected $KERNEL"

COMMON_OPTS=(-DPLATFORM=qemu-arm-virt -DAARCH64=1 -DKernelIRQFastpath=ON
             -DKernelArmExportPCNTUser=ON -DKernelArmExportPTMRUser=ON)

build() { # name, workspace, init-build options...
  local name=$1 ws=$2; shift 2
  local bd="$W/build-$name" t0=$SECONDS
  mkdir -p "$bd"
  if [ ! -f "$bd/build.ninja" ]; then
    say "[$name] configuring in $bd"
    (cd "$bd" && "$ws/init-build.sh" "${COMMON_OPTS[@]}" "$@" >"$bd/configure.log" 2>&1) ||
      { tail -30 "$bd/configure.log" >&2; die "[$name] configure failed, log: $bd/configure.log"; }
  fi
  say "[$name] building with ninja -j$JOBS (a few minutes; log: $bd/build.log)"
  (cd "$bd" && ninja -j"$JOBS" >"$bd/build.log" 2>&1) ||
    { tail -30 "$bd/build.log" >&2; die "[$name] build failed, log: $bd/build.log"; }
  grep -q '#define CONFIG_IRQ_FASTPATH  *1' "$bd/kernel/gen_config/kernel/gen_config.h" ||
    die "[$name] CONFIG_IRQ_FASTPATH is not 1 in the built kernel's gen_config.h"
  local img
  img=$(ls "$bd"/images/*-image-arm-qemu-arm-virt 2>/dev/null | head -1)
  [ -n "$img" ] || die "[$name] no image in $bd/images"
  echo "$KERNEL" >"$bd/kernel-commit"
  say "[$name] built $img in $((SECONDS - t0)) s"
  echo "$name $((SECONDS - t0))" >>"$W/build-times.txt"
}

for t in "${targets[@]}"; do
  case "$t" in
    test)
      ws=$W/sel4test-ws
      common "$ws"
      wt sel4test "$ws/projects/sel4test" e0cb8031d586fec78dc949d4c284a545dbfec93d
      ln -sfn projects/sel4test/easy-settings.cmake "$ws/easy-settings.cmake"
      # Only the INTERRUPT/TIMER tests: the full suite spends minutes in VSPACE0006.
      build test "$ws" -DMCS=TRUE -DSIMULATION=TRUE -DRELEASE=FALSE \
        -DLibSel4TestPrinterRegex='INTERRUPT.*|TIMER.*'
      ;;
    bench|bench-eq)
      ws=$W/sel4bench-ws
      [ "$t" = bench-eq ] && ws=$W/sel4bench-eq-ws
      common "$ws"
      wt projects_libs "$ws/projects/projects_libs" 1e7f0b6ec0405b3288c606fd7e782660ace4aa07
      wt sel4bench     "$ws/projects/sel4bench"     0594cd5c5e744cad2a1823d37832c9b6eebf8495
      ln -sfn projects/sel4bench/easy-settings.cmake "$ws/easy-settings.cmake"
      ln -sfn tools/nanopb "$ws/nanopb"   # sel4bench's settings look for <ws>/nanopb
      if [ "$t" = bench-eq ]; then
        # The handler thread ("ticker") at the spinner's priority, so that an
        # IRQ that wakes it appends it behind the spinner (fastpath "append").
        m=$ws/projects/sel4bench/apps/irquser/src/main.c
        if ! grep -q 'irqsim: equal prio' "$m"; then
          sed -i 's|benchmark_configure_thread(env, endpoint.cptr, seL4_MaxPrio - 1, "ticker", &ticker);|benchmark_configure_thread(env, endpoint.cptr, seL4_MaxPrio - 2, "ticker", \&ticker); /* irqsim: equal prio */|' "$m"
          grep -q 'irqsim: equal prio' "$m" || die "could not apply the equal-priority change to $m"
        fi
      fi
      build "$t" "$ws" -DMCS=ON -DRELEASE=OFF -DFASTPATH=ON \
        -DIPC=OFF -DSCHED=OFF -DSIGNAL=OFF -DMAPPING=OFF -DSYNC=OFF -DIRQUSER=ON
      ;;
    app|app-dom|app-vtable)
      ws=$W/app-ws
      common "$ws"
      [ -f "$HERE/app/CMakeLists.txt" ] || die "missing $HERE/app/CMakeLists.txt"
      # our own sources, copied (init-build.sh resolves the project directory
      # through easy-settings.cmake, which must stay inside the workspace)
      rm -rf "$ws/projects/irqcov" && cp -r "$HERE/app" "$ws/projects/irqcov"
      ln -sfn projects/irqcov/settings.cmake "$ws/easy-settings.cmake"
      if [ "$t" = app ]; then
        build app "$ws" -DMCS=ON -DRELEASE=OFF -DSIMULATION=TRUE
      elif [ "$t" = app-vtable ]; then
        build app-vtable "$ws" -DMCS=ON -DRELEASE=OFF -DSIMULATION=TRUE -DIrqcovVTableHalt=ON
      else
        build app-dom "$ws" -DMCS=ON -DRELEASE=OFF -DSIMULATION=TRUE -DKernelNumDomains=2 \
          -DKernelDomainSchedule="$ws/projects/irqcov/domain_schedule.c"
        grep -q '#define CONFIG_NUM_DOMAINS  *2' "$W/build-app-dom/kernel/gen_config/kernel/gen_config.h" ||
          die "[app-dom] CONFIG_NUM_DOMAINS is not 2 in the built kernel's gen_config.h"
      fi
      ;;
    app-wl)
      [ -f "$WLFILE" ] || die "app-wl: no workload file '$WLFILE'"
      ws=$W/app-wl-ws
      common "$ws"
      rm -rf "$ws/projects/irqcov.new" && cp -r "$HERE/app" "$ws/projects/irqcov.new"
      nd=$(python3 "$HERE/wl2app.py" ${WL2APP_OPTS:-} --dom-out "$ws/projects/irqcov.new/src/wl_domain_schedule.c" \
             "$WLFILE" "$ws/projects/irqcov.new/src/workload.c") || die "app-wl: wl2app.py cannot generate $WLFILE"
      nd=${nd#domains }
      # keep the old copy's timestamps where nothing changed (a rebuild, not a reconfigure)
      if [ -d "$ws/projects/irqcov" ]; then
        for f in $(cd "$ws/projects/irqcov.new" && find . -type f); do
          cmp -s "$ws/projects/irqcov.new/$f" "$ws/projects/irqcov/$f" || cp "$ws/projects/irqcov.new/$f" "$ws/projects/irqcov/$f"
        done
        rm -rf "$ws/projects/irqcov.new"
      else
        mv "$ws/projects/irqcov.new" "$ws/projects/irqcov"
      fi
      ln -sfn projects/irqcov/settings.cmake "$ws/easy-settings.cmake"
      # the workload's domain schedule (if any) is the kernel's: an existing
      # build directory is reconfigured when it changes
      domopts=(-DKernelNumDomains="$nd" -DKernelDomainSchedule="$ws/kernel/src/config/default_domain.c")
      [ "$nd" -gt 1 ] && domopts=(-DKernelNumDomains="$nd" -DKernelDomainSchedule="$ws/projects/irqcov/src/wl_domain_schedule.c")
      if [ -f "$W/build-app-wl/build.ninja" ]; then
        (cd "$W/build-app-wl" && cmake "${domopts[@]}" . >"$W/build-app-wl/reconfigure.log" 2>&1) ||
          die "app-wl: reconfigure failed, log: $W/build-app-wl/reconfigure.log"
      fi
      build app-wl "$ws" -DMCS=ON -DRELEASE=OFF -DSIMULATION=TRUE -DIrqcovWorkload=ON "${domopts[@]}"
      grep -q "#define CONFIG_NUM_DOMAINS  *$nd\b" "$W/build-app-wl/kernel/gen_config/kernel/gen_config.h" ||
        die "[app-wl] CONFIG_NUM_DOMAINS is not $nd in the built kernel's gen_config.h"
      echo "$(basename "$WLFILE")${WL2APP_OPTS:+ $WL2APP_OPTS}" >"$W/build-app-wl/workload-file"
      ;;
  esac
done
say "done; work directory $W"
