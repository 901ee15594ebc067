#!/bin/sh
# The "kernel compiler" for configuring a seL4 tree: the host gcc with the
# aarch64 machine options (-march=..., -mgeneral-regs-only, ...) dropped.
# The kernel's build only preprocesses with it (bitfield and pruning
# steps), so no machine option changes what irqsim takes from the build.
for a in "$@"; do
    shift
    case "$a" in
        -m*) ;;
        *) set -- "$@" "$a" ;;
    esac
done
exec gcc "$@"
