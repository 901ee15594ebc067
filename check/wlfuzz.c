/* wlfuzz: the workload fuzzer behind `irqsim fuzz --mode workload`. */
#define _POSIX_C_SOURCE 200809L
#include "wlfuzz.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defect.h"
#include "invariant.h"
#include "irq_fast.h"
#include "out.h"
#include "progress.h"
#include "scenario.h"
#include "sim.h"
#include "stop.h"
#include "target.h"

#define WL_BYTES 512
#define MAX_CLASSES 128
#define SHRINK_ROUNDS 8

struct wclass {
    struct dclass cl;
    uint64_t workloads, hits, first_wl;
    double first_s;
    ticks_t first_t;
    /* what the first divergence became, over the workloads whose first
     * divergence (the lockstep's) is of this class */
    uint64_t as_first, never_runs, late, masked, over_budget, extra_timer_wl;
    long extra_timer;
    uint64_t device;
    char *reproducer; /* written (allocated); NULL: none */
};

struct wsession {
    const struct fuzz_opts *o;
    double start;
    uint64_t sims, setup_refused, events, sweep_checks, states_checked, refused, asserts, drift, stopped;
    /* hypervisor workloads (--vcpus): the virtual timer's events taken
     * and dropped (no VCPU loaded), VGIC maintenance interrupts taken,
     * runs a storm of a reserved PPI ended (sim.h) */
    uint64_t vtimer_taken, vtimer_dropped, maint_taken, storms;
    uint64_t lock_waits; /* device IRQs handled after another core's entry (sim.c, arrived_in_lock_wait) */
    uint64_t ipi_raced;  /* slowpath kernel entries made with a reschedule IPI in flight (sim.h) */
    uint64_t gic_choices, gic_ordered; /* the GIC's choices among interrupts pending at once; workloads of an order of their own */
    uint64_t sits[SIT_COUNT]; /* the situations of the checked entry states */
    uint64_t exits[TARGET_MAX_EXITS]; /* the fastpath's exits at the checked entries */
    struct wclass classes[MAX_CLASSES];
    int n_classes;
    uint64_t dropped;
    uint64_t errors, first_error_wl;
    double shrink_s; /* time spent shrinking and saving: not search time */
    char *error_file; /* written (allocated); NULL: none */
    char error_msg[300];
    int write_errors; /* outputs that could not be written */
    int interrupted;  /* the signal that stopped the run, 0 none */
};

/* splitmix64: the bytes of workload i of the run */
static void wl_bytes(uint64_t seed, uint64_t i, uint8_t *out)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull + 1;
    for (int k = 0; k < WL_BYTES; k += 8) {
        x += 0x9e3779b97f4a7c15ull;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        memcpy(out + k, &z, 8);
    }
}

/* ---- shrinking a workload, keeping the class ---- */

static struct sim *scratch_sim(void)
{
    static struct sim *s;
    if (!s && !(s = calloc(1, sizeof *s)))
        abort();
    return s;
}

/* a workload that prints and parses back to itself: its references are
 * consistent after an edit */
static bool well_formed(const struct workload *w)
{
    static struct workload back;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return false;
    workload_print(f, w);
    fclose(f);
    struct scen_error err;
    bool ok = workload_parse(text, len, "candidate", &back, &err) == 0 && memcmp(&back, w, sizeof back) == 0;
    free(text);
    return ok;
}

bool wl_reaches(const struct workload *w, int variant, const struct dclass *cl, ticks_t *first)
{
    if (!well_formed(w))
        return false;
    struct sim *s = scratch_sim();
    if (sim_init(s, w, variant) != 0) {
        sim_free(s);
        return false;
    }
    sim_run(s);
    int i = sim_found_class(s, cl);
    bool ok = i >= 0 && sim_all_admitted(s) && !s->k[0].asserts && !s->k[1].asserts && !s->drift;
    if (ok && first)
        *first = s->found[i].t;
    sim_free(s);
    return ok;
}

static void drop_insn(struct wl_thread *t, int k)
{
    for (int i = 0; i < t->n_prog; i++)
        if (t->prog[i].op == OP_LOOP && t->prog[i].n > (ticks_t)k)
            t->prog[i].n--;
    memmove(&t->prog[k], &t->prog[k + 1], (size_t)(t->n_prog - k - 1) * sizeof t->prog[0]);
    t->n_prog--;
    memset(&t->prog[t->n_prog], 0, sizeof t->prog[0]);
}

static bool names_thread(const struct wl_insn *in)
{
    return in->op == OP_SUSPEND || in->op == OP_RESUME || in->op == OP_PRIO;
}

/* the instructions naming thread i go with it; later threads move down */
static void drop_thread(struct workload *w, int i)
{
    for (int t = 0; t < w->n_threads; t++)
        for (int k = w->threads[t].n_prog - 1; k >= 0; k--) {
            struct wl_insn *in = &w->threads[t].prog[k];
            if (names_thread(in) && in->a == i)
                drop_insn(&w->threads[t], k);
            else if (names_thread(in) && in->a > i)
                in->a--;
        }
    memmove(&w->threads[i], &w->threads[i + 1], (size_t)(w->n_threads - i - 1) * sizeof w->threads[0]);
    w->n_threads--;
    memset(&w->threads[w->n_threads], 0, sizeof w->threads[0]);
}

static void drop_irq(struct workload *w, int q)
{
    int irq = w->irqs[q].irq;
    for (int t = 0; t < w->n_threads; t++)
        for (int k = w->threads[t].n_prog - 1; k >= 0; k--)
            if (w->threads[t].prog[k].op == OP_ACK && w->threads[t].prog[k].n == (ticks_t)irq)
                drop_insn(&w->threads[t], k);
    memmove(&w->irqs[q], &w->irqs[q + 1], (size_t)(w->n_irqs - q - 1) * sizeof w->irqs[0]);
    w->n_irqs--;
    memset(&w->irqs[w->n_irqs], 0, sizeof w->irqs[0]);
}

static void drop_sc(struct workload *w, int i)
{
    for (int t = 0; t < w->n_threads; t++) {
        if (w->threads[t].sc == i)
            w->threads[t].sc = -1;
        else if (w->threads[t].sc > i)
            w->threads[t].sc--;
        for (int k = w->threads[t].n_prog - 1; k >= 0; k--) { /* unbind:SC goes with it */
            struct wl_insn *in = &w->threads[t].prog[k];
            if (in->op == OP_UNBIND && in->a == i)
                drop_insn(&w->threads[t], k);
            else if (in->op == OP_UNBIND && in->a > i)
                in->a--;
        }
    }
    memmove(&w->scs[i], &w->scs[i + 1], (size_t)(w->n_scs - i - 1) * sizeof w->scs[0]);
    w->n_scs--;
    memset(&w->scs[w->n_scs], 0, sizeof w->scs[0]);
}

static void drop_at(struct wl_irq *q, int k)
{
    memmove(&q->at[k], &q->at[k + 1], (size_t)(q->n_at - k - 1) * sizeof q->at[0]);
    q->n_at--;
    q->at[q->n_at] = 0;
}

/* try one edit: keep it when the class is still reached */
static bool try_edit(struct workload *w, const struct workload *cand, int variant, const struct dclass *cl,
                     ticks_t *first)
{
    if (!wl_reaches(cand, variant, cl, first))
        return false;
    *w = *cand;
    return true;
}

int wl_shrink(struct workload *w, int variant, const struct dclass *cl)
{
    static struct workload c;
    ticks_t first = 0;
    if (!wl_reaches(w, variant, cl, &first))
        return -1;
    int accepted = 0;
    for (int round = 0; round < SHRINK_ROUNDS; round++) {
        int before = accepted;
        /* the horizon: just past the first hit of the class */
        c = *w;
        c.horizon = first + 1;
        if (c.horizon < w->horizon)
            accepted += try_edit(w, &c, variant, cl, &first);
        for (int i = w->n_threads - 1; i >= 0 && w->n_threads > 1; i--) {
            c = *w;
            drop_thread(&c, i);
            accepted += try_edit(w, &c, variant, cl, &first);
        }
        for (int q = w->n_irqs - 1; q >= 0 && w->n_irqs > 1; q--) {
            c = *w;
            drop_irq(&c, q);
            accepted += try_edit(w, &c, variant, cl, &first);
        }
        for (int i = w->n_scs - 1; i >= 0; i--) {
            c = *w;
            drop_sc(&c, i);
            accepted += try_edit(w, &c, variant, cl, &first);
        }
        for (int t = 0; t < w->n_threads; t++)
            for (int k = w->threads[t].n_prog - 1; k >= 0; k--) {
                c = *w;
                drop_insn(&c.threads[t], k);
                accepted += try_edit(w, &c, variant, cl, &first);
            }
        for (int q = 0; q < w->n_irqs; q++) {
            for (int k = w->irqs[q].n_at - 1; k >= 0 && w->irqs[q].n_at + (w->irqs[q].period != 0) > 1; k--) {
                c = *w;
                drop_at(&c.irqs[q], k);
                accepted += try_edit(w, &c, variant, cl, &first);
            }
            if (w->irqs[q].period && w->irqs[q].n_at) {
                c = *w;
                c.irqs[q].period = c.irqs[q].start = 0;
                accepted += try_edit(w, &c, variant, cl, &first);
            }
        }
        /* simpler settings */
        for (int i = 0; i < w->n_scs; i++) {
            c = *w;
            c.scs[i].extra_refills = 0;
            c.scs[i].sporadic = false;
            if (memcmp(&c, w, sizeof c))
                accepted += try_edit(w, &c, variant, cl, &first);
            c = *w;
            c.scs[i].ntfn = -1;
            if (memcmp(&c, w, sizeof c))
                accepted += try_edit(w, &c, variant, cl, &first);
        }
        if (w->n_dom) {
            c = *w;
            c.n_dom = 0;
            memset(c.dom, 0, sizeof c.dom);
            for (int t = 0; t < c.n_threads; t++)
                c.threads[t].domain = 0;
            accepted += try_edit(w, &c, variant, cl, &first);
        }
        if (w->entry_latency) {
            c = *w;
            c.entry_latency = 0;
            accepted += try_edit(w, &c, variant, cl, &first);
        }
        if (w->ipi_latency) {
            c = *w;
            c.ipi_latency = 0;
            accepted += try_edit(w, &c, variant, cl, &first);
        }
        for (int i = 0; i < w->n_threads; i++)
            if (w->threads[i].timeout_ep >= 0) {
                c = *w;
                c.threads[i].timeout_ep = -1;
                accepted += try_edit(w, &c, variant, cl, &first);
            }
        if (accepted == before)
            break;
    }
    return accepted;
}

/* ---- the run ---- */


/* a workload file with the simulator's report on it as comments */
static int write_workload(const char *path, const struct workload *w, int variant, const char *title)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    struct sim *s = scratch_sim();
    if (mem) {
        /* the file's target line names the target (workload_print) */
        fprintf(mem, "%s\nirqsim sim --fastpath %s FILE:\n", title, w->target->variant_name(variant));
        if (sim_init(s, w, variant) == 0) {
            sim_run(s);
            sim_report(mem, s);
        } else {
            fprintf(mem, "setup refused: %s\n", s->setup_error);
        }
        sim_free(s);
        fclose(mem);
    }
    int rc = out_reproducer("irqsim fuzz", path, text, NULL, w);
    free(text);
    return rc;
}

static void save_class(struct wsession *ss, struct wclass *wc, int idx, const struct workload *found)
{
    static struct workload w;
    const struct fuzz_opts *o = ss->o;
    w = *found;
    wl_shrink(&w, o->variant, &wc->cl);
    char name[160], title[400];
    dclass_name(&wc->cl, name, sizeof name);
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '+')
            *p = '-';
    char *path = out_join(o->out_dir, "wl-class-%02d-%s.wl", idx + 1, name);
    snprintf(title, sizeof title, "workload reaching class %s from a plain start, found as workload %" PRIu64
             " of seed %" PRIu64 ", shrunk", dclass_name(&wc->cl, name, sizeof name), wc->first_wl, o->seed);
    if (path && write_workload(path, &w, o->variant, title) == 0) {
        wc->reproducer = path;
        return;
    }
    free(path); /* the summary and the JSON name only reproducers that exist */
    ss->write_errors++;
}

static void model_error(struct wsession *ss, uint64_t i, const struct workload *w, const struct sim *s)
{
    if (ss->errors++)
        return;
    ss->first_error_wl = i;
    const struct sim_kernel *k = s->k[0].refused ? &s->k[0] : &s->k[1];
    if (k->refused)
        snprintf(ss->error_msg, sizeof ss->error_msg, "%s kernel, t=%" PRIu64 ": invariant %s: %s",
                 k == &s->k[0] ? "slowpath" : "fastpath", k->refusals[0].t, inv_name(k->refusals[0].inv),
                 k->refusals[0].msg);
    else if (s->k[0].asserts || s->k[1].asserts)
        snprintf(ss->error_msg, sizeof ss->error_msg, "a failed kernel assertion (slowpath kernel %u, fastpath %u)",
                 s->k[0].asserts, s->k[1].asserts);
    else
        snprintf(ss->error_msg, sizeof ss->error_msg, "%s", s->drift_msg);
    if (ss->o->out_dir) {
        char *path = out_join(ss->o->out_dir, "model-error-wl-%" PRIu64 ".wl", i);
        if (path && write_workload(path, w, ss->o->variant, "a checker or model error") == 0) {
            ss->error_file = path;
            return;
        }
        free(path);
        ss->write_errors++;
    }
}

static void tally_first(struct wsession *ss, const struct sim *s)
{
    if (!s->diverged || s->drift)
        return;
    for (int i = 0; i < ss->n_classes; i++) {
        struct wclass *wc = &ss->classes[i];
        if (!dclass_same(&wc->cl, &s->div_class))
            continue;
        struct sim_conseq c;
        sim_consequences(s, &c);
        wc->as_first++;
        wc->never_runs += c.never_runs > 0;
        wc->late += c.late > 0;
        wc->masked += c.masked > 0;
        wc->over_budget += c.over_budget > 0;
        wc->extra_timer_wl += c.extra_timer > 0;
        wc->extra_timer += c.extra_timer;
        wc->device += c.device;
        return;
    }
}

static void one_workload(struct wsession *ss, uint64_t i, struct workload *w, struct sim *s)
{
    const struct fuzz_opts *o = ss->o;
    uint8_t bytes[WL_BYTES];
    wl_bytes(o->seed, i, bytes);
    workload_from_bytes(bytes, sizeof bytes, o->cores, o->bounds.target, o->bounds.vcpus, w);
    w->kernel = (uint8_t)o->bounds.kernel;
    w->signal_fastpath |= o->signal_fastpath;
    if (sim_init(s, w, o->variant) != 0) {
        ss->setup_refused++;
        sim_free(s);
        return;
    }
    sim_run(s);
    ss->sims++;
    ss->sweep_checks += s->sweep_checks;
    for (int e = 0; e < TARGET_MAX_EXITS; e++)
        ss->exits[e] += s->sweep_exits[e];
    ss->states_checked += s->k[0].checked + s->k[1].checked;
    ss->refused += s->k[0].refused + s->k[1].refused;
    ss->asserts += s->k[0].asserts + s->k[1].asserts;
    ss->lock_waits += s->k[0].lock_waits;
    ss->ipi_raced += s->k[0].ipi_raced;
    ss->gic_choices += s->k[0].gic_choices + s->k[1].gic_choices;
    ss->gic_ordered += !wl_gic_default(s->w);
    for (int k = 0; k < SIT_COUNT; k++)
        ss->sits[k] += s->sits[k];
    ss->drift += s->drift;
    ss->stopped += !s->k[0].done || !s->k[1].done;
    ss->vtimer_taken += sim_vtimer_taken(s, &s->k[0]);
    ss->vtimer_dropped += s->k[0].vtimer_dropped;
    ss->maint_taken += s->k[0].delivered[SIM_Q_MAINT];
    ss->storms += sim_stormed(s);
    if (!sim_all_admitted(s) || s->k[0].asserts || s->k[1].asserts || s->drift)
        model_error(ss, i, w, s);
    for (uint32_t f = 0; f < s->n_found; f++) {
        const struct sim_found *sf = &s->found[f];
        int k = 0;
        while (k < ss->n_classes && !dclass_same(&ss->classes[k].cl, &sf->cl))
            k++;
        if (k == ss->n_classes && k == MAX_CLASSES) {
            ss->dropped += sf->hits;
            continue;
        }
        struct wclass *wc = &ss->classes[k];
        if (k == ss->n_classes) {
            memset(wc, 0, sizeof *wc);
            wc->cl = sf->cl;
            wc->first_wl = i;
            wc->first_s = progress_now() - ss->start - ss->shrink_s;
            wc->first_t = sf->t;
            ss->n_classes++;
        }
        wc->cl.fields |= sf->cl.fields;
        wc->workloads++;
        wc->hits += sf->hits;
    }
    tally_first(ss, s);
    sim_free(s);
    /* shrink and save the new classes (the simulator's state is free now) */
    double t0 = progress_now();
    if (o->out_dir)
        for (int k = 0; k < ss->n_classes; k++)
            if (ss->classes[k].first_wl == i && !ss->classes[k].reproducer)
                save_class(ss, &ss->classes[k], k, w);
    ss->shrink_s += progress_now() - t0;
}

/* ---- the summary ---- */

static void defect_firsts(const struct wsession *ss, double *first, uint64_t *wls, int *best, uint64_t *first_wl)
{
    const struct target *tg = ss->o->bounds.target;
    for (int d = 0; d < tg->n_defects; d++) {
        first[d] = -1;
        first_wl[d] = UINT64_MAX;
        wls[d] = 0;
        best[d] = -1;
        for (int i = 0; i < ss->n_classes; i++) {
            const struct wclass *wc = &ss->classes[i];
            unsigned defs = cause_defects(tg, wc->cl.cause);
            if (!(defs & (1u << d)))
                continue;
            wls[d] += wc->workloads;
            if (first[d] < 0 || wc->first_s < first[d])
                first[d] = wc->first_s;
            if (wc->first_wl < first_wl[d])
                first_wl[d] = wc->first_wl;
            if (best[d] < 0 || __builtin_popcount(defs) <
                                   __builtin_popcount(cause_defects(tg, ss->classes[best[d]].cl.cause)))
                best[d] = i;
        }
    }
}

/* Whether defect d can show in the run's workloads: on that kernel, and
 * with the run's cores (the defect table says: the signal target's S9 needs
 * two cores, its S2 domains, which no SMP build has). Not a defect of
 * another core's VCPU_SetTCB (F12, S11): a workload binds its VCPUs at
 * setup only, its guests on core 0 (docs/workload-format.md) */
static bool possible_here(const struct fuzz_opts *o, int d)
{
    return defect_possible_here(o->bounds.target, d, o->bounds.kernel, o->cores, false);
}

static void summary(FILE *f, const struct wsession *ss, double elapsed)
{
    const struct fuzz_opts *o = ss->o;
    const struct target *tg = o->bounds.target;
    fprintf(f, "\nirqsim fuzz --mode workload: ");
    if (!tg->is_default)
        fprintf(f, "target %s, ", tg->name);
    fprintf(f, "fastpath %s, %.1f s, seed %" PRIu64 ", %d core%s%s", tg->variant_name(o->variant), elapsed, o->seed,
            o->cores, o->cores == 1 ? "" : "s", o->signal_fastpath ? ", KernelSignalFastpath beside in every workload" : "");
    if (o->max_checks)
        fprintf(f, ", budget %" PRIu64 " workloads (--checks)", o->max_checks);
    if (ss->interrupted)
        fprintf(f, "\ninterrupted by %s: the figures below are of the %" PRIu64 " workloads done",
                stop_name(ss->interrupted), ss->sims + ss->setup_refused);
    fprintf(f, "\nworkloads simulated: %" PRIu64 " (%.1f per second; %" PRIu64 " refused at setup; %.1f s of the run "
               "spent shrinking)\n", ss->sims, elapsed > 0 ? (double)ss->sims / elapsed : 0.0, ss->setup_refused,
            ss->shrink_s);
    fprintf(f, "%s checked (the one-entry check on the slowpath kernel's state): %" PRIu64
               " (%.0f per second)\n", tg->words.checked_many, ss->sweep_checks, elapsed > 0 ? (double)ss->sweep_checks / elapsed : 0.0);
    if (ss->sweep_checks) /* the fastpath's exits at them */
        target_print_unreached(f, tg, o->variant, ss->exits);
    fprintf(f, "kernel entry states through the invariant checker: %" PRIu64 ", refused: %" PRIu64
               ", failed kernel assertions: %" PRIu64 ", drifts: %" PRIu64 "%s\n", ss->states_checked, ss->refused,
            ss->asserts, ss->drift, ss->stopped ? " (some runs stopped at the event limit)" : "");
    if (o->bounds.vcpus) /* said even when zero, so that a zero shows */
        fprintf(f, "hypervisor workloads (--vcpus; the slowpath kernel): virtual timer events taken %" PRIu64
                   " (dropped, no VCPU loaded: %" PRIu64 "), VGIC maintenance interrupts taken %" PRIu64
                   ", runs ended by a storm of the virtual timer's or a maintenance PPI (not simulated past it): "
                   "%" PRIu64 "\n",
                ss->vtimer_taken, ss->vtimer_dropped, ss->maint_taken, ss->storms);
    if (o->cores > 1) /* what only two cores reach: said, so that a zero shows */
        fprintf(f, "device interrupts taken in a lock wait (acknowledged during the other core's entry, handled "
                   "before its IPI): %" PRIu64 "\nkernel entries made with a reschedule IPI to their core in flight "
                   "(sent, not yet taken: ipi_latency, or the GIC's order): %" PRIu64 "\n", ss->lock_waits, ss->ipi_raced);
    fprintf(f, "interrupts the GIC chose among several pending at once: %" PRIu64 " (workloads naming an order other "
               "than the default: %" PRIu64 ")\n", ss->gic_choices, ss->gic_ordered);
    const char *why[SIT_COUNT];
    situation_why_workloads(why, o->bounds.kernel, o->cores, target_admit_beside(tg) & INV_ADMIT_IPI,
                            target_admit_left_by(tg, o->variant) & INV_ADMIT_IPI);
    situation_print_why(f, ss->sits, ss->sweep_checks, !tg->syscall_entry, why);
    if (ss->errors) {
        fprintf(f, "\nREFUSED, ASSERTED OR DRIFTED (a bug of the kernel modelled, or of the checker or the model) in %" PRIu64
                   " workload%s (first: workload %" PRIu64 "): %s\n", ss->errors,
                ss->errors == 1 ? "" : "s", ss->first_error_wl, ss->error_msg);
        if (ss->error_file)
            fprintf(f, "  workload: %s\n", ss->error_file);
    }
    if (!ss->n_classes && !ss->sweep_checks) {
        fprintf(f, "\ndivergences: none found, and nothing checked: no %s in the workloads (NOT a pass)\n",
                tg->words.checked_one);
        return;
    }
    if (!ss->n_classes) {
        fprintf(f, "\ndivergences: none (the fastpath agreed with the slowpath at every %s)\n", tg->words.checked_one);
        return;
    }
    double first[DEFECT_MAX];
    uint64_t wls[DEFECT_MAX];
    uint64_t fwl[DEFECT_MAX];
    int best[DEFECT_MAX], found = 0;
    defect_firsts(ss, first, wls, best, fwl);
    for (int d = 0; d < tg->n_defects; d++)
        found += best[d] >= 0;
    char name[200], defs[64];
    fprintf(f, "\ndefects: %d (from %d divergence class%s)\n", found, ss->n_classes, ss->n_classes == 1 ? "" : "es");
    for (int d = 0; d < tg->n_defects; d++) {
        if (best[d] < 0)
            continue;
        const struct wclass *b = &ss->classes[best[d]];
        fprintf(f, "  %s. %s: first after %.2f s (workload %" PRIu64 "), in %" PRIu64 " workload%s; plainest class %s",
                defect_info(tg, d)->id, defect_info(tg, d)->title, first[d], fwl[d], wls[d], wls[d] == 1 ? "" : "s",
                dclass_name(&b->cl, name, sizeof name));
        if (b->reproducer)
            fprintf(f, " (%s)", b->reproducer);
        fprintf(f, "\n");
    }
    int possible = 0;
    for (int d = 0; d < tg->n_defects; d++)
        possible += possible_here(o, d);
    if (o->variant == FP_PR1227 && found < possible) {
        fprintf(f, "  not found:");
        for (int d = 0; d < tg->n_defects; d++)
            if (best[d] < 0 && possible_here(o, d))
                fprintf(f, " %s", defect_info(tg, d)->id);
        fprintf(f, "\n");
    }
    fprintf(f, "\ndivergence classes: %d\n", ss->n_classes);
    for (int i = 0; i < ss->n_classes; i++) {
        const struct wclass *wc = &ss->classes[i];
        fprintf(f, "  %2d. %-44s first after %7.2f s (workload %" PRIu64 ", t=%" PRIu64 "), %" PRIu64
                   " workloads, %" PRIu64 " hits, defects %s\n", i + 1, dclass_name(&wc->cl, name, sizeof name),
                wc->first_s, wc->first_wl, wc->first_t, wc->workloads, wc->hits,
                cause_defects_text(tg, wc->cl.cause, defs, sizeof defs));
        if (wc->as_first)
            fprintf(f, "      became (in the %" PRIu64 " workload%s where it came first): a thread never runs in %" PRIu64
                       ", runs late in %" PRIu64 ", an IRQ left masked in %" PRIu64 ", an SC over budget in a window in %"
                       PRIu64 ", extra timer entries in %" PRIu64 " (%+.4f per device interrupt)\n",
                    wc->as_first, wc->as_first == 1 ? "" : "s", wc->never_runs, wc->late, wc->masked, wc->over_budget,
                    wc->extra_timer_wl, wc->device ? (double)wc->extra_timer / (double)wc->device : 0.0);
        if (wc->reproducer)
            fprintf(f, "      reproducer: %s\n", wc->reproducer);
    }
    if (ss->dropped)
        fprintf(f, "  (%" PRIu64 " hits of further classes not kept)\n", ss->dropped);
}

static int write_json(const struct wsession *ss, double elapsed)
{
    const struct fuzz_opts *o = ss->o;
    struct out *out = out_open("irqsim fuzz", o->json);
    if (!out)
        return -1;
    FILE *f = out->f;
    const struct target *tg = o->bounds.target;
    fprintf(f, "{\n  \"mode\": \"workload\",\n");
    if (ss->interrupted) /* only then: an uninterrupted run's JSON stays as it was */
        fprintf(f, "  \"interrupted\": \"%s\",\n", stop_name(ss->interrupted));
    if (!tg->is_default) /* the default target's JSON stays as it was */
        fprintf(f, "  \"target\": \"%s\",\n", tg->name);
    fprintf(f, "  \"fastpath\": \"%s\",\n  \"seconds\": %.3f,\n  \"seed\": %" PRIu64
               ",\n  \"cores\": %d,\n  \"max_checks\": %" PRIu64 ",\n  \"workloads\": %" PRIu64
               ",\n  \"workloads_per_second\": %.1f,\n  \"%s\": %" PRIu64
               ",\n  \"states_checked\": %" PRIu64 ",\n  \"states_refused\": %" PRIu64 ",\n  \"asserts\": %" PRIu64
               ",\n  \"drifts\": %" PRIu64 ",\n  \"lock_waits\": %" PRIu64 ",\n  \"ipi_raced\": %" PRIu64
               ",\n  \"gic_choices\": %" PRIu64
               ",\n  \"gic_ordered\": %" PRIu64 ",\n  \"model_errors\": %" PRIu64 ",\n  \"defects\": [",
            tg->variant_name(o->variant), elapsed, o->seed, o->cores, o->max_checks, ss->sims,
            elapsed > 0 ? (double)ss->sims / elapsed : 0.0,
            tg->words.json_checked, ss->sweep_checks, ss->states_checked, ss->refused,
            ss->asserts, ss->drift, ss->lock_waits, ss->ipi_raced, ss->gic_choices, ss->gic_ordered, ss->errors);
    double first[DEFECT_MAX];
    uint64_t wls[DEFECT_MAX];
    uint64_t fwl[DEFECT_MAX];
    int best[DEFECT_MAX];
    defect_firsts(ss, first, wls, best, fwl);
    char name[200];
    for (int d = 0, k = 0; d < tg->n_defects; d++) {
        if (best[d] < 0)
            continue;
        const struct wclass *b = &ss->classes[best[d]];
        fprintf(f, "%s\n    {\"id\": \"%s\", \"first_seconds\": %.3f, \"first_workload\": %" PRIu64
                   ", \"workloads\": %" PRIu64 ", \"class\": \"%s\", \"reproducer\": ", k++ ? "," : "",
                defect_info(tg, d)->id, first[d], fwl[d], wls[d], dclass_name(&b->cl, name, sizeof name));
        out_string(out, b->reproducer ? b->reproducer : "");
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"classes\": [");
    for (int i = 0; i < ss->n_classes; i++) {
        const struct wclass *wc = &ss->classes[i];
        fprintf(f, "%s\n    {\"class\": \"%s\", \"first_seconds\": %.3f, \"first_workload\": %" PRIu64
                   ", \"workloads\": %" PRIu64 ", \"hits\": %" PRIu64 ", \"as_first\": %" PRIu64
                   ", \"never_runs\": %" PRIu64 ", \"masked\": %" PRIu64 ", \"over_budget\": %" PRIu64
                   ", \"extra_timer_entries\": %ld, \"reproducer\": ",
                i ? "," : "", dclass_name(&wc->cl, name, sizeof name), wc->first_s, wc->first_wl, wc->workloads,
                wc->hits, wc->as_first, wc->never_runs, wc->masked, wc->over_budget, wc->extra_timer);
        out_string(out, wc->reproducer ? wc->reproducer : "");
        fputc('}', f);
    }
    fprintf(f, "%s]\n}\n", ss->n_classes ? "\n  " : "");
    return out_close(out);
}

int wlfuzz_run(const struct fuzz_opts *o)
{
    if (o->out_dir && out_dir("irqsim fuzz", o->out_dir) != 0)
        return OUT_FAILED;
    struct wsession *ss = calloc(1, sizeof *ss);
    struct workload *w = calloc(1, sizeof *w);
    struct sim *s = calloc(1, sizeof *s);
    if (!ss || !w || !s) {
        free(ss), free(w), free(s);
        return 2;
    }
    ss->o = o;
    ss->start = progress_now();
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    stop_catch();
    for (uint64_t i = 0; (o->max_checks ? i < o->max_checks : progress_now() - ss->start < o->seconds) && !stop_requested();
         i++) {
        one_workload(ss, i, w, s);
        if (progress_due(&pr))
            progress_print(&pr, "[%6.1fs] %9" PRIu64 " workloads  %7.1f/s  classes %d  errors %" PRIu64,
                           pr.last - ss->start, ss->sims, (double)ss->sims / (pr.last - ss->start), ss->n_classes,
                           ss->errors);
    }
    double elapsed = progress_now() - ss->start;
    ss->interrupted = stop_requested();
    progress_end(&pr, false);
    summary(stdout, ss, elapsed);
    if (o->json && write_json(ss, elapsed) != 0)
        ss->write_errors++;
    int rc = ss->errors            ? 2
             : ss->write_errors    ? OUT_FAILED
             : ss->n_classes       ? 1
             : !ss->sweep_checks   ? RUN_INCOMPLETE /* nothing checked is no pass */
                                   : 0;
    if (ss->write_errors)
        fprintf(stderr, "irqsim fuzz: %d output%s could not be written (exit status %d)\n", ss->write_errors,
                ss->write_errors == 1 ? "" : "s", OUT_FAILED);
    for (int i = 0; i < ss->n_classes; i++)
        free(ss->classes[i].reproducer);
    free(ss->error_file);
    free(ss);
    free(w);
    free(s);
    return stop_finish(rc);
}
