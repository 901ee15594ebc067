/* exhaust: the bounded-exhaustive plan walk and the state builder. */
#include "exhaust.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "refill.h"
#include "sched.h"
#include "target.h"

/* ---- bounds ---- */

void exh_bounds_default(struct exh_bounds *b)
{
    b->threads = 2;
    b->ntfns = 1;
    b->refills = 2;
    b->domains = 2;
    b->board = "imx8mm";
    b->kernel = KS_KERNEL_BASE;
    b->target = target_default();
}

const char *exh_bounds_check(const struct exh_bounds *b)
{
    if (b->threads < 1 || b->threads > EXH_MAX_THREADS)
        return "threads must be between 1 and 6";
    if (b->ntfns < 1 || b->ntfns > 2)
        return "notifications must be 1 or 2 (the IRQ path touches one; a second is a bound or waited-on other)";
    if (b->refills < 1 || b->refills > EXH_MAX_REFILLS)
        return "refills must be between 1 and 4";
    if (!cfg_kernel_name(b->kernel))
        return "kernel must be base or master";
    if (!b->target || !b->target->exh)
        return "the target has no bounded enumeration";
    if (b->domains < 1 || b->domains > 2)
        return "domains must be 1 or 2 (the path compares the current domain with one other)";
    struct ks_config c;
    if (!b->board || cfg_preset(&c, b->board) != 0)
        return "unknown board";
    /* the edge values must be distinct: WCET - precision >= 2 ticks */
    if (cfg_wcet(&c) < c.precision + 2)
        return "board's timer precision leaves no WCET window";
    return NULL;
}

/* ---- the choice walk ---- */

struct exh_walk {
    struct exh_iter *it;
    int pos;
    bool bad; /* more choices than EXH_MAX_CHOICES (a design error), or a
                 seek's digit out of its range */
};

/* A choice among n values; a dimension with one value takes no position. */
static inline int choose(struct exh_walk *w, int n)
{
    if (n <= 1)
        return 0;
    struct exh_iter *it = w->it;
    if (w->pos >= EXH_MAX_CHOICES || n > 255) {
        w->bad = true;
        return 0;
    }
    int p = w->pos++;
    if (p >= it->len)
        it->digit[p] = 0;
    it->radix[p] = (uint8_t)n;
    /* a digit out of range comes only from exh_seek's caller (a saved
     * position): the plan is refused before a digit indexes a list */
    if (it->digit[p] >= n) {
        w->bad = true;
        return 0;
    }
    return it->digit[p];
}

int exh_choose(struct exh_walk *w, int n)
{
    return choose(w, n);
}

/* A choice among the values of a list. */
static int choose_in(struct exh_walk *w, const int *list, int n)
{
    return list[choose(w, n)];
}

/* constants of the board the plans depend on */
struct consts {
    int64_t mb, w, d1, c1;
};

static void board_consts(const struct exh_bounds *b, struct consts *k)
{
    struct ks_config c;
    cfg_preset(&c, b->board);
    k->mb = (int64_t)c.min_budget;
    k->w = (int64_t)(cfg_wcet(&c) - c.precision); /* WCET - precision */
    k->c1 = 3 * k->mb;
    k->d1 = 2 * k->mb;
}

/* An edge's offset from the entry clock, in ticks. */
static int64_t edge_off(const struct consts *k, int e)
{
    switch (e) {
    case E_FAR: return 100 * k->mb;
    case E_MB_PLUS1: return k->mb + 1;
    case E_MB: return k->mb;
    case E_MB_MINUS1: return k->mb - 1;
    case E_PLUS1: return 1;
    case E_ZERO: return 0;
    case E_WINDOW: return -k->w;
    default: return -k->w - 1; /* E_PAST_WINDOW */
    }
}

const char *exh_edge_name(int e)
{
    static const char *const names[E_KINDS] = {"far", "mb+1", "mb", "mb-1", "+1", "0", "-window", "-window-1"};
    return e >= 0 && e < E_KINDS ? names[e] : "?";
}

/* Keep the edges of cand whose offset satisfies off + add > lo (feasible). */
static int edges_above(const struct consts *k, const int *cand, int n, int64_t add, int64_t lo, int *out)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (edge_off(k, cand[i]) + add > lo)
            out[m++] = cand[i];
    return m;
}

/* refill_max of a periodic SC holding k refills: MIN_REFILLS at least
 * (SchedControl_ConfigureFlags: extra refills + 2), up to the bound */
static int choose_max(struct exh_walk *w, int k, int bound)
{
    int lo = k < 2 ? 2 : k, hi = bound < 2 ? 2 : bound;
    return lo + choose(w, hi - lo + 1);
}

static bool periodic_cur(int cur)
{
    return cur == CUR_CB || cur == CUR_CB_TH || cur == CUR_SPOR;
}

static bool rsc_periodic(int rsc)
{
    return rsc == RSC_OWN_CB || rsc == RSC_OWN_SPOR || rsc == RSC_NTFN_CB || rsc == RSC_NTFN_SPOR;
}

static bool rsc_configured(int rsc)
{
    return rsc == RSC_OWN_RR || rsc == RSC_NTFN_RR || rsc_periodic(rsc);
}

static bool rsc_from_ntfn(int rsc)
{
    return rsc == RSC_NTFN_RR || rsc == RSC_NTFN_CB || rsc == RSC_NTFN_SPOR;
}

#define PRIO_CUR 100
#define PRIO_ABOVE 150
#define PRIO_BELOW 50

static int rel_prio_value(int cur, int i)
{
    static const int busy[] = {PRIO_ABOVE, PRIO_CUR, PRIO_BELOW}, idle[] = {PRIO_CUR, 0};
    return cur == CUR_IDLE ? idle[i] : busy[i];
}

static int rdy_prio_value(int r)
{
    return r == RDY_BELOW ? PRIO_BELOW : PRIO_CUR;
}

static int cmp_desc(const void *a, const void *b)
{
    return *(const int *)b - *(const int *)a;
}

/* The receiver's candidate priorities: one value for each distinct
 * position relative to the priorities present in its competition (the
 * current thread, the ready and release threads of the current domain):
 * above all, equal to each, between each two, below all (not below 0). */
static int prio_candidates(const struct exh_plan *p, int *out)
{
    int s[2 + 2 * EXH_MAX_QUEUE], n = 0;
    s[n++] = p->cur == CUR_IDLE ? 0 : PRIO_CUR;
    for (int i = 0; i < p->n_rel; i++)
        s[n++] = rel_prio_value(p->cur, p->rel_prio[i]);
    for (int i = 0; i < p->n_rdy; i++)
        if (p->rdy[i] != RDY_OTHER_DOMAIN)
            s[n++] = rdy_prio_value(p->rdy[i]);
    qsort(s, (size_t)n, sizeof s[0], cmp_desc);
    int d = 0;
    for (int i = 0; i < n; i++) /* distinct, descending */
        if (d == 0 || s[d - 1] != s[i])
            s[d++] = s[i];
    int m = 0;
    out[m++] = s[0] + 25;
    for (int i = 0; i < d; i++) {
        out[m++] = s[i];
        int below = i + 1 < d ? s[i + 1] : 0;
        if (i + 1 < d || s[i] > 0)
            out[m++] = (s[i] + below) / 2;
    }
    return m;
}

static bool plan_signals(const struct exh_plan *p)
{
    return p->ops->signals(p);
}

static void plan(struct exh_iter *it)
{
    struct exh_walk w = {it, 0, false};
    struct exh_plan *p = &it->plan;
    const struct exh_bounds *b = &it->b;
    struct consts k;
    board_consts(b, &k);
    memset(p, 0, sizeof *p);
    int left = b->threads;
    p->ops = b->target->exh;

    p->ndom = 1 + choose(&w, b->domains);
    p->cur = p->ops->plan_current(&w, left);
    if (p->cur != CUR_IDLE)
        left--;
    if (periodic_cur(p->cur)) {
        p->cur_k = 1 + choose(&w, b->refills);
        p->cur_max = choose_max(&w, p->cur_k, b->refills);
    }
    p->c_big = choose(&w, 2);
    p->d_big = choose(&w, 2);
    int64_t c = p->c_big ? k.c1 : 0, d = p->d_big ? k.d1 : 0;
    p->ops->plan_entry(&w, p);
    bool timer = p->ops->timer(p);
    int list[E_KINDS + XN_KINDS + RSC_KINDS + 16];

    /* the current head refill's end against the clock: amount = c + d + off >= MIN_BUDGET */
    if (p->cur != CUR_IDLE) {
        static const int cand[] = {E_FAR, E_MB, E_MB_MINUS1, E_PLUS1, E_ZERO, E_WINDOW, E_PAST_WINDOW};
        int n = edges_above(&k, cand, timer ? 7 : 6, c + d, k.mb - 1, list);
        p->budget_edge = choose_in(&w, list, n);
    }
    /* the domain's end: ksDomainTime = d + off > 0 */
    if (p->ndom == 2) {
        static const int cand[] = {E_FAR, E_MB_PLUS1, E_MB, E_WINDOW, E_PAST_WINDOW};
        int n = edges_above(&k, cand, timer ? 5 : 4, d, 0, list);
        p->dom_edge = choose_in(&w, list, n);
    }

    /* the notification and who it wakes */
    if (plan_signals(p)) {
        int n = 0;
        list[n++] = XN_ACTIVE;
        list[n++] = XN_IDLE_UNBOUND;
        if (p->cur != CUR_IDLE)
            list[n++] = XN_IDLE_BOUND_CUR;
        if (left >= 1) {
            list[n++] = XN_IDLE_BOUND_INACTIVE;
            if (b->ntfns >= 2)
                list[n++] = XN_IDLE_BOUND_WAITING_OTHER;
            list[n++] = XN_IDLE_RECV;
            list[n++] = XN_WAITING;
        }
        p->ntfn = choose_in(&w, list, n);
        switch (p->ntfn) {
        case XN_IDLE_BOUND_INACTIVE:
        case XN_IDLE_BOUND_WAITING_OTHER:
            left--;
            break;
        case XN_IDLE_RECV:
            left--;
            p->recv = true;
            p->recv_reply = choose(&w, 2);
            break;
        case XN_WAITING: {
            int most = left < EXH_MAX_QUEUE ? left : EXH_MAX_QUEUE;
            p->waiters = 1 + choose(&w, most);
            left -= p->waiters;
            p->recv = true;
            /* bound to nothing, to this notification (only when it waits
             * alone: a bound notification's waiters are its TCB), or to the
             * second notification */
            n = 0;
            list[n++] = 0;
            if (p->waiters == 1)
                list[n++] = 1;
            if (b->ntfns >= 2)
                list[n++] = 2;
            p->recv_bound = choose_in(&w, list, n);
            break;
        }
        default:
            break;
        }
    }
    if (p->recv) {
        int n = 0;
        for (int r = 0; r < RSC_KINDS; r++)
            if (r != RSC_NTFN_HELD || p->cur != CUR_IDLE)
                list[n++] = r;
        p->rsc = choose_in(&w, list, n);
        if (rsc_periodic(p->rsc)) {
            p->r_k = 1 + choose(&w, b->refills);
            p->r_max = choose_max(&w, p->r_k, b->refills);
        }
        if (rsc_configured(p->rsc))
            p->r_big = choose(&w, 2);
        if (rsc_periodic(p->rsc)) {
            n = 0;
            list[n++] = RH_BEFORE;
            list[n++] = RH_AT_CUR;
            if (rsc_from_ntfn(p->rsc)) { /* an SC parked on a notification need not be released */
                if (d > 0)
                    list[n++] = RH_AT_ENTRY;
                list[n++] = RH_AFTER_ENTRY;
            }
            p->r_head = choose_in(&w, list, n);
            if (p->r_k >= 2 && p->r_head != RH_AFTER_ENTRY) {
                n = 0;
                if (p->r_head != RH_AT_ENTRY)
                    list[n++] = RM_BOTH;
                if (d > 0)
                    list[n++] = RM_ENTRY_ONLY;
                list[n++] = RM_NEITHER;
                p->r_merge = choose_in(&w, list, n);
            } else {
                p->r_merge = RM_NEITHER;
            }
        }
    }

    /* the release queue: times non-decreasing in edge order, head time > ksCurTime */
    {
        static const int cand[] = {E_FAR, E_PLUS1, E_ZERO, E_WINDOW, E_PAST_WINDOW};
        int times[5];
        int nt = edges_above(&k, cand, timer ? 5 : 4, d, 0, times);
        int most = left < EXH_MAX_QUEUE ? left : EXH_MAX_QUEUE;
        p->n_rel = choose(&w, most + 1);
        int np = p->cur == CUR_IDLE ? 2 : 3, prev = 0;
        for (int i = 0; i < p->n_rel; i++) {
            prev += choose(&w, nt - prev);
            p->rel_time[i] = times[prev];
            p->rel_prio[i] = choose(&w, np);
        }
        left -= p->n_rel;
    }
    /* the ready queues: a multiset, as a non-decreasing sequence; nothing of
     * the current domain may outrank the running thread (and the idle
     * thread is outranked by anything) */
    {
        int n = 0;
        if (p->ndom == 2)
            list[n++] = RDY_OTHER_DOMAIN;
        if (p->cur != CUR_IDLE) {
            list[n++] = RDY_EQUAL;
            list[n++] = RDY_BELOW;
        }
        int most = n ? (left < EXH_MAX_QUEUE ? left : EXH_MAX_QUEUE) : 0;
        p->n_rdy = choose(&w, most + 1);
        int prev = 0;
        for (int i = 0; i < p->n_rdy; i++) {
            prev += choose(&w, n - prev);
            p->rdy[i] = list[prev];
        }
        left -= p->n_rdy;
    }
    if (p->recv) {
        int n = prio_candidates(p, list);
        /* a fastpath that compares the receiver with the current thread of
         * its SC's core (the signal target's: fastpath.c:652-654); on the
         * other core that is its idle thread (build_core1), priority 0,
         * which a receiver can equal: the lowest candidate (below all of
         * core 0's, which the caller keeps above 0) becomes 0, the same
         * order on core 0 */
        if (p->ops->prio_vs_core && p->ndom == 1)
            list[n - 1] = 0;
        p->r_prio = choose_in(&w, list, n);
        p->r_dom = p->ndom == 2 ? choose(&w, 2) : 0;
        n = 0;
        list[n++] = RC_UP;
        /* an SMP build has one domain (cfg_validate) */
        if (p->rsc != RSC_NONE && p->rsc != RSC_NTFN_HELD && p->ndom == 1)
            list[n++] = RC_OTHER_CORE;
        /* the receiver's FPU state live on an SMP build: base, when it
         * gets an SC from the notification (the fastpath's slow_fpu);
         * master, where the current thread owns its core's FPU unless
         * idle (check_fpu_owners), only under the idle thread */
        bool fpu_live = cfg_kernel_has(b->kernel, KF_FPU_OWNER_AT_SWITCH) ? p->cur == CUR_IDLE : rsc_from_ntfn(p->rsc);
        if (fpu_live && p->ndom == 1)
            list[n++] = RC_FPU_LIVE;
        p->r_core = choose_in(&w, list, n);
        /* the vspace is read only by the fastpath's switch checks, which
         * come after its domain and core checks; the slowpath never reads it */
        int cur_prio = p->cur == CUR_IDLE ? 0 : PRIO_CUR;
        bool reaches = p->r_dom == 0 && p->r_core == RC_UP && p->rsc != RSC_NONE && p->rsc != RSC_NTFN_HELD;
        /* a fastpath that never switches (fastpath_signal: a receiver above
         * the caller is slow_prio, fastpath.c:652-654): only the slowpath
         * reads it, alike on both sides */
        reaches = reaches && !p->ops->never_switches;
        p->r_as = reaches && (p->cur == CUR_IDLE || p->r_prio > cur_prio) ? choose(&w, RA_KINDS) : RA_OK;
        if (cfg_kernel_has(b->kernel, KF_STALE_REPLY_REF) && p->ntfn == XN_WAITING)
            p->r_stale = choose(&w, 2);
    }
    if (w.bad)
        it->done = true;
    it->len = w.pos;
}

void exh_begin(struct exh_iter *it, const struct exh_bounds *b)
{
    memset(it, 0, sizeof *it);
    it->b = *b;
    plan(it);
}

bool exh_next(struct exh_iter *it)
{
    if (it->done)
        return false;
    for (int k = it->len - 1; k >= 0; k--) {
        if (it->digit[k] + 1 < it->radix[k]) {
            it->digit[k]++;
            it->len = k + 1;
            plan(it);
            it->ordinal++;
            return !it->done;
        }
    }
    it->done = true;
    return false;
}

int exh_seek(struct exh_iter *it, const struct exh_bounds *b, const uint8_t *digits, int len, uint64_t ordinal)
{
    if (len < 0 || len > EXH_MAX_CHOICES)
        return -1;
    memset(it, 0, sizeof *it);
    it->b = *b;
    memcpy(it->digit, digits, (size_t)len);
    it->len = len;
    plan(it);
    if (it->done || it->len != len)
        return -1;
    for (int i = 0; i < len; i++)
        if (it->digit[i] >= it->radix[i])
            return -1;
    it->ordinal = ordinal;
    return 0;
}

uint64_t exh_count(const struct exh_bounds *b)
{
    static struct exh_iter it; /* not reentrant: callers are single-threaded */
    exh_begin(&it, b);
    uint64_t n = it.done ? 0 : 1;
    while (exh_next(&it))
        n++;
    return n;
}

/* ---- building a plan's state ---- */

struct bctx {
    struct kstate *ks;
    const struct exh_plan *p;
    const struct exh_bounds *b;
    struct consts k;
    ticks_t t0, hw, then;
};

/* A configured SC with its refills given explicitly (time, amount pairs
 * in queue order), bound to t (KS_NONE: none). */
static int sc_with(struct bctx *x, const char *name, int t, ticks_t period, int max, bool sporadic,
                   const struct ks_refill *r, int n)
{
    struct kstate *ks = x->ks;
    int sc = ks_add_sc(ks, name);
    if (sc == KS_NONE)
        return sc;
    struct ks_sc *s = &ks->scs[sc];
    s->period = period;
    s->refill_max = (uint8_t)(period == 0 ? (int)MIN_REFILLS : max);
    s->head = 0;
    s->tail = (uint8_t)(n - 1);
    s->budget = 0;
    for (int i = 0; i < n; i++) {
        s->refills[i] = r[i];
        s->budget += r[i].amount;
    }
    s->sporadic = sporadic;
    if (t != KS_NONE) {
        s->tcb = (int8_t)t;
        ks->tcbs[t].sc = (int8_t)sc;
        s->core = ks->tcbs[t].affinity;
    }
    return sc;
}

/* A periodic SC: head refill (h, a), then k - 1 refills of MIN_BUDGET, the
 * first at time r2, each next one MIN_BUDGET after the previous ends; the
 * period ends MIN_BUDGET after the last refill. */
static int periodic_sc(struct bctx *x, const char *name, int t, bool sporadic, int k, int max, ticks_t h,
                       ticks_t a, ticks_t r2)
{
    struct ks_refill r[EXH_MAX_REFILLS];
    ticks_t mb = (ticks_t)x->k.mb;
    r[0].time = h;
    r[0].amount = a;
    for (int i = 1; i < k; i++) {
        r[i].time = i == 1 ? r2 : r[i - 1].time + r[i - 1].amount + mb;
        r[i].amount = mb;
    }
    ticks_t end = r[k - 1].time + r[k - 1].amount;
    return sc_with(x, name, t, end - h + mb, max, sporadic, r, k);
}

static int rr_sc(struct bctx *x, const char *name, int t, ticks_t at, ticks_t head, ticks_t tail)
{
    struct ks_refill r[2] = {{at, head}, {at, tail}};
    return sc_with(x, name, t, 0, (int)MIN_REFILLS, false, r, 2);
}

static ticks_t edge_at(const struct bctx *x, int e)
{
    return (ticks_t)((int64_t)x->hw + edge_off(&x->k, e));
}

static void build_current(struct bctx *x)
{
    struct kstate *ks = x->ks;
    const struct exh_plan *p = x->p;
    if (p->cur == CUR_IDLE)
        return;
    int t = build_thread(ks, "cur", PRIO_CUR, 0);
    ticks_t a = edge_at(x, p->budget_edge) - x->then; /* the head refill ends at the edge */
    int sc;
    if (p->cur == CUR_RR)
        sc = rr_sc(x, "sc_cur", t, x->then, a, (ticks_t)x->k.mb);
    else
        sc = periodic_sc(x, "sc_cur", t, p->cur == CUR_SPOR, p->cur_k, p->cur_max, x->then, a,
                         x->then + a + (ticks_t)x->k.mb);
    (void)sc;
    ks->tcbs[t].timeout_handler = p->cur == CUR_CB_TH;
    build_run(ks, t);
}

static void build_smp(struct bctx *x)
{
    struct kstate *ks = x->ks;
    ks->cfg.smp = true;
    cfg_derive(&ks->cfg);
    build_core1(ks);
}

/* The woken thread's SC, and where it lives. */
static void build_recv_sc(struct bctx *x, int t, int n)
{
    struct kstate *ks = x->ks;
    const struct exh_plan *p = x->p;
    ticks_t mb = (ticks_t)x->k.mb, a = p->r_big ? 20 * mb : mb;
    int owner = rsc_from_ntfn(p->rsc) ? KS_NONE : t, sc = KS_NONE;
    bool spor = p->rsc == RSC_OWN_SPOR || p->rsc == RSC_NTFN_SPOR;
    switch (p->rsc) {
    case RSC_OWN_RR:
    case RSC_NTFN_RR:
        sc = rr_sc(x, "sc_recv", owner, x->t0 - mb, a, 0);
        break;
    case RSC_OWN_CB:
    case RSC_OWN_SPOR:
    case RSC_NTFN_CB:
    case RSC_NTFN_SPOR: {
        ticks_t h = p->r_head == RH_BEFORE ? x->t0 - mb : p->r_head == RH_AT_CUR ? x->t0
                  : p->r_head == RH_AT_ENTRY ? x->hw : x->hw + 1;
        ticks_t r2 = p->r_merge == RM_BOTH ? x->t0 + a : p->r_merge == RM_ENTRY_ONLY ? x->hw + a : x->hw + a + 1;
        if (p->r_head == RH_AFTER_ENTRY)
            r2 = h + a + mb;
        sc = periodic_sc(x, "sc_recv", owner, spor, p->r_k, p->r_max, h, a, r2);
        break;
    }
    case RSC_OWN_UNCONF:
        sc = build_sc_unconfigured(ks, "sc_recv", t);
        break;
    case RSC_NTFN_HELD:
        build_bind_sc_ntfn(ks, ks->cur_sc, n);
        return;
    default:
        return;
    }
    if (sc == KS_NONE)
        return;
    if (owner == KS_NONE)
        build_bind_sc_ntfn(ks, sc, n);
    if (p->r_core == RC_OTHER_CORE)
        ks->scs[sc].core = 1;
}

/* The fixed values of master's features: the idle SC's MAX_PERIOD_TICKS
 * budget (KF_IDLE_SC_MAX_PERIOD) and, with an FPU, the current thread (not
 * idle) as its core's FPU owner (KF_FPU_OWNER_AT_SWITCH: lazyFPURestore at
 * the switch to it). The taken IRQ is neither masked nor active on either
 * GIC (the GIC signals neither), so irq_active has no value to vary; the
 * GIC version is the board's. */
static void build_features(struct kstate *ks)
{
    if (cfg_has(&ks->cfg, KF_IDLE_SC_MAX_PERIOD))
        build_idle_sc(ks, ks->idle_sc);
    if (cfg_has(&ks->cfg, KF_FPU_OWNER_AT_SWITCH) && ks->cfg.fpu && ks->cur_thread != ks->idle_thread)
        ks->tcbs[ks->cur_thread].fpu_live = true;
}

/* prefix + one digit (queues hold at most EXH_MAX_QUEUE threads) */
static const char *name_n(char *dst, const char *prefix, int i)
{
    size_t n = strlen(prefix);
    memcpy(dst, prefix, n);
    dst[n] = (char)('0' + i % 10);
    dst[n + 1] = 0;
    return dst;
}

static bool plan_names_ntfn(const struct exh_plan *p)
{
    return p->ops->names_ntfn(p);
}

int exh_build(const struct exh_plan *p, const struct exh_bounds *b, struct kstate *ks)
{
    if (ks_init(ks, b->board) != 0)
        return -1;
    cfg_set_kernel(&ks->cfg, b->kernel);
    struct bctx x = {.ks = ks, .p = p, .b = b};
    board_consts(b, &x.k);
    ticks_t mb = (ticks_t)x.k.mb;
    x.t0 = 1ull << 22;
    x.hw = x.t0 + (p->d_big ? (ticks_t)x.k.d1 : 0);
    x.then = x.t0 - (p->c_big ? (ticks_t)x.k.c1 : 0);
    ks->cur_time = x.t0;
    ks->hw_clock = x.hw;
    ks->consumed = x.t0 - x.then;
    if (p->ndom == 2) {
        build_two_domains(ks);
        ks->domain_time = edge_at(&x, p->dom_edge) - x.t0;
    }
    if (p->recv && p->r_core != RC_UP)
        build_smp(&x);
    cfg_derive(&ks->cfg);

    /* objects in canonical order: current, receiver, other waiters, the
     * bound thread, release queue, ready queues */
    build_current(&x);
    int n = KS_NONE, n2 = KS_NONE;
    if (plan_names_ntfn(p))
        n = build_ntfn(ks, "ntfn");
    bool need_n2 = p->ntfn == XN_IDLE_BOUND_WAITING_OTHER || p->recv_bound == 2;
    if (plan_signals(p) && need_n2)
        n2 = build_ntfn(ks, "ntfn2");
    if (p->recv) {
        int t = build_thread(ks, "recv", p->r_prio, p->r_dom);
        if (p->r_core == RC_OTHER_CORE && !rsc_from_ntfn(p->rsc))
            ks->tcbs[t].affinity = 1;
        ks->tcbs[t].fpu_live = p->r_core == RC_FPU_LIVE;
        ks->tcbs[t].vtable_ok = p->r_as != RA_VTABLE;
        ks->tcbs[t].asid_ok = p->r_as != RA_ASID;
        build_recv_sc(&x, t, n);
        if (p->ntfn == XN_IDLE_RECV) {
            int e = build_ep(ks, "ep");
            int r = p->recv_reply ? ks_add_reply(ks, "reply") : KS_NONE;
            build_recv_ep(ks, t, e, r);
            build_bind_ntfn(ks, t, n);
        } else {
            build_wait_ntfn(ks, t, n);
            if (p->r_stale)
                ks->tcbs[t].reply = (int8_t)ks_add_reply(ks, "reply");
            if (p->recv_bound == 1)
                build_bind_ntfn(ks, t, n);
            else if (p->recv_bound == 2)
                build_bind_ntfn(ks, t, n2);
            for (int i = 1; i < p->waiters; i++) {
                char name[KS_NAME_LEN];
                int wt = build_thread(ks, name_n(name, "w", i + 1), p->r_prio, p->r_dom);
                build_wait_ntfn(ks, wt, n);
            }
        }
    }
    switch (p->ntfn) {
    case XN_ACTIVE:
        if (plan_signals(p)) {
            ks->ntfns[n].state = NTFN_Active;
            ks->ntfns[n].msg_id = 2;
        }
        break;
    case XN_IDLE_BOUND_CUR:
        build_bind_ntfn(ks, ks->cur_thread, n);
        break;
    case XN_IDLE_BOUND_INACTIVE:
    case XN_IDLE_BOUND_WAITING_OTHER: {
        int t = build_thread(ks, "bnd", PRIO_CUR, 0);
        if (p->ntfn == XN_IDLE_BOUND_WAITING_OTHER)
            build_wait_ntfn(ks, t, n2);
        build_bind_ntfn(ks, t, n);
        break;
    }
    default:
        break;
    }
    for (int i = 0; i < p->n_rel; i++) {
        char name[KS_NAME_LEN];
        int t = build_thread(ks, name_n(name, "rel", i + 1), rel_prio_value(p->cur, p->rel_prio[i]), 0);
        struct ks_refill r = {edge_at(&x, p->rel_time[i]), 2 * mb};
        sc_with(&x, name_n(name, "sc_rel", i + 1), t, 10 * mb, (int)MIN_REFILLS, false, &r, 1);
        build_release(ks, t);
    }
    for (int i = 0; i < p->n_rdy; i++) {
        char name[KS_NAME_LEN];
        int t = build_thread(ks, name_n(name, "rdy", i + 1), rdy_prio_value(p->rdy[i]),
                             p->rdy[i] == RDY_OTHER_DOMAIN ? 1 : 0);
        rr_sc(&x, name_n(name, "sc_rdy", i + 1), t, x.t0 - mb, 10 * mb, 0);
        build_ready(ks, t);
    }

    p->ops->build(ks, p, n);
    target_mark(b->target, ks);
    build_features(ks);
    build_deadline(ks);
    ks->reprogram = false; /* the queue operations set it; user level has it clear */
    return ks->n_asserts ? -1 : 0;
}

/* ---- text ---- */

struct sbuf {
    char *buf;
    size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void sb_put(struct sbuf *b, const char *fmt, ...)
{
    if (b->used + 1 >= b->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(b->buf + b->used, b->len - b->used, fmt, ap);
    va_end(ap);
    if (m > 0)
        b->used = (size_t)m < b->len - b->used ? b->used + (size_t)m : b->len - 1;
}

const char *exh_plan_text(const struct exh_plan *p, char *buf, size_t len)
{
    static const char *const cur[] = {"idle", "rr", "periodic", "periodic+timeout_handler", "sporadic"};
    static const char *const ntfn[] = {"active", "idle", "idle_bound_current", "idle_bound_inactive",
                                       "idle_bound_waiting_elsewhere", "idle_bound_receiving", "waiting"};
    static const char *const rsc[] = {"own_rr", "own_periodic", "own_sporadic", "own_unconfigured", "ntfn_rr",
                                      "ntfn_periodic", "ntfn_sporadic", "ntfn_held_by_current", "none"};
    static const char *const head[] = {"before_cur_time", "at_cur_time", "at_entry_clock", "after_entry_clock"};
    static const char *const merge[] = {"both_clocks", "entry_clock_only", "neither"};
    static const char *const core[] = {"up", "other_core", "fpu_live"};
    static const char *const as[] = {"ok", "vtable_bad", "asid_bad"};
    static const char *const rdy[] = {"other_domain", "equal", "below"};
    struct sbuf sb = {buf, len, 0};
#define OUT(...) sb_put(&sb, __VA_ARGS__)
    buf[0] = 0;
    OUT("domains=%d current=%s", p->ndom, cur[p->cur]);
    if (periodic_cur(p->cur))
        OUT(" current_refills=%d/%d", p->cur_k, p->cur_max);
    OUT(" consumed=%s clock_advance=%s", p->c_big ? "3mb" : "0", p->d_big ? "2mb" : "0");
    if (p->cur != CUR_IDLE)
        OUT(" budget_end-clock=%s", exh_edge_name(p->budget_edge));
    if (p->ndom == 2)
        OUT(" domain_end-clock=%s", exh_edge_name(p->dom_edge));
    char entry[80];
    OUT(" %s", p->ops->text(p, entry, sizeof entry));
    if (plan_signals(p))
        OUT(" ntfn=%s", ntfn[p->ntfn]);
    if (p->recv) {
        if (p->ntfn == XN_WAITING)
            OUT(" waiters=%d receiver_bound=%s", p->waiters,
                p->recv_bound == 1 ? "this_ntfn" : p->recv_bound == 2 ? "other_ntfn" : "none");
        else
            OUT(" reply_object=%d", p->recv_reply);
        OUT(" receiver_sc=%s", rsc[p->rsc]);
        if (rsc_periodic(p->rsc))
            OUT(" receiver_refills=%d/%d receiver_head=%s", p->r_k, p->r_max, head[p->r_head]);
        if (rsc_periodic(p->rsc) && p->r_k >= 2)
            OUT(" receiver_merge=%s", merge[p->r_merge]);
        if (rsc_configured(p->rsc))
            OUT(" receiver_amount=%s", p->r_big ? "20mb" : "mb");
        OUT(" receiver_prio=%d receiver_domain=%d receiver_core=%s receiver_vspace=%s", p->r_prio, p->r_dom,
            core[p->r_core], as[p->r_as]);
        if (p->r_stale)
            OUT(" receiver_stale_reply=1");
    }
    OUT(" release=[");
    for (int i = 0; i < p->n_rel; i++)
        OUT("%s%s@%d", i ? "," : "", exh_edge_name(p->rel_time[i]), rel_prio_value(p->cur, p->rel_prio[i]));
    OUT("] ready=[");
    for (int i = 0; i < p->n_rdy; i++)
        OUT("%s%s", i ? "," : "", rdy[p->rdy[i]]);
    OUT("]");
#undef OUT
    return buf;
}
