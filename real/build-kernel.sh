#!/bin/bash
# build-kernel.sh: build a seL4 tree's own C code for the host, as a shared
# object (hostkernel.so) that irqsim loads to run one interrupt through the
# real slowpath or the real fastpath_irq (trees with PR #1227), or one
# seL4_Signal through the real signal fastpath or the real syscall slowpath.
# `irqsim kernel build ARGS` runs it; --help (help_text below) lists the
# options, the cache key and the exit statuses.
#
# The kernel's own CMake configure (with the host gcc as its compiler) gives
# the generated headers and the single-translation-unit file list
# (kernel_all.c); the files of that list are compiled with irqsim's shim
# headers (real/shim/include) in front and irqsim's glue (real/glue)
# appended. Inline asm that is left after the shim is deleted from gcc's
# output; every deleted site must be on real/known-asm-sites.txt or the
# build fails.
#
# SPDX-License-Identifier: BSD-2-Clause
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KERNELS_DIR=${IRQSIM_KERNELS_DIR:-$HERE/../../shared/kernels}

help_text() {
    cat <<'EOF_HELP'
usage: irqsim kernel build --sel4 DIR|TARBALL [--board B] [--domains N] [--cores 1|2]
                           [--debug|--release] [--cache DIR] [--pyfdt DIR|TARBALL] [-D NAME=VALUE]...
                           [--force] [--quiet] [--coverage]
       (real/build-kernel.sh takes the same options)

Builds a seL4 tree's own C code for the host (hostkernel.so) for
`irqsim validate|fuzz|check|bench --real BUILD`. The last line of stdout is
BUILD, the build directory (hostkernel.so, kernel.info). docs/REAL-KERNEL.md.

  --sel4 DIR|TARBALL   the seL4 tree: a checkout (git or not) or a .tar.gz of one;
                       a relative path is taken from the current directory
  --board B            the kernel's platform (default imx8mm-evk): an aarch64 platform
                       of the tree with a GIC; the model's preset names imx8mm, imx8mq,
                       tqma, zcu106 stand for imx8mm-evk, imx8mq-evk, tqma8xqp1gb, zynqmp
  --domains N          KernelNumDomains, 1..16 (default 1)
  --cores 1|2          KernelMaxNumNodes (default 1; 2 only with one domain)
  --debug, --release   a debug kernel (assertions, printing) or a release one (default)
  --cache DIR          where builds and extracted tarballs go (default
                       $IRQSIM_KERNEL_CACHE, else ~/.cache/irqsim/kernels)
  --pyfdt DIR|TARBALL  the pyfdt Python package the kernel's configure needs (default:
                       an installed one, else pyfdt-*.tar.gz in $IRQSIM_KERNELS_DIR,
                       else in ../shared/kernels beside the irqsim checkout)
  -D NAME=VALUE        passed to the kernel's configure after irqsim's own settings (so it
                       wins), e.g. -DKernelArmSMMU=OFF; part of the cache key, listed in
                       kernel.info (defines=)
  --force              build even when the cache holds this build
  --coverage           instrument the kernel for gcov (irqsim kernel coverage): gcc
                       --coverage, no inlining, the call graph (host_all.ci); a build of
                       its own in the cache (key ending in -cov)
  --quiet              no progress notes on stderr (errors are still printed)
  -h, --help           this text

Environment: IRQSIM_KERNEL_CACHE (the cache, as --cache), IRQSIM_KERNELS_DIR
(where pyfdt-*.tar.gz is looked for).

The cache reuses a build when its key is the same: the tree's content (a
tarball's bytes; for a directory the name and content of every file under
it outside .git, tracked by git or not, ignored or not, and where each
symbolic link points), the board, domains, cores, debug or release, and
the -D options, irqsim's build script, shim, glue, hostkernel.h, rk_info.c,
known-asm-sites.txt and the host gcc's version. Any change to one of these
builds anew; --force builds anew regardless.

Exit status: 0 built or cached; 1 the build failed (the kernel's configure,
the compile, an inline-asm site not on real/known-asm-sites.txt, the link);
2 bad input (an option, a tree that does not exist or is not a seL4 tree,
a board the tree does not have, a cache that cannot be written); 3 cannot
build here (a missing tool, Python module or pyfdt), which the tests report
as skipped; 4 standard output could not be written (the build's path, which
callers capture, was lost: the build itself is done and cached).
EOF_HELP
}

die() { echo "build-kernel: $*" >&2; exit 1; }
# bad input: the option, path or board at fault
bad() { echo "build-kernel: $*" >&2; exit 2; }
# cannot build here (a tool, Python module or pyfdt): exit 3, so a test can skip
missing() { echo "build-kernel: $*" >&2; exit 3; }
# standard output is the build's path, which callers capture: a write
# that fails is exit 4 (an output), not 1 (set -e: "the build failed")
stdout_failed() { echo "build-kernel: cannot write standard output ($1)" >&2; exit 4; }
QUIET=0
note() { [ "$QUIET" = 1 ] || echo "build-kernel: $*" >&2; }

# temporary files and folders in the cache: removed on every exit, so a
# failed or interrupted extraction or build leaves none behind
TMPS=()
cleanup() { local t; for t in "${TMPS[@]+"${TMPS[@]}"}"; do rm -rf -- "$t"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# a path from the caller's working directory, made absolute (. and .. folded
# as the shell's cd does; symbolic links kept)
abspath() { realpath -sm -- "$1"; }
# an option's value: present and not the next option
value() { [ -n "${2-}" ] && [[ "$2" != -* ]] || bad "$1 needs a value: $3 (--help lists the options)"; }

# define NAME=VALUE: one -D for the kernel's configure
define() {
    [[ "$1" =~ ^[A-Za-z_][A-Za-z0-9_]*=[^\;]*$ ]] || bad "-D $1: expected NAME=VALUE (a CMake cache variable of the kernel, e.g. -DKernelArmSMMU=OFF)"
    DEFINES+=("-D$1")
}
SEL4="" BOARD=imx8mm-evk DOMAINS=1 CORES=1 DEBUG=0 FORCE=0 PYFDT="" COVERAGE=0 DEFINES=()
CACHE=${IRQSIM_KERNEL_CACHE:-$HOME/.cache/irqsim/kernels}
CACHE_FROM=${IRQSIM_KERNEL_CACHE:+IRQSIM_KERNEL_CACHE}
CACHE_FROM=${CACHE_FROM:-the default}
while [ $# -gt 0 ]; do
    case "$1" in
        --sel4) value "$1" "${2-}" "DIR|TARBALL, a seL4 tree"; SEL4=$(abspath "$2"); shift 2 ;;
        --board) value "$1" "${2-}" "a platform of the tree"; BOARD=$2; shift 2 ;;
        --domains) value "$1" "${2-}" "1..16"; DOMAINS=$2; shift 2 ;;
        --cores) value "$1" "${2-}" "1 or 2"; CORES=$2; shift 2 ;;
        --debug) DEBUG=1; shift ;;
        --release) DEBUG=0; shift ;;
        --cache) value "$1" "${2-}" "DIR"; CACHE=$2; CACHE_FROM=--cache; shift 2 ;;
        --pyfdt) value "$1" "${2-}" "DIR|TARBALL"; PYFDT=$(abspath "$2"); shift 2 ;;
        -D) value "$1" "${2-}" "NAME=VALUE, a CMake cache variable of the kernel"; define "$2"; shift 2 ;;
        -D?*) define "${1#-D}"; shift ;;
        --force) FORCE=1; shift ;;
        --coverage) COVERAGE=1; shift ;;
        --quiet) QUIET=1; shift ;;
        -h|--help) help_text || stdout_failed "the help"; exit 0 ;;
        *) bad "unknown option $1 (--help lists the options)" ;;
    esac
done
[ -n "$SEL4" ] || bad "--sel4 DIR|TARBALL is required (a seL4 checkout or a tarball of one)"
[[ "$DOMAINS" =~ ^[0-9]+$ ]] && [ "$DOMAINS" -ge 1 ] && [ "$DOMAINS" -le 16 ] || bad "--domains must be 1..16, got '$DOMAINS'"
[ "$CORES" = 1 ] || [ "$CORES" = 2 ] || bad "--cores must be 1 or 2, got '$CORES'"
[ "$CORES" = 1 ] || [ "$DOMAINS" = 1 ] || bad "the kernel allows more than one core only with one domain"
[ -e "$SEL4" ] || bad "--sel4 $SEL4: no such file or directory"
[ -f "$SEL4" ] || [ -d "$SEL4" ] || bad "--sel4 $SEL4: neither a directory nor a tarball"

# ---- the cache: created, and writable (checked here, before anything is
# written to it, so that no later step is blamed for it) ----
CACHE=$(abspath "$CACHE")
# the kernel's CMake build writes its file list (kernel_all.c) and flags
# split at white space: a path with some cannot be built (a symbolic link
# without any to the same folder can)
no_space() { case "$2" in *[[:space:]]*) bad "$1 '$2' has white space in its path, which the kernel's own build cannot take: give it at a path without (e.g. a symbolic link to it)" ;; esac; }
no_space "the cache" "$CACHE"
cache_hint="(--cache DIR or IRQSIM_KERNEL_CACHE choose another; this one is $CACHE_FROM)"
mkdir -p -- "$CACHE" 2>/dev/null || bad "the cache $CACHE cannot be created $cache_hint"
probe_dir=$(mktemp -d "$CACHE/.probe.XXXXXX" 2>/dev/null) || bad "the cache $CACHE is not writable $cache_hint"
rmdir -- "$probe_dir"
CACHE=$(cd "$CACHE" && pwd)

# ---- the tree: extract a tarball (keyed by its bytes), or key a directory
# by the content of every file in it ----
is_sel4() { [ -f "$1/config.cmake" ] && [ -f "$1/src/fastpath/fastpath.c" ]; }
# tree_key DIR: the name and content of every file under DIR (through
# symbolic links) outside .git, and where every symbolic link points. Not
# git's view: an untracked or ignored header the build includes counts.
tree_key() {
    (cd "$1" && {
        find -L . -name .git -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum -- &&
            find . -name .git -prune -o -type l -printf '%p -> %l\n' | LC_ALL=C sort
    }) | sha256sum | cut -c1-16
}
COMMIT=unknown
if [ -f "$SEL4" ]; then
    TREE_HASH=$(sha256sum "$SEL4" | cut -c1-16) || bad "--sel4 $SEL4: cannot read it"
    COMMIT=$(gzip -dc "$SEL4" 2>/dev/null | git get-tar-commit-id 2>/dev/null || true)
    [ -n "$COMMIT" ] || COMMIT=unknown
    SRC="$CACHE/src-$TREE_HASH"
    if [ ! -d "$SRC" ]; then
        note "extracting $SEL4"
        tmp=$(mktemp -d "$SRC.tmp.XXXXXX")
        TMPS+=("$tmp")
        tar -xzf "$SEL4" -C "$tmp" || bad "--sel4 $SEL4: cannot extract it (tar's message above): not a .tar.gz of a seL4 tree?"
        f=$(find "$tmp" -maxdepth 4 -path '*/src/fastpath/fastpath.c' | head -1)
        [ -n "$f" ] && is_sel4 "${f%/src/fastpath/fastpath.c}" ||
            bad "--sel4 $SEL4: not a seL4 tree (no config.cmake next to src/fastpath/fastpath.c in it)"
        # another build may have extracted it meanwhile: then keep that one
        mv -T "$tmp" "$SRC" 2>/dev/null || [ -d "$SRC" ] || die "cannot move the extracted tree to $SRC"
    fi
    f=$(find "$SRC" -maxdepth 4 -path '*/src/fastpath/fastpath.c' | head -1)
    top=${f%/src/fastpath/fastpath.c}
    [ -n "$f" ] && is_sel4 "$top" || bad "--sel4 $SEL4: not a seL4 tree (no config.cmake next to src/fastpath/fastpath.c in $SRC)"
    SRC=$top
else
    SRC=$(cd "$SEL4" && pwd)
    no_space "--sel4" "$SRC"
    is_sel4 "$SRC" || bad "--sel4 $SEL4: not a seL4 tree (no config.cmake and src/fastpath/fastpath.c in it)"
    TREE_HASH=$(tree_key "$SRC") || bad "--sel4 $SEL4: cannot read every file of it (the message above)"
    COMMIT=$(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo unknown)
fi

# ---- the board: a platform of the tree, aarch64, with a GIC ----
# aarch64_platforms: the tree's platforms that build for aarch64 and have a
# GICv2 or GICv3 (the interrupt controllers the glue models), one a line;
# not qemu-arm-virt (below)
aarch64_platforms() {
    local f
    for f in "$SRC"/src/plat/*/config.cmake; do
        grep -qsE 'INTERRUPT_CONTROLLER +arch/machine/gic_v[23]\.h' "$f" || continue
        grep -qE 'declare_seL4_arch\([^)]*aarch64' "$f" || continue
        sed -nE 's/^ *declare_platform\(([A-Za-z0-9_-]+) +[^ ]+ +[^ ]+ +(KernelSel4ArchAarch64|KernelArchARM)\).*/\1/p' "$f"
    done | { grep -vx qemu-arm-virt || true; } | LC_ALL=C sort
}
# the model's board presets (sim/config.c) for the kernel's platforms (the
# same pairs as real/rk_load.c's platform_map)
case "$BOARD" in
    qemu-arm-virt) bad "--board qemu-arm-virt needs QEMU to dump its DTB at configure time; not supported (use imx8mm-evk or odroidc4)" ;;
esac
PLATFORMS=$(aarch64_platforms)
if ! grep -qxF -- "$BOARD" <<<"$PLATFORMS"; then
    case "$BOARD" in
        imx8mm) alias=imx8mm-evk ;;
        imx8mq) alias=imx8mq-evk ;;
        tqma) alias=tqma8xqp1gb ;;
        zcu106) alias=zynqmp ;;
        *) alias="" ;;
    esac
    if [ -n "$alias" ] && grep -qxF -- "$alias" <<<"$PLATFORMS"; then
        BOARD=$alias
    else
        bad "--board $BOARD: not one of this tree's aarch64 platforms with a GIC: $(tr '\n' ' ' <<<"$PLATFORMS")(the model's presets imx8mm, imx8mq, tqma, zcu106 stand for imx8mm-evk, imx8mq-evk, tqma8xqp1gb, zynqmp)"
    fi
fi

# A tree without PR #1227 (the base, master) has no IRQ fastpath: it builds
# for the slowpath (and the signal fastpath) only; kernel.info says so.
HAVE_IRQ_FP=0 HAVE_SIG_FP=0
grep -q "KernelIRQFastpath" "$SRC/config.cmake" && HAVE_IRQ_FP=1
grep -q "KernelSignalFastpath" "$SRC/config.cmake" && HAVE_SIG_FP=1
# the user's -D turns a fastpath off (an intermediate commit whose fastpath
# does not compile: 771c9e43c changed the queues, its signal fastpath
# followed in 7c11116b6); a build without it is one without it
for d in "${DEFINES[@]+"${DEFINES[@]}"}"; do
    case "$d" in
        -DKernelIRQFastpath=OFF | -DKernelIRQFastpath=off | -DKernelIRQFastpath=0) HAVE_IRQ_FP=0 ;;
        -DKernelSignalFastpath=OFF | -DKernelSignalFastpath=off | -DKernelSignalFastpath=0) HAVE_SIG_FP=0 ;;
    esac
done

# the oldest trees the glue is written for: aarch64's top-level cap became
# vspace_cap in dc808b3d7 (2023-08-10; page_global_directory_cap before)
# and its fields capVS* in 4f9b73652 (2023-10-27); the glue builds and
# reads it by those names (hk_bridge.c)
grep -qs "capVSMappedASID" "$SRC/include/arch/arm/arch/64/mode/object/structures.bf" ||
    bad "this tree is older than irqsim's glue supports: its aarch64 vspace root cap is not vspace_cap with capVS* fields (4f9b73652, 2023-10-27; include/arch/arm/arch/64/mode/object/structures.bf); trees from then on build"

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
# 5035def0b: threads carry tcbFlags, set by TCB_SetFlags (label TCBSetFlags)
probe HK_TCB_FLAGS 'grep -qs "decodeSetFlags" "$SRC/src/object/tcb.c"'
# c4501d5ed: lazyFPURestore runs in switchToThread; before it,
# restore_user_context ran it at every exit (the glue replaces that function)
probe HK_FPU_EXIT_RESTORE 'grep -q "lazyFPURestore" "$SRC/src/arch/arm/64/c_traps.c"'
# the SMP lock rework (81679f2b9 and after): per-core nodes and the IPI
# state live in big_kernel_lock (node[], ipi)
probe HK_SMP_LOCK_NODE 'grep -qs "clh_node_t node\[" "$SRC/include/smp/lock.h"'
# a4b0c8d36: GICv3 split EOI: cpu_iface_init sets EOImode (EOIR drops the
# priority only; ICC_DIR_EL1 deactivates)
probe HK_GICV3_SPLIT_EOI 'grep -qs "|= *GICC_CTLR_EL1_EOImode_drop" "$SRC/src/arch/arm/machine/gic_v3.c"'

# ---- the model's features: one probe per behaviour the model tells apart ----
# (sim/config.h KS_FEATURES; each row of sim/config.c names the commit that
# made it). A tree between base and master has some and not others; the
# model then takes exactly its own (kernel.info model_features), not
# base's or master's as a whole (issue 29 item 1).
MODEL_FEATURES=""
mprobe() { if eval "$2"; then MODEL_FEATURES="$MODEL_FEATURES${MODEL_FEATURES:++}$1"; fi; }
# a4b0c8d36: cpu_iface_init sets EOImode (the glue's probe above)
mprobe SPLIT_EOI '[[ " $FEATURES " == *" -DHK_GICV3_SPLIT_EOI "* ]]'
# 4f4721706: reply_unlink no longer clears the thread's replyObject (the
# absence of that line counts only where reply_unlink is there at all)
mprobe STALE_REPLY_REF 'grep -qs "void reply_unlink(" "$SRC/include/object/reply.h" &&
    ! grep -qs "thread_state_ptr_set_replyObject(&tcb->tcbState, REPLY_REF(0))" "$SRC/include/object/reply.h"'
# 27a52ddd4: runtime domain schedules (the glue's probe above)
mprobe DOMAIN_SCHEDULE_RUNTIME '[[ " $FEATURES " == *" -DHK_DSCHED_RUNTIME "* ]]'
# f1517d51d: prepareNextDomain saves the FPU state at a domain's end
mprobe FPU_RELEASE_AT_DOMAIN_END 'grep -qs "prepareNextDomain" "$SRC/src/kernel/thread.c"'
# c4501d5ed: switchToThread runs lazyFPURestore
mprobe FPU_OWNER_AT_SWITCH 'grep -qs "lazyFPURestore(thread)" "$SRC/src/kernel/thread.c"'
# c88c066a8: migrateTCB to the thread's own core does nothing
mprobe MIGRATE_ONLY_WHEN_NEEDED 'grep -qs "new_core == tcb->tcbAffinity" "$SRC/src/model/smp.c"'
# 3d449dba1: the idle SC's budget is MAX_PERIOD_TICKS
mprobe IDLE_SC_MAX_PERIOD 'grep -qs "MAX_PERIOD_TICKS" "$SRC/src/kernel/boot.c"'
# d500b9751: qemu-arm-virt builds GICv3 too
mprobe QEMU_GICV3 'grep -qs "QEMU_GIC_VERSION" "$SRC/src/plat/qemu-arm-virt/config.cmake"'
# 6dbe58ef0: VPPIEvent and VGICMaintenance leave an unschedulable current
# thread alone (!isSchedulable)
mprobe VCPU_FAULT_SCHEDULABLE 'grep -qs "isSchedulable(NODE_STATE(ksCurThread))" "$SRC/src/arch/arm/object/vcpu.c"'
# c64867ebd added, 6dbe58ef0 dropped and 232471e90 restored their test of
# the current thread's tcbQueued: a tree whose vcpu.c lacks it
mprobe VCPU_FAULT_UNQUEUED 'grep -qs "VPPIEvent" "$SRC/src/arch/arm/object/vcpu.c" &&
    ! grep -qs "tcbQueued" "$SRC/src/arch/arm/object/vcpu.c"'
# e558631c7: Arch_prepareNextDomain flushes the VCPU at a domain's end
mprobe VCPU_FLUSH_AT_DOMAIN_END 'grep -qs "vcpu_flush()" "$SRC/src/arch/arm/kernel/thread.c"'
# 35ec2554b: prepareSetDomain releases the thread's FPU state (its
# fpuThreadDelete, later fpuRelease) before DomainSet_Set moves it
mprobe FPU_RELEASE_AT_SET_DOMAIN 'grep -s -A8 "^void prepareSetDomain" "$SRC/src/kernel/thread.c" |
    grep -qs "fpuThreadDelete(tptr)\|fpuRelease(tptr)"'
# 01c3487ef: Arch_prepareSetDomain flushes the thread's VCPU if it is loaded
mprobe VCPU_FLUSH_AT_SET_DOMAIN 'grep -qs "vcpu_flush_if_current(tptr)" "$SRC/src/arch/arm/kernel/thread.c"'

# 5035def0b: TCB flags and TCB_SetFlags (the glue's probe above)
mprobe TCB_FLAGS '[[ " $FEATURES " == *" -DHK_TCB_FLAGS "* ]]'
# 78c3b11a0: invokeSetFlags restores the FPU of the caller that enabled its own
mprobe FPU_RESTORE_AT_SET_FLAGS 'grep -s -A20 "^static void invokeSetFlags" "$SRC/src/object/tcb.c" |
    grep -qs "lazyFPURestore(thread)"'
# c119df035: MCS's sendFaultIPC stores a cap fault's lookup fault in
# tcbLookupFailure (the non-MCS one stores original_lookup_fault)
mprobe FAULT_LOOKUP_RECORDED 'grep -qs "tcbLookupFailure = current_lookup_fault" "$SRC/src/kernel/faulthandler.c"'

# ---- the key: the tree, the configuration, irqsim's side of the build ----
# (irqsim's files by name and content; the compiler that compiles the kernel)
SHIM_HASH=$( (cd "$HERE" && find build-kernel.sh hostcc.sh host-toolchain.cmake known-asm-sites.txt hostkernel.h rk_info.c \
                 shim glue -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum -- &&
              gcc --version 2>/dev/null | head -1) | sha256sum | cut -c1-8)
MODE=$([ "$DEBUG" = 1 ] && echo debug || echo release)
KEY="$TREE_HASH-$BOARD-d$DOMAINS-c$CORES-$MODE-$SHIM_HASH"
# the -D options, in order (a later one wins in CMake): a key of their own,
# none without them (so the builds made before -D existed stay cached)
DEFINES_TEXT="${DEFINES[*]+"${DEFINES[*]}"}"
[ -z "$DEFINES_TEXT" ] || KEY="$KEY-D$(printf '%s' "$DEFINES_TEXT" | sha256sum | cut -c1-8)"
# a coverage build is another binary: its own key, with its own shim in it
if [ "$COVERAGE" = 1 ]; then
    COV_HASH=$( (cd "$HERE" && find shim-cov -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum --) | sha256sum | cut -c1-8)
    KEY="$KEY-$COV_HASH-cov"
fi
OUT="$CACHE/$KEY"
# so_intact: hostkernel.so has the size kernel.info recorded (a copy cut
# short, or a build killed while linking, is built anew, not handed out)
so_intact() {
    local want
    want=$(sed -n 's/^so_size=//p' "$OUT/kernel.info" 2>/dev/null)
    [ -n "$want" ] && [ "$(stat -c %s "$OUT/hostkernel.so" 2>/dev/null)" = "$want" ]
}
# the tree a cached build was made from may be gone (a scratch copy): the
# same tree, by its hash, is here now, and kernel.info's source= (which
# kernel coverage reads the kernel's lines from) names it from now on
refresh_source() {
    local was
    was=$(sed -n 's/^source=//p' "$OUT/kernel.info")
    [ -d "$was" ] || [ "$was" = "$SRC" ] || {
        sed "s|^source=.*|source=$SRC|" "$OUT/kernel.info" >"$OUT/kernel.info.tmp" &&
            mv "$OUT/kernel.info.tmp" "$OUT/kernel.info"
    } || echo "build-kernel: could not point kernel.info's source= at $SRC (kernel coverage reads the kernel's lines there)" >&2
}
if [ "$FORCE" = 0 ] && [ -f "$OUT/hostkernel.so" ] && [ -f "$OUT/kernel.info" ] && so_intact; then
    note "cached"
    refresh_source
    echo "$OUT" || stdout_failed "the build's path, $OUT"
    exit 0
fi

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
# master's generators (tools/umm.py) import typing_extensions; older trees do not
if grep -rqs "import typing_extensions\|from typing_extensions" "$SRC/tools"; then
    python3 -c "import typing_extensions" 2>/dev/null ||
        missing "missing Python module typing_extensions (this tree's tools need it): install the Debian package python3-typing-extensions"
fi

# ---- pyfdt: pure Python, not packaged in Debian ----
# pyfdt_from PATH WHAT: put the pyfdt of PATH (a directory or a tarball) on
# PYTHONPATH; WHAT says where PATH came from, for the error
pyfdt_from() {
    local p=$1
    if [ -f "$p" ]; then
        local d
        d="$CACHE/pyfdt-$(sha256sum "$p" | cut -c1-12)"
        if [ ! -d "$d" ]; then
            local tmp
            tmp=$(mktemp -d "$d.tmp.XXXXXX")
            TMPS+=("$tmp")
            tar -xzf "$p" -C "$tmp" || bad "$2 $1: cannot extract it (tar's message above)"
            mv -T "$tmp" "$d" 2>/dev/null || [ -d "$d" ] || die "cannot move the extracted pyfdt to $d"
        fi
        p=$(find "$d" -name pyfdt.py -path '*/pyfdt/pyfdt.py' | head -1)
        p=${p:+$(dirname "$p")/..}
    elif [ ! -f "$p/pyfdt/pyfdt.py" ] && [ -f "$p/pyfdt/pyfdt/pyfdt.py" ]; then
        p=$p/pyfdt   # a clone of the repository: the package is one level down
    fi
    [ -n "$p" ] && [ -f "$p/pyfdt/pyfdt.py" ] || bad "$2 $1: no pyfdt/pyfdt.py in it"
    PYTHONPATH=$(cd "$p" && pwd)${PYTHONPATH:+:$PYTHONPATH}
    export PYTHONPATH
}
if [ -n "$PYFDT" ]; then
    [ -e "$PYFDT" ] || bad "--pyfdt $PYFDT: no such file or directory"
    pyfdt_from "$PYFDT" --pyfdt
elif ! python3 -c "import pyfdt" 2>/dev/null; then
    t=$(ls "$KERNELS_DIR"/pyfdt-*.tar.gz 2>/dev/null | head -1 || true)
    [ -n "$t" ] || missing "missing Python module pyfdt (not packaged in Debian): pass --pyfdt DIR|TARBALL, e.g. the tarball in ../shared/kernels, or clone https://github.com/superna9999/pyfdt and put it on PYTHONPATH"
    pyfdt_from "$t" "pyfdt from IRQSIM_KERNELS_DIR:"
fi

# one build of a key at a time: builds that ask for the same configuration
# at once (CTest runs the real-kernel tests in parallel) wait for the first
# and take its kernel from the cache. The lock files stay, one per key, in
# $CACHE/.locks: removing a lock another build waits on would let a third
# take a new one beside it.
if command -v flock >/dev/null 2>&1; then
    mkdir -p "$CACHE/.locks" || die "cannot create $CACHE/.locks"
    exec 9>"$CACHE/.locks/$KEY" || die "cannot open the lock $CACHE/.locks/$KEY"
    flock 9 || die "cannot lock $CACHE/.locks/$KEY"
    if [ "$FORCE" = 0 ] && [ -f "$OUT/hostkernel.so" ] && [ -f "$OUT/kernel.info" ]; then
        note "cached (built meanwhile by another build)"
        echo "$OUT"
        exit 0
    fi
fi
rm -rf "$OUT" && mkdir -p "$OUT"
KB="$OUT/kbuild"
mkdir -p "$KB"

# ---- the kernel's own configure, host gcc as its compiler ----
onoff() { [ "$1" = 1 ] && echo ON || echo OFF; }
note "configuring $BOARD ($MODE, $DOMAINS domain(s), $CORES core(s))${DEFINES_TEXT:+ $DEFINES_TEXT} in $KB"
(cd "$KB" && cmake -G Ninja -DCMAKE_TOOLCHAIN_FILE="$HERE/host-toolchain.cmake" \
    -DKernelPlatform="$BOARD" -DKernelSel4Arch=aarch64 -DKernelIsMCS=ON \
    -DKernelFastpath=ON -DKernelIRQFastpath="$(onoff $HAVE_IRQ_FP)" -DKernelSignalFastpath="$(onoff $HAVE_SIG_FP)" \
    -DKernelMaxNumNodes="$CORES" \
    -DKernelVerificationBuild=OFF -DKernelNumDomains="$DOMAINS" \
    -DKernelDebugBuild="$(onoff $DEBUG)" -DKernelPrinting="$(onoff $DEBUG)" \
    "${DEFINES[@]+"${DEFINES[@]}"}" "$SRC") >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log" >&2; die "the kernel's configure failed (log: $OUT/configure.log)"; }
# the generated headers before the configuration is read from them: trees
# before 2c8bc584d (2023-10-28) write gen_config.h at build time only
targets="kernel_all_c_wrapper kernel_Gen kernel_autoconf_Gen kernel_config_headers
         $(cd "$KB" && ninja -t targets all | grep -oE '^kernel_bf_gen_target_[0-9]+:' | tr -d :)"
(cd "$KB" && ninja -j2 $targets) >"$OUT/generate.log" 2>&1 ||
    { tail -20 "$OUT/generate.log" >&2; die "generating the kernel headers failed (log: $OUT/generate.log)"; }
for f in IRQ:$HAVE_IRQ_FP SIGNAL:$HAVE_SIG_FP; do
    [ "${f#*:}" = 0 ] || grep -q "^#define CONFIG_${f%:*}_FASTPATH " "$KB/gen_config/kernel/gen_config.h" ||
        die "the configuration did not enable CONFIG_${f%:*}_FASTPATH (Kernel${f%:*}Fastpath)"
done
[ "$HAVE_IRQ_FP" = 1 ] || note "this tree has no IRQ fastpath (KernelIRQFastpath): the slowpath only"
# configurations the bridge cannot build, refused with the reason (exit 2,
# nothing left in the cache):
# - the SMMU (KernelArmSMMU, tx2's default) adds a context bank to the
#   vspace cap and the ASID map, whose constructors the bridge calls
if grep -q "^#define CONFIG_ARM_SMMU " "$KB/gen_config/kernel/gen_config.h"; then
    rm -rf "$OUT"
    bad "--board $BOARD: this configuration enables the SMMU (KernelArmSMMU=ON, the platform's default), which adds a context bank field to the vspace cap and the ASID map that irqsim's bridge builds; -DKernelArmSMMU=OFF builds it without"
fi
# - a platform without KERNEL_WCET (fvp): the MCS kernel's
#   getKernelWcetUs() is generated with an empty return (platform_gen.h)
if grep -A3 "getKernelWcetUs" "$KB/gen_headers/plat/platform_gen.h" 2>/dev/null | grep -qE "return *;"; then
    rm -rf "$OUT"
    bad "--board $BOARD: the platform's config.cmake declares no KERNEL_WCET, so the tree's MCS kernel has getKernelWcetUs() return nothing (kbuild/gen_headers/plat/platform_gen.h: 'return ;'): no well-defined MCS kernel for it"
fi
# - -DKernelArmHypervisorSupport=ON that the configure dropped: the option
#   DEPENDS on the platform's core (src/arch/arm/config.cmake: Cortex-A15,
#   A35, A53, A55, A57, A72, on master A76 too); the kernel would be built
#   without it, and validated as if it had it
want_hyp=""
for d in "${DEFINES[@]+"${DEFINES[@]}"}"; do
    case "$d" in -DKernelArmHypervisorSupport=*) want_hyp=${d#*=} ;; esac
done
if [[ "$want_hyp" =~ ^(ON|on|1|TRUE|true|YES|yes)$ ]] &&
    ! grep -q "^#define CONFIG_ARM_HYPERVISOR_SUPPORT " "$KB/gen_config/kernel/gen_config.h"; then
    rm -rf "$OUT"
    bad "--board $BOARD: the kernel's configure did not take -DKernelArmHypervisorSupport=ON (its DEPENDS in src/arch/arm/config.cmake name the Cortex cores that have the virtualisation extensions; this platform's is not one of them)"
fi
got_nodes=$(sed -n 's/^#define CONFIG_MAX_NUM_NODES *//p' "$KB/gen_config/kernel/gen_config.h")
[ "$got_nodes" = "$CORES" ] || die "the kernel configured $got_nodes core(s), not $CORES"


# ---- include flags: exactly the kernel's own -I list, shim first ----
# (CMake quotes a path with a character the shell would read, -I"/a^b/include":
# each flag is one word of the array, its quotes taken off)
mapfile -t INC < <(cd "$KB" && ninja -t commands kernel_all_pp_prune_wrapper | grep -oE -- '-I("[^"]*"|[^ "]+)' |
    grep -v generated_prune | sed 's/^-I"\(.*\)"$/-I\1/' | awk '!seen[$0]++')
INC+=("-I$KB/generated")
SHIM_INC=("-I$HERE/shim/include")
# coverage: gcov's counters and notes (host_all.gcno; the run writes
# host_all.gcda where GCOV_PREFIX says), no inlining so that every function
# keeps its own counters (shim-cov/include/util.h empties FORCE_INLINE),
# and gcc's call graph of the unit (host_all.ci)
COV_FLAGS="" COV_LIBS=""
if [ "$COVERAGE" = 1 ]; then
    SHIM_INC=("-I$HERE/shim-cov/include" "${SHIM_INC[@]}")
    COV_FLAGS="--coverage -fno-inline -fno-early-inlining -fcallgraph-info"
    COV_LIBS="-lgcov -lc"
fi

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
    echo "#include \"$HERE/glue/hk_vcpu.c\""
} >"$TU"

CFLAGS_K="-D__KERNEL_64__ -std=gnu99 -nostdinc -ffreestanding -fno-common -fno-stack-protector
          -fPIC -fno-plt -fvisibility=hidden -Wno-attributes -Werror=implicit-function-declaration -O2 -g0"
note "compiling the kernel for the host"
# shellcheck disable=SC2086
gcc "${SHIM_INC[@]}" "${INC[@]}" $CFLAGS_K $COV_FLAGS $FEATURES -S "$TU" -o "$OUT/host_all.s" 2>"$OUT/compile.log" ||
    { head -40 "$OUT/compile.log" >&2
      if grep -q "^$HERE/glue/[^:]*:[0-9]*:[0-9]*: error" "$OUT/compile.log"; then
          die "compiling the kernel failed in irqsim's glue ($(grep -m1 "^$HERE/glue/[^:]*:[0-9]*:[0-9]*: error" "$OUT/compile.log" | sed "s|^$HERE/||")): this configuration's kernel objects or functions differ from those the glue was written for (log: $OUT/compile.log)"
      fi
      first=$(grep -m1 ": error" "$OUT/compile.log" | sed "s|^$SRC/||")
      case $(grep -m1 ": error" "$OUT/compile.log") in
      "$SRC"/*fastpath*) die "the tree's own fastpath code does not compile in this configuration ($first): an intermediate commit? Build without it: -D KernelSignalFastpath=OFF or -D KernelIRQFastpath=OFF (log: $OUT/compile.log)" ;;
      "$SRC"/*) die "the tree's own code does not compile in this configuration ($first) (log: $OUT/compile.log)" ;;
      esac
      die "compiling the kernel failed (log: $OUT/compile.log); a new inline-asm helper or MMIO device may need a shim"; }

# ---- coverage builds: the kernel lines this configuration compiles ----
# (review's change measure, docs/REVIEW.md "The change, measured"): the
# preprocessor's output with its line markers, reduced to "FILE<TAB>FIRST-LAST"
# ranges of the tree's lines that kept any token (a line in a disabled #if
# keeps none). Numbers only, no kernel text.
if [ "$COVERAGE" = 1 ]; then
    # shellcheck disable=SC2086
    gcc "${SHIM_INC[@]}" "${INC[@]}" $CFLAGS_K $FEATURES -E "$TU" 2>>"$OUT/compile.log" | awk -v src="$SRC/" '
        function flush() { if (rf != "") print rf "\t" rs "-" re; rf = "" }
        /^# [0-9]+ "/ { ln = $2; f = $3; gsub(/"/, "", f); next }
        {
            if (index(f, src) == 1 && $0 ~ /[^ \t]/) {
                r = substr(f, length(src) + 1)
                if (r == rf && ln == re + 1) re = ln
                else { flush(); rf = r; rs = ln; re = ln }
            }
            ln++
        }
        END { flush() }' >"$OUT/compiled-lines.txt" ||
        die "preprocessing the kernel for its compiled lines failed (log: $OUT/compile.log)"
fi

# ---- asm sites: list, check against the known list, delete ----
# A site is "file<TAB>first instruction word" (file relative to the tree).
awk -v src="$SRC/" '
    /^#APP/ { app = 1; loc = ""; ins = ""; next }
    /^#NO_APP/ { if (loc != "") print loc "\t" ins; app = 0; next }
    app && /^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); if (index(f, src) == 1) f = substr(f, length(src) + 1); if (loc == "") loc = f; next }
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
    "$OUT/host_kernel.o" $DOM_OBJ $COV_LIBS -lgcc -o "$OUT/hostkernel.so" 2>"$OUT/link.log" ||
    { cat "$OUT/link.log" >&2; die "linking hostkernel.so failed"; }

# ---- kernel.info: the constants as the compiled kernel sees them ----
TMPS+=("$OUT/kernel.info.tmp")
gcc -O2 -Wall -Wextra -Werror -I"$HERE" "$HERE/rk_info.c" -ldl -o "$OUT/rk_info"
{
    "$OUT/rk_info" "$OUT/hostkernel.so" || die "hostkernel.so does not load"
    echo "tree_hash=$TREE_HASH"
    echo "commit=$COMMIT"
    echo "source=$SRC"
    # where this build compiled the tree: gcov names the kernel's files
    # there, and source= moves to a later copy of the same content
    echo "compiled_source=$SRC"
    echo "board=$BOARD"
    echo "shim_hash=$SHIM_HASH"
    echo "features=$(echo $FEATURES | sed 's/-D//g')"
    echo "model_features=${MODEL_FEATURES:-none}"
    echo "coverage=$COVERAGE"
    echo "defines=$DEFINES_TEXT"
    # what irqsim checks before it loads the file (real/rk_load.c so_check):
    # dlopen of a copy cut short dies of SIGBUS
    echo "so_size=$(stat -c %s "$OUT/hostkernel.so")"
    echo "so_crc32=$(python3 -c 'import sys, zlib; print(zlib.crc32(open(sys.argv[1], "rb").read()))' "$OUT/hostkernel.so")"
} >"$OUT/kernel.info.tmp"
mv "$OUT/kernel.info.tmp" "$OUT/kernel.info"
# rk_info's load of a coverage build wrote counters: a run writes its own (GCOV_PREFIX)
rm -f "$OUT"/*.gcda
note "deleted asm sites: $(wc -l <"$OUT/deleted-asm-sites.txt") (list: $OUT/deleted-asm-sites.txt)"
echo "$OUT" || stdout_failed "the build's path, $OUT"
