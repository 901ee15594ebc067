/*
 * hk_hooks: what the shim headers call instead of hardware: the system
 * register model and the exit back to the host. Included by kernel
 * headers of the host kernel build only.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#include <config.h> /* CONFIG_ARM_HYPERVISOR_SUPPORT, before HK_CVAL_NAME */

/* System registers the interrupt path touches, by name. HK_REG_ID folds
 * to a constant at compile time (every name is a string literal), so a
 * register access costs one switch, not a string compare. */
enum hk_reg {
    HK_REG_OTHER,
    HK_REG_CLOCK,    /* cntvct_el0 (cntpct_el0 on hyp builds): getCurrentTime */
    HK_REG_CVAL,     /* cntv_cval_el0 (cnthp_cval_el2 on hyp: HK_CVAL_NAME): setDeadline */
    HK_REG_IAR1,     /* GICv3 ICC_IAR1_EL1: getActiveIRQ */
    HK_REG_EOIR1,    /* GICv3 ICC_EOIR1_EL1: ackInterrupt */
    HK_REG_HPPIR1,   /* GICv3 ICC_HPPIR1_EL1: isIRQPending */
    HK_REG_TTBR0,    /* ttbr0_el1: setCurrentUserVSpaceRoot */
    HK_REG_VTTBR,    /* vttbr_el2: the same on hyp builds */
    HK_REG_CPACR,    /* cpacr_el1: FPU enable/disable */
    HK_REG_CPTR,     /* cptr_el2: FPU enable/disable on hyp builds */
    HK_REG_SGI1R,    /* GICv3 ICC_SGI1R_EL1: ipi_send_target (SMP) */
    HK_REG_DIR,      /* GICv3 ICC_DIR_EL1: deactivateInterrupt (split EOI, master) */
    HK_REG_ICH_MISR, /* GICv3 ICH_MISR_EL2: VGICMaintenance (hyp) */
    HK_REG_ICH_EISR, /* GICv3 ICH_EISR_EL2: the same */
    HK_REG_ICH_LR0,  /* GICv3 ICH_LR0_EL2 .. ICH_LR15_EL2: HK_REG_ICH_LR0 + n */
    HK_REG_COUNT = HK_REG_ICH_LR0 + 16
};

/* ICH_LRn_EL2 is S3_4_C12_C12_n for n < 8, S3_4_C12_C13_(n - 8) above */
#define HK_STRNEQ(a, b, n) (__builtin_strncmp((a), (b), (n)) == 0)
#define HK_ICH_LR_ID(r)                                                                        \
    (HK_STRNEQ(r, "S3_4_C12_C12_", 13) ? HK_REG_ICH_LR0 + ((r)[13] - '0')                     \
     : HK_STRNEQ(r, "S3_4_C12_C13_", 13) ? HK_REG_ICH_LR0 + 8 + ((r)[13] - '0')               \
                                         : HK_REG_OTHER)

#define HK_STREQ(a, b) (__builtin_strcmp((a), (b)) == 0)
/* The kernel's timer compare register: a hypervisor build programs the EL2
 * physical timer (cnthp_cval_el2) and leaves cntv_cval_el0 to the guest,
 * whose value a VCPU switch restores (restore_virt_timer); a build without
 * hypervisor support programs cntv_cval_el0. */
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
#define HK_CVAL_NAME "cnthp_cval_el2"
#else
#define HK_CVAL_NAME "cntv_cval_el0"
#endif
#define HK_REG_ID(r)                                                                 \
    (HK_STREQ(r, "cntvct_el0") || HK_STREQ(r, "cntpct_el0")         ? HK_REG_CLOCK  \
     : HK_STREQ(r, HK_CVAL_NAME)                                     ? HK_REG_CVAL   \
     : HK_STREQ(r, "S3_0_C12_C12_0")                                 ? HK_REG_IAR1   \
     : HK_STREQ(r, "S3_0_C12_C12_1")                                 ? HK_REG_EOIR1  \
     : HK_STREQ(r, "S3_0_C12_C12_2")                                 ? HK_REG_HPPIR1 \
     : HK_STREQ(r, "ttbr0_el1")                                      ? HK_REG_TTBR0  \
     : HK_STREQ(r, "vttbr_el2")                                      ? HK_REG_VTTBR  \
     : HK_STREQ(r, "cpacr_el1")                                      ? HK_REG_CPACR  \
     : HK_STREQ(r, "cptr_el2")                                       ? HK_REG_CPTR   \
     : HK_STREQ(r, "S3_0_C12_C11_5")                                 ? HK_REG_SGI1R  \
     : HK_STREQ(r, "S3_0_C12_C11_1")                                 ? HK_REG_DIR    \
     : HK_STREQ(r, "S3_4_C12_C11_2")                                 ? HK_REG_ICH_MISR \
     : HK_STREQ(r, "S3_4_C12_C11_3")                                 ? HK_REG_ICH_EISR \
                                                                     : HK_ICH_LR_ID(r))

unsigned long hk_mrs(int reg);
void hk_msr(int reg, unsigned long v);
/* Leave the kernel: back to the entry harness (hk_glue.c). */
void hk_exit(int why) __attribute__((noreturn));

enum hk_exit_why { HK_EXIT_NONE, HK_EXIT_USER, HK_EXIT_FASTPATH, HK_EXIT_HALT };
