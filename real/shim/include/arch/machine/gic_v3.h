/*
 * Wraps the kernel's GICv3 header: the distributor is reached through a
 * const pointer initialised from a kernel-window address; here it points
 * at host memory (hk_gicd in the glue), so maskInterrupt's writes can be
 * read back. The redistributor pointers are writable and set by the glue.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#include_next <arch/machine/gic_v3.h>
extern struct gic_dist_map hk_gicd;
#undef GICD_PPTR
#define GICD_PPTR ((word_t)&hk_gicd)
#define HK_GIC_VERSION 3
