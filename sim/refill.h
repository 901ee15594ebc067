/*
 * refill: the MCS refill queue of a scheduling context (kernel
 * src/kernel/sporadic.c and include/kernel/sporadic.h): readiness and
 * sufficiency tests, budget charging with schedule-used merging, the
 * sporadic unblock check, and the round-robin helpers.
 */
#ifndef IRQSIM_REFILL_H
#define IRQSIM_REFILL_H

#include "kstate.h"

#define MIN_REFILLS 2u

static inline struct ks_refill *refill_head(struct kstate *ks, int sc)
{
    return &ks->scs[sc].refills[ks->scs[sc].head];
}

static inline struct ks_refill *refill_tail(struct kstate *ks, int sc)
{
    return &ks->scs[sc].refills[ks->scs[sc].tail];
}

/* refill_next */
static inline unsigned refill_next(const struct ks_sc *s, unsigned i)
{
    return i == s->refill_max - 1u ? 0 : i + 1u;
}

/* isRoundRobin */
static inline bool isRoundRobin(const struct kstate *ks, int sc)
{
    return ks->scs[sc].period == 0;
}

unsigned refill_size(const struct ks_sc *s);
bool refill_single(const struct ks_sc *s);
bool refill_full(const struct ks_sc *s);
ticks_t refill_capacity(struct kstate *ks, int sc, ticks_t usage);
bool refill_sufficient(struct kstate *ks, int sc, ticks_t usage);
bool refill_ready(struct kstate *ks, int sc);
bool sc_active(const struct kstate *ks, int sc);
bool sc_sporadic(struct kstate *ks, int sc);
bool sc_constant_bandwidth(const struct kstate *ks, int sc);
ticks_t refill_sum(const struct ks_sc *s);
bool refill_ordered(const struct ks_sc *s);

void refill_budget_check(struct kstate *ks, ticks_t usage);
void refill_unblock_check(struct kstate *ks, int sc);

/* refill_update (SchedControl_ConfigureFlags on an SC in use) at ksCurTime */
void refill_update(struct kstate *ks, int sc, ticks_t new_period, ticks_t new_budget, unsigned new_max_refills);
bool sc_released(struct kstate *ks, int sc);

/* Configure sc as refill_new would at time now (tests and the generator). */
void refill_new(struct kstate *ks, int sc, unsigned max_refills, ticks_t budget,
                ticks_t period, ticks_t now);

#endif
