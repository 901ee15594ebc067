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

/* The fields in which two outcomes already normalised (diff_normalise,
 * whose false return is an overrun: ox, oy) differ: diff_compare's, with
 * DF_OVERRUN when one side could pay its pending time and the other not,
 * and DF_ASSERT when the assertions of their normalisation differ or,
 * with model_debug, x (the model's outcome) failed one during the path,
 * where a debug kernel would have halted (a real outcome records none).
 * The verdict of `irqsim validate --real`, `fuzz --real` and `review`. */
uint32_t rk_compare(const struct kstate *x, bool ox, const struct kstate *y, bool oy, bool model_debug);

/* The known finding a real kernel's halt text shows (what it is, one
 * sentence), NULL when it is none of them. */
const char *rk_known_halt(const char *text);

/* The model's own failed assertion that explains a real kernel's halt on
 * the same state and path: the kassert id, or -1 when none does. model is
 * the model's outcome of that path (its path assertions, not those of the
 * normalisation). A debug kernel's halt text names the function of the
 * first assertion that failed ("... in function chooseThread"): one of the
 * model's failed assertions must be in that function. A release kernel
 * says nothing and halts only on fail() (assert() is compiled out,
 * include/assert.h): one of the model's must be a fail ("(fail)" in its
 * kassert text). */
int rk_predicted_halt(const struct kstate *model, const char *text);

#endif
