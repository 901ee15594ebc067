/*
 * Wraps the kernel's GICv2 header: distributor and CPU interface are MMIO
 * behind const pointers initialised from kernel-window addresses; here
 * both point at host memory (hk_gicd, hk_gicc in the glue).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#include_next <arch/machine/gic_v2.h>
extern struct gic_dist_map hk_gicd;
extern struct gic_cpu_iface_map hk_gicc;
#undef GIC_V2_DISTRIBUTOR_PPTR
#define GIC_V2_DISTRIBUTOR_PPTR ((word_t)&hk_gicd)
#undef GIC_V2_CONTROLLER_PPTR
#define GIC_V2_CONTROLLER_PPTR ((word_t)&hk_gicc)
#define HK_GIC_VERSION 2
