/* timeshift: simulator states equal under a shift of time (timeshift.h). */
#include "timeshift.h"

#include <stdlib.h>
#include <string.h>

#include "refill.h"

#define NEVER UINT64_MAX

/* the refills in use of SC s, head to tail (refill_next wraps at refill_max) */
static void each_refill(struct ks_sc *s, void (*fn)(void *ctx, ticks_t *p), void *ctx)
{
    if (s->refill_max == 0 || s->refill_max > KS_MAX_REFILLS || s->head >= s->refill_max || s->tail >= s->refill_max)
        return; /* not configured, or indices the checker refuses: nothing moves */
    for (unsigned i = s->head;; i = refill_next(s, i)) {
        fn(ctx, &s->refills[i].time);
        if (i == s->tail)
            return;
    }
}

void ts_each_ks_time(struct kstate *ks, int cores, void (*fn)(void *ctx, ticks_t *p), void *ctx)
{
    fn(ctx, &ks->hw_clock);
    fn(ctx, &ks->cur_time);
    if (ks->deadline != NEVER)
        fn(ctx, &ks->deadline);
    for (int c = 1; c < cores && c < KS_MAX_CORES; c++) {
        fn(ctx, &ks->core_time[c]);
        if (ks->core_deadline[c] != NEVER)
            fn(ctx, &ks->core_deadline[c]);
    }
    for (int i = 0; i < ks->n_scs; i++)
        if (ks->scs[i].period != 0) /* round-robin refill times never move (timeshift.h) */
            each_refill(&ks->scs[i], fn, ctx);
}

static void add(void *ctx, ticks_t *p)
{
    *p += *(const ticks_t *)ctx;
}

void ts_ks_shift(struct kstate *ks, int cores, ticks_t delta)
{
    ts_each_ks_time(ks, cores, add, &delta);
}

/* a round-robin SC's refill times in use at or before ref */
static bool rr_past(const struct kstate *ks, ticks_t ref)
{
    for (int i = 0; i < ks->n_scs; i++) {
        const struct ks_sc *s = &ks->scs[i];
        if (s->period != 0 || s->refill_max == 0 || s->refill_max > KS_MAX_REFILLS || s->head >= s->refill_max ||
            s->tail >= s->refill_max)
            continue;
        for (unsigned j = s->head;; j = refill_next(s, j)) {
            if (s->refills[j].time > ref)
                return false;
            if (j == s->tail)
                break;
        }
    }
    return true;
}

/* the refills out of use zeroed: no path reads them (refill_add_tail
 * writes a slot before it is in use) */
static void clear_unused(struct ks_sc *s)
{
    if (s->refill_max == 0 || s->refill_max > KS_MAX_REFILLS || s->head >= s->refill_max || s->tail >= s->refill_max)
        return;
    bool used[KS_MAX_REFILLS] = {false};
    for (unsigned i = s->head;; i = refill_next(s, i)) {
        used[i] = true;
        if (i == s->tail)
            break;
    }
    for (unsigned i = 0; i < KS_MAX_REFILLS; i++)
        if (!used[i])
            s->refills[i] = (struct ks_refill){0, 0};
}

static void past(void *ctx, ticks_t *p)
{
    (void)ctx;
    if ((int64_t)*p < 0)
        *p = 1ull << 63;
    else if (*p > 6000)
        *p = UINT64_MAX - 1;
}

bool ts_ks_rel(struct kstate *dst, const struct kstate *src, int cores, ticks_t ref, uint32_t *never)
{
    ks_copy(dst, src);
    *never = (src->deadline == NEVER) | (uint32_t)(cores > 1 && src->core_deadline[1] == NEVER) << 1;
    ts_ks_shift(dst, cores, (ticks_t)0 - ref);
    for (int i = 0; i < dst->n_scs; i++) {
        clear_unused(&dst->scs[i]);
        dst->scs[i].consumed = 0; /* MEASURE */
    }
    memset(dst->irq_acks, 0, dst->n_irqs); /* MEASURE */
    dst->oor_acks = 0;
    if (getenv("IRQSIM_SHIFT_PAST")) /* MEASURE: every past time one value (unsound: an upper bound) */
        ts_each_ks_time(dst, cores, past, NULL);
    return rr_past(src, ref);
}

/* the simulator's times of kernel k (timeshift.h) */
static void kernel_shift(const struct sim *s, struct sim_kernel *k, ticks_t delta)
{
    const struct workload *w = s->w;
    ts_ks_shift(&k->ks, w->cores, delta);
    k->now += delta;
    k->entry_t0 += delta;
    for (int c = 0; c < w->cores && c < KS_MAX_CORES; c++)
        if (k->ks.ipi_sent >> c & 1u)
            k->ipi_at[c] += delta;
    for (int q = 0; q < w->n_irqs; q++) {
        if (k->pending[q])
            k->pending_since[q] += delta;
        if (k->next_periodic[q] != NEVER)
            k->next_periodic[q] += delta;
    }
}

void ts_sim_shift(struct sim *s, struct workload *w, ticks_t delta)
{
    const struct sim_kernel *k0 = sim_kernel_of(s, 0), *k1 = sim_kernel_of(s, 1); /* (k[1] shadowed: stale) */
    for (int q = 0; q < w->n_irqs; q++) {
        size_t from = k0->at_idx[q] < k1->at_idx[q] ? k0->at_idx[q] : k1->at_idx[q];
        for (size_t i = from; i < w->irqs[q].n_at; i++)
            if (w->irqs[q].at[i] <= w->horizon)
                w->irqs[q].at[i] += delta;
    }
    kernel_shift(s, &s->k[0], delta);
    kernel_shift(s, &s->k[1], delta);
}
