/* exectree: executions from boot as a tree of choices (exectree.h). */
#include "exectree.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "sim.h"
#include "statehash.h"
#include "workload.h"

/* forks along one path: a's and b's instructions (EXEC_MAX_DEPTH each),
 * the arrival (EXEC_ARRIVALS - 1), the GIC's order (1), with room */
#define MAX_LEVELS 32
#define TH_A 1 /* workload threads: h, a, b (exec_workload_text) */
#define TH_B 2
#define DEFAULT_MAX_STATES ((size_t)1 << 23)

/* What is decided outside the workload, hashed with it; bytes only, no
 * padding. */
struct dec {
    uint8_t order;        /* the GIC's order (EXEC_GIC_ORDERS), 0 while open */
    bool order_open;      /* no GIC choice yet on this path */
    uint8_t arrival;      /* IRQ 40's candidate arrival (exec_arrival_time) */
    bool arrival_open;    /* ... not decided: it arrives at it or later */
    uint8_t latency, ipi; /* the root's choices (exec_point) */
    uint8_t ops[2][EXEC_MAX_DEPTH]; /* the menu index of a's and b's instructions */
};

struct frame {
    struct sim s;
    struct workload w;
    struct dec d;
};

/* a remembered state: its hash, what its subtree covered, and its
 * serialised bytes while they fit (full: NULL past full_bytes) */
struct ventry {
    uint64_t a, b;
    uint64_t covered, reruns;
    uint8_t *full;
    size_t len;
};

struct vset {
    struct ventry *slot;
    size_t cap, n;
};

/* the counters an explored stretch adds to the totals (flush) */
struct base {
    uint32_t checked[2], refused[2], asserts[2], lock_waits;
    bool drift;
    uint64_t sits[SIT_COUNT];
};

struct eng {
    const struct exec_opts *o;
    const struct exec_tree_opts *t;
    struct exec_result *r;
    struct frame *fr;             /* one per level */
    struct wl_insn ins[2][EXEC_MENU], loop;
    uint8_t rank[EXEC_GIC_ORDERS][WL_GIC_KINDS];
    bool reversed[EXEC_GIC_ORDERS];
    struct vset set;
    size_t full_used, max_states;
    uint8_t *key;                 /* the serialised state (scratch) */
    size_t key_len, key_cap;
    const struct frame *cur;      /* the frame running: on_sweep's workload */
    void (*progress)(void *ctx, uint64_t done, uint64_t of);
    bool (*stop)(void *ctx);
    void *ctx;
    uint32_t polls;
    bool cut;
    /* a slice of a root (exec_tree_unit): of the n_paths paths numbered
     * through the first cut_lv choice points (pos: the next number), a
     * run of consecutive ones (owner); precut: the stretch running lies
     * above the cut; mute: it is another slice's to count; counting: the
     * pass that only numbers the paths (n_paths not known yet) */
    int slice, slices, cut_lv;
    uint32_t pos, n_paths;
    bool precut, mute, counting;
};

/* the slice that explores path p: the paths cut into runs of consecutive
 * numbers, so that the slices in their order are the paths in one
 * process's order (exec_tree_jobs merges them so) */
static int owner(const struct eng *e, uint32_t p)
{
    return e->n_paths ? (int)((uint64_t)p * (uint64_t)e->slices / e->n_paths) : (int)p % e->slices;
}

/* ---- the workload a path stands for ---- */

static bool is_open(const struct frame *f, int th)
{
    return f->s.open >> th & 1u;
}

/* programs with a's (or b's) decided prefix: 1 when closed */
static uint64_t completions(const struct eng *e, const struct frame *f, int th)
{
    if (!is_open(f, th))
        return 1;
    int slot = f->w.threads[th].n_prog;
    if (slot == 0)
        return exec_programs(e->o->depth);
    uint64_t n = 0, p = 1;
    for (int d = slot; d <= e->o->depth; d++, p *= EXEC_MENU)
        n += p;
    return n;
}

/* the least program index the thread's path stands for (open: the
 * shortest completion, its undecided first instruction the menu's first) */
static uint64_t program_index(const struct frame *f, int th)
{
    int n = f->w.threads[th].n_prog, len = is_open(f, th) ? (n ? n : 1) : n - 1;
    uint64_t i = 0, p = 1;
    for (int l = 1; l < len; l++) { /* the shorter programs come first */
        p *= EXEC_MENU;
        i += p;
    }
    p = 1;
    for (int k = 0; k < len && k < n; k++, p *= EXEC_MENU)
        i += f->d.ops[th - TH_A][k] * p;
    return i;
}

static uint64_t index_of(const struct eng *e, const struct frame *f)
{
    struct exec_point x = {program_index(f, TH_A), program_index(f, TH_B),
                           exec_arrival_index(f->d.arrival_open ? EXEC_ARRIVALS - 1 : f->d.arrival), f->d.latency,
                           f->d.ipi};
    return exec_index(e->o, &x);
}

/* ---- counting ---- */

static void on_sweep(void *arg, const struct kstate *in, const struct diff_verdict *v, const struct dclass *cl)
{
    struct eng *e = arg;
    struct exec_result *r = e->r;
    if (e->mute)
        return;
    r->checks++;
    r->exits[v->exit]++;
    r->distinct += (uint64_t)exec_set_add(&r->seen, sh_kstate64(in));
    if (!cl)
        return;
    r->diverged++;
    exec_add_class(r, cl, index_of(e, e->cur), e->cur->d.order);
}

static void take_base(const struct frame *f, struct base *b)
{
    for (int j = 0; j < 2; j++) {
        b->checked[j] = f->s.k[j].checked;
        b->refused[j] = f->s.k[j].refused;
        b->asserts[j] = f->s.k[j].asserts;
    }
    b->lock_waits = f->s.k[0].lock_waits;
    b->drift = f->s.drift;
    memcpy(b->sits, f->s.sits, sizeof b->sits);
}

/* what the frame ran since b into the totals (children start from here);
 * the fastpath kernel made its own again first (sim_sync: the counts, the
 * fork's copies and its state's hash read it) */
static void flush(struct eng *e, struct frame *f, const struct base *b)
{
    struct exec_result *r = e->r;
    sim_sync(&f->s);
    if (e->mute)
        return;
    for (int j = 0; j < 2; j++) {
        const struct sim_kernel *k = &f->s.k[j];
        r->entries += k->checked - b->checked[j];
        r->refused += k->refused - b->refused[j];
        r->asserts += k->asserts - b->asserts[j];
        if (k->refused > b->refused[j] && !r->refusal[0] && b->refused[j] < SIM_MAX_REFUSED) {
            char note[EXEC_NOTE_LEN];
            const struct sim_refusal *x = &k->refusals[b->refused[j]];
            r->first_refused = index_of(e, f);
            snprintf(r->refusal, sizeof r->refusal, "t=%" PRIu64 "%s: %s", x->t,
                     exec_gic_order_note(f->d.order, note, sizeof note), x->msg);
        }
    }
    r->lock_waits += f->s.k[0].lock_waits - b->lock_waits;
    r->drifts += f->s.drift && !b->drift;
    for (int i = 0; i < SIT_COUNT; i++)
        r->sits[i] += f->s.sits[i] - b->sits[i];
}

static void leaf(struct eng *e, const struct frame *f)
{
    struct exec_result *r = e->r;
    e->pos += e->precut; /* a path that ended above the cut: numbered */
    if (e->mute)
        return;
    uint64_t m = completions(e, f, TH_A) * completions(e, f, TH_B) *
                 (f->d.arrival_open ? (uint64_t)(EXEC_ARRIVALS - f->d.arrival) : 1);
    if (!f->d.order_open && f->d.order != 0)
        r->tree.covered_reruns += m;
    else
        r->tree.covered += m;
    r->stopped += !(f->s.k[0].done && f->s.k[1].done); /* the event limit */
    if (++r->tree.leaves % 4096 == 0 && e->progress)
        e->progress(e->ctx, r->tree.covered, r->space);
}

/* ---- the state at a choice point ---- */

static void put(void *ctx, const void *p, size_t n)
{
    struct eng *e = ctx;
    if (e->key_len + n > e->key_cap) {
        e->key_cap = (e->key_len + n) * 2;
        if (!(e->key = realloc(e->key, e->key_cap)))
            abort();
    }
    memcpy(e->key + e->key_len, p, n);
    e->key_len += n;
}

/* the smallest period of the d-instruction sequence at x */
static int period(const struct wl_insn *x, int d)
{
    for (int p = 1; p < d; p++) {
        if (d % p)
            continue;
        int i = p;
        while (i < d && !memcmp(&x[i], &x[i - p], sizeof *x))
            i++;
        if (i == d)
            return p;
    }
    return d;
}

/* A thread's position as what it will do from there: a closed program
 * that ends in a loop, at pc inside the loop, runs the loop's body from
 * pc on, again and again. That sequence, cut to its smallest period, is
 * what the rest of the path reads of the program ("yield" and
 * "yield,yield" are one thread; "a,b" at b and "b,a" at its start too).
 * Anything else (an open program, a position before the loop's target):
 * the program and the position as they are. */
static void put_thread(struct eng *e, const struct frame *f, int th, int pc)
{
    const struct wl_thread *t = &f->w.threads[th];
    int last = t->n_prog - 1;
    bool loops = !is_open(f, th) && last >= 0 && t->prog[last].op == OP_LOOP;
    int start = loops ? (int)t->prog[last].n : 0;
    if (!loops || pc < start || pc >= last) {
        put(e, &t->n_prog, sizeof t->n_prog);
        put(e, t->prog, t->n_prog * sizeof t->prog[0]);
        put(e, &pc, sizeof pc);
        return;
    }
    struct wl_insn seq[WL_MAX_PROG];
    int d = last - start;
    for (int i = 0; i < d; i++)
        seq[i] = t->prog[start + (pc - start + i) % d];
    int p = period(seq, d);
    put(e, &p, sizeof p);
    put(e, seq, (size_t)p * sizeof seq[0]);
}

/* What decides the rest of the path: what is left to decide (dec, the
 * open programs), the workload's decided part (each thread's program as
 * put_thread has it), both kernels as ks_same compares them and each
 * kernel's simulator state: the threads' positions, the pending and
 * future interrupts, the lock wait, the IPIs in flight. Not in it: the
 * counts for the report, the menu indices (the programs say it), and the
 * events run (the event limit: a revisit's subtree was explored within
 * it). An arrival both kernels have taken is left out (it is past). */
static void serialise(struct eng *e, const struct frame *f)
{
    const struct workload *w = &f->w;
    const struct sim *s = &f->s;
    e->key_len = 0;
    put(e, &f->d, offsetof(struct dec, ops));
    put(e, w->gic_rank, sizeof w->gic_rank);
    put(e, &w->gic_devices_reversed, sizeof w->gic_devices_reversed);
    put(e, &w->entry_latency, sizeof w->entry_latency);
    put(e, &w->ipi_latency, sizeof w->ipi_latency);
    for (int i = 0; i < w->n_threads; i++) /* all but the program and its length: put_thread */
        put(e, &w->threads[i], offsetof(struct wl_thread, n_prog));
    for (int q = 0; q < w->n_irqs; q++) {
        struct wl_irq x = w->irqs[q];
        if (s->k[0].at_idx[q] >= x.n_at && s->k[1].at_idx[q] >= x.n_at)
            memset(x.at, 0, sizeof x.at);
        put(e, &x, sizeof x);
    }
    put(e, &s->diverged, sizeof s->diverged);
    put(e, &s->open, sizeof s->open);
    for (int j = 0; j < 2; j++) {
        const struct sim_kernel *k = &s->k[j];
        sh_ks_regions(&k->ks, put, e);
        put(e, &k->now, sizeof k->now);
        put(e, &k->done, sizeof k->done);
        for (int i = 0; i < w->n_threads; i++) {
            int tcb = s->tcb_of[i];
            put_thread(e, f, i, k->pc[tcb]);
            put(e, &k->left[tcb], sizeof k->left[tcb]);
        }
        put(e, k->at_idx, w->n_irqs * sizeof k->at_idx[0]);
        put(e, k->next_periodic, w->n_irqs * sizeof k->next_periodic[0]);
        put(e, k->pending, w->n_irqs * sizeof k->pending[0]);
        for (int q = 0; q < w->n_irqs; q++)
            if (k->pending[q])
                put(e, &k->pending_since[q], sizeof k->pending_since[q]);
        put(e, &k->entry_core, sizeof k->entry_core);
        put(e, &k->entry_t0, sizeof k->entry_t0);
        put(e, &k->acked_q, sizeof k->acked_q);
        put(e, k->ipi_at, sizeof k->ipi_at);
        put(e, k->vtimer_vcpu, w->n_irqs * sizeof k->vtimer_vcpu[0]); /* hypervisor workloads (sim.h) */
        put(e, &k->vppi_deferred, sizeof k->vppi_deferred);
    }
}

static struct ventry *lookup(struct vset *v, struct shash h)
{
    if (!v->cap)
        return NULL;
    for (size_t i = h.a & (v->cap - 1);; i = (i + 1) & (v->cap - 1)) {
        if (!v->slot[i].a)
            return &v->slot[i];
        if (v->slot[i].a == h.a && v->slot[i].b == h.b)
            return &v->slot[i];
    }
}

/* room for one more below half full; false at the capacity */
static bool room(struct vset *v, size_t max)
{
    if (v->n * 2 < v->cap)
        return true;
    if (v->n >= max)
        return false;
    size_t cap = v->cap ? v->cap * 2 : (size_t)1 << 16;
    struct ventry *old = v->slot;
    size_t old_cap = v->cap;
    if (!(v->slot = calloc(cap, sizeof *v->slot)))
        abort();
    v->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].a)
            *lookup(v, (struct shash){old[i].a, old[i].b}) = old[i];
    free(old);
    return true;
}

static void vset_free(struct vset *v)
{
    for (size_t i = 0; i < v->cap; i++)
        free(v->slot[i].full);
    free(v->slot);
    *v = (struct vset){NULL, 0, 0};
}

/* ---- the tree ---- */

static void explore(struct eng *e, int lv);

typedef void alt_fn(struct eng *e, struct frame *g, int k, int arg);

static void copy_frame(struct frame *g, const struct frame *f)
{
    sim_copy(&g->s, &f->s);
    g->w = f->w;
    g->d = f->d;
    g->s.w = &g->w;
}

/* A choice point: the state remembered or looked up, each of the n
 * choices run on from a copy at the next level. */
static void fork_at(struct eng *e, int lv, int n, alt_fn *fn, int arg)
{
    struct exec_result *r = e->r;
    const struct frame *f = &e->fr[lv];
    struct shash h = {0, 0};
    uint8_t *full = NULL;
    bool collided = false, above_cut = e->precut;
    if (e->t->remember && !above_cut) {
        serialise(e, f);
        struct shash x;
        sh_init(&x);
        sh_add(&x, e->key, e->key_len);
        h = sh_final(&x);
        h.a |= 1; /* 0 marks an empty slot */
        struct ventry *v = lookup(&e->set, h);
        bool same = v && v->a && (!v->full || (v->len == e->key_len && !memcmp(v->full, e->key, e->key_len)));
        if (v && v->a && same) {
            r->tree.skipped++;
            r->tree.compared += v->full != NULL;
            r->tree.hash_only += !v->full;
            r->tree.skipped_covered += v->covered;
            r->tree.skipped_reruns += v->reruns;
            r->tree.covered += v->covered;
            r->tree.covered_reruns += v->reruns;
            return;
        }
        collided = v && v->a; /* two states, one 128-bit hash: explored, said */
        r->tree.collisions += collided;
        if (!collided && e->full_used + e->key_len <= e->t->full_bytes) {
            if (!(full = malloc(e->key_len)))
                abort();
            memcpy(full, e->key, e->key_len);
            e->full_used += e->key_len;
        }
    }
    size_t len = e->key_len;
    bool muted = e->mute, last_cut = above_cut && lv == e->cut_lv - 1;
    if (last_cut && e->counting) { /* numbered, not explored */
        e->pos += (uint32_t)n;
        return;
    }
    e->mute = false;
    r->tree.forks += !muted;
    uint64_t c0 = r->tree.covered, r0 = r->tree.covered_reruns;
    if (lv + 1 >= MAX_LEVELS) {
        fprintf(stderr, "irqsim: exectree: more than %d choices on one path\n", MAX_LEVELS);
        abort();
    }
    for (int k = 0; k < n && !e->cut; k++) {
        if (last_cut && owner(e, e->pos++) != e->slice)
            continue; /* another slice's */
        if (above_cut && !last_cut) /* every slice runs it, its first number's owner counts it */
            e->mute = e->counting || owner(e, e->pos) != e->slice;
        e->precut = above_cut && !last_cut;
        struct frame *g = &e->fr[lv + 1];
        copy_frame(g, f);
        fn(e, g, k, arg);
        explore(e, lv + 1);
    }
    e->precut = above_cut;
    bool new_key = e->t->remember && !collided && !above_cut; /* (after a collision: the slot is the other state's) */
    if (!new_key || e->cut || !room(&e->set, e->max_states)) {
        r->tree.not_remembered += new_key && !e->cut;
        free(full);
        return;
    }
    struct ventry *v = lookup(&e->set, h);
    if (v->a) { /* (the same state reached below it: nothing new) */
        free(full);
        return;
    }
    *v = (struct ventry){h.a, h.b, r->tree.covered - c0, r->tree.covered_reruns - r0, full, full ? len : 0};
    e->set.n++;
    r->tree.states += !muted;
}

/* thread th's next instruction: the menu's k-th, or (k == EXEC_MENU) the
 * loop back to the start */
static void decide_insn(struct eng *e, struct frame *g, int k, int th)
{
    struct wl_thread *t = &g->w.threads[th];
    int slot = t->n_prog;
    t->prog[slot] = k < EXEC_MENU ? e->ins[th - TH_A][k] : e->loop;
    t->n_prog++;
    if (k < EXEC_MENU)
        g->d.ops[th - TH_A][slot] = (uint8_t)k;
    else
        g->s.open &= ~(1u << th);
    sim_decided(&g->s, th, slot);
}

/* IRQ 40's arrival at t, and the guest's virtual timer's with it (--vcpus:
 * exec_workload_text gives both the arrival) */
static void set_arrival(struct workload *w, ticks_t t)
{
    for (int q = 0; q < w->n_irqs; q++)
        if (q == 0 || w->irqs[q].vtimer)
            w->irqs[q].at[0] = t;
}

/* k 0: IRQ 40 arrives at the candidate time; 1: later (the next
 * candidate; the last is none) */
static void decide_arrival(struct eng *e, struct frame *g, int k, int arg)
{
    (void)e;
    (void)arg;
    if (k == 0) {
        g->d.arrival_open = false;
        return;
    }
    g->d.arrival++;
    set_arrival(&g->w, exec_arrival_time(g->d.arrival));
    g->d.arrival_open = g->d.arrival + 1 < EXEC_ARRIVALS;
}

static void decide_order(struct eng *e, struct frame *g, int k, int arg)
{
    (void)arg;
    g->d.order = (uint8_t)k;
    g->d.order_open = false;
    memcpy(g->w.gic_rank, e->rank[k], sizeof g->w.gic_rank);
    g->w.gic_devices_reversed = e->reversed[k];
}

/* Whether the candidate arrival could decide what this step does: it
 * could be the next event of a running kernel (at or before it), or it
 * is past (an arrival while another core held the lock). Otherwise the
 * step is the same whenever, from the candidate on, IRQ 40 arrives. */
static bool arrival_matters(const struct frame *f, const struct sim_plan *p)
{
    ticks_t t = f->w.irqs[0].at[0];
    const struct sim_ev *ev[2] = {&p->a, &p->b};
    for (int j = 0; j < 2; j++) {
        const struct sim_kernel *k = sim_kernel_of(&f->s, j);
        if (!k->done && (t <= ev[j]->t || t < k->now))
            return true;
    }
    return false;
}

static bool gic_chose(const struct sim_plan *p)
{
    return (p->step_a && p->a.choice) || (p->step_b && p->b.choice);
}

static void explore(struct eng *e, int lv)
{
    struct frame *f = &e->fr[lv];
    struct base b;
    sim_sync(&f->s);
    take_base(f, &b);
    for (;;) {
        e->cur = f;
        if ((++e->polls & 63) == 0 && e->stop && e->stop(e->ctx))
            e->cut = true;
        if (e->cut) {
            flush(e, f, &b);
            return;
        }
        int th = sim_undecided(&f->s);
        if (th >= 0 && f->w.threads[th].n_prog == e->o->depth) { /* the program is full: it loops */
            decide_insn(e, f, EXEC_MENU, th);
            continue;
        }
        if (th >= 0) {
            flush(e, f, &b);
            fork_at(e, lv, f->w.threads[th].n_prog ? EXEC_MENU + 1 : EXEC_MENU, decide_insn, th);
            return;
        }
        struct sim_plan p;
        if (!sim_plan(&f->s, &p)) {
            flush(e, f, &b);
            leaf(e, f);
            return;
        }
        if (f->d.arrival_open && arrival_matters(f, &p)) {
            flush(e, f, &b);
            fork_at(e, lv, 2, decide_arrival, 0);
            return;
        }
        if (f->d.order_open && gic_chose(&p)) {
            flush(e, f, &b);
            fork_at(e, lv, EXEC_GIC_ORDERS, decide_order, 0);
            return;
        }
        sim_apply(&f->s, &p);
    }
}

/* ---- setup ---- */

static int parse(const char *text, struct workload *w)
{
    struct scen_error err;
    return workload_parse(text, strlen(text), "executions", w, &err);
}

/* The menu's instructions for a and for b, the loop, and the GIC's six
 * orders, as the workload text of the restart engine has them. */
static int tables(struct eng *e, struct workload *w)
{
    char text[2048];
    struct exec_opts one = *e->o;
    one.depth = 1;
    one.ipi_latency = false;
    for (int k = 0; k < EXEC_MENU; k++) {
        struct exec_point x = {(uint64_t)k, (uint64_t)k, 0, 0, 0};
        if (exec_workload_text(&one, exec_index(&one, &x), text, sizeof text) || parse(text, w))
            return -1;
        e->ins[0][k] = w->threads[TH_A].prog[0];
        e->ins[1][k] = w->threads[TH_B].prog[0];
        e->loop = w->threads[TH_A].prog[1];
    }
    for (int k = 0; k < EXEC_GIC_ORDERS; k++) {
        if (exec_workload_text_order(&one, 0, k, text, sizeof text) || parse(text, w))
            return -1;
        memcpy(e->rank[k], w->gic_rank, sizeof e->rank[k]);
        e->reversed[k] = w->gic_devices_reversed;
    }
    return 0;
}

/* The root of one entry and IPI latency: booted, a's and b's programs
 * open, IRQ 40 at its first candidate. 0, or -1 when the setup failed. */
static int root(struct eng *e, unsigned latency, unsigned ipi)
{
    struct frame *f = &e->fr[0];
    char text[2048];
    struct exec_point x = {0, 0, exec_arrival_index(EXEC_ARRIVALS - 1), latency, ipi};
    if (exec_workload_text(e->o, exec_index(e->o, &x), text, sizeof text) || parse(text, &f->w))
        return -1;
    for (int th = TH_A; th <= TH_B; th++) {
        f->w.threads[th].n_prog = 0;
        memset(f->w.threads[th].prog, 0, sizeof f->w.threads[th].prog);
    }
    set_arrival(&f->w, exec_arrival_time(0));
    f->d = (struct dec){.order_open = true, .arrival_open = true, .latency = (uint8_t)latency, .ipi = (uint8_t)ipi};
    if (sim_init(&f->s, &f->w, e->o->variant) != 0) {
        sim_free(&f->s);
        return -1;
    }
    f->s.no_record = true;
    f->s.on_sweep = on_sweep;
    f->s.on_sweep_ctx = e;
    f->s.open = 1u << TH_A | 1u << TH_B;
    sim_decided(&f->s, TH_A, 0);
    sim_decided(&f->s, TH_B, 0);
    return 0;
}

unsigned exec_tree_roots(const struct exec_opts *o)
{
    return (o->ipi_latency ? 2u : 1u) * EXEC_LATENCIES;
}

/* The counting pass of a slice cut at more than one choice point: how
 * many paths go through the cut (e->n_paths), so that each slice takes a
 * run of consecutive ones; it runs the stretches above the cut, as every
 * slice does, once more (a root that cannot be set up: the pass that
 * follows says so). */
static void number_paths(struct eng *e, unsigned i)
{
    e->counting = e->mute = true;
    if (root(e, i % EXEC_LATENCIES, i / EXEC_LATENCIES) == 0) {
        explore(e, 0);
        sim_free(&e->fr[0].s);
    }
    e->n_paths = e->pos;
    e->pos = 0;
    e->counting = false;
    e->precut = true;
    e->mute = e->slice != 0;
}

int exec_tree_unit(const struct exec_opts *o, const struct exec_tree_opts *t, unsigned i, int slice, int slices,
                   struct exec_result *r, void (*progress)(void *ctx, uint64_t done, uint64_t of),
                   bool (*stop)(void *ctx), void *ctx)
{
    struct eng e = {.o = o, .t = t, .r = r, .progress = progress, .stop = stop, .ctx = ctx,
                    .max_states = t->max_states ? t->max_states : DEFAULT_MAX_STATES, .slice = slice,
                    .slices = slices, .cut_lv = t->cut_levels > 1 ? t->cut_levels : 1,
                    .precut = slices > 1, .mute = slices > 1 && slice != 0};
    if (!(e.fr = calloc(MAX_LEVELS, sizeof *e.fr)))
        abort();
    int rc = tables(&e, &e.fr[0].w);
    if (rc == 0 && e.precut && e.cut_lv > 1) /* the paths through the cut numbered first, nothing counted */
        number_paths(&e, i);
    if (rc == 0 && root(&e, i % EXEC_LATENCIES, i / EXEC_LATENCIES) != 0)
        r->setup_refused += slice == 0 ? exec_programs(o->depth) * exec_programs(o->depth) * EXEC_ARRIVALS : 0;
    else if (rc == 0)
        explore(&e, 0);
    r->tree.cut |= e.cut;
    vset_free(&e.set);
    free(e.key);
    free(e.fr);
    return rc;
}

int exec_tree_root(const struct exec_opts *o, const struct exec_tree_opts *t, unsigned i, struct exec_result *r,
                   void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx)
{
    return exec_tree_unit(o, t, i, 0, 1, r, progress, stop, ctx);
}

void exec_tree_finish(struct exec_result *r)
{
    r->simulated = r->tree.covered; /* the workloads done, as the restart engine counts them */
    r->gic_reruns = r->tree.covered_reruns / (EXEC_GIC_ORDERS - 1);
}

int exec_tree_run(const struct exec_opts *o, const struct exec_tree_opts *t, struct exec_result *r,
                  void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx)
{
    if (exec_begin(o, r) != 0 || o->shard_n != 1)
        return -1;
    if (t->jobs > 1)
        return exec_tree_jobs(o, t, r, progress, stop, ctx);
    /* the roots one after the other, each with a visited set of its own:
     * they share no state (the key holds both latencies) */
    for (unsigned i = 0; i < exec_tree_roots(o) && !r->tree.cut; i++)
        if (exec_tree_root(o, t, i, r, progress, stop, ctx) != 0)
            return -1;
    exec_tree_finish(r);
    return 0;
}
