/*
 * rk_diff: the differential verdict on outcomes the real kernel produced,
 * as check/diff.c's diff_run computes it for the model's two paths.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_RK_DIFF_H
#define IRQSIM_RK_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "kstate.h"

/* Normalise both outcomes (diff_normalise) and return the DF_* fields in
 * which they differ, with diff_run's flags: DF_OVERRUN when one outcome's
 * pending time cannot be paid and the other's can, DF_ASSERT when model
 * assertions were recorded (a real outcome records none: a failed kernel
 * assertion halts the kernel), DF_INVARIANT when an outcome breaks an exit
 * invariant (only when invariants is set). slow and fast are changed. */
uint32_t rk_verdict(struct kstate *slow, struct kstate *fast, bool invariants);

#endif
