/* refill: model of the kernel's sporadic-server refill queue. */
#include "refill.h"

#include "cost_hooks.h"
#include "kassert.h"

/* refill_size */
unsigned refill_size(const struct ks_sc *s)
{
    if (s->head <= s->tail)
        return s->tail - s->head + 1u;
    return s->tail + 1u + (s->refill_max - s->head);
}

/* refill_single */
bool refill_single(const struct ks_sc *s)
{
    return s->head == s->tail;
}

/* refill_full */
bool refill_full(const struct ks_sc *s)
{
    return refill_size(s) == s->refill_max;
}

/* refill_capacity */
ticks_t refill_capacity(struct kstate *ks, int sc, ticks_t usage)
{
    ticks_t amount = refill_head(ks, sc)->amount;
    if (usage > amount)
        return 0;
    return amount - usage;
}

/* refill_sufficient */
bool refill_sufficient(struct kstate *ks, int sc, ticks_t usage)
{
    return refill_capacity(ks, sc, usage) >= ks->cfg.min_budget;
}

/* refill_ready */
bool refill_ready(struct kstate *ks, int sc)
{
    return refill_head(ks, sc)->time <= ks->cur_time;
}

/* sc_active */
bool sc_active(const struct kstate *ks, int sc)
{
    return ks->scs[sc].refill_max > 0;
}

/* sc_sporadic: also holds the kernel's assert that a sporadic SC is active */
bool sc_sporadic(struct kstate *ks, int sc)
{
    if (sc == KS_NONE)
        return false;
    KASSERT(ks, !ks->scs[sc].sporadic || sc_active(ks, sc), A_SPORADIC_ACTIVE);
    return ks->scs[sc].sporadic;
}

/* sc_constant_bandwidth */
bool sc_constant_bandwidth(const struct kstate *ks, int sc)
{
    return !ks->scs[sc].sporadic;
}

/* One walk of the queue from head to tail for the kernel's two sanity
 * checks (REFILL_SANITY_START/END run both on every charge and unblock):
 * the sum of the amounts, wrapping like the kernel's ticks_t sum
 * (refill_sum), and whether each refill ends before the next starts, an
 * end that wraps past 2^64 counting as out of order; round-robin SCs are
 * exempt from the order (refill_ordered, a debug-build check). */
static ticks_t refill_walk(const struct ks_sc *s, bool *ordered)
{
    ticks_t sum = s->refills[s->head].amount;
    bool ok = true;
    unsigned cur = s->head;
    while (cur != s->tail) {
        unsigned next = refill_next(s, cur);
        const struct ks_refill *a = &s->refills[cur], *b = &s->refills[next];
        if (s->period != 0 && (a->time + a->amount > b->time || a->time + a->amount < a->time))
            ok = false;
        sum += b->amount;
        cur = next;
    }
    *ordered = ok;
    return sum;
}

/* refill_sum */
ticks_t refill_sum(const struct ks_sc *s)
{
    bool ordered;
    return refill_walk(s, &ordered);
}

/* refill_ordered */
bool refill_ordered(const struct ks_sc *s)
{
    bool ordered;
    refill_walk(s, &ordered);
    return ordered;
}

/* refill_pop_head */
static struct ks_refill refill_pop_head(struct kstate *ks, int sc)
{
    struct ks_sc *s = &ks->scs[sc];
    KASSERT(ks, !refill_single(s), A_POP_SINGLE);
    COST(ks, 4, 1, 1); /* scRefillHead, the refill, scRefillMax; wrap?; scRefillHead */
    struct ks_refill r = s->refills[s->head];
    s->head = (uint8_t)refill_next(s, s->head);
    return r;
}

/* refill_add_tail */
static void refill_add_tail(struct kstate *ks, int sc, struct ks_refill r)
{
    struct ks_sc *s = &ks->scs[sc];
    if (!ks_check(ks, refill_size(s) < s->refill_max, A_ADD_TAIL_FULL))
        return; /* the kernel would write past its queue; keep the model sane */
    COST(ks, 2, 3, 1); /* scRefillTail, scRefillMax; wrap?; scRefillTail, the refill */
    s->tail = (uint8_t)refill_next(s, s->tail);
    s->refills[s->tail] = r;
}

/* schedule_used */
static void schedule_used(struct kstate *ks, int sc, struct ks_refill used)
{
    struct ks_refill *tail = refill_tail(ks, sc);
    COST(ks, 3, 0, 1); /* scRefillTail, its rTime and rAmount */
    if (tail->time + tail->amount >= used.time) {
        COST_W(ks, 1);
        tail->amount += used.amount;
    } else if (!refill_full(&ks->scs[sc])) {
        COST(ks, 2, 0, 2); /* refill_full: scRefillHead, scRefillMax */
        refill_add_tail(ks, sc, used);
    } else {
        COST(ks, 2, 2, 2); /* refill_full; the tail's rTime and rAmount */
        tail->time = used.time - tail->amount;
        tail->amount += used.amount;
    }
}

/* refill_head_overlapping */
static bool refill_head_overlapping(struct kstate *ks, int sc)
{
    struct ks_sc *s = &ks->scs[sc];
    /* refill_single: scRefillHead, scRefillTail; then head rTime, rAmount,
     * scRefillMax, next rTime; wrap?, overlap? */
    COST(ks, 2 + 4 * !refill_single(s), 0, 1 + 2 * !refill_single(s));
    if (refill_single(s))
        return false;
    ticks_t end = s->refills[s->head].time + s->refills[s->head].amount;
    return s->refills[refill_next(s, s->head)].time <= end;
}

/* refill_budget_check: charge usage to ksCurSC */
void refill_budget_check(struct kstate *ks, ticks_t usage)
{
    int sc = ks->cur_sc;
    struct ks_sc *s = &ks->scs[sc];
    ticks_t max_release = ks->cfg.max_release;
    COST_R(ks, 1); /* ksCurSC */
    KASSERT(ks, !isRoundRobin(ks, sc), A_REFILL_NOT_RR);
    bool ordered;
    ticks_t sum = refill_walk(s, &ordered);
    KASSERT(ks, ordered, A_REFILL_SUM);

    unsigned long rounds = 0;
    while (refill_head(ks, sc)->amount <= usage && refill_head(ks, sc)->time < max_release) {
        /* the kernel loops usage/amount times; an entry clock far past
         * the deadline is unreachable, so the model stops and reports */
        if (!ks_check(ks, ++rounds < (1ul << 20), A_MODEL_LOOP))
            break;
        /* the loop test that held: head, rAmount, rTime; refill_single;
         * scPeriod (single: head rTime += it) */
        COST(ks, 6, refill_single(s), 3);
        usage -= refill_head(ks, sc)->amount;
        if (refill_single(s)) {
            refill_head(ks, sc)->time += s->period;
        } else {
            struct ks_refill old = refill_pop_head(ks, sc);
            old.time += s->period;
            schedule_used(ks, sc, old);
        }
    }
    /* the loop test that ended it (rTime read if rAmount <= usage); usage > 0 */
    COST(ks, 2 + (refill_head(ks, sc)->amount <= usage), 0, 2 + (refill_head(ks, sc)->amount <= usage));
    COST_IF(ks, usage > 0, 1, 0, 1); /* head rTime */
    if (usage > 0 && refill_head(ks, sc)->time < max_release) {
        COST(ks, 2, 2, 0); /* scPeriod, rAmount; head rAmount and rTime */
        KASSERT(ks, refill_head(ks, sc)->amount > usage, A_REFILL_HEAD_GT_USAGE);
        struct ks_refill used = {.time = refill_head(ks, sc)->time + s->period, .amount = usage};
        refill_head(ks, sc)->amount -= usage;
        refill_head(ks, sc)->time += usage;
        schedule_used(ks, sc, used);
    }
    while (refill_head(ks, sc)->amount < ks->cfg.min_budget) {
        if (refill_single(s)) {
            KASSERT(ks, false, A_POP_SINGLE);
            break; /* the kernel would pop its only refill */
        }
        COST(ks, 4, 2, 1); /* the loop test that held; head rAmount and rTime */
        struct ks_refill h = refill_pop_head(ks, sc);
        refill_head(ks, sc)->amount += h.amount;
        refill_head(ks, sc)->time -= h.amount;
    }
    COST(ks, 2, 0, 1); /* the loop test that ended it */
    ticks_t after = refill_walk(s, &ordered);
    KASSERT(ks, after == sum && ordered, A_REFILL_SUM);
}

/* refill_unblock_check */
void refill_unblock_check(struct kstate *ks, int sc)
{
    COST(ks, 1 + 3 * !isRoundRobin(ks, sc), 0, 1 + !isRoundRobin(ks, sc)); /* scPeriod; refill_ready */
    if (isRoundRobin(ks, sc))
        return;
    struct ks_sc *s = &ks->scs[sc];
    bool ordered;
    ticks_t sum = refill_walk(s, &ordered);
    KASSERT(ks, ordered, A_UNBLOCK_SUM);
    if (refill_ready(ks, sc)) {
        COST_W(ks, 2); /* head rTime, ksReprogram */
        refill_head(ks, sc)->time = ks->cur_time;
        ks->reprogram = true;
        while (refill_head_overlapping(ks, sc)) {
            COST(ks, 1, 2, 0); /* head rTime and rAmount */
            struct ks_refill old = refill_pop_head(ks, sc);
            refill_head(ks, sc)->time = old.time;
            refill_head(ks, sc)->amount += old.amount;
        }
        KASSERT(ks, refill_sufficient(ks, sc, 0), A_UNBLOCK_SUFFICIENT);
    }
    /* REFILL_SANITY_END: the kernel's two asserts (merging keeps the sum) */
    ticks_t after = refill_walk(s, &ordered);
    KASSERT(ks, after == sum, A_UNBLOCK_SUM);
    KASSERT(ks, ordered, A_UNBLOCK_SUM);
}

/* refill_new */
void refill_new(struct kstate *ks, int sc, unsigned max_refills, ticks_t budget,
                ticks_t period, ticks_t now)
{
    struct ks_sc *s = &ks->scs[sc];
    s->period = period;
    s->budget = budget;
    s->head = s->tail = 0;
    s->refill_max = (uint8_t)max_refills;
    s->refills[0].amount = budget;
    s->refills[0].time = now;
    if (period == 0 && max_refills >= MIN_REFILLS) {
        s->tail = 1;
        s->refills[1].time = now;
        s->refills[1].amount = 0;
    }
}

/* maybe_add_empty_tail: a round-robin SC tracks the time used in an empty
 * tail refill */
static void maybe_add_empty_tail(struct kstate *ks, int sc)
{
    if (!isRoundRobin(ks, sc))
        return;
    struct ks_refill empty = {.time = refill_head(ks, sc)->time, .amount = 0};
    refill_add_tail(ks, sc, empty);
}

/* refill_update: new parameters for an SC in use, keeping the sliding
 * window: the head is kept (trimmed to the new budget), the rest of the
 * budget comes one new period after it */
void refill_update(struct kstate *ks, int sc, ticks_t new_period, ticks_t new_budget, unsigned new_max_refills)
{
    struct ks_sc *s = &ks->scs[sc];
    KASSERT(ks, s->refill_max > 0, A_REFILL_UPDATE_ACTIVE);
    s->refills[0] = *refill_head(ks, sc);
    s->head = s->tail = 0;
    s->refill_max = (uint8_t)new_max_refills;
    s->period = new_period;
    s->budget = new_budget;
    if (refill_ready(ks, sc))
        refill_head(ks, sc)->time = ks->cur_time;
    if (refill_head(ks, sc)->amount >= new_budget) {
        refill_head(ks, sc)->amount = new_budget;
        maybe_add_empty_tail(ks, sc);
        return;
    }
    struct ks_refill rest = {.time = refill_head(ks, sc)->time + new_period,
                             .amount = new_budget - refill_head(ks, sc)->amount};
    refill_add_tail(ks, sc, rest);
}

/* sc_released */
bool sc_released(struct kstate *ks, int sc)
{
    if (!sc_active(ks, sc))
        return false;
    KASSERT(ks, refill_sufficient(ks, sc, 0), A_SC_RELEASED_SUFF);
    return refill_ready(ks, sc);
}
