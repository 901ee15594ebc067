/*
 * Wraps the kernel's arch/model/smp.h: the CLH lock's exchange is an
 * ldxr/stxr asm loop; here it is a compiler atomic.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#define try_arch_atomic_exchange_rlx hk_unused_real_try_arch_atomic_exchange_rlx
#include_next <arch/model/smp.h>
#undef try_arch_atomic_exchange_rlx
#ifdef ENABLE_SMP_SUPPORT
static inline bool_t try_arch_atomic_exchange_rlx(void *ptr, void *new_val, void **prev)
{
    *prev = __atomic_exchange_n((void **)ptr, new_val, __ATOMIC_RELAXED);
    return true;
}
#endif
