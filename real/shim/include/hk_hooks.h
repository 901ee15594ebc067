/*
 * hk_hooks: what the shim headers call instead of hardware: the system
 * register model and the exit back to the host. Included by kernel
 * headers of the host kernel build only.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once

/* System registers the interrupt path touches, by name. HK_REG_ID folds
 * to a constant at compile time (every name is a string literal), so a
 * register access costs one switch, not a string compare. */
enum hk_reg {
    HK_REG_OTHER,
    HK_REG_CLOCK,    /* cntvct_el0 (cntpct_el0 on hyp builds): getCurrentTime */
    HK_REG_CVAL,     /* cntv_cval_el0 (cnthp_cval_el2 on hyp): setDeadline */
    HK_REG_IAR1,     /* GICv3 ICC_IAR1_EL1: getActiveIRQ */
    HK_REG_EOIR1,    /* GICv3 ICC_EOIR1_EL1: ackInterrupt */
    HK_REG_HPPIR1,   /* GICv3 ICC_HPPIR1_EL1: isIRQPending */
    HK_REG_TTBR0,    /* ttbr0_el1: setCurrentUserVSpaceRoot */
    HK_REG_VTTBR,    /* vttbr_el2: the same on hyp builds */
    HK_REG_CPACR,    /* cpacr_el1: FPU enable/disable */
    HK_REG_CPTR,     /* cptr_el2: FPU enable/disable on hyp builds */
    HK_REG_SGI1R,    /* GICv3 ICC_SGI1R_EL1: ipi_send_target (SMP) */
    HK_REG_DIR,      /* GICv3 ICC_DIR_EL1: deactivateInterrupt (split EOI, master) */
    HK_REG_COUNT
};

#define HK_STREQ(a, b) (__builtin_strcmp((a), (b)) == 0)
#define HK_REG_ID(r)                                                                 \
    (HK_STREQ(r, "cntvct_el0") || HK_STREQ(r, "cntpct_el0")         ? HK_REG_CLOCK  \
     : HK_STREQ(r, "cntv_cval_el0") || HK_STREQ(r, "cnthp_cval_el2") ? HK_REG_CVAL   \
     : HK_STREQ(r, "S3_0_C12_C12_0")                                 ? HK_REG_IAR1   \
     : HK_STREQ(r, "S3_0_C12_C12_1")                                 ? HK_REG_EOIR1  \
     : HK_STREQ(r, "S3_0_C12_C12_2")                                 ? HK_REG_HPPIR1 \
     : HK_STREQ(r, "ttbr0_el1")                                      ? HK_REG_TTBR0  \
     : HK_STREQ(r, "vttbr_el2")                                      ? HK_REG_VTTBR  \
     : HK_STREQ(r, "cpacr_el1")                                      ? HK_REG_CPACR  \
     : HK_STREQ(r, "cptr_el2")                                       ? HK_REG_CPTR   \
     : HK_STREQ(r, "S3_0_C12_C11_5")                                 ? HK_REG_SGI1R  \
     : HK_STREQ(r, "S3_0_C12_C11_1")                                 ? HK_REG_DIR    \
                                                                     : HK_REG_OTHER)

unsigned long hk_mrs(int reg);
void hk_msr(int reg, unsigned long v);
/* Leave the kernel: back to the entry harness (hk_glue.c). */
void hk_exit(int why) __attribute__((noreturn));

enum hk_exit_why { HK_EXIT_NONE, HK_EXIT_USER, HK_EXIT_FASTPATH, HK_EXIT_HALT };
