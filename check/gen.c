/* gen: builds valid kernel states from fuzzer bytes or a seed. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "invariant.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "smp.h"
#include "target.h"
#include "vcpu.h"

void gen_bounds_default(struct gen_bounds *b)
{
    b->max_threads = 6;
    b->prios = 4;
    b->max_refills = 6;
    b->max_domains = 3;
    b->max_ntfns = 3;
    b->allow_smp = true;
    b->edges = true;
    b->realistic = false;
    b->vcpus = false;
    b->kernel = KS_KERNEL_BASE;
    b->target = target_default();
    b->board = NULL;
    b->config = NULL;
}

const char *gen_bounds_check(const struct gen_bounds *b)
{
    if (b->max_threads < 1 || b->max_threads > KS_MAX_TCBS - 2)
        return "threads must be between 1 and 62";
    if (b->prios < 1 || b->prios > KS_NUM_PRIOS)
        return "priorities must be between 1 and 256";
    if (b->max_refills < 1 || b->max_refills > KS_MAX_REFILLS)
        return "refills must be between 1 and 16";
    if (b->max_domains < 1 || b->max_domains > KS_MAX_DOMAINS)
        return "domains must be between 1 and 16";
    if (b->max_ntfns < 1 || b->max_ntfns > KS_MAX_NTFNS)
        return "notifications must be between 1 and 16";
    if (!cfg_kernel_name(b->kernel))
        return "kernel must be base or master";
    if (!b->target)
        return "no target";
    if (b->board) {
        struct ks_config c;
        if (cfg_preset(&c, b->board) != 0)
            return "unknown board";
    }
    if (b->config && cfg_validate(b->config))
        return "the fixed configuration is not usable";
    return 0;
}

void gen_src_bytes(struct gen_src *s, const uint8_t *data, size_t len)
{
    s->data = data;
    s->len = len;
    s->pos = 0;
    s->rng = 0x9e3779b97f4a7c15ull ^ len;
}

void gen_src_seed(struct gen_src *s, uint64_t seed)
{
    s->data = NULL;
    s->len = s->pos = 0;
    s->rng = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
}

/* xorshift64*: the choices after the data runs out */
static uint64_t next_rng(struct gen_src *s)
{
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return s->rng * 0x2545f4914f6cdd1dull;
}

static uint64_t next_word(struct gen_src *s)
{
    if (s->pos >= s->len)
        return next_rng(s);
    uint8_t b = s->data[s->pos++];
    s->rng = (s->rng ^ b) * 0x100000001b3ull;
    return b;
}

__extension__ typedef unsigned __int128 gen_u128;

/* A choice in [0, n) while the data lasts: one byte, as libFuzzer mutates
 * bytes; wider choices take several. */
__attribute__((noinline)) static uint64_t pick_data(struct gen_src *s, uint64_t n)
{
    uint64_t v = next_word(s);
    if (s->pos <= s->len && s->data && n > 256)
        for (uint64_t lim = 256; lim < n && s->pos < s->len; lim <<= 8)
            v = (v << 8) | next_word(s);
    return v % n;
}

/* A choice in [0, n). Inlined: a state takes about 140 of them, and after
 * the data (always, for a seeded source) each is a few instructions of
 * PRNG, the high word of v * n (a multiply instead of a division). */
static inline __attribute__((always_inline)) uint64_t pick(struct gen_src *s, uint64_t n)
{
    if (n <= 1)
        return 0;
    if (s->pos >= s->len)
        return (uint64_t)(((gen_u128)next_rng(s) * n) >> 64);
    return pick_data(s, n);
}

static bool chance(struct gen_src *s, unsigned one_in)
{
    return pick(s, one_in) == 0;
}

uint64_t gen_pick(struct gen_src *s, uint64_t n)
{
    return pick(s, n);
}

/* The worker's memo of refill histories: GEN_HIST_SLOTS configurations
 * (the generator draws among eight boards) of GEN_HISTORIES each. */
struct gen_hist_key {
    ticks_t min_budget, max_release, ticks_per_ms, ticks_per_11ms;
    uint8_t max_refills;
    bool realistic;
};

struct gen_hist {
    ticks_t budget, period;
    uint8_t max, head, tail;
    struct ks_refill refills[KS_MAX_REFILLS];
};

#define GEN_HIST_SLOTS 8

struct gen_hist_slot {
    struct gen_hist_key key;
    bool used;
    bool ready[GEN_HISTORIES];
    struct gen_hist hist[GEN_HISTORIES];
};

struct gen_cache {
    unsigned evict;
    struct gen_hist_slot slot[GEN_HIST_SLOTS];
    struct kstate undo; /* core1_schedule's copy to undo with: no allocation per state */
};

struct gen_cache *gen_cache_new(void)
{
    return calloc(1, sizeof(struct gen_cache));
}

void gen_cache_free(struct gen_cache *c)
{
    free(c);
}

enum role { R_READY, R_RELEASE, R_WAIT_NTFN, R_RECV_EP, R_SEND_EP, R_REPLY, R_INACTIVE, R_RUN_NO_SC, R_COUNT };

struct gen {
    struct kstate *ks;
    struct gen_src *src;
    const struct gen_bounds *b;
    ticks_t mb;
    ticks_t delta; /* hw_clock - cur_time */
    uint8_t pool[KS_NUM_PRIOS];
    int n_pool;
    struct gen_cache *cache; /* NULL: histories built every time */
    struct gen_hist_slot *slot; /* the cache's slot for this state's configuration */
    int flight;                 /* enum gen_flight */
};

/* SMP: a reschedule IPI for this core that another core's kernel entry
 * sent (in flight: ipi_sent) or that the other core's fastpath_signal left
 * owed (core_ipi_pending), not yet taken; until then this core's ready
 * queue may hold a thread that outranks its current one (check/invariant.c,
 * check_user). */
enum gen_flight { GF_NONE, GF_SENT, GF_OWED };

static uint64_t gpick(struct gen *g, uint64_t n)
{
    return pick(g->src, n);
}

/* Durations cluster around MIN_BUDGET and the entry delta. */
static ticks_t pick_span(struct gen *g)
{
    switch (gpick(g, 6)) {
    case 0: return g->mb;
    case 1: return g->mb + 1 + gpick(g, 4);
    case 2: return g->delta + gpick(g, 3);
    case 3: return g->mb * (2 + gpick(g, 50));
    case 4: return 1 + gpick(g, g->mb);
    default: return gpick(g, 1ull << 24);
    }
}

/* What the fastpaths the configuration builds beside b->target's leave at
 * user level (target.h, target_admit_built from the generator's side: the
 * state's entry is not drawn yet). */
static unsigned built_admit(const struct gen *g)
{
    unsigned admit = 0;
    for (int i = 0; target_at(i); i++) {
        const struct target *t = target_at(i);
        if (t != g->b->target && t->built && t->built(&g->ks->cfg))
            admit |= t->admit_built;
    }
    return admit;
}

/* Which other fastpaths the configuration builds: each target but the one
 * under check, on or off (the kernel's own code beside it). */
static void gen_built(struct gen *g)
{
    for (int i = 0; target_at(i); i++) {
        const struct target *t = target_at(i);
        if (t != g->b->target && t->set_built)
            t->set_built(&g->ks->cfg, chance(g->src, 3));
    }
}

static void gen_config(struct gen *g)
{
    struct ks_config *c = &g->ks->cfg;
    if (g->b->config) { /* a kernel build's: compile-time constants there */
        *c = *g->b->config;
        cfg_derive(c);
        g->mb = c->min_budget;
        return;
    }
    c->num_domains = 1 + (uint32_t)gpick(g, (uint64_t)g->b->max_domains);
    /* no SMP build has domains (cfg_validate) */
    c->smp = g->b->allow_smp && chance(g->src, 5) && c->num_domains == 1;
    c->hyp = chance(g->src, 6);
    c->fpu = !chance(g->src, 6);
    gen_built(g);
    /* no cfg_derive: the preset's derived constants (ks_init, and
     * cfg_set_kernel where the timer moved) depend on the timer and WCET
     * only, none of the fields drawn here */
    cfg_set_kernel(c, g->b->kernel);
    g->mb = c->min_budget;
}

static void gen_time(struct gen *g)
{
    struct kstate *ks = g->ks;
    switch (gpick(g, 4)) {
    case 0: ks->cur_time = gpick(g, 1000) * g->mb; break;
    case 1: ks->cur_time = (1ull << 40) + gpick(g, 1ull << 32); break;
    default: ks->cur_time = 1000000 + gpick(g, 1ull << 28); break;
    }
    /* a provisional span for the choices made before the deadline is
     * known; gen_clock fixes the real entry clock */
    g->delta = g->mb * (1 + gpick(g, 8));
}

/* The entry clock: never past the programmed deadline by more than the
 * entry latency (the timer would have come first), and often right at the
 * edges the entry accounting branches on. */
static void gen_clock(struct gen *g)
{
    struct kstate *ks = g->ks;
    ticks_t wcet = cfg_wcet(&ks->cfg), now = ks->cur_time;
    ticks_t limit = ks->deadline + wcet > now ? ks->deadline + wcet - now : 0;
    ticks_t then = now - ks->consumed;
    ticks_t amount = refill_head(ks, ks->cur_sc)->amount;
    ticks_t edges[4] = {
        limit,                                               /* at the deadline */
        then + amount > now + g->mb ? then + amount - g->mb - now : 0, /* budget edge */
        ks->domain_time > g->mb ? ks->domain_time - g->mb : 0,          /* domain edge */
        0,
    };
    int rh = ks->release_head[0];
    if (rh != KS_NONE && refill_head(ks, ks->tcbs[rh].sc)->time > now)
        edges[3] = refill_head(ks, ks->tcbs[rh].sc)->time - now; /* release edge */
    ticks_t d;
    if (!g->b->edges || g->b->realistic) {
        d = gpick(g, limit + 1);
        g->delta = d;
        ks->hw_clock = now + d;
        return;
    }
    switch (gpick(g, 6)) {
    case 0: d = 0; break;
    case 1: d = gpick(g, limit + 1); break;
    default: {
        /* one choice per statement: the order of the operands of + (and
         * of a call's arguments) is unspecified, and compilers differ */
        ticks_t edge = edges[gpick(g, 4)];
        d = edge + gpick(g, 3) - 1;
        break;
    }
    }
    if (d > limit || d == (ticks_t)-1)
        d = gpick(g, limit + 1);
    g->delta = d;
    ks->hw_clock = now + d;
}

static void gen_domains(struct gen *g)
{
    struct kstate *ks = g->ks;
    unsigned nd = ks->cfg.num_domains;
    ks->dom_len = (uint8_t)(1 + gpick(g, nd > 1 ? 2 * nd : 1));
    if (ks->dom_len > KS_MAX_DOM_SCHED)
        ks->dom_len = KS_MAX_DOM_SCHED;
    for (int i = 0; i < ks->dom_len; i++) {
        unsigned d = nd > 1 ? (i + (unsigned)gpick(g, 2)) % nd : 0;
        uint64_t ms = 1 + gpick(g, 20);
        ks->dom_sched[i] = dschedule_make(d, cfg_us_to_ticks(&ks->cfg, ms * 1000));
    }
    ks->dom_idx = (uint8_t)gpick(g, ks->dom_len);
    ks->cur_domain = (uint8_t)dschedule_domain(ks->dom_sched[ks->dom_idx]);
    ks->domain_time = dschedule_duration(ks->dom_sched[ks->dom_idx]);
    if (nd > 1 && !g->b->realistic && chance(g->src, 2)) {
        /* a domain near its end; gen_clock aims at the expiry rule */
        ks->domain_time = 1 + gpick(g, 4 * g->mb);
    }
}

static void gen_prio_pool(struct gen *g)
{
    int n = g->b->prios;
    if (n >= KS_NUM_PRIOS) {
        for (int i = 0; i < KS_NUM_PRIOS; i++)
            g->pool[i] = (uint8_t)i;
        g->n_pool = KS_NUM_PRIOS;
        return;
    }
    g->n_pool = n;
    for (int i = 0; i < n; i++)
        g->pool[i] = (uint8_t)(chance(g->src, 8) ? 0 : 1 + gpick(g, 255));
}

/* ---- scheduling contexts ---- */

/* Shift every refill of sc so that the head starts at head_time. */
static void shift_refills(struct kstate *ks, int sc, ticks_t head_time)
{
    struct ks_sc *s = &ks->scs[sc];
    ticks_t from = s->refills[s->head].time;
    unsigned i = s->head;
    for (unsigned n = refill_size(s); n; n--, i = refill_next(s, i))
        s->refills[i].time = s->refills[i].time - from + head_time;
}

/* A periodic or sporadic SC shaped the way the kernel shapes it: refill_new,
 * then a few charges of random usage at advancing times. */
static void periodic_history(struct gen *g, int sc, ticks_t budget, ticks_t period, unsigned max)
{
    struct kstate *ks = g->ks;
    ticks_t save_time = ks->cur_time, save_consumed = ks->consumed;
    int save_sc = ks->cur_sc;
    bool save_reprogram = ks->reprogram;
    uint8_t save_asserts = ks->n_asserts;
    ticks_t now = period * 4;
    refill_new(ks, sc, max, budget, period, now);
    ks->cur_sc = (int8_t)sc;
    /* runs separated by idle gaps: each wake-up (the unblock check)
     * starts the head anew, so the used parts do not merge and the queue
     * fills up to refill_max */
    for (uint64_t k = gpick(g, max + 2); k; k--) {
        ks->cur_time = now;
        ticks_t head = refill_head(ks, sc)->amount;
        ticks_t usage = chance(g->src, 6) ? head + gpick(g, budget) : 1 + gpick(g, head - g->mb);
        refill_budget_check(ks, usage);
        now = refill_head(ks, sc)->time > now ? refill_head(ks, sc)->time : now;
        now += 1 + gpick(g, period / max + 1);
        ks->cur_time = now;
        if (!chance(g->src, 4))
            refill_unblock_check(ks, sc);
    }
    ks->cur_time = save_time;
    ks->consumed = save_consumed;
    ks->cur_sc = (int8_t)save_sc;
    ks->reprogram = save_reprogram;
    if (ks->n_asserts != save_asserts) { /* should not happen: start over plain */
        ks->n_asserts = save_asserts;
        refill_new(ks, sc, max, budget, period, now);
    }
}

static ticks_t pick_budget(struct gen *g);

/* History h of the run's timer constants: its budget, period, refill_max
 * and charges drawn from a stream of its own (seeded by h), so the same h
 * gives the same refills in every state, cached or not. */
static void history_build(struct gen *g, int sc, unsigned h)
{
    struct gen_src own;
    gen_src_seed(&own, 0x5eed0000ull + h);
    struct gen hg = *g;
    hg.src = &own;
    hg.delta = g->mb * (1 + gpick(&hg, 8)); /* as gen_time's provisional span */
    ticks_t budget = pick_budget(&hg);
    /* budget == period configures round robin, so periodic SCs have
     * period > budget (SchedControl_ConfigureFlags) */
    ticks_t period = budget + 1 + (chance(&own, 3) ? 0 : pick_span(&hg));
    /* refill_max = extra refills + MIN_REFILLS (SchedControl_ConfigureFlags) */
    unsigned top = g->b->max_refills < (int)MIN_REFILLS ? MIN_REFILLS : (unsigned)g->b->max_refills;
    unsigned max = MIN_REFILLS + (unsigned)gpick(&hg, top - MIN_REFILLS + 1);
    periodic_history(&hg, sc, budget, period, max);
}

/* What a history depends on besides its index: the timer constants of
 * the state's configuration and the bounds that shape the draws. */
static void history_key(const struct gen *g, struct gen_hist_key *k)
{
    memset(k, 0, sizeof *k);
    k->min_budget = g->mb;
    k->max_release = g->ks->cfg.max_release;
    k->ticks_per_ms = cfg_us_to_ticks(&g->ks->cfg, 1000);
    k->ticks_per_11ms = cfg_us_to_ticks(&g->ks->cfg, 11000);
    k->max_refills = (uint8_t)g->b->max_refills;
    k->realistic = g->b->realistic;
}

/* The slot for the state's configuration, found once per state (after
 * gen_config: the timer constants are the board's); NULL without a cache. */
static struct gen_hist_slot *history_slot(struct gen *g)
{
    struct gen_cache *c = g->cache;
    if (!c)
        return NULL;
    struct gen_hist_key k;
    history_key(g, &k);
    for (int i = 0; i < GEN_HIST_SLOTS; i++)
        if (c->slot[i].used && memcmp(&c->slot[i].key, &k, sizeof k) == 0)
            return &c->slot[i];
    struct gen_hist_slot *s = &c->slot[c->evict++ % GEN_HIST_SLOTS];
    s->key = k;
    s->used = true;
    memset(s->ready, 0, sizeof s->ready);
    return s;
}

/* A periodic SC's refills: history h, from the worker's memo when there
 * is one (the kernel's charge functions then run once per history and
 * run's configuration, not once per SC drawn). */
static void history_load(struct gen *g, int sc, unsigned h)
{
    struct gen_hist_slot *slot = g->slot;
    if (!slot) {
        history_build(g, sc, h);
        return;
    }
    struct gen_hist *e = &slot->hist[h];
    struct ks_sc *s = &g->ks->scs[sc];
    if (!slot->ready[h]) {
        history_build(g, sc, h);
        e->budget = s->budget;
        e->period = s->period;
        e->max = s->refill_max;
        e->head = s->head;
        e->tail = s->tail;
        memcpy(e->refills, s->refills, s->refill_max * sizeof s->refills[0]);
        slot->ready[h] = true;
        return;
    }
    s->budget = e->budget;
    s->period = e->period;
    s->refill_max = e->max;
    s->head = e->head;
    s->tail = e->tail;
    memcpy(s->refills, e->refills, e->max * sizeof s->refills[0]);
}

enum sc_want { SC_READY, SC_FUTURE, SC_ANY };

static ticks_t pick_budget(struct gen *g)
{
    if (g->b->realistic)
        return cfg_us_to_ticks(&g->ks->cfg, 1000 + gpick(g, 10000));
    switch (gpick(g, 4)) {
    case 0: return g->mb;
    case 1: return g->mb + 1 + gpick(g, g->mb);
    case 2: return g->mb * (2 + gpick(g, 20));
    default: return cfg_us_to_ticks(&g->ks->cfg, 1000 + gpick(g, 10000));
    }
}

/* A configured SC for thread t; round robin unless periodic is required. */
static int make_sc(struct gen *g, int t, enum sc_want want, bool periodic)
{
    struct kstate *ks = g->ks;
    int sc = ks_add_sc(ks, NULL);
    if (sc == KS_NONE)
        return sc;
    ticks_t budget;
    if (!periodic && chance(g->src, 2)) {
        budget = pick_budget(g);
        refill_new(ks, sc, MIN_REFILLS, budget, 0, 0);
        ticks_t used = gpick(g, budget - g->mb + 1);
        ks->scs[sc].refills[ks->scs[sc].head].amount = budget - used;
        ks->scs[sc].refills[ks->scs[sc].tail].amount = used;
    } else {
        history_load(g, sc, (unsigned)gpick(g, GEN_HISTORIES));
        budget = ks->scs[sc].budget;
    }
    ks->scs[sc].sporadic = chance(g->src, 2); /* round robin may be too */
    ticks_t now = ks->cur_time;
    ticks_t back = gpick(g, 3) == 0 ? 0 : pick_span(g);
    if (back > now)
        back = now;
    ticks_t head_time = now - back;
    if (want == SC_FUTURE || (want == SC_ANY && chance(g->src, 3)))
        head_time = now + 1 + gpick(g, g->b->realistic ? budget : g->delta + g->mb + 1);
    if (ks->scs[sc].period == 0) {
        ks->scs[sc].refills[ks->scs[sc].head].time = head_time > now ? now : head_time;
        ks->scs[sc].refills[ks->scs[sc].tail].time = ks->scs[sc].refills[ks->scs[sc].head].time;
    } else {
        shift_refills(ks, sc, head_time);
    }
    ks->scs[sc].consumed = gpick(g, 1ull << 30);
    ks->scs[sc].badge = gpick(g, 4);
    if (t != KS_NONE) {
        ks->scs[sc].tcb = (int8_t)t;
        ks->tcbs[t].sc = (int8_t)sc;
        ks->scs[sc].core = ks->tcbs[t].affinity;
    }
    return sc;
}

/* ---- threads ---- */

/* ksActiveFPUState: one FPU owner per core (check_fpu_owners) */
static bool fpu_owner_on(const struct kstate *ks, int core, int except)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (i != except && ks->tcbs[i].fpu_live && ks->tcbs[i].affinity == core)
            return true;
    return false;
}

static int gen_thread(struct gen *g, int core)
{
    struct kstate *ks = g->ks;
    int domain = (int)gpick(g, ks->cfg.num_domains); /* before the priority: see gen_clock */
    int t = build_thread(ks, NULL, g->pool[gpick(g, (uint64_t)g->n_pool)], domain);
    struct ks_tcb *x = &ks->tcbs[t];
    x->affinity = (uint8_t)core;
    x->vtable_ok = !chance(g->src, 16);
    x->asid_ok = !chance(g->src, 16);
    x->vmid_ok = !chance(g->src, 16);
    x->fpu_live = ks->cfg.fpu && chance(g->src, 6) && !fpu_owner_on(ks, core, t) &&
                  (domain == ks->cur_domain || !inv_domain_rule_fpu(ks)); /* the domain rule (invariant.c) */
    x->timeout_handler = chance(g->src, 4);
    x->badge_reg = gpick(g, 4);
    return t;
}

static void gen_current(struct gen *g, int n_threads)
{
    struct kstate *ks = g->ks;
    if (n_threads == 0 || chance(g->src, 6)) {
        ks->consumed = gpick(g, g->delta + 1);
        if (ks->consumed > ks->cur_time)
            ks->consumed = ks->cur_time;
        return;
    }
    int t = gen_thread(g, 0);
    ks->tcbs[t].domain = ks->cur_domain;
    int sc = make_sc(g, t, SC_READY, false);
    build_run(ks, t);
    ticks_t room = refill_head(ks, sc)->amount - g->mb;
    ks->consumed = chance(g->src, 3) || g->b->realistic ? 0 : gpick(g, room + 1);
    if (ks->consumed > ks->cur_time)
        ks->consumed = ks->cur_time;
    /* the head was ready when the pending consumption began */
    ticks_t then = ks->cur_time - ks->consumed;
    if (ks->scs[sc].period != 0 && refill_head(ks, sc)->time > then)
        shift_refills(ks, sc, then - gpick(g, then < g->mb ? then + 1 : g->mb));
}

/* A ready thread must not outrank the running one in its domain on core 0
 * (schedule() would have picked it); such a thread goes elsewhere. */
static bool may_be_ready(struct gen *g, int t)
{
    struct kstate *ks = g->ks;
    const struct ks_tcb *x = &ks->tcbs[t];
    if (x->affinity != 0 || x->domain != ks->cur_domain || g->flight != GF_NONE)
        return true;
    if (ks->cur_thread == ks->idle_thread)
        return false;
    return x->prio <= ks->tcbs[ks->cur_thread].prio;
}

static int free_ntfn(struct gen *g, int t)
{
    struct kstate *ks = g->ks;
    int n = (int)gpick(g, ks->n_ntfns);
    for (int k = 0; k < ks->n_ntfns; k++, n = (n + 1) % ks->n_ntfns) {
        int bound = ks->ntfns[n].bound_tcb;
        if (ks->ntfns[n].state != NTFN_Active && (bound == KS_NONE || bound == t))
            return n;
    }
    return KS_NONE;
}

static int ep_for(struct gen *g, int ep_state)
{
    struct kstate *ks = g->ks;
    int e = (int)gpick(g, ks->n_eps);
    for (int k = 0; k < ks->n_eps; k++, e = (e + 1) % ks->n_eps)
        if (ks->eps[e].state == EP_Idle || ks->eps[e].state == ep_state)
            return e;
    return KS_NONE;
}

/* A blocked thread's SC: none (passive), unconfigured, or released. */
static void blocked_sc(struct gen *g, int t)
{
    switch (gpick(g, 4)) {
    case 0: break;
    case 1: build_sc_unconfigured(g->ks, NULL, t); break;
    default: make_sc(g, t, SC_READY, false); break;
    }
}

/* A thread that took a timeout fault (endTimeslice -> handleTimeout,
 * src/kernel/thread.c:623-625 at 43607edb6): its SC is periodic (a
 * round-robin SC does not fault) and was just charged, so its head refill
 * may lie in the future; the fault stays pending while the thread is
 * blocked sending it, waits for the handler's reply, or is inactive
 * (check_thread in check/invariant.c gives the kernel lines). */
static void faulted(struct gen *g, int t)
{
    make_sc(g, t, SC_ANY, true);
    g->ks->tcbs[t].fault = FAULT_Timeout;
    g->ks->tcbs[t].timeout_handler = true;
}

static void gen_role(struct gen *g, int t)
{
    struct kstate *ks = g->ks;
    int role = (int)gpick(g, R_COUNT);
    if (role == R_READY && !may_be_ready(g, t))
        role = R_RELEASE;
    switch (role) {
    case R_READY:
        make_sc(g, t, SC_READY, false);
        build_ready(ks, t);
        return;
    case R_RELEASE:
        make_sc(g, t, SC_FUTURE, true);
        ks->tcbs[t].state = chance(g->src, 4) ? TS_Restart : TS_Running;
        tcbReleaseEnqueue(ks, t);
        return;
    case R_WAIT_NTFN: {
        int n = free_ntfn(g, t);
        if (n == KS_NONE)
            break;
        blocked_sc(g, t);
        build_wait_ntfn(ks, t, n);
        return;
    }
    case R_RECV_EP: {
        int e = ep_for(g, EP_Recv);
        if (e == KS_NONE)
            break;
        blocked_sc(g, t);
        int r = chance(g->src, 2) ? ks_add_reply(ks, NULL) : KS_NONE;
        build_recv_ep(ks, t, e, r);
        if (ks->tcbs[t].bound_ntfn == KS_NONE && chance(g->src, 2)) {
            int n = free_ntfn(g, t);
            if (n != KS_NONE && ks->ntfns[n].q_head == KS_NONE && ks->ntfns[n].bound_tcb == KS_NONE)
                build_bind_ntfn(ks, t, n);
        }
        return;
    }
    case R_SEND_EP: {
        int e = ep_for(g, EP_Send);
        if (e == KS_NONE)
            break;
        if (chance(g->src, 4))
            faulted(g, t);
        else
            blocked_sc(g, t);
        build_send_ep(ks, t, e);
        return;
    }
    case R_REPLY: {
        int r = ks_add_reply(ks, NULL);
        if (r == KS_NONE)
            break;
        if (chance(g->src, 4))
            faulted(g, t);
        else
            blocked_sc(g, t);
        ks->tcbs[t].state = TS_BlockedOnReply;
        ks->tcbs[t].reply = (int8_t)r;
        ks->replies[r].tcb = (int8_t)t;
        return;
    }
    case R_RUN_NO_SC:
        ks->tcbs[t].state = TS_Running;
        return;
    default:
        break;
    }
    if (chance(g->src, 6))
        faulted(g, t); /* inactive: no handler was waiting with a reply object */
    else if (chance(g->src, 2))
        make_sc(g, t, SC_ANY, false);
}

/* Bind some running or ready threads to idle notifications, park SCs on
 * notifications, and set the state of notifications nobody waits on. */
static void gen_ntfn_links(struct gen *g)
{
    struct kstate *ks = g->ks;
    for (int n = 0; n < ks->n_ntfns; n++) {
        struct ks_ntfn *x = &ks->ntfns[n];
        if (x->q_head == KS_NONE && x->bound_tcb == KS_NONE && chance(g->src, 3)) {
            int t = 1 + (int)gpick(g, ks->n_tcbs - 1);
            if (ks->tcbs[t].bound_ntfn == KS_NONE && ks->tcbs[t].state != TS_IdleThreadState &&
                ks->tcbs[t].state != TS_BlockedOnNotification)
                build_bind_ntfn(ks, t, n);
        }
        if (x->q_head == KS_NONE && chance(g->src, 3)) {
            x->state = NTFN_Active;
            x->msg_id = 1 + gpick(g, 255);
        }
        if (chance(g->src, 2))
            continue;
        if (chance(g->src, 3)) {
            int s = (int)gpick(g, ks->n_scs);
            if (s != ks->idle_sc && ks->scs[s].ntfn == KS_NONE && ks->scs[s].refill_max)
                build_bind_sc_ntfn(ks, s, n);
        } else {
            /* an SC bound to a notification need not be released:
             * decodeSchedContext_Bind checks sc_released only for a thread
             * (src/object/schedcontext.c:111 at 43607edb6), so a periodic
             * SC postponed with its old thread and unbound can be bound
             * here with its head refill in the future */
            bool future = chance(g->src, 4);
            int s = make_sc(g, KS_NONE, future ? SC_FUTURE : SC_READY, future);
            if (s != KS_NONE)
                build_bind_sc_ntfn(ks, s, n);
        }
    }
}

/* ---- IRQs ---- */

#define GEN_GIC_MAX_ID 1019

/* The lines the bound checks and tables turn on: 0, maxIRQ - 1 and
 * maxIRQ itself (valid: Arch_checkIRQ and the fastpath refuse irq > maxIRQ
 * only, include/arch/arm/arch/object/interrupt.h:54-64). A user may hold a
 * handler for IRQ 0 on one core (on SMP it is the remote-call IPI, so 2
 * there); no SGI reaches a one-core base kernel (master's
 * IRQControl_IssueSGISignal sends one), so IRQ 0 stands for the table's
 * first entry: no path branches on the number but against maxIRQ and the
 * table. */
int gen_irq_edge(const struct ks_config *c, unsigned i)
{
    const unsigned edge[GEN_IRQ_EDGES] = {c->smp ? 2 : 0, c->max_irq - 1, c->max_irq}; /* 0, 1: SMP's IPIs */
    return (int)edge[i % GEN_IRQ_EDGES];
}

/* IRQ numbers from a low window: the table is dense up to the highest
 * number used, and every check copies it twice. The edges come with a
 * fixed share. */
static int pick_irq_number(struct gen *g)
{
    unsigned max = g->ks->cfg.max_irq;
    if (chance(g->src, 16))
        return gen_irq_edge(&g->ks->cfg, gpick(g, GEN_IRQ_EDGES));
    return (int)(16 + gpick(g, max - 15 < 32 ? max - 15 : 32));
}

/* A notification whose signal would wake somebody, if there is one. */
static int deliverable_ntfn(struct gen *g)
{
    struct kstate *ks = g->ks;
    int n = (int)gpick(g, ks->n_ntfns);
    for (int k = 0; k < ks->n_ntfns; k++, n = (n + 1) % ks->n_ntfns) {
        const struct ks_ntfn *x = &ks->ntfns[n];
        if (x->state == NTFN_Waiting)
            return n;
        if (x->state == NTFN_Idle && x->bound_tcb != KS_NONE &&
            ks->tcbs[x->bound_tcb].state == TS_BlockedOnReceive)
            return n;
    }
    return KS_NONE;
}

/* Master on GICv3 (split EOI): a signal IRQ is never masked, and one
 * delivered before stays active until its handler acks it, also after
 * the handler was deleted (IRQInactive, then masked): check/invariant.c,
 * check_irq_active. The IRQ taken now is not active (the GIC would not
 * signal it). */
static void gen_split_eoi(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (!cfg_split_eoi(&ks->cfg))
        return;
    for (int i = 0; i < ks->n_irqs; i++) {
        int st = ks->irq_state[i];
        if (st == IRQ_Signal)
            ks->irq_masked[i] = false;
        bool may = (st == IRQ_Signal || (st == IRQ_Inactive && ks->irq_masked[i])) && i != ks->active_irq &&
                   i <= (int)ks->cfg.max_irq;
        ks->irq_active[i] = may && chance(g->src, 3);
    }
}

/* A kernel that leaves a woken receiver's reply reference stale
 * (KF_STALE_REPLY_REF): a thread whose reference is not live
 * (reply_ref_live) may hold one, to any reply. */
static void gen_stale_replies(struct gen *g)
{
    struct kstate *ks = g->ks;
    for (int i = 0; i < ks->n_tcbs; i++) {
        int st = ks->tcbs[i].state;
        if (!reply_ref_live(&ks->cfg, st) && ks->n_replies && chance(g->src, 8))
            ks->tcbs[i].reply = (int8_t)gpick(g, ks->n_replies);
    }
}


/* Master's schedules are set at run time (27a52ddd4, src/object/domain.c):
 * durations in ticks, a start index nextDomain wraps to, end markers, and
 * the boot entry's DSCHED_MAX_DURATION (boot.c:636-637) until a schedule
 * is started. The current entry and domain stay as drawn. */
static void gen_dom_schedule(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (!chance(g->src, 2))
        return;
    for (int i = 0; i < ks->dom_len; i++)
        if (i != ks->dom_idx && chance(g->src, 2)) /* not whole ms */
            ks->dom_sched[i] += gpick(g, cfg_us_to_ticks(&ks->cfg, 1000));
    ks->dom_start = (uint8_t)gpick(g, ks->dom_len);
    int next = ks->dom_idx + 1;
    if (next < ks->dom_len && next != ks->dom_start && chance(g->src, 3)) {
        ks->dom_sched[next] = 0; /* an end marker: nextDomain wraps to the start here */
        if (next == ks->dom_len - 1)
            ks->dom_len--;
    }
    if (chance(g->src, 4)) { /* the boot entry, or one configured alike */
        ks->dom_sched[ks->dom_idx] = dschedule_make(ks->cur_domain, DSCHED_MAX_DURATION);
        ks->domain_time = DSCHED_MAX_DURATION - (ks->cur_time < DSCHED_MAX_DURATION ? ks->cur_time : 0);
    }
}

/* TCB_SetFlags run on some user threads before (trees with TCB flags, an
 * FPU build): one in six carries seL4_TCBFlag_fpuDisabled, its FPU state
 * released when the flag was set (invokeSetFlags' fpuRelease, master
 * src/object/tcb.c:808-810); switching to it gave it none since
 * (lazyFPURestore, include/machine/fpu.h:30-38) */
static void gen_fpu_flags(struct gen *g)
{
    struct kstate *ks = g->ks;
    for (int i = 0; i < ks->n_tcbs; i++)
        if (!ks_is_idle(ks, i) && chance(g->src, 6)) {
            ks->tcbs[i].fpu_disabled = true;
            fpuRelease(ks, i);
        }
}

/* What only a kernel with these features (master's) reaches, drawn last
 * and only with them, so base states stay as they were. */
static void gen_features(struct gen *g)
{
    const struct ks_config *c = &g->ks->cfg;
    if (cfg_has(c, KF_SPLIT_EOI))
        gen_split_eoi(g);
    if (cfg_has(c, KF_STALE_REPLY_REF))
        gen_stale_replies(g);
    if (cfg_has(c, KF_FPU_OWNER_AT_SWITCH))
        build_fpu_owners(g->ks); /* lazyFPURestore at every switch */
    if (cfg_has(c, KF_DOMAIN_SCHEDULE_RUNTIME))
        gen_dom_schedule(g);
    if (cfg_has(c, KF_IDLE_SC_MAX_PERIOD))
        build_idle_sc(g->ks, g->ks->idle_sc);
    if (cfg_has(c, KF_TCB_FLAGS) && c->fpu)
        gen_fpu_flags(g);
}

/* The list registers of a VCPU or the VGIC: each of the four virqTypes,
 * with or without EOI maintenance (what VCPUInjectIRQ writes, and what the
 * guest's EOI leaves: an invalid LR that asked for maintenance) */
static void draw_lrs(struct gen *g, uint8_t *lr)
{
    for (int i = 0; i < g->ks->vgic_num_lr; i++)
        lr[i] = (uint8_t)(gpick(g, 4) | (chance(g->src, 2) ? VGIC_LR_EOI : 0));
}

/* A thread other than the idle thread(s) without a VCPU, or KS_NONE */
static int vcpu_free_thread(struct gen *g)
{
    struct kstate *ks = g->ks;
    int t = (int)gpick(g, ks->n_tcbs);
    for (int k = 0; k < ks->n_tcbs; k++, t = (t + 1) % ks->n_tcbs)
        if (ks->tcbs[t].vcpu == KS_NONE && ks->tcbs[t].state != TS_IdleThreadState)
            return t;
    return KS_NONE;
}

/* A fault handler's endpoint, KS_NONE when none fits. Not one whose first
 * receiver holds an SC that is not configured: gen_role's blocked_sc
 * draws such receivers, but decodeSchedContext_Bind refuses a blocked
 * thread an SC that is not released (master schedcontext.c:111, sc_released
 * is false for an inactive SC, sporadic.h:146-156) and a thread with one
 * never runs to block itself; a fault sent to one fails sendIPC's
 * assertions (endpoint.c:108-109). */
int gen_fault_handler_ep(const struct kstate *ks, struct gen_src *src)
{
    int e = (int)gen_pick(src, ks->n_eps);
    for (int k = 0; k < ks->n_eps; k++, e = (e + 1) % ks->n_eps) {
        int head = ks->eps[e].state == EP_Recv ? ks->eps[e].q_head : KS_NONE;
        int sc = head != KS_NONE ? ks->tcbs[head].sc : KS_NONE;
        if (sc == KS_NONE || ks->scs[sc].refill_max > 0)
            return e;
    }
    return KS_NONE;
}

void gen_caller_fault_handler(struct kstate *ks, struct gen_src *src, int t)
{
    if (ks->tcbs[t].fault_ep == KS_NONE && gen_pick(src, 2))
        ks->tcbs[t].fault_ep = (int8_t)gen_fault_handler_ep(ks, src);
}

/* The interrupt a VCPU thread takes: the virtual timer's when unmasked,
 * else (or one in three) the VGIC maintenance interrupt */
static void vcpu_irq(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (!chance(g->src, 3) && !ks->irq_masked[INTERRUPT_VTIMER_EVENT])
        ks->active_irq = INTERRUPT_VTIMER_EVENT;
    else
        ks->active_irq = INTERRUPT_VGIC_MAINTENANCE;
}

/* The VGIC's status registers as a GIC that misreports them would read:
 * MISR's EOI bit with EISR empty, an EISR bit past the list registers in
 * use (EISR1's too, a GICv2 with more), an EISR bit of a list register
 * that is not invalid. They are hardware inputs, not kernel state, and
 * VGICMaintenance guards against each ("the hardware should never give us
 * an invalid index, but we don't want to trust it that far", master
 * vcpu.c:180-185; its switch takes a pending or active LR too, :188-197) */
static void vgic_misread(struct gen *g)
{
    struct kstate *ks = g->ks;
    ks->vgic_misr_eoi = true;
    switch (gpick(g, 3)) {
    case 0:
        ks->vgic_eisr = 0;
        break;
    case 1:
        ks->vgic_eisr = 1ull << (ks->vgic_num_lr + gpick(g, 64u - ks->vgic_num_lr));
        break;
    default:
        ks->vgic_eisr = ks->vgic_num_lr ? 1ull << gpick(g, ks->vgic_num_lr) : 0;
        break;
    }
}

/* The VCPU core 1 loads: a new one (its list registers from VCPUInjectIRQ,
 * its VPPI masked by an earlier VPPIEvent), or one of core 0's draws,
 * whatever thread it is bound to (a VCPU is loaded on several cores when
 * its binding moved under a loaded core, or its thread migrated:
 * check/invariant.c, check_vcpus) */
static int core1_vcpu(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (ks->n_vcpus < KS_MAX_VCPUS && chance(g->src, 2)) {
        int v = ks_add_vcpu(ks, NULL);
        draw_lrs(g, ks->vcpus[v].lr);
        ks->vcpus[v].vppi_masked = chance(g->src, 3);
        return v;
    }
    return (int)gpick(g, ks->n_vcpus);
}

static bool core1_has_ready(const struct kstate *ks)
{
    for (int d = 0; d < KS_MAX_DOMAINS; d++)
        if (ks->l1[1][d])
            return true;
    return false;
}

/* Core 1's scheduler (chooseThread, run on core 1 by smp_swap_core, at
 * core 0's clock: both read one counter) picks its current thread from its
 * ready queues, or its idle thread; switchToThread's Arch_switchToThread
 * runs core 1's vcpu_switch. A pick whose refill the kernel would not run
 * (switchToThread's assertions) is undone. Returns core 1's current
 * thread. */
static int core1_schedule(struct gen *g)
{
    struct kstate *ks = g->ks;
    struct kstate *before = g->cache ? &g->cache->undo : malloc(sizeof *before);
    if (!before)
        return ks->core_cur[1];
    ks_copy(before, ks);
    ticks_t now = ks->cur_time;
    smp_swap_core(ks, 1);
    ks->cur_time = now;
    chooseThread(ks);
    ks->cur_sc = ks->tcbs[ks->cur_thread].sc; /* switchSchedContext (schedule, thread.c) */
    smp_swap_core(ks, 1);
    if (ks->n_asserts != before->n_asserts)
        ks_copy(ks, before);
    if (!g->cache)
        free(before);
    return ks->core_cur[1];
}

/* Core 1 runs the highest thread of its ready queues (core1_schedule),
 * one made ready there first if it has none (as gen_role's R_READY); its
 * current thread, which stays the idle thread if the pick was undone */
static int core1_run(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (!core1_has_ready(ks) && ks->n_tcbs < KS_MAX_TCBS && ks->n_scs < KS_MAX_SCS) {
        int r = gen_thread(g, 1);
        make_sc(g, r, SC_READY, false);
        build_ready(ks, r);
    }
    return core1_schedule(g);
}

/* Two cores: in half the states core 1 runs a thread of its own
 * (core1_run), else its idle thread with what is queued there waiting for
 * the reschedule IPI its queueing sent (remoteQueueUpdate: an idle target
 * always gets one). With VCPU threads gen_core1_vcpu decides core 1's
 * thread instead (a second pick would lose the first, which is dequeued
 * while it runs). */
static void gen_core1_thread(struct gen *g)
{
    if (!g->ks->cfg.smp || g->b->vcpus || chance(g->src, 2))
        return;
    core1_run(g);
}

/* Another core's VCPU (two cores, b->vcpus), by the kernel's operations on
 * core 1 (smp_swap_core runs them there): none ever loaded (boot,
 * vcpu_boot_init); a VCPU that ran on core 1 before its idle thread, left
 * loaded and disabled with core 1's virtual timer masked (vcpu_switch(NULL),
 * armv/vcpu.h:708); or core 1's scheduler runs a thread of its ready
 * queues, whose VCPU is bound either there (associateVCPUTCB of core 1's
 * current thread switches at once, vcpu.c:303-305: loaded, active, core
 * 1's timer mask the VCPU's flag) or from core 0 (no switch on core 1: its
 * current thread's VCPU not loaded there); the guest's EOIs change core 1's
 * list registers, invokeVCPUAckVPPI clears a masked flag. */
static void gen_core1_vcpu(struct gen *g)
{
    struct kstate *ks = g->ks;
    unsigned how = (unsigned)gpick(g, 4);
    if (how == 0)
        return;
    int v = core1_vcpu(g);
    if (how == 1) {
        smp_swap_core(ks, 1);
        vcpu_switch(ks, v);
        draw_lrs(g, ks->vgic_lr);
        vgic_hw_sync(ks);
        vcpu_switch(ks, KS_NONE);
        smp_swap_core(ks, 1);
        return;
    }
    int t = core1_run(g);
    if (t == ks->core_idle[1])
        return;
    bool here = how == 2;
    if (here)
        smp_swap_core(ks, 1);
    associateVCPUTCB(ks, v, t);
    if (here && ks->vcpu_active) {
        if (chance(g->src, 2)) { /* the guest ran: its EOIs */
            draw_lrs(g, ks->vgic_lr);
            vgic_hw_sync(ks);
        }
        if (chance(g->src, 4))
            invokeVCPUAckVPPI(ks, ks->cur_vcpu, VPPIEventIRQ_VTimer);
    }
    if (here)
        smp_swap_core(ks, 1);
}

/* Hypervisor builds with VCPU threads (b->vcpus), by the kernel's own
 * operations on a booted state: boot reserves the two PPIs unmasked
 * (arm/kernel/boot.c:128-129, setIRQState, interrupt.c:287-297); VCPUs get
 * their list registers from VCPUInjectIRQ and their masked VPPI from an
 * earlier VPPIEvent; associateVCPUTCB (VCPU_SetTCB) binds them, switching
 * to the current thread's at once; a VCPU loaded before the current thread
 * ran is left loaded and disabled by vcpu_switch(NULL); while the guest
 * runs, its EOIs change the VGIC's list registers (the VCPU's copy is
 * saved only at a switch); invokeVCPUAckVPPI clears a masked flag; each
 * VCPU thread's fault handler is an endpoint of the state, or none. The
 * current thread's budget edge, round robin, release queue and the other
 * core come from the draws before (gen_current, gen_role, gen_clock); on two
 * cores, core 1's VCPU from gen_core1_vcpu. */
static void gen_vcpus(struct gen *g)
{
    struct kstate *ks = g->ks;
    build_hyp_boot(ks); /* (and gen_split_eoi's draw of irq_active for a signal IRQ undone) */
    int n = 1 + (int)gpick(g, KS_MAX_VCPUS);
    for (int v = 0; v < n; v++) {
        ks_add_vcpu(ks, NULL);
        draw_lrs(g, ks->vcpus[v].lr);
        ks->vcpus[v].vppi_masked = chance(g->src, 3);
    }
    int cur = ks->cur_thread;
    if (chance(g->src, 4)) { /* a VCPU thread ran before the current one */
        vcpu_switch(ks, (int)gpick(g, (uint64_t)n));
        vcpu_switch(ks, KS_NONE);
    }
    for (int v = 0; v < n; v++) {
        int t = v == 0 && cur != ks->idle_thread && !chance(g->src, 4) ? cur : vcpu_free_thread(g);
        if (t != KS_NONE && !chance(g->src, 5))
            associateVCPUTCB(ks, v, t);
    }
    /* a VCPU another domain's thread left loaded: that domain's end
     * flushed it (prepareNextDomain, the domain rule of invariant.c) */
    if (inv_domain_rule_vcpu(ks) && inv_domain_vcpu_thread(ks) != KS_NONE)
        vcpu_flush(ks);
    if (ks->cfg.smp)
        gen_core1_vcpu(g);
    for (int t = 0; t < ks->n_tcbs; t++)
        if (ks->tcbs[t].vcpu != KS_NONE && ks->n_eps && !chance(g->src, 4))
            ks->tcbs[t].fault_ep = (int8_t)gen_fault_handler_ep(ks, g->src);
    if (ks->vcpu_active) {
        if (chance(g->src, 2)) { /* the guest ran: its EOIs */
            draw_lrs(g, ks->vgic_lr);
            vgic_hw_sync(ks);
        }
        if (chance(g->src, 4))
            invokeVCPUAckVPPI(ks, ks->cur_vcpu, VPPIEventIRQ_VTimer);
        if (chance(g->src, 8))
            vgic_misread(g);
    }
    bool vppi_line = ks->active_irq == INTERRUPT_VTIMER_EVENT || ks->active_irq == INTERRUPT_VGIC_MAINTENANCE;
    if (!chance(g->src, 4) || vppi_line) /* and gen_irqs' pick of either is redrawn: its mask is the VCPU's now */
        vcpu_irq(g);
}

static void gen_irqs(struct gen *g)
{
    struct kstate *ks = g->ks;
    int n = 1 + (int)gpick(g, 4), first = KS_IRQ_INVALID;
    for (int i = 0; i < n; i++) {
        int irq = pick_irq_number(g);
        static const uint8_t states[] = {IRQ_Signal, IRQ_Signal, IRQ_Signal, IRQ_Signal, IRQ_Signal,
                                         IRQ_Timer,  IRQ_Inactive, IRQ_Reserved, IRQ_IPI};
        int st = states[gpick(g, ks->cfg.smp ? 9 : 8)];
        if (st == IRQ_IPI) /* the reschedule IPI, the one IPI the model handles */
            irq = KS_IRQ_RESCHEDULE_IPI;
        if (first == KS_IRQ_INVALID)
            first = irq;
        build_irq_state(ks, irq, st);
        if (st == IRQ_Signal && !chance(g->src, 10)) {
            static const uint64_t badges[] = {0, 1, 2, 0x80, 1ull << 63};
            bool can_send = !chance(g->src, 10); /* the choices in sequence: see gen_clock */
            uint64_t badge = badges[gpick(g, 5)];
            build_irq_signal(ks, irq, (int)gpick(g, ks->n_ntfns), badge, can_send);
        } else if (st == IRQ_Signal && chance(g->src, 2)) {
            ks->irq_cap[irq].type = CAP_Endpoint;
        }
        ks->irq_masked[irq] = chance(g->src, 4);
    }
    int n_deliver = deliverable_ntfn(g);
    /* most interesting: a signal that wakes (an IPI stays one) */
    if (n_deliver != KS_NONE && ks->irq_state[first] != IRQ_IPI && chance(g->src, 2))
        build_irq_signal(ks, first, n_deliver, ks->irq_cap[first].badge | 1, true);
    switch (gpick(g, 20)) {
    case 0: ks->active_irq = KS_IRQ_INVALID; return;
    case 1: /* out of range: just above maxIRQ, or the GIC's highest interrupt ID (1019: 1020-1023 are special) */
        ks->active_irq = (int32_t)(chance(g->src, 8) ? GEN_GIC_MAX_ID : ks->cfg.max_irq + 1 + gpick(g, 8));
        return;
    case 2: ks->active_irq = pick_irq_number(g); break;
    default: ks->active_irq = first; break;
    }
    if (ks->active_irq < ks->n_irqs)
        ks->irq_masked[ks->active_irq] = false;
}

static void gen_smp(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (!ks->cfg.smp)
        return;
    build_core1(ks);
    ks->core_reprogram[1] = chance(g->src, 4);
    switch (gpick(g, 6)) {
    case 0:
    case 2:
        g->flight = GF_SENT;
        ks->ipi_sent |= 1u << CUR_CORE;
        break;
    case 1: /* the other core's fastpath_signal queued a thread here (S9) */
        if (built_admit(g) & INV_ADMIT_IPI) {
            g->flight = GF_OWED;
            ks->core_ipi_pending[1] |= 1u << CUR_CORE;
        }
        break;
    default:
        break;
    }
}

/* With an IPI in flight, one ready thread here often outranks the current
 * one: the other core raised its priority (TCB_SetPriority, setPriority's
 * requeue with SCHED_ENQUEUE, src/object/tcb.c, whose remoteQueueUpdate
 * sends the IPI; the rescheduleRequired is that core's) to a priority of
 * the pool above the current thread's. */
static void gen_outrank(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (g->flight == GF_NONE || ks->cur_thread == ks->idle_thread || !chance(g->src, 2))
        return;
    int cur = ks->tcbs[ks->cur_thread].prio, above = 0;
    uint8_t prios[KS_NUM_PRIOS];
    for (int i = 0; i < g->n_pool; i++)
        if (g->pool[i] > cur)
            prios[above++] = g->pool[i];
    for (int t = 0; t < ks->n_tcbs && above; t++) {
        struct ks_tcb *x = &ks->tcbs[t];
        if (!x->queued || x->affinity != CUR_CORE || x->domain != ks->cur_domain)
            continue;
        tcbSchedDequeue(ks, t);
        x->prio = prios[gpick(g, (uint64_t)above)];
        tcbSchedEnqueue(ks, t);
        return;
    }
}

/* The reschedule IPI in flight came with a remote stall: the other core
 * took this core's current thread (remoteTCBStall, src/object/tcb.c:
 * 463-476) and this core ran ipiStallCoreCallback, from user level or
 * while waiting for the lock with this IRQ already acknowledged
 * (clh_lock_acquire, include/smp/lock.h:93-117): after the deadline and
 * clock were drawn, as the stall reprograms nothing. */
static void gen_stall(struct gen *g)
{
    struct kstate *ks = g->ks;
    if (g->flight != GF_SENT || ks->cur_thread == ks->idle_thread || !chance(g->src, 3))
        return;
    ipiStallCoreCallback(ks, true);
}

/* What the configuration's other fastpaths left at user level on this
 * core: ksReprogram (a sporadic unblock check) and, on SMP, this core's
 * ipiReschedulePending for the other core, unsent (the signal target's
 * admit_built). */
static void gen_leftovers(struct gen *g)
{
    struct kstate *ks = g->ks;
    unsigned admit = built_admit(g);
    if ((admit & INV_ADMIT_REPROGRAM) && chance(g->src, 4))
        ks->reprogram = true;
    if ((admit & INV_ADMIT_IPI) && ks->cfg.smp && chance(g->src, 4))
        ks->ipi_pending |= 1u << 1;
}

static int gen_one(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b, struct gen_cache *c);

/* a thread at user level can make a system call */
const char *gen_syscall_unfit(const struct kstate *ks)
{
    if (ks->cur_thread == ks->idle_thread)
        return "idle";
    if (ks->tcbs[ks->cur_thread].state != TS_Running)
        return "not running";
    if (ks->sched_action != KS_SA_RESUME)
        return "action pending";
    return NULL;
}

int gen_state(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b)
{
    return gen_state_cached(ks, src, b, NULL);
}

int gen_state_cached(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b, struct gen_cache *c)
{
    if (gen_bounds_check(b))
        return -1;
    /* a state that cannot be the target's entry is drawn anew from the
     * same source (a SysSend: about one state in six has the idle thread
     * current, gen_current) */
    for (int tries = 0; tries < 1000; tries++) {
        if (gen_one(ks, src, b, c) != 0)
            return -1;
        if (b->target->gen_entry(ks, src) == 0) {
            target_mark(b->target, ks);
            return 0;
        }
    }
    return -1;
}

static int gen_one(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b, struct gen_cache *c)
{
    /* with a fixed configuration, any preset starts the state: gen_config
     * then puts the build's configuration in place (its board need not be
     * a preset) */
    const char *board = b->config ? cfg_preset_name(0) : b->board;
    /* base draws among the six boards of the PR's benchmark table; master
     * adds qemu-arm-virt in both GIC forms */
    if (!board)
        board = cfg_preset_name((int)pick(src, cfg_kernel_has(b->kernel, KF_QEMU_GICV3) ? 8 : 6));
    if (ks_init(ks, board) != 0)
        return -1;
    struct gen g = {.ks = ks, .src = src, .b = b, .cache = c};
    gen_config(&g);
    g.slot = history_slot(&g);
    gen_time(&g);
    gen_domains(&g);
    gen_prio_pool(&g);
    gen_smp(&g);
    int n_threads = 1 + (int)gpick(&g, (uint64_t)b->max_threads);
    int n_ntfns = 1 + (int)gpick(&g, (uint64_t)b->max_ntfns);
    for (int i = 0; i < n_ntfns; i++)
        ks_add_ntfn(ks, NULL);
    for (int i = 1 + (int)gpick(&g, 3); i; i--)
        ks_add_ep(ks, NULL);
    gen_current(&g, n_threads);
    int others = n_threads - (ks->cur_thread != ks->idle_thread);
    for (int i = 0; i < others; i++) {
        int core = ks->cfg.smp && chance(src, 3) ? 1 : 0;
        gen_role(&g, gen_thread(&g, core));
    }
    gen_ntfn_links(&g);
    gen_core1_thread(&g);
    gen_outrank(&g);
    gen_irqs(&g);
    gen_features(&g);
    if (b->vcpus)
        gen_vcpus(&g);
    /* the kernel reprograms whenever the next event changes, so the
     * deadline is exactly what setNextInterrupt computed at the last
     * commit (an earlier one is left only by the proposal's switch) */
    build_deadline(ks);
    gen_clock(&g);
    gen_stall(&g);
    /* a stall switched this core to its idle thread: vcpu_switch(NULL)
     * masked the virtual timer, whose IRQ the GIC then holds back */
    if (b->vcpus && ks->active_irq == INTERRUPT_VTIMER_EVENT && ks->irq_masked[INTERRUPT_VTIMER_EVENT])
        ks->active_irq = INTERRUPT_VGIC_MAINTENANCE;
    ks->reprogram = false; /* the queue operations set it; a user-level state has it clear */
    gen_leftovers(&g);
    return 0;
}

void gen_reclock(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b)
{
    struct gen g = {.ks = ks, .src = src, .b = b, .mb = ks->cfg.min_budget};
    gen_clock(&g);
}
