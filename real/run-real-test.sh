#!/bin/sh
# run-real-test.sh TREE CACHE BOARD[,debug][,hyp] PROGRAM ARGS...: build the host
# kernel (cached; ",debug": a debug build; ",hyp": -DKernelArmHypervisorSupport=ON) and run PROGRAM
# BUILD_DIR ARGS...; exit 77 (CTest: skipped) when the tree or a prerequisite is missing, saying why.
# SPDX-License-Identifier: BSD-2-Clause
tree=$1 cache=$2 board=${3%%,*}
mode=--release
hyp=""
case ",${3#*,}," in *,debug,*) [ "$board" = "$3" ] || mode=--debug ;; esac
case ",${3#*,}," in *,hyp,*) [ "$board" = "$3" ] || hyp=-DKernelArmHypervisorSupport=ON ;; esac
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -e "$tree" ]; then
    echo "SKIP: no seL4 tree at $tree (set IRQSIM_KERNELS_DIR or IRQSIM_REAL_TREE)"
    exit 77
fi
out=$(IRQSIM_KERNELS_DIR=$(dirname "$tree") "$here/build-kernel.sh" --sel4 "$tree" --board "$board" $mode $hyp --cache "$cache" 2>/tmp/rk-build.$$)
rc=$?
msg=$(cat /tmp/rk-build.$$); rm -f /tmp/rk-build.$$
if [ $rc = 3 ]; then
    echo "SKIP: $msg"
    exit 77
fi
if [ $rc != 0 ]; then
    echo "$msg"
    exit 1
fi
dir=$(echo "$out" | tail -1)
prog=$1
shift
exec "$prog" "$dir" "$@"
