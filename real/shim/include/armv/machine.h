/*
 * Replaces the kernel's armv8-a/64 armv/machine.h (barriers, wfi and the
 * MRS/MSR system register accessors, all inline asm) for the host build:
 * barriers become compiler barriers, wfi leaves the kernel (halt() and the
 * idle loop return control to the host), registers go to hk_mrs/hk_msr.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#include <hk_hooks.h>

static inline void wfi(void) { hk_exit(HK_EXIT_HALT); }
static inline void dsb(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
static inline void dsb_ishst(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
static inline void dmb(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
static inline void isb(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

#define MRS(reg, v) ((v) = hk_mrs(HK_REG_ID(reg)))
#define MSR(reg, v) hk_msr(HK_REG_ID(reg), (unsigned long)(v))
#define SYSTEM_WRITE_WORD(reg, v) MSR(reg, v)
#define SYSTEM_READ_WORD(reg, v) MRS(reg, v)
#define SYSTEM_WRITE_64(reg, v) MSR(reg, v)
#define SYSTEM_READ_64(reg, v) MRS(reg, v)
