/*
 * Wraps the kernel's arch/machine.h (include/arch/arm/arch/machine.h):
 * arch_pause, the body of every spin loop, is where the host kernel lets
 * the other core act. A blocking remote call (doRemoteMaskOp, e.g.
 * migrateTCB releasing a thread's FPU on the core that holds it) waits in
 * ipi_wait for the target core, which in a one-threaded host would never
 * come; hk_other_core_step (hk_glue.c) runs the target's side of the call
 * (handleIPI as that core) the first time the caller spins.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#define arch_pause hk_unused_real_arch_pause
#include_next <arch/machine.h>
#undef arch_pause
#ifdef ENABLE_SMP_SUPPORT
void hk_other_core_step(void);
static inline void arch_pause(void)
{
    hk_other_core_step();
}
#endif
