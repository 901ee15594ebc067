/*
 * presets: the two seL4Bench IRQ situations of PR #1227, built as the
 * benchmarks build them, for tests, the cost model and the demo run.
 */
#ifndef IRQSIM_PRESETS_H
#define IRQSIM_PRESETS_H

#include "kstate.h"

#define PRESET_IRQ 40
#define PRESET_T0 1000000ull   /* ksCurTime at the last kernel exit */
#define PRESET_RUN_US 1000ull  /* the spinner ran this long before the IRQ */

/* sel4bench irquser: handler at 254 waits directly (unbound) on the IRQ's
 * notification; a spinner at 253 runs; both round-robin SCs with budget =
 * period = 5 ms (the spinner has already used 1.25 ms of its slice). */
int preset_irquser(struct kstate *ks, const char *board);
/* The proposal's no-switch variant: handler at 253 waits, a thread at 254
 * spins; SCs of 5 s budget and period. */
int preset_noswitch(struct kstate *ks, const char *board);

#endif
