#!/bin/bash
# build-kernel.sh: build a seL4 tree's own C code for the host, as a shared
# object (hostkernel.so) that irqsim loads to run one interrupt through the
# real slowpath or the real fastpath_irq (trees with PR #1227), or one
# seL4_Signal through the real signal fastpath or the real syscall slowpath.
#
#   build-kernel.sh --sel4 DIR|TARBALL [--board B] [--domains N] [--cores N]
#                   [--debug] [--cache DIR] [--pyfdt DIR|TARBALL] [--force]
#
# The kernel's own CMake configure (with the host gcc as its compiler) gives
# the generated headers and the single-translation-unit file list
# (kernel_all.c); the files of that list are compiled with irqsim's shim
# headers (real/shim/include) in front and irqsim's glue (real/glue)
# appended. Inline asm that is left after the shim is deleted from gcc's
# output; every deleted site must be on real/known-asm-sites.txt or the
# build fails. Builds are cached by tree content + configuration + the shim.
# The last line of stdout is the build directory (hostkernel.so, kernel.info).
# Exit status: 0 built (or cached), 1 failed, 3 a prerequisite is missing.
#
# SPDX-License-Identifier: BSD-2-Clause
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KERNELS_DIR=${IRQSIM_KERNELS_DIR:-$HERE/../../shared/kernels}

die() { echo "build-kernel: $*" >&2; exit 1; }
# a missing prerequisite (package, pyfdt, tree): exit 3, so a test can skip
missing() { echo "build-kernel: $*" >&2; exit 3; }
note() { echo "build-kernel: $*" >&2; }

SEL4="" BOARD=imx8mm-evk DOMAINS=1 CORES=1 DEBUG=0 FORCE=0 PYFDT=""
CACHE=${IRQSIM_KERNEL_CACHE:-$HOME/.cache/irqsim/kernels}
while [ $# -gt 0 ]; do
    case "$1" in
        --sel4) SEL4=$2; shift 2 ;;
        --board) BOARD=$2; shift 2 ;;
        --domains) DOMAINS=$2; shift 2 ;;
        --cores) CORES=$2; shift 2 ;;
        --debug) DEBUG=1; shift ;;
        --release) DEBUG=0; shift ;;
        --cache) CACHE=$2; shift 2 ;;
        --pyfdt) PYFDT=$2; shift 2 ;;
        --force) FORCE=1; shift ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[ -n "$SEL4" ] || die "--sel4 DIR|TARBALL is required (a seL4 checkout or a tarball of one)"
[[ "$DOMAINS" =~ ^[0-9]+$ ]] && [ "$DOMAINS" -ge 1 ] && [ "$DOMAINS" -le 16 ] || die "--domains must be 1..16"
[ "$CORES" = 1 ] || [ "$CORES" = 2 ] || die "--cores must be 1 or 2"
[ "$CORES" = 1 ] || [ "$DOMAINS" = 1 ] || die "the kernel allows more than one core only with one domain"

# ---- host tools: Debian package names, so a user knows what to install ----
export PATH=/usr/bin:/bin:$PATH   # the kernel's CMake must find Debian's python3
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing "missing $1: install the Debian package $2 (apt-get install $2)"; }
need_cmd gcc gcc
need_cmd objcopy binutils
need_cmd cmake cmake
need_cmd ninja ninja-build
need_cmd dtc device-tree-compiler
need_cmd python3 python3
for m in ply:python3-ply lxml:python3-lxml future:python3-future elftools:python3-pyelftools \
         jinja2:python3-jinja2 six:python3-six yaml:python3-yaml; do
    python3 -c "import ${m%%:*}" 2>/dev/null || missing "missing Python module ${m%%:*}: install the Debian package ${m#*:}"
done

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

# ---- pyfdt: pure Python, not packaged in Debian ----
pyfdt_from() {
    local p=$1
    if [ -f "$p" ]; then
        local d="$CACHE/pyfdt-$(sha256sum "$p" | cut -c1-12)"
        if [ ! -d "$d" ]; then
            mkdir -p "$d.tmp" && tar -xzf "$p" -C "$d.tmp" && mv "$d.tmp" "$d"
        fi
        p=$(dirname "$(find "$d" -name pyfdt.py -path '*/pyfdt/pyfdt.py' | head -1)")/..
    elif [ ! -f "$p/pyfdt/pyfdt.py" ] && [ -f "$p/pyfdt/pyfdt/pyfdt.py" ]; then
        p=$p/pyfdt   # a clone of the repository: the package is one level down
    fi
    [ -f "$p/pyfdt/pyfdt.py" ] || die "--pyfdt $1: no pyfdt/pyfdt.py in it"
    export PYTHONPATH=$(cd "$p" && pwd)${PYTHONPATH:+:$PYTHONPATH}
}
if [ -n "$PYFDT" ]; then
    pyfdt_from "$PYFDT"
elif ! python3 -c "import pyfdt" 2>/dev/null; then
    t=$(ls "$KERNELS_DIR"/pyfdt-*.tar.gz 2>/dev/null | head -1 || true)
    [ -n "$t" ] || missing "missing Python module pyfdt (not packaged in Debian): pass --pyfdt DIR|TARBALL, e.g. the tarball in ../shared/kernels, or clone https://github.com/superna9999/pyfdt and put it on PYTHONPATH"
    pyfdt_from "$t"
fi

# ---- the tree: extract a tarball, key by content ----
COMMIT=unknown
if [ -f "$SEL4" ]; then
    TREE_HASH=$(sha256sum "$SEL4" | cut -c1-16)
    COMMIT=$(gzip -dc "$SEL4" 2>/dev/null | git get-tar-commit-id 2>/dev/null || true)
    [ -n "$COMMIT" ] || COMMIT=unknown
    SRC="$CACHE/src-$TREE_HASH"
    if [ ! -d "$SRC" ]; then
        note "extracting $SEL4"
        rm -rf "$SRC.tmp" && mkdir -p "$SRC.tmp"
        tar -xzf "$SEL4" -C "$SRC.tmp" || die "cannot extract $SEL4"
        mv "$SRC.tmp" "$SRC"
    fi
    f=$(find "$SRC" -maxdepth 4 -path '*/src/fastpath/fastpath.c' | head -1)
    top=${f%/src/fastpath/fastpath.c}
    [ -n "$f" ] && [ -f "$top/config.cmake" ] || die "$SEL4 holds no seL4 tree (no config.cmake next to src/fastpath)"
    SRC=$top
elif [ -d "$SEL4" ]; then
    SRC=$(cd "$SEL4" && pwd)
    [ -f "$SRC/config.cmake" ] && [ -f "$SRC/src/fastpath/fastpath.c" ] || die "$SEL4 is not a seL4 tree"
    if git -C "$SRC" rev-parse HEAD >/dev/null 2>&1; then
        COMMIT=$(git -C "$SRC" rev-parse HEAD)
        dirty=$( (git -C "$SRC" diff HEAD; git -C "$SRC" status --porcelain --untracked-files=normal) | sha256sum | cut -c1-8)
        [ -z "$(git -C "$SRC" status --porcelain)" ] && dirty=clean
        TREE_HASH=$(echo "$COMMIT-$dirty" | sha256sum | cut -c1-16)
    else
        TREE_HASH=$(cd "$SRC" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cmake' -o -name '*.bf' -o -name '*.py' -o -name '*.dts' -o -name CMakeLists.txt \) -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
    fi
else
    missing "--sel4 $SEL4: no such file or directory"
fi

# master's generators (tools/umm.py) import typing_extensions; older trees do not
if grep -rqs "import typing_extensions\|from typing_extensions" "$SRC/tools"; then
    python3 -c "import typing_extensions" 2>/dev/null ||
        missing "missing Python module typing_extensions (this tree's tools need it): install the Debian package python3-typing-extensions"
fi
# A tree without PR #1227 (the base, master) has no IRQ fastpath: it builds
# for the slowpath (and the signal fastpath) only; kernel.info says so.
HAVE_IRQ_FP=0 HAVE_SIG_FP=0
grep -q "KernelIRQFastpath" "$SRC/config.cmake" && HAVE_IRQ_FP=1
grep -q "KernelSignalFastpath" "$SRC/config.cmake" && HAVE_SIG_FP=1

# ---- what the glue must adapt to: facts of the tree, one probe each ----
# (docs/model.md, "Master": the commit that changed each)
FEATURES=""
probe() { if eval "$2"; then FEATURES="$FEATURES -D$1"; fi; }
# 5de930983: idle_thread is assembly (src/arch/arm/64/idle.S), not C
probe HK_IDLE_ASM '[ -f "$SRC/src/arch/arm/64/idle.S" ]'
# 27a52ddd4: the domain schedule is a writable array of dschedule_t (ticks)
probe HK_DSCHED_RUNTIME 'grep -qs "^dschedule_t ksDomSchedule" "$SRC/src/object/domain.c"'
# 686bba4d2: the release queue is a tcb_queue_t (ksReleaseQueue), not ksReleaseHead
probe HK_RELEASE_QUEUE 'grep -q "ksReleaseQueue" "$SRC/include/model/statedata.h"'
# 1bd0e3b78: FPU ownership is a TCB per core (ksCurFPUOwner)
probe HK_FPU_OWNER 'grep -q "ksCurFPUOwner" "$SRC/include/model/statedata.h"'
# c4501d5ed: lazyFPURestore runs in switchToThread; before it,
# restore_user_context ran it at every exit (the glue replaces that function)
probe HK_FPU_EXIT_RESTORE 'grep -q "lazyFPURestore" "$SRC/src/arch/arm/64/c_traps.c"'
# the SMP lock rework (81679f2b9 and after): per-core nodes and the IPI
# state live in big_kernel_lock (node[], ipi)
probe HK_SMP_LOCK_NODE 'grep -qs "clh_node_t node\[" "$SRC/include/smp/lock.h"'
# a4b0c8d36: GICv3 split EOI: cpu_iface_init sets EOImode (EOIR drops the
# priority only; ICC_DIR_EL1 deactivates)
probe HK_GICV3_SPLIT_EOI 'grep -qs "|= *GICC_CTLR_EL1_EOImode_drop" "$SRC/src/arch/arm/machine/gic_v3.c"'
grep -rqs "declare_platform($BOARD " "$SRC"/src/plat/*/config.cmake ||
    die "unknown board $BOARD (boards of this tree: $(grep -ho 'declare_platform([^ ]*' "$SRC"/src/plat/*/config.cmake | cut -d'(' -f2 | tr '\n' ' '))"
case "$BOARD" in
    qemu-arm-virt) die "qemu-arm-virt needs QEMU to dump its DTB at configure time; not supported (use imx8mm-evk or odroidc4)" ;;
esac

# the shim and glue are part of the key: a change to them rebuilds
SHIM_HASH=$(cd "$HERE" && cat build-kernel.sh hostcc.sh host-toolchain.cmake known-asm-sites.txt hostkernel.h \
            $(find shim glue -type f | sort) | sha256sum | cut -c1-8)
MODE=$([ "$DEBUG" = 1 ] && echo debug || echo release)
KEY="$TREE_HASH-$BOARD-d$DOMAINS-c$CORES-$MODE-$SHIM_HASH"
OUT="$CACHE/$KEY"
if [ "$FORCE" = 0 ] && [ -f "$OUT/hostkernel.so" ] && [ -f "$OUT/kernel.info" ]; then
    note "cached"
    echo "$OUT"
    exit 0
fi
rm -rf "$OUT" && mkdir -p "$OUT"
KB="$OUT/kbuild"
mkdir -p "$KB"

# ---- the kernel's own configure, host gcc as its compiler ----
onoff() { [ "$1" = 1 ] && echo ON || echo OFF; }
note "configuring $BOARD ($MODE, $DOMAINS domain(s), $CORES core(s)) in $KB"
(cd "$KB" && cmake -G Ninja -DCMAKE_TOOLCHAIN_FILE="$HERE/host-toolchain.cmake" \
    -DKernelPlatform="$BOARD" -DKernelSel4Arch=aarch64 -DKernelIsMCS=ON \
    -DKernelFastpath=ON -DKernelIRQFastpath="$(onoff $HAVE_IRQ_FP)" -DKernelSignalFastpath="$(onoff $HAVE_SIG_FP)" \
    -DKernelMaxNumNodes="$CORES" \
    -DKernelVerificationBuild=OFF -DKernelNumDomains="$DOMAINS" \
    -DKernelDebugBuild="$(onoff $DEBUG)" -DKernelPrinting="$(onoff $DEBUG)" \
    "$SRC") >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log" >&2; die "the kernel's configure failed (log: $OUT/configure.log)"; }
for f in IRQ:$HAVE_IRQ_FP SIGNAL:$HAVE_SIG_FP; do
    [ "${f#*:}" = 0 ] || grep -q "^#define CONFIG_${f%:*}_FASTPATH " "$KB/gen_config/kernel/gen_config.h" ||
        die "the configuration did not enable CONFIG_${f%:*}_FASTPATH (Kernel${f%:*}Fastpath)"
done
[ "$HAVE_IRQ_FP" = 1 ] || note "this tree has no IRQ fastpath (KernelIRQFastpath): the slowpath only"
got_nodes=$(sed -n 's/^#define CONFIG_MAX_NUM_NODES *//p' "$KB/gen_config/kernel/gen_config.h")
[ "$got_nodes" = "$CORES" ] || die "the kernel configured $got_nodes core(s), not $CORES"

targets="kernel_all_c_wrapper kernel_Gen kernel_autoconf_Gen kernel_config_headers
         $(cd "$KB" && ninja -t targets all | grep -oE '^kernel_bf_gen_target_[0-9]+:' | tr -d :)"
(cd "$KB" && ninja -j2 $targets) >"$OUT/generate.log" 2>&1 ||
    { tail -20 "$OUT/generate.log" >&2; die "generating the kernel headers failed (log: $OUT/generate.log)"; }

# ---- include flags: exactly the kernel's own -I list, shim first ----
INC=$(cd "$KB" && ninja -t commands kernel_all_pp_prune_wrapper | grep -oE -- '-I[^ ]+' | grep -v generated_prune | awk '!seen[$0]++' | tr '\n' ' ')
INC="$INC -I$KB/generated"
SHIM_INC="-I$HERE/shim/include"

# ---- the translation unit: the kernel's file list, a few files replaced ----
# Replaced files keep their #include lines: later files rely on them.
TU="$OUT/host_all.c"
{
    echo "/* generated by irqsim real/build-kernel.sh: includes the kernel's sources, contains none */"
    grep '^#line 1 ' "$KB/kernel_all.c" | awk '{print $3}' | tr -d '"' | while read -r f; do
        case "$f" in
            */src/arch/arm/64/c_traps.c)
                echo "/* excluded $f: restore_user_context is asm + eret (glue replaces it) */"
                grep '^#include' "$f" ;;
            */src/drivers/serial/*.c)
                echo "/* excluded $f: UART MMIO (glue replaces uart_drv_putchar) */"
                grep '^#include' "$f" ;;
            *)
                if grep -qE 'ksDomSchedule\[\] *=' "$f"; then
                    echo "/* excluded $f: the domain schedule is writable, in hk_domain.o */"
                    grep '^#include' "$f"
                else
                    echo "#include \"$f\""
                fi ;;
        esac
    done
    echo "#include \"$HERE/glue/hk_fixed.c\""
    echo "#include \"$HERE/glue/hk_glue.c\""
    echo "#include \"$HERE/glue/hk_syscall.c\""
    echo "#include \"$HERE/glue/hk_bridge.c\""
} >"$TU"

CFLAGS_K="-D__KERNEL_64__ -std=gnu99 -nostdinc -ffreestanding -fno-common -fno-stack-protector
          -fPIC -fno-plt -fvisibility=hidden -Wno-attributes -Werror=implicit-function-declaration -O2 -g0"
note "compiling the kernel for the host"
# shellcheck disable=SC2086
gcc $SHIM_INC $INC $CFLAGS_K $FEATURES -S "$TU" -o "$OUT/host_all.s" 2>"$OUT/compile.log" ||
    { head -40 "$OUT/compile.log" >&2; die "compiling the kernel failed (log: $OUT/compile.log); a new inline-asm helper or MMIO device may need a shim"; }

# ---- asm sites: list, check against the known list, delete ----
# A site is "file<TAB>first instruction word" (file relative to the tree).
awk -v src="$SRC/" '
    /^#APP/ { app = 1; loc = ""; ins = ""; next }
    /^#NO_APP/ { if (loc != "") print loc "\t" ins; app = 0; next }
    app && /^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); sub(src, "", f); if (loc == "") loc = f; next }
    app && ins == "" && NF > 0 && $1 !~ /^#/ { ins = $1 }
' "$OUT/host_all.s" | sort | uniq -c | sed 's/^ *//' >"$OUT/deleted-asm-sites.txt"
unknown=0
while read -r count file ins; do
    if ! grep -v '^#' "$HERE/known-asm-sites.txt" | awk -v f="$file" -v i="$ins" '$1 == f && ($2 == i || $2 == "*") { ok = 1 } END { exit !ok }'; then
        echo "build-kernel: UNKNOWN inline asm deleted: $file: '$ins' ($count time(s))" >&2
        unknown=1
    fi
done <"$OUT/deleted-asm-sites.txt"
[ "$unknown" = 0 ] || die "inline asm not on real/known-asm-sites.txt would be deleted; it may carry meaning. Check it, then add it to the list or shim it."
sed '/^#APP/,/^#NO_APP/d' "$OUT/host_all.s" >"$OUT/host_all_noasm.s"
gcc -c "$OUT/host_all_noasm.s" -o "$OUT/host_all.o"
# the kernel's own string functions must not take libc's place in the process
objcopy --localize-symbol=memset --localize-symbol=memcpy --localize-symbol=memmove \
    --localize-symbol=memcmp --localize-symbol=strncmp --localize-symbol=strnlen \
    --localize-symbol=strlcpy --localize-symbol=strlcat --localize-symbol=str_to_long \
    --localize-symbol=printf --localize-symbol=puts --localize-symbol=putchar \
    "$OUT/host_all.o" "$OUT/host_kernel.o"
# the domain schedule: writable in hk_domain.o, or the tree's own (HK_DSCHED_RUNTIME)
DOM_OBJ=""
case "$FEATURES" in
    *HK_DSCHED_RUNTIME*) ;;
    *) gcc -O2 -fPIC -Wall -Wextra -Werror -c "$HERE/glue/hk_domain.c" -o "$OUT/hk_domain.o"
       DOM_OBJ="$OUT/hk_domain.o" ;;
esac
printf '{ global: hk_*; local: *; };\n' >"$OUT/exports.map"
# shellcheck disable=SC2086
gcc -shared -Wl,-Bsymbolic -Wl,--version-script="$OUT/exports.map" -Wl,-z,defs -nostdlib \
    "$OUT/host_kernel.o" $DOM_OBJ -lgcc -o "$OUT/hostkernel.so" 2>"$OUT/link.log" ||
    { cat "$OUT/link.log" >&2; die "linking hostkernel.so failed"; }

# ---- kernel.info: the constants as the compiled kernel sees them ----
gcc -O2 -Wall -Wextra -Werror -I"$HERE" "$HERE/rk_info.c" -ldl -o "$OUT/rk_info"
{
    "$OUT/rk_info" "$OUT/hostkernel.so" || die "hostkernel.so does not load"
    echo "tree_hash=$TREE_HASH"
    echo "commit=$COMMIT"
    echo "source=$SRC"
    echo "board=$BOARD"
    echo "shim_hash=$SHIM_HASH"
    echo "features=$(echo $FEATURES | sed 's/-D//g')"
} >"$OUT/kernel.info.tmp"
mv "$OUT/kernel.info.tmp" "$OUT/kernel.info"
note "deleted asm sites: $(wc -l <"$OUT/deleted-asm-sites.txt") (list: $OUT/deleted-asm-sites.txt)"
echo "$OUT"
