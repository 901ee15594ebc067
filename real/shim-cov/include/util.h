/*
 * util.h for coverage builds (build-kernel.sh --coverage): the kernel's
 * own util.h with FORCE_INLINE emptied. always_inline functions
 * (fastpath_irq, fastpath_signal, lookup_fp, switchToThread_fp, ...) are
 * otherwise copied into every caller before gcc instruments the code, and
 * gcov then lists one set of branches per copy on each of their lines,
 * with no function to own them; emptied, each is one function with its
 * own counters (docs/KERNEL-COVERAGE.md, "Attribution"). Inlining changes no
 * C semantics. Only on the include path of a coverage build.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include_next <util.h>
#undef FORCE_INLINE
#define FORCE_INLINE
