/* shrink: test-case reduction of divergent states. */
#include "shrink.h"

#include <string.h>

#include "invariant.h"
#include "ntfn.h"
#include "refill.h"
#include "sched.h"

int shrink_size(const struct kstate *ks)
{
    int n = ks->n_tcbs + ks->n_scs + ks->n_ntfns + ks->n_eps + ks->n_replies;
    for (int i = 0; i < ks->n_scs; i++)
        n += ks->scs[i].refill_max ? (int)refill_size(&ks->scs[i]) : 0;
    for (int i = 0; i < ks->n_irqs; i++)
        n += ks->irq_state[i] != IRQ_Inactive || ks->irq_cap[i].type != CAP_Null;
    return n;
}

/* A candidate is kept when it is a valid entry state in the same class. */
static bool keeps_class(struct shrink_ws *ws, unsigned fixes, const struct dclass *want)
{
    struct inv_report r;
    if (kstate_check(&ws->cand, INV_AT_ENTRY, &r) != 0)
        return false;
    struct dclass cl;
    struct diff_verdict v;
    if (!classify_run(&ws->cand, fixes, &ws->cws, &cl, &v))
        return false;
    return dclass_same(&cl, want);
}

static bool special_thread(const struct kstate *ks, int t)
{
    if (t == ks->cur_thread || t == ks->idle_thread)
        return true;
    for (int c = 0; c < KS_MAX_CORES; c++)
        if (t == ks->core_cur[c] || t == ks->core_idle[c])
            return true;
    return false;
}

/* Take thread t out of every queue and binding, then delete it. */
static void drop_thread(struct kstate *ks, int t)
{
    struct ks_tcb *x = &ks->tcbs[t];
    tcbSchedDequeue(ks, t);
    tcbReleaseRemove(ks, t);
    if (x->state == TS_BlockedOnNotification && x->blocking != KS_NONE) {
        struct ks_ntfn *n = &ks->ntfns[x->blocking];
        tcbEPDequeue(ks, t, &n->q_head, &n->q_tail);
        if (n->q_head == KS_NONE)
            n->state = NTFN_Idle;
    } else if ((x->state == TS_BlockedOnReceive || x->state == TS_BlockedOnSend) && x->blocking != KS_NONE) {
        struct ks_ep *e = &ks->eps[x->blocking];
        tcbEPDequeue(ks, t, &e->q_head, &e->q_tail);
        if (e->q_head == KS_NONE)
            e->state = EP_Idle;
    }
    if (x->reply != KS_NONE)
        ks->replies[x->reply].tcb = KS_NONE;
    if (x->bound_ntfn != KS_NONE)
        ks->ntfns[x->bound_ntfn].bound_tcb = KS_NONE;
    if (x->sc != KS_NONE)
        ks->scs[x->sc].tcb = KS_NONE;
    ks_remove(ks, KIND_TCB, t);
}

static bool unused_sc(const struct kstate *ks, int s)
{
    return ks->scs[s].tcb == KS_NONE && s != ks->idle_sc && s != ks->cur_sc;
}

static void drop_sc(struct kstate *ks, int s)
{
    if (ks->scs[s].ntfn != KS_NONE)
        ks->ntfns[ks->scs[s].ntfn].sc = KS_NONE;
    ks_remove(ks, KIND_SC, s);
}

static bool unused_ntfn(const struct kstate *ks, int n)
{
    const struct ks_ntfn *x = &ks->ntfns[n];
    return x->q_head == KS_NONE && x->bound_tcb == KS_NONE && x->sc == KS_NONE;
}

static void drop_ntfn(struct kstate *ks, int n)
{
    for (int i = 0; i < ks->n_irqs; i++)
        if (ks->irq_cap[i].ntfn == n)
            memset(&ks->irq_cap[i], 0, sizeof ks->irq_cap[i]), ks->irq_cap[i].ntfn = KS_NONE;
    /* woken threads keep a stale blocking object; it goes with the object */
    for (int t = 0; t < ks->n_tcbs; t++)
        if (!isBlocked(ks, t) && ks->tcbs[t].blocking == n)
            ks->tcbs[t].blocking = KS_NONE;
    ks_remove(ks, KIND_NTFN, n);
}

typedef bool (*usable_fn)(const struct kstate *ks, int i);
typedef void (*drop_fn)(struct kstate *ks, int i);

static bool any_thread(const struct kstate *ks, int t)
{
    return !special_thread(ks, t);
}

static bool empty_ep(const struct kstate *ks, int e)
{
    return ks->eps[e].q_head == KS_NONE;
}

static void drop_ep(struct kstate *ks, int e)
{
    for (int t = 0; t < ks->n_tcbs; t++)
        if (!isBlocked(ks, t) && ks->tcbs[t].blocking == e)
            ks->tcbs[t].blocking = KS_NONE;
    ks_remove(ks, KIND_EP, e);
}

static bool free_reply(const struct kstate *ks, int r)
{
    return ks->replies[r].tcb == KS_NONE;
}

static void drop_reply(struct kstate *ks, int r)
{
    ks_remove(ks, KIND_REPLY, r);
}

/* Try deleting each object of one kind, last first. */
static int drop_pass(struct kstate *ks, unsigned fixes, struct shrink_ws *ws, const struct dclass *want,
                     const uint8_t *count, usable_fn usable, drop_fn drop)
{
    int kept = 0;
    for (int i = *count - 1; i >= 0; i--) {
        if (i >= *count || !usable(ks, i))
            continue;
        ks_copy(&ws->cand, ks);
        drop(&ws->cand, i);
        if (keeps_class(ws, fixes, want)) {
            ks_copy(ks, &ws->cand);
            kept++;
        }
    }
    return kept;
}

/* Field resets: each returns false when there is nothing to reset. */
static bool reset_thread_flags(struct kstate *ks, int t)
{
    struct ks_tcb *x = &ks->tcbs[t];
    struct ks_tcb before = *x;
    x->vtable_ok = x->asid_ok = x->vmid_ok = true;
    x->fpu_live = x->timeout_handler = false;
    x->badge_reg = 0;
    if (!isBlocked(ks, t) && x->state != TS_Running && x->state != TS_Restart)
        x->blocking = KS_NONE;
    if (x->state == TS_Running || x->state == TS_Restart || x->state == TS_Inactive)
        x->blocking = KS_NONE;
    return memcmp(&before, x, sizeof before) != 0;
}

static bool reset_sc_fields(struct kstate *ks, int s)
{
    struct ks_sc *x = &ks->scs[s];
    if (!x->consumed && !x->badge)
        return false;
    x->consumed = x->badge = 0;
    return true;
}

/* One refill holding the whole budget, where the head already starts. */
static bool single_refill(struct kstate *ks, int s)
{
    struct ks_sc *x = &ks->scs[s];
    if (!x->refill_max || x->period == 0 || refill_single(x))
        return false;
    ticks_t t = x->refills[x->head].time;
    ticks_t budget = x->budget;
    memset(x->refills, 0, sizeof x->refills);
    x->head = x->tail = 0;
    x->refills[0].time = t;
    x->refills[0].amount = budget;
    return true;
}

static bool reset_config(struct kstate *ks, int what)
{
    struct ks_config *c = &ks->cfg;
    switch (what) {
    case 0: if (!c->hyp) return false; c->hyp = false; return true;
    case 1: if (!c->smp) return false; c->smp = false; return true;
    default: if (ks->active_irq < 0 || ks->n_irqs <= ks->active_irq + 1) return false;
        ks->n_irqs = (uint16_t)(ks->active_irq + 1);
        return true;
    }
}

static bool reset_irq(struct kstate *ks, int irq)
{
    if (irq == ks->active_irq || irq >= ks->n_irqs)
        return false;
    if (ks->irq_state[irq] == IRQ_Inactive && ks->irq_cap[irq].type == CAP_Null && !ks->irq_masked[irq] &&
        !ks->irq_active[irq])
        return false;
    ks->irq_state[irq] = IRQ_Inactive;
    memset(&ks->irq_cap[irq], 0, sizeof ks->irq_cap[irq]);
    ks->irq_cap[irq].ntfn = KS_NONE;
    ks->irq_masked[irq] = false;
    ks->irq_active[irq] = false;
    return true;
}

typedef bool (*reset_fn)(struct kstate *ks, int i);

static int reset_pass(struct kstate *ks, unsigned fixes, struct shrink_ws *ws, const struct dclass *want,
                      int count, reset_fn reset)
{
    int kept = 0;
    for (int i = 0; i < count; i++) {
        ks_copy(&ws->cand, ks);
        if (!reset(&ws->cand, i))
            continue;
        if (keeps_class(ws, fixes, want)) {
            ks_copy(ks, &ws->cand);
            kept++;
        }
    }
    return kept;
}

/* Move every absolute time down so the earliest is near zero. Round-robin
 * refills' times only need to stay ready, so they do not set the floor. */
static bool shift_times(struct kstate *ks, int unused)
{
    (void)unused;
    ticks_t low = ks->cur_time - ks->consumed;
    for (int s = 0; s < ks->n_scs; s++) {
        const struct ks_sc *x = &ks->scs[s];
        if (x->period == 0)
            continue;
        unsigned i = x->head;
        for (unsigned n = x->refill_max ? refill_size(x) : 0; n; n--, i = refill_next(x, i))
            if (x->refills[i].time < low)
                low = x->refills[i].time;
    }
    if (low < 1000)
        return false;
    ticks_t by = low - low % 1000;
    ks->cur_time -= by;
    ks->hw_clock -= by;
    if (ks->deadline != UINT64_MAX)
        ks->deadline -= by;
    for (int s = 0; s < ks->n_scs; s++) {
        struct ks_sc *x = &ks->scs[s];
        unsigned i = x->head;
        for (unsigned n = x->refill_max ? refill_size(x) : 0; n; n--, i = refill_next(x, i))
            x->refills[i].time = x->refills[i].time >= by ? x->refills[i].time - by : 0;
    }
    return true;
}

/* Unbind thread i's notification. */
static bool unbind_ntfn(struct kstate *ks, int t)
{
    int n = ks->tcbs[t].bound_ntfn;
    if (n == KS_NONE)
        return false;
    ks->tcbs[t].bound_ntfn = KS_NONE;
    ks->ntfns[n].bound_tcb = KS_NONE;
    return true;
}

/* Unbind SC i from its notification. */
static bool unbind_sc_ntfn(struct kstate *ks, int s)
{
    int n = ks->scs[s].ntfn;
    if (n == KS_NONE)
        return false;
    ks->scs[s].ntfn = KS_NONE;
    ks->ntfns[n].sc = KS_NONE;
    return true;
}

int shrink_state(struct kstate *ks, unsigned fixes, struct shrink_ws *ws)
{
    struct dclass want;
    struct diff_verdict v;
    if (!classify_run(ks, fixes, &ws->cws, &want, &v))
        return 0;
    int total = 0;
    for (int round = 0; round < 8; round++) {
        int kept = 0;
        kept += drop_pass(ks, fixes, ws, &want, &ks->n_tcbs, any_thread, drop_thread);
        kept += drop_pass(ks, fixes, ws, &want, &ks->n_scs, unused_sc, drop_sc);
        kept += drop_pass(ks, fixes, ws, &want, &ks->n_ntfns, unused_ntfn, drop_ntfn);
        kept += drop_pass(ks, fixes, ws, &want, &ks->n_eps, empty_ep, drop_ep);
        kept += drop_pass(ks, fixes, ws, &want, &ks->n_replies, free_reply, drop_reply);
        kept += reset_pass(ks, fixes, ws, &want, ks->n_irqs, reset_irq);
        kept += reset_pass(ks, fixes, ws, &want, 3, reset_config);
        kept += reset_pass(ks, fixes, ws, &want, ks->n_tcbs, reset_thread_flags);
        kept += reset_pass(ks, fixes, ws, &want, ks->n_scs, reset_sc_fields);
        kept += reset_pass(ks, fixes, ws, &want, ks->n_scs, single_refill);
        kept += reset_pass(ks, fixes, ws, &want, ks->n_tcbs, unbind_ntfn);
        kept += reset_pass(ks, fixes, ws, &want, ks->n_scs, unbind_sc_ntfn);
        kept += reset_pass(ks, fixes, ws, &want, 1, shift_times);
        total += kept;
        if (!kept)
            break;
    }
    return total;
}
