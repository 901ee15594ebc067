/*
 * Wraps the kernel's mode/smp/smp.h: getCurrentCPUIndex reads tpidr with
 * raw asm; here it returns the core the host entry harness runs on.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#define getCurrentCPUIndex hk_unused_real_getCurrentCPUIndex
#include_next <mode/smp/smp.h>
#undef getCurrentCPUIndex
#ifdef ENABLE_SMP_SUPPORT
extern word_t hk_cpu;
static inline CONST cpu_id_t getCurrentCPUIndex(void)
{
    return hk_cpu;
}
#endif
