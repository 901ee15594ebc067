/* simreport: what a workload run became, as text, JSON and an SVG
 * timeline (declared in sim.h). */
#include <inttypes.h>
#include <string.h>

#include "defect.h"
#include "invariant.h"
#include "irq_fast.h"
#include "jval.h"
#include "sim.h"
#include "target.h"
#include "vcpuswitch.h"

#define NEVER UINT64_MAX

static const char *const entry_names[] = {"timer", "device", "syscall", "reschedule IPI"};

/* run time of tcb on k within [from, to), and its first run at or after from */
static ticks_t ran(const struct sim_kernel *k, int tcb, ticks_t from, ticks_t to, ticks_t *first)
{
    ticks_t sum = 0;
    *first = NEVER;
    for (size_t i = 0; i < k->n_segs; i++) {
        const struct sim_seg *g = &k->segs[i];
        if (g->tcb != tcb || g->t1 <= from || g->t0 >= to)
            continue;
        ticks_t a = g->t0 < from ? from : g->t0, b = g->t1 > to ? to : g->t1;
        sum += b - a;
        if (*first == NEVER)
            *first = a;
    }
    return sum;
}

/* the most time sc received in any window of one period (windows start
 * where one of its segments starts: the maximum of a sliding sum) */
static ticks_t max_window(const struct sim_kernel *k, int sc, ticks_t period, uint32_t *over, ticks_t budget)
{
    ticks_t best = 0;
    *over = 0;
    for (size_t i = 0; i < k->n_segs; i++) {
        if (k->segs[i].sc != sc)
            continue;
        ticks_t start = k->segs[i].t0, end = start + period, sum = 0;
        for (size_t j = i; j < k->n_segs && k->segs[j].t0 < end; j++)
            if (k->segs[j].sc == sc)
                sum += (k->segs[j].t1 < end ? k->segs[j].t1 : end) - k->segs[j].t0;
        best = sum > best ? sum : best;
        *over += sum > budget;
    }
    return best;
}

static const char *variant_of(const struct sim *s)
{
    return s->target->variant_name(s->variant);
}

/* where a checked entry happened: an interrupt, or a SysSend by a thread */
static void print_where(FILE *out, const struct sim *s, int irq, int caller)
{
    if (s->target->sim.entry_call)
        fprintf(out, "%s by %s", s->target->words.by, caller >= 0 ? s->w->threads[caller].name : "?");
    else
        fprintf(out, "irq %d", irq);
}

static void print_time(FILE *out, ticks_t t)
{
    if (t == NEVER)
        fprintf(out, "never");
    else
        fprintf(out, "%" PRIu64, t);
}

static void report_divergence(FILE *out, const struct sim *s)
{
    char buf[256];
    if (!s->diverged && sim_checked_none(s)) {
        fprintf(out, "first divergence: none found, and nothing checked: no %s in the run (NOT a pass)\n",
                s->target->words.checked_one);
        return;
    }
    if (!s->diverged) {
        fprintf(out, "first divergence: none (every %s agreed%s)\n", s->target->words.agreed,
                sim_cut(s) ? "; the run stopped before the horizon, the rest NOT checked: see the note below" : "");
        return;
    }
    if (s->drift) {
        fprintf(out, "first divergence: t=%" PRIu64 ": %s\n", s->div_time, s->drift_msg);
        return;
    }
    if (s->div_class.cause == CLASS_KERNEL) { /* both kernels alike: not the fastpath's */
        fprintf(out, "first divergence: none of the fastpath; at t=%" PRIu64 " ", s->div_time);
        print_where(out, s, s->div_irq, s->div_caller);
        fprintf(out, " the kernel's own outcome breaks an invariant or an assertion, the fastpath's alike (class %s)\n",
                dclass_name(&s->div_class, buf, sizeof buf));
        return;
    }
    fprintf(out, "first divergence: t=%" PRIu64 " ", s->div_time);
    print_where(out, s, s->div_irq, s->div_caller);
    fprintf(out, ", fastpath exit %s, class %s\n", s->target->exit_name(s->div_verdict.exit),
            dclass_name(&s->div_class, buf, sizeof buf));
    fprintf(out, "  fields: %s\n", diff_fields_text(s->div_verdict.fields, buf, sizeof buf));
}

/* the first timer entry of kernel a at a time kernel b has none */
static ticks_t first_extra_timer(const struct sim_kernel *a, const struct sim_kernel *b)
{
    size_t j = 0;
    for (size_t i = 0; i < a->n_marks; i++) {
        ticks_t t = a->marks[i].t;
        if (a->marks[i].kind != SE_TIMER)
            continue;
        while (j < b->n_marks && b->marks[j].t < t)
            j++;
        bool found = false;
        for (size_t k = j; k < b->n_marks && b->marks[k].t == t; k++)
            found |= b->marks[k].kind == SE_TIMER;
        if (!found)
            return t;
    }
    return NEVER;
}

static void report_entries(FILE *out, const struct sim *s)
{
    uint32_t dev = s->k[0].entries[SE_DEVICE];
    fprintf(out, "kernel entries        slowpath   fastpath   extra\n");
    for (int e = 0; e < SE_COUNT; e++) {
        long d = (long)s->k[1].entries[e] - (long)s->k[0].entries[e];
        fprintf(out, "  %-18s %9u  %9u  %+6ld", entry_names[e], s->k[0].entries[e], s->k[1].entries[e], d);
        if (e == SE_TIMER && dev)
            fprintf(out, "  (%+.3f per device interrupt)", (double)d / dev);
        fprintf(out, "\n");
    }
    ticks_t x = first_extra_timer(&s->k[1], &s->k[0]);
    if (x != NEVER)
        fprintf(out, "  first timer entry of the fastpath kernel that the slowpath kernel does not make: t=%" PRIu64 "\n", x);
}

static void report_threads(FILE *out, const struct sim *s)
{
    ticks_t from = s->diverged ? s->div_time : 0, to = s->w->horizon;
    fprintf(out, "threads (run time from t=%" PRIu64 " to the horizon; first run in that span)\n", from);
    for (int i = 0; i < s->w->n_threads; i++) {
        ticks_t f0, f1;
        ticks_t r0 = ran(&s->k[0], s->tcb_of[i], from, to, &f0);
        ticks_t r1 = ran(&s->k[1], s->tcb_of[i], from, to, &f1);
        fprintf(out, "  %-12s slow %10" PRIu64 " first ", s->w->threads[i].name, r0);
        print_time(out, f0);
        fprintf(out, " | fast %10" PRIu64 " first ", r1);
        print_time(out, f1);
        if (f0 != NEVER && f1 == NEVER)
            fprintf(out, "  NEVER RUNS on the fastpath kernel (runs on the slowpath one)");
        else if (f0 != NEVER && f1 > f0)
            fprintf(out, "  late by %" PRIu64, f1 - f0);
        fprintf(out, "\n");
    }
}

static void report_irqs(FILE *out, const struct sim *s)
{
    fprintf(out, "device interrupts (arrived, delivered, coalesced while pending; at the horizon)\n");
    for (int q = 0; q < s->w->n_irqs; q++) {
        int irq = s->w->irqs[q].irq;
        if (irq == WL_SPURIOUS_ID)
            fprintf(out, "  spurious");
        else if (s->w->irqs[q].vtimer)
            fprintf(out, "  vtimer  ");
        else
            fprintf(out, "  irq %-4d", irq);
        for (int k = 0; k < 2; k++) {
            const struct sim_kernel *x = &s->k[k];
            bool masked = irq < x->ks.n_irqs && x->ks.irq_masked[irq];
            fprintf(out, " %s %u/%u/%u%s%s", k ? "| fast" : "slow", x->arrived[q], x->delivered[q], x->coalesced[q],
                    masked ? " MASKED" : "", x->pending[q] ? " pending" : "");
            if (x->pending[q])
                fprintf(out, " since %" PRIu64, x->pending_since[q]);
            if (s->w->irqs[q].vtimer && x->vtimer_dropped)
                fprintf(out, " (%u with no VCPU loaded: none fired)", x->vtimer_dropped);
        }
        fprintf(out, "\n");
    }
    if (!s->w->hyp)
        return;
    /* the VGIC's: raised by the guests' EOIs, no arrivals */
    fprintf(out, "  vgic maintenance (irq %d) taken: slow %u | fast %u\n", INTERRUPT_VGIC_MAINTENANCE,
            s->k[0].delivered[SIM_Q_MAINT], s->k[1].delivered[SIM_Q_MAINT]);
}

static void report_budgets(FILE *out, const struct sim *s)
{
    fprintf(out, "budget per window of one period (most received; windows over budget)\n");
    for (int i = 0; i < s->w->n_scs; i++) {
        const struct wl_sc *x = &s->w->scs[i];
        if (x->budget == x->period)
            continue; /* round robin: no bandwidth limit */
        uint32_t o0, o1;
        ticks_t m0 = max_window(&s->k[0], s->sc_of[i], x->period, &o0, x->budget);
        ticks_t m1 = max_window(&s->k[1], s->sc_of[i], x->period, &o1, x->budget);
        fprintf(out, "  %-12s budget %" PRIu64 " period %" PRIu64 ": slow %" PRIu64 " (%u over) | fast %" PRIu64
                     " (%u over)%s\n",
                x->name, x->budget, x->period, m0, o0, m1, o1, o1 && !o0 ? "  OVER BUDGET (fastpath kernel only)" : "");
    }
}

void sim_consequences(const struct sim *s, struct sim_conseq *c)
{
    memset(c, 0, sizeof *c);
    ticks_t from = s->diverged ? s->div_time : 0;
    for (int i = 0; i < s->w->n_threads; i++) {
        ticks_t f0, f1;
        ran(&s->k[0], s->tcb_of[i], from, s->w->horizon, &f0);
        ran(&s->k[1], s->tcb_of[i], from, s->w->horizon, &f1);
        c->never_runs += f0 != NEVER && f1 == NEVER;
        if (f0 != NEVER && f1 != NEVER && f1 > f0) {
            c->late++;
            c->max_late = f1 - f0 > c->max_late ? f1 - f0 : c->max_late;
        }
    }
    for (int q = 0; q < s->w->n_irqs; q++) {
        int irq = s->w->irqs[q].irq;
        c->masked += s->k[1].ks.irq_masked[irq] && !s->k[0].ks.irq_masked[irq];
    }
    for (int i = 0; i < s->w->n_scs; i++) {
        const struct wl_sc *x = &s->w->scs[i];
        if (x->budget == x->period)
            continue;
        uint32_t o0, o1;
        max_window(&s->k[0], s->sc_of[i], x->period, &o0, x->budget);
        max_window(&s->k[1], s->sc_of[i], x->period, &o1, x->budget);
        c->over_budget += o1 && !o0;
    }
    c->extra_timer = (long)s->k[1].entries[SE_TIMER] - (long)s->k[0].entries[SE_TIMER];
    c->device = s->k[0].entries[SE_DEVICE];
}

static void report_checker(FILE *out, const struct sim *s)
{
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        fprintf(out, "checker (%s kernel): %u entry states, %u refused, %u failed kernel assertions\n",
                k ? "fastpath" : "slowpath", x->checked, x->refused, x->asserts);
        if (s->w->cores > 1)
            fprintf(out, "  device interrupts taken in a lock wait (acknowledged during the other core's entry): %u\n"
                         "  kernel entries made with a reschedule IPI to their core in flight (sent, not yet taken; "
                         "ipi_latency %" PRIu64 "): %u\n",
                    x->lock_waits, s->w->ipi_latency, x->ipi_raced);
        fprintf(out, "  interrupts the GIC chose among several pending at once (%s order): %u\n",
                wl_gic_default(s->w) ? "the default" : "the workload's", x->gic_choices);
        if (x->refused) /* a state the kernel modelled reached from boot */
            fprintf(out, "  refused states (reached from boot: a bug of the kernel modelled, or of an invariant or "
                         "the model):\n");
        for (uint32_t i = 0; i < x->refused && i < SIM_MAX_REFUSED; i++)
            fprintf(out, "  REFUSED t=%" PRIu64 " %s entry: invariant %s: %s\n", x->refusals[i].t,
                    entry_names[x->refusals[i].kind], inv_name(x->refusals[i].inv), x->refusals[i].msg);
    }
}

static void report_sweep(FILE *out, const struct sim *s)
{
    char name[200], defs[64];
    if (!s->sweep)
        return;
    fprintf(out, "sweep (the one-entry check at every %s of the slowpath kernel): %u checked, %u "
                 "diverged, %u class%s\n", s->target->words.checked_one,
            s->sweep_checks, s->sweep_diverged, s->n_found, s->n_found == 1 ? "" : "es");
    if (s->sweep_checks)
        target_print_unreached(out, s->target, s->variant, s->sweep_exits);
    for (uint32_t i = 0; i < s->n_found; i++) {
        const struct sim_found *f = &s->found[i];
        fprintf(out, "  %-44s first t=%" PRIu64 " ", dclass_name(&f->cl, name, sizeof name), f->t);
        print_where(out, s, f->irq, f->caller);
        fprintf(out, ", %u hit%s, defects %s\n", f->hits, f->hits == 1 ? "" : "s",
                cause_defects_text(s->target, f->cl.cause, defs, sizeof defs));
    }
    if (s->found_dropped)
        fprintf(out, "  (%u hits of further classes not kept)\n", s->found_dropped);
}

void sim_report(FILE *out, const struct sim *s)
{
    if (!s->target->is_default)
        fprintf(out, "target %s (%s against %s), ", s->target->name, s->target->fastpath, s->target->slowpath);
    fprintf(out, "fastpath %s, horizon %" PRIu64 " ticks\n", variant_of(s), s->w->horizon);
    report_divergence(out, s);
    report_entries(out, s);
    report_threads(out, s);
    report_irqs(out, s);
    report_budgets(out, s);
    report_sweep(out, s);
    report_checker(out, s);
    if (!s->k[0].done || !s->k[1].done)
        fprintf(out, "note: stopped at the event limit (%u events) before the horizon\n", s->max_events);
    for (int k = 0; k < 2; k++)
        if (sim_kernel_stormed(&s->k[k]))
            fprintf(out, "note: the %s kernel stopped at t=%" PRIu64 " in an interrupt storm: the %s PPI taken "
                         "%u times in a row, %s sending nothing (its thread queued or not schedulable at each "
                         "entry), the level-triggered PPI taken again at once; the rest of the run is not "
                         "simulated\n",
                    k ? "fastpath" : "slowpath", s->k[k].storm_t,
                    s->k[k].storm_q == SIM_Q_MAINT ? "VGIC maintenance" : "virtual timer's", SIM_STORM_DEFERRALS,
                    s->k[k].storm_q == SIM_Q_MAINT ? "VGICMaintenance" : "VPPIEvent");
}

/* a hypervisor workload's lines (sim.h): the vtimer's events taken and
 * dropped, maintenance interrupts taken, and the storm that ended the
 * kernel (-1: none) */
static void hyp_json(FILE *out, const struct sim *s, const struct sim_kernel *x)
{
    fprintf(out, "\"vtimer_taken\":%u,\"vtimer_dropped\":%u,\"maintenance_taken\":%u,\"storm_at\":%" PRId64 ",",
            sim_vtimer_taken(s, x), x->vtimer_dropped, x->delivered[SIM_Q_MAINT],
            sim_kernel_stormed(x) ? (int64_t)x->storm_t : (int64_t)-1);
}

int sim_json(FILE *out, const struct sim *s)
{
    char buf[256];
    int rc = 0; /* -1: a thread name is not UTF-8 (jval_write_string) */
    fprintf(out, "{");
    if (!s->target->is_default) /* the default target's JSON stays as it was */
        fprintf(out, "\"target\":\"%s\",", s->target->name);
    fprintf(out, "\"fastpath\":\"%s\",\"horizon\":%" PRIu64 ",\"diverged\":%s", variant_of(s), s->w->horizon,
            s->diverged ? "true" : "false");
    if (s->diverged && s->target->sim.entry_call) {
        /* the caller's name is the workload file's: escaped */
        fprintf(out, ",\"divergence\":{\"time\":%" PRIu64 ",\"caller\":", s->div_time);
        rc |= jval_write_string(out, s->drift || s->div_caller < 0 ? "" : s->w->threads[s->div_caller].name);
        fprintf(out, ",\"drift\":%s,\"exit\":\"%s\",\"class\":\"%s\"}", s->drift ? "true" : "false",
                s->target->exit_name(s->div_verdict.exit),
                s->drift ? "drift" : dclass_name(&s->div_class, buf, sizeof buf));
    } else if (s->diverged)
        fprintf(out, ",\"divergence\":{\"time\":%" PRIu64 ",\"irq\":%d,\"drift\":%s,\"exit\":\"%s\",\"class\":\"%s\"}",
                s->div_time, s->div_irq, s->drift ? "true" : "false", s->target->exit_name(s->div_verdict.exit),
                s->drift ? "drift" : dclass_name(&s->div_class, buf, sizeof buf));
    fprintf(out, ",\"kernels\":[");
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        fprintf(out, "%s{\"path\":\"%s\",\"timer_entries\":%u,\"device_entries\":%u,\"syscalls\":%u,"
                     "\"states_checked\":%u,\"states_refused\":%u,\"asserts\":%u,\"lock_waits\":%u,\"ipi_raced\":%u,"
                     "\"gic_choices\":%u,",
                k ? "," : "", k ? "fast" : "slow", x->entries[SE_TIMER], x->entries[SE_DEVICE],
                x->entries[SE_SYSCALL], x->checked, x->refused, x->asserts, x->lock_waits, x->ipi_raced, x->gic_choices);
        if (s->w->hyp) /* (a workload without hyp keeps its JSON as it was) */
            hyp_json(out, s, x);
        fprintf(out, "\"threads\":{");
        for (int i = 0; i < s->w->n_threads; i++) {
            ticks_t first;
            ticks_t r = ran(x, s->tcb_of[i], s->diverged ? s->div_time : 0, s->w->horizon, &first);
            fputs(i ? "," : "", out);
            rc |= jval_write_string(out, s->w->threads[i].name);
            fprintf(out, ":{\"ran\":%" PRIu64 ",\"first\":%" PRId64 "}", r,
                    first == NEVER ? (int64_t)-1 : (int64_t)first);
        }
        fprintf(out, "}}");
    }
    fprintf(out, "],\"sweep\":{\"checked\":%u,\"diverged\":%u,\"classes\":[", s->sweep_checks, s->sweep_diverged);
    for (uint32_t i = 0; i < s->n_found; i++)
        fprintf(out, "%s{\"class\":\"%s\",\"first\":%" PRIu64 ",\"hits\":%u}", i ? "," : "",
                dclass_name(&s->found[i].cl, buf, sizeof buf), s->found[i].t, s->found[i].hits);
    fprintf(out, "]}}\n");
    return rc;
}

/* ---- the timeline picture ---- */

#define SVG_W 1200.0
#define SVG_LEFT 110.0
#define LANE_H 16.0
#define SVG_SPAN 240000u /* 30 ms at 8 MHz */

static const char *const colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

struct view {
    ticks_t from, span;
};

static double xpos(struct view v, ticks_t t)
{
    if (t < v.from)
        return SVG_LEFT;
    ticks_t d = t - v.from > v.span ? v.span : t - v.from;
    return SVG_LEFT + (SVG_W - SVG_LEFT - 10) * (double)d / (double)v.span;
}

static bool has_timer_at(const struct sim_kernel *k, ticks_t t)
{
    size_t lo = 0, hi = k->n_marks; /* marks are in time order */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (k->marks[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < k->n_marks && k->marks[lo].t == t; lo++)
        if (k->marks[lo].kind == SE_TIMER)
            return true;
    return false;
}

/* A name of the workload file as SVG text: the XML specials escaped. */
static void svg_text(FILE *out, const char *s)
{
    for (; *s; s++)
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s, out);
}

static void svg_kernel(FILE *out, const struct sim *s, int k, double y0, struct view v)
{
    const struct sim_kernel *x = &s->k[k];
    int lanes = s->w->n_threads + 1;
    fprintf(out, "<text x=\"4\" y=\"%.1f\" font-weight=\"bold\">%s kernel</text>\n", y0 - 6,
            k ? "fastpath" : "slowpath");
    for (int i = 0; i < lanes; i++) {
        const char *name = i < s->w->n_threads ? s->w->threads[i].name : "idle";
        fprintf(out, "<text x=\"4\" y=\"%.1f\">", y0 + i * LANE_H + 12);
        svg_text(out, name);
        fputs("</text>\n", out);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", SVG_LEFT,
                y0 + (i + 1) * LANE_H, SVG_W - 10, y0 + (i + 1) * LANE_H);
    }
    for (size_t i = 0; i < x->n_segs; i++) {
        const struct sim_seg *g = &x->segs[i];
        if (g->t1 <= v.from || g->t0 >= v.from + v.span)
            continue;
        int lane = s->w->n_threads;
        for (int t = 0; t < s->w->n_threads; t++)
            lane = s->tcb_of[t] == g->tcb ? t : lane;
        double a = xpos(v, g->t0), b = xpos(v, g->t1);
        fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n", a,
                y0 + lane * LANE_H + 2, b - a < 2 ? 2 : b - a, LANE_H - 4,
                lane == s->w->n_threads ? "#c8c8c8" : colours[lane % 10]);
    }
    double ym = y0 + lanes * LANE_H;
    fprintf(out, "<text x=\"4\" y=\"%.1f\">entries</text>\n", ym + 12);
    for (size_t i = 0; i < x->n_marks; i++) {
        const struct sim_mark *m = &x->marks[i];
        if (m->t < v.from || m->t > v.from + v.span || m->kind == SE_SYSCALL)
            continue;
        double a = xpos(v, m->t);
        const char *c = m->kind == SE_TIMER ? "#555" : "#d62728";
        bool extra = k == 1 && s->k[1].entries[SE_TIMER] > s->k[0].entries[SE_TIMER] && m->kind == SE_TIMER &&
                     !has_timer_at(&s->k[0], m->t);
        if (extra) /* a timer entry the other kernel does not make */
            c = "#9400d3";
        fprintf(out, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"/>\n", a,
                ym + (extra ? 0 : 2), a, ym + LANE_H - (extra ? 0 : 2), c, extra ? "2.5" : "1.5");
        if (m->deadline != NEVER && m->deadline >= v.from && m->deadline <= v.from + v.span)
            fprintf(out, "<circle cx=\"%.2f\" cy=\"%.1f\" r=\"2\" fill=\"none\" stroke=\"#555\"/>\n",
                    xpos(v, m->deadline), ym + LANE_H + 4);
    }
}

void sim_svg(FILE *out, const struct sim *s)
{
    /* a window of SVG_SPAN ticks (the whole run when shorter), a fifth of
     * it before the first divergence */
    struct view v = {0, s->w->horizon < SVG_SPAN ? s->w->horizon : SVG_SPAN};
    if (s->diverged)
        v.from = s->div_time > v.span / 5 ? s->div_time - v.span / 5 : 0;
    if (s->svg_span) /* a window the caller chose */
        v = (struct view){s->svg_from, s->svg_span};
    int lanes = s->w->n_threads + 1;
    double block = (lanes + 2) * LANE_H + 30;
    double h = 40 + 2 * block + 30;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"11\">\n", SVG_W, h);
    fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(out, "<text x=\"4\" y=\"16\" font-size=\"13\">irqsim sim, fastpath %s: ticks %" PRIu64 " to %" PRIu64,
            variant_of(s), v.from, v.from + v.span);
    if (s->diverged)
        fprintf(out, ", first divergence t=%" PRIu64, s->div_time);
    fprintf(out, "</text>\n<text x=\"4\" y=\"30\" fill=\"#333\">red: device interrupt entry; grey: timer entry; "
                 "purple: a timer entry of the fastpath kernel the slowpath one does not make (when it makes more); circle: the timer deadline it programmed; "
                 "grey bar: the idle thread</text>\n");
    svg_kernel(out, s, 0, 50, v);
    svg_kernel(out, s, 1, 50 + block, v);
    if (s->diverged && s->div_time >= v.from && s->div_time <= v.from + v.span) {
        double a = xpos(v, s->div_time);
        fprintf(out, "<line x1=\"%.2f\" y1=\"24\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n",
                a, a, h - 20);
        fprintf(out, "<text x=\"%.2f\" y=\"%.0f\">first divergence t=%" PRIu64 "</text>\n", a + 3, h - 8,
                s->div_time);
    }
    /* the time axis */
    for (int i = 0; i <= 10; i++) {
        ticks_t t = v.from + v.span / 10 * (ticks_t)i;
        fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"9\" fill=\"#555\">%" PRIu64 "</text>\n", xpos(v, t),
                h - 22, t);
    }
    fprintf(out, "</svg>\n");
}
