/* executions: executions from boot enumerated (executions.h). */
#include "executions.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "defect.h"
#include "scenario.h"
#include "sim.h"
#include "statehash.h"
#include "workload.h"

_Static_assert(sizeof ((struct sim_refusal *)0)->msg == EXEC_REFUSAL_LEN - (2 + 20 + (EXEC_NOTE_LEN - 1) + 2),
               "EXEC_REFUSAL_LEN holds a refused entry's message whole");

/* What a thread may do at each step of its program (then it loops). %c
 * names the thread whose priority it raises (TCB_SetPriority stalls it
 * first when it runs on the other core, src/object/tcb.c:797-800). */
static const char *const menu[] = {
    "compute:400", "signal:n0", "signal:n1", "wait:n1", "yield", "send:n1:badcap", "prio:%c:25",
};
#define MENU ((uint64_t)(sizeof menu / sizeof menu[0]))

/* IRQ 40's single arrival (9000: past the horizon, none), and the
 * kernel's entry latency. The space's last block of workloads has IRQ 40
 * at 2001, when a's round-robin budget (2000) runs out if a ran from the
 * first tick: the timer is due with it, and the GIC's order decides
 * (run_one). A block of its own, after the others, so that the earlier
 * workloads keep their indices. */
static const unsigned arrivals[] = {9000, 700, 1500, 3100};
#define AT_WITH_TIMER 2001u
static const unsigned latencies[] = {0, 40};
#define N_ARRIVALS ((uint64_t)(sizeof arrivals / sizeof arrivals[0]))
#define N_LATENCIES ((uint64_t)(sizeof latencies / sizeof latencies[0]))

unsigned exec_arrival_time(unsigned k)
{
    static const unsigned in_time[EXEC_ARRIVALS] = {700, 1500, AT_WITH_TIMER, 3100, 9000};
    return k < EXEC_ARRIVALS ? in_time[k] : 9000;
}

unsigned exec_arrival_index(unsigned k)
{
    static const unsigned index[EXEC_ARRIVALS] = {1, 2, N_ARRIVALS, 3, 0};
    return k < EXEC_ARRIVALS ? index[k] : 0;
}

_Static_assert(MENU == EXEC_MENU && N_ARRIVALS + 1 == EXEC_ARRIVALS && N_LATENCIES == EXEC_LATENCIES,
               "executions.h names the space's sizes");

/* programs of 1..depth operations */
static uint64_t programs(int depth)
{
    uint64_t n = 0, p = 1;
    for (int d = 1; d <= depth; d++) {
        p *= MENU;
        n += p;
    }
    return n;
}

/* the space at one IPI latency; with ipi_latency enumerated, the
 * workloads at EXEC_IPI_LATENCY follow those at 0 (which keep the indices
 * they had before it was) */
static uint64_t space_at_one_ipi(const struct exec_opts *o)
{
    uint64_t p = programs(o->depth);
    return p * p * (N_ARRIVALS + 1) * N_LATENCIES;
}

uint64_t exec_space(const struct exec_opts *o)
{
    return space_at_one_ipi(o) * (o->ipi_latency ? 2 : 1);
}

uint64_t exec_programs(int depth)
{
    return programs(depth);
}

uint64_t exec_index(const struct exec_opts *o, const struct exec_point *x)
{
    uint64_t p = programs(o->depth), prog = x->pb * p + x->pa;
    uint64_t i = x->arrival == N_ARRIVALS ? p * p * N_ARRIVALS * N_LATENCIES + prog * N_LATENCIES + x->latency
                                          : (prog * N_ARRIVALS + x->arrival) * N_LATENCIES + x->latency;
    return i + x->ipi * space_at_one_ipi(o);
}

/* program index i (0 .. programs(depth) - 1) as "op,op,...," */
static int program_text(int depth, uint64_t i, char other, char *buf, size_t len)
{
    int d = 1;
    uint64_t p = MENU;
    while (d < depth && i >= p) { /* the length: i counts the shorter ones first */
        i -= p;
        p *= MENU;
        d++;
    }
    size_t at = 0;
    for (int k = 0; k < d; k++, i /= MENU) {
        char op[32];
        snprintf(op, sizeof op, menu[i % MENU], other);
        int n = snprintf(buf + at, len - at, "%s,", op);
        if (n < 0 || (size_t)n >= len - at)
            return -1;
        at += (size_t)n;
    }
    return 0;
}

int exec_workload_text(const struct exec_opts *o, uint64_t i, char *buf, size_t len)
{
    uint64_t p = programs(o->depth);
    bool ipi = i >= space_at_one_ipi(o);
    i -= ipi ? space_at_one_ipi(o) : 0;
    uint64_t first_block = p * p * N_ARRIVALS * N_LATENCIES;
    bool with_timer = i >= first_block;
    i -= with_timer ? first_block : 0;
    unsigned lat = latencies[i % N_LATENCIES];
    i /= N_LATENCIES;
    unsigned at = with_timer ? AT_WITH_TIMER : arrivals[i % N_ARRIVALS];
    i /= with_timer ? 1 : N_ARRIVALS;
    char pa[128], pb[128], irq[64], tline[48] = "";
    /* a raises the handler's priority, b a's (declared before it; on two
     * cores b's runs on core 1: a remote stall when a runs) */
    if (program_text(o->depth, i % p, 'h', pa, sizeof pa) || program_text(o->depth, i / p, 'a', pb, sizeof pb))
        return -1;
    snprintf(irq, sizeof irq, " at=%u", at);
    if (!o->target->is_default)
        snprintf(tline, sizeof tline, "target %s\n", o->target->name);
    bool two = o->cores > 1;
    /* --vcpus: the guest, its VMM and the virtual timer (exec_opts); the
     * guest's SC not round robin (period 3000), so that the budget check
     * of an entry near its budget's end can postpone it into the release
     * queue, the state VPPIEvent's test is about. On two cores thread b
     * is a guest too, on core 1, and core 1's virtual timer fires with
     * core 0's (the PPI is banked per core: a VPPIEvent on each core, their
     * faults to the one VMM on core 0, which acks a's only) */
    char vmm[160] = "", vt[64] = "";
    if (o->vcpus) {
        snprintf(vmm, sizeof vmm, "thread v prio=15 sc=s_v prog=recv:fep:rv,ackvppi:a,replyrecv:fep:rv,loop:1\n");
        if (two)
            snprintf(vt, sizeof vt, "vtimer at=%u\nvtimer core=1 at=%u\n", at, at);
        else
            snprintf(vt, sizeof vt, "vtimer at=%u\n", at);
    }
    int n = snprintf(buf, len,
                     "board imx8mm\nhorizon 6000\n%s%s%s%s%sentry_latency %u\n%s"
                     "ntfn n0\nntfn n1\n%s"
                     "sc s_h budget=1000 period=1000\n"
                     "sc s_a budget=2000 period=%u\n"
                     "sc s_b budget=800 period=3000%s\n%s"
                     "thread h prio=20 sc=s_h prog=wait:n0,ack:40,loop\n"
                     "thread a prio=10 sc=s_a%s prog=%sloop\n"
                     "thread b prio=%d sc=s_b%s prog=%sloop\n%s"
                     "irq 40 ntfn=n0 badge=1%s\n%s",
                     two ? "cores 2\n" : "", o->signal_fastpath ? "signal_fastpath 1\n" : "", tline,
                     cfg_kernel_is_default(o->kernel) ? "" : "kernel master\n", o->vcpus ? "hyp 1\n" : "", lat,
                     ipi ? "ipi_latency " EXEC_IPI_LATENCY_TEXT "\n" : "", o->vcpus ? "ep fep\nreply rv\n" : "",
                     o->vcpus ? 3000 : 2000, two ? " core=1" : "", o->vcpus ? "sc s_v budget=300 period=1000\n" : "",
                     o->vcpus ? " vcpu=1 fault_ep=fep" : "", pa, two ? 30 : 5, o->vcpus && two ? " vcpu=1 fault_ep=fep" : "",
                     pb, vmm, irq, vt);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* The six orders (workload.h, gic_rank): the default; its reverse as
 * wl_gic_reverse makes it (every pair of kinds, and of device lines, the
 * other way round); the other four. A workload's text names the order. */
static const struct {
    const char *name, *suffix, *what; /* what: how a summary names the run */
    bool devices_reversed;
} gic_orders[EXEC_GIC_ORDERS] = {
    {"timer,device,ipi", "", "default", false},
    {"ipi,device,timer", "r", "reversed", true},
    {"timer,ipi,device", "o2", "timer,ipi,device", false},
    {"device,timer,ipi", "o3", "device,timer,ipi", false},
    {"device,ipi,timer", "o4", "device,ipi,timer", false},
    {"ipi,timer,device", "o5", "ipi,timer,device", false},
};

const char *exec_gic_order_name(int order)
{
    return order >= 0 && order < EXEC_GIC_ORDERS ? gic_orders[order].name : "?";
}

const char *exec_gic_order_suffix(int order)
{
    return order >= 0 && order < EXEC_GIC_ORDERS ? gic_orders[order].suffix : "?";
}

const char *exec_gic_order_note(int order, char *buf, size_t len)
{
    if (order <= 0 || order >= EXEC_GIC_ORDERS)
        return "";
    snprintf(buf, len, " (the GIC's order %s)", gic_orders[order].what);
    return buf;
}

int exec_gic_order_parse(const char *suffix)
{
    if (strcmp(suffix, "o1") == 0)
        return 1;
    for (int i = 0; i < EXEC_GIC_ORDERS; i++)
        if (strcmp(suffix, gic_orders[i].suffix) == 0)
            return i;
    return -1;
}

int exec_workload_text_order(const struct exec_opts *o, uint64_t i, int order, char *buf, size_t len)
{
    if (order < 0 || order >= EXEC_GIC_ORDERS || exec_workload_text(o, i, buf, len))
        return -1;
    if (order == 0) /* the default: no line */
        return 0;
    size_t at = strlen(buf);
    int n = snprintf(buf + at, len - at, "gic_order %s\n%s", gic_orders[order].name,
                     gic_orders[order].devices_reversed ? "gic_devices reversed\n" : "");
    return n > 0 && (size_t)n < len - at ? 0 : -1;
}

/* ---- the run ---- */

struct ctx {
    struct exec_result *r;
    const struct exec_opts *o;
    uint64_t wl;
};

int exec_set_add(struct exec_set *s, uint64_t h)
{
    if (s->n * 2 >= s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1u << 16;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot)
            abort();
        for (size_t i = 0; i < s->cap; i++)
            for (size_t j = s->slot[i] % cap; s->slot[i]; j = (j + 1) % cap)
                if (!slot[j]) {
                    slot[j] = s->slot[i];
                    break;
                }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    for (size_t j = h % s->cap;; j = (j + 1) % s->cap) {
        if (s->slot[j] == h)
            return 0;
        if (!s->slot[j]) {
            s->slot[j] = h;
            s->n++;
            return 1;
        }
    }
}

void exec_set_free(struct exec_set *s)
{
    free(s->slot);
    *s = (struct exec_set){NULL, 0, 0};
}

void exec_free(struct exec_result *r)
{
    exec_set_free(&r->seen);
}

void exec_add_class(struct exec_result *r, const struct dclass *cl, uint64_t wl, int order)
{
    for (int i = 0; i < r->n_classes; i++) {
        struct exec_class *c = &r->classes[i];
        if (!dclass_same(&c->cl, cl))
            continue;
        c->hits++;
        if (wl < c->first || (wl == c->first && order < c->first_order)) { /* the tree meets them in any order */
            c->first = wl;
            c->first_order = (uint8_t)order;
        }
        return;
    }
    if (r->n_classes == EXEC_MAX_CLASSES) {
        r->classes_dropped++;
        return;
    }
    r->classes[r->n_classes++] = (struct exec_class){.cl = *cl, .hits = 1, .first = wl, .first_order = (uint8_t)order};
}

static void merge_class(struct exec_result *into, const struct exec_class *c)
{
    for (int i = 0; i < into->n_classes; i++) {
        struct exec_class *x = &into->classes[i];
        if (!dclass_same(&x->cl, &c->cl))
            continue;
        x->hits += c->hits;
        if (c->first < x->first || (c->first == x->first && c->first_order < x->first_order)) {
            x->first = c->first;
            x->first_order = c->first_order;
        }
        return;
    }
    if (into->n_classes == EXEC_MAX_CLASSES) {
        into->classes_dropped += c->hits;
        return;
    }
    into->classes[into->n_classes++] = *c;
}

void exec_merge(struct exec_result *into, const struct exec_result *from)
{
    into->simulated += from->simulated;
    into->setup_refused += from->setup_refused;
#define SUM(f) into->f += from->f
    SUM(entries);
    SUM(refused);
    SUM(asserts);
    SUM(drifts);
    SUM(lock_waits);
    SUM(stopped);
    SUM(gic_reruns);
    SUM(checks);
    SUM(diverged);
    SUM(classes_dropped);
    for (int i = 0; i < TARGET_MAX_EXITS; i++)
        SUM(exits[i]);
    for (int i = 0; i < SIT_COUNT; i++)
        SUM(sits[i]);
    SUM(tree.covered);
    SUM(tree.covered_reruns);
    SUM(tree.leaves);
    SUM(tree.forks);
    SUM(tree.states);
    SUM(tree.skipped);
    SUM(tree.skipped_covered);
    SUM(tree.skipped_reruns);
    SUM(tree.compared);
    SUM(tree.hash_only);
    SUM(tree.not_remembered);
    SUM(tree.collisions);
#undef SUM
    into->tree.cut |= from->tree.cut;
    for (size_t i = 0; i < from->seen.cap; i++)
        if (from->seen.slot[i])
            into->distinct += (uint64_t)exec_set_add(&into->seen, from->seen.slot[i]);
    for (int i = 0; i < from->n_classes; i++)
        merge_class(into, &from->classes[i]);
    if (!into->refusal[0] && from->refusal[0]) {
        into->first_refused = from->first_refused;
        memcpy(into->refusal, from->refusal, sizeof into->refusal);
    }
}

static void on_sweep(void *arg, const struct kstate *in, const struct diff_verdict *v,
                     const struct dclass *cl)
{
    (void)cl; /* the run's classes are the simulator's (run_order) */
    struct ctx *c = arg;
    c->r->checks++;
    c->r->exits[v->exit]++;
    c->r->distinct += (uint64_t)exec_set_add(&c->r->seen, sh_kstate64(in));
}

/* the workload's text in the order asked, parsed, simulated and counted;
 * the GIC's choices, or -1 when it could not be set up */
static int run_order(struct ctx *c, struct sim *s, struct workload *w, int order)
{
    struct exec_result *r = c->r;
    char text[2048];
    struct scen_error err;
    if (exec_workload_text_order(c->o, c->wl, order, text, sizeof text) ||
        workload_parse(text, strlen(text), "executions", w, &err) || sim_init(s, w, c->o->variant) != 0) {
        sim_free(s);
        return -1;
    }
    s->on_sweep = on_sweep;
    s->on_sweep_ctx = c;
    sim_run(s);
    r->entries += s->k[0].checked + s->k[1].checked;
    r->refused += s->k[0].refused + s->k[1].refused;
    r->asserts += s->k[0].asserts + s->k[1].asserts;
    r->drifts += s->drift;
    r->stopped += !s->k[0].done || !s->k[1].done;
    r->lock_waits += s->k[0].lock_waits;
    for (int i = 0; i < SIT_COUNT; i++)
        r->sits[i] += s->sits[i];
    r->diverged += s->sweep_diverged;
    for (uint32_t i = 0; i < s->n_found; i++)
        exec_add_class(r, &s->found[i].cl, c->wl, order);
    r->classes_dropped += s->found_dropped;
    if (!sim_all_admitted(s) && !r->refusal[0]) {
        const struct sim_kernel *k = s->k[0].refused ? &s->k[0] : &s->k[1];
        r->first_refused = c->wl;
        char note[EXEC_NOTE_LEN];
        snprintf(r->refusal, sizeof r->refusal, "t=%" PRIu64 "%s: %s", k->refusals[0].t,
                 exec_gic_order_note(order, note, sizeof note), k->refusals[0].msg);
    }
    int choices = (int)(s->k[0].gic_choices + s->k[1].gic_choices);
    sim_free(s);
    return choices;
}

/* A workload in the default order, and again in the five others when the
 * GIC chose among interrupts pending at once: with no choice every order
 * runs the same; with one, each order is a GIC a board may have (the
 * kernel gives every interrupt one priority: docs/model.md) */
static void run_one(struct ctx *c, struct sim *s, struct workload *w)
{
    struct exec_result *r = c->r;
    int choices = run_order(c, s, w, 0);
    if (choices < 0) {
        r->setup_refused++;
        return;
    }
    r->simulated++;
    if (choices == 0)
        return;
    r->gic_reruns++;
    for (int order = 1; order < EXEC_GIC_ORDERS; order++)
        if (run_order(c, s, w, order) < 0) /* the default order's text was set up: said, not dropped */
            r->stopped++;
}

int exec_begin(const struct exec_opts *o, struct exec_result *r)
{
    memset(r, 0, sizeof *r);
    if (o->depth < 1 || o->depth > EXEC_MAX_DEPTH || o->cores < 1 || o->cores > 2 || !o->shard_n ||
        o->shard_k < 1 || o->shard_k > o->shard_n)
        return -1;
    r->space = exec_space(o);
    r->shard_space = r->space / o->shard_n + (r->space % o->shard_n > o->shard_k - 1);
    return 0;
}

uint64_t exec_done(const struct exec_result *r)
{
    return r->simulated + r->setup_refused;
}

uint64_t exec_next(const struct exec_opts *o, const struct exec_result *r)
{
    return o->shard_k - 1 + exec_done(r) * o->shard_n;
}

void exec_continue(const struct exec_opts *o, struct exec_result *r,
                   void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *pctx)
{
    struct sim *s = calloc(1, sizeof *s);
    struct workload *w = calloc(1, sizeof *w);
    if (!s || !w)
        abort();
    struct ctx c = {.r = r, .o = o};
    uint64_t done = exec_done(r);
    for (uint64_t i = exec_next(o, r); i < r->space; i += o->shard_n, done++) {
        if (stop && stop(pctx))
            break;
        if (progress && done % 512 == 0)
            progress(pctx, done, r->shard_space);
        c.wl = i;
        run_one(&c, s, w);
    }
    free(s);
    free(w);
}

int exec_run(const struct exec_opts *o, struct exec_result *r, void (*progress)(void *ctx, uint64_t done, uint64_t of),
             bool (*stop)(void *ctx), void *pctx)
{
    if (exec_begin(o, r) != 0)
        return -1;
    exec_continue(o, r, progress, stop, pctx);
    return 0;
}

const char *exec_bound_text(const struct exec_opts *o, const struct exec_result *r, char *buf, size_t len)
{
    char ops[256] = "";
    for (size_t i = 0; i < MENU; i++) {
        char op[32];
        snprintf(op, sizeof op, menu[i], 'X');
        snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%s%s", i ? ", " : "", op);
    }
    bool all = r->simulated + r->setup_refused == r->shard_space;
    char how[512];
    const struct exec_tree_counts *t = &r->tree;
    if (t->leaves || t->forks) /* the tree engine: what it covered, by how much it ran, what the visited set stood for */
        snprintf(how, sizeof how,
                 "%" PRIu64 " covered (and %" PRIu64 " runs in other orders) by %" PRIu64 " executions simulated from boot "
                 "sharing their prefixes, forked at %" PRIu64 " choice points, %" PRIu64 " distinct simulator states "
                 "remembered, %" PRIu64 " revisits not explored again (standing for %" PRIu64 " workloads)",
                 t->covered, t->covered_reruns, t->leaves, t->forks, t->states, t->skipped, t->skipped_covered);
    else
        snprintf(how, sizeof how, "%" PRIu64 " simulated", r->simulated);
    snprintf(buf, len,
             "%s workload%s of the executions space (docs/EXHAUSTIVE.md, \"Executions\")%s: board imx8mm, %s, "
             "a handler h (priority 20) waiting on IRQ 40's notification, thread a (10) and thread b (%d%s), "
             "each running a program of 1 to %d operations from {%s} (X: h for a, a for b) and then from the start, IRQ 40 arriving "
             "once at 700/1500/2001/3100 ticks or never, an entry latency of 0/40 ticks%s, %s, from boot to 6000 ticks, "
             "%s"
             "each where the GIC chose among interrupts pending at once also in the 5 other orders of timer, device and IPI (%" PRIu64 "): "
             "%s, %" PRIu64 " kernel entry states through the invariant checker (%" PRIu64
             " refused), %" PRIu64 " %s checked (%" PRIu64 " distinct entry states) with the %s fastpath %s.",
             all ? "Every one of the" : "Part of the", r->shard_space == 1 ? "" : "s",
             o->shard_n > 1 ? " in this shard" : "", o->cores > 1 ? "two cores" : "one core", o->cores > 1 ? 30 : 5,
             o->cores > 1 ? ", on core 1" : "", o->depth, ops,
             o->cores < 2         ? ""
             : o->ipi_latency ? ", an IPI latency of 0/" EXEC_IPI_LATENCY_TEXT " ticks"
                                  : ", an IPI latency of 0",
             o->signal_fastpath ? "KernelSignalFastpath built beside" : "no other fastpath",
             !o->vcpus  ? ""
             : o->cores > 1 ? "a hypervisor build with threads a and b guests (each a VCPU, their fault handler a VMM "
                              "thread v of priority 15 on core 0 that acks a's virtual timer and replies) and each core's "
                              "virtual timer firing with IRQ 40, "
                            : "a hypervisor build with thread a a guest (a VCPU, its fault handler a VMM thread v of "
                              "priority 15 that acks the virtual timer and replies) and the guest's virtual timer firing "
                              "with IRQ 40, ",
             r->gic_reruns, how,
             r->entries, r->refused, r->checks, o->target->words.checked_many, r->distinct,
             o->target->variant_name(o->variant),
             r->diverged  ? "diverging at some"
             : r->checks ? "agreeing with the slowpath at every one"
                         : "never reached (nothing was checked, which is no pass)");
    return buf;
}
