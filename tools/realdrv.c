/* realdrv: the drivers' registration and the pieces every driver's run uses
 * (realdrv.h). */
#define _POSIX_C_SOURCE 200809L
#include "realdrv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "invariant.h"
#include "kassert.h"
#include "out.h"
#include "rk_diff.h"
#include "rk_sig.h"
#include "stop.h"

#define REAL_DRIVER_ENTRY(d) &d,
static const struct real_driver *const real_drivers[] = {REAL_DRIVERS(REAL_DRIVER_ENTRY)};
#undef REAL_DRIVER_ENTRY

const struct real_driver *real_driver_of(const struct target *t)
{
    for (size_t i = 0; i < sizeof real_drivers / sizeof real_drivers[0]; i++)
        if (!strcmp(real_drivers[i]->name, t->name))
            return real_drivers[i];
    return NULL;
}

bool real_has_fastpath(const struct real_driver *d, const struct hk_info *info)
{
    return *(const unsigned *)((const char *)info + d->fastpath_flag) != 0;
}

bool real_path_built(const struct real_driver *d, const struct hk_info *info, int p)
{
    return d->paths[p] >= 0 && (p == 0 || real_has_fastpath(d, info));
}

const char *real_path_name(const struct real_driver *d, int p)
{
    for (int i = 0; i < REAL_NPATH; i++)
        if (p >= 0 && d->paths[i] == p && d->path_names[i])
            return d->path_names[i];
    return "-";
}

uint32_t real_compare(struct kstate *x, struct kstate *y, bool model_debug)
{
    bool ox = !diff_normalise(x), oy = !diff_normalise(y);
    return rk_compare(x, ox, y, oy, model_debug);
}

/* --out: the entry state of a kind of predicted halt, as a scenario
 * `irqsim check` (and `check --real` on the build) reads back */
static void save_halt(const struct real_opts *o, struct real_run *r, int i, int path, int id, uint64_t seed)
{
    if (!o->out)
        return;
    char *file = out_join(o->out, "%s-assertion-%02d-seed%" PRIu64 ".scen", o->cmd, i, seed);
    char verdict[sizeof r->k.dir + 512];
    snprintf(verdict, sizeof verdict,
             "the real kernel halts in the %s where the model's kernel fails its own assertion too, in %s: %s\n"
             "(KERNEL ASSERTION FAILED)\nreal kernel: %s, seed %" PRIu64,
             real_path_name(o->driver, path), kassert_fn(id), kassert_msg(id), r->k.dir, seed);
    if (file && out_reproducer(real_who(o), file, verdict, &r->in, NULL) == 0)
        printf("  reproducer: %s\n", file);
    else
        r->write_errors++;
    free(file);
}

int real_predicted_halt(const struct kstate *in, const struct kstate *model, const char *text)
{
    if (rk_known_halt(text))
        return -1;
    int id = rk_predicted_halt(model, text);
    struct inv_report rep;
    /* a kernel finding only from a state the kernel can be in */
    return id >= 0 && kstate_check(in, INV_AT_ENTRY, &rep) == 0 ? id : -1;
}

bool real_halt_predicted(const struct real_opts *o, struct real_run *r, const struct kstate *model,
                         const char *text, int path, uint64_t seed)
{
    int id = real_predicted_halt(&r->in, model, text);
    if (id < 0)
        return false;
    r->predicted++;
    for (int i = 0; i < REAL_MAX_KNOWN; i++) {
        if (r->predicted_n[i] && r->predicted_id[i] != id)
            continue;
        if (r->predicted_n[i]++)
            return true;
        r->predicted_id[i] = id;
        r->predicted_seed[i] = seed;
        printf("-- seed %" PRIu64 ": the real kernel halts in the %s where the model's kernel fails its own assertion "
               "too, in %s: %s (KERNEL ASSERTION FAILED: a finding)\n",
               seed, real_path_name(o->driver, path), kassert_fn(id), kassert_msg(id));
        save_halt(o, r, i, path, id, seed);
        return true;
    }
    return true; /* of a kind past those listed: counted in r->predicted */
}

void real_predicted_print(const struct real_run *r)
{
    if (!r->predicted)
        return;
    printf("  halts the model's kernel makes too (KERNEL ASSERTION FAILED: a finding; the state passed the entry "
           "invariants): %" PRIu64 "\n", r->predicted);
    uint64_t listed = 0;
    for (int i = 0; i < REAL_MAX_KNOWN && r->predicted_n[i]; i++) {
        printf("    %8" PRIu64 "  %s: %s, first --seed %" PRIu64 "\n", r->predicted_n[i], kassert_fn(r->predicted_id[i]),
               kassert_msg(r->predicted_id[i]), r->predicted_seed[i]);
        listed += r->predicted_n[i];
    }
    if (listed < r->predicted)
        printf("    (%" PRIu64 " more, of assertions past the first %d)\n", r->predicted - listed, REAL_MAX_KNOWN);
}

bool real_check_exit(const struct real_opts *o, struct real_run *r, const struct kstate *out, int path,
                     const struct kstate *model, uint64_t seed)
{
    unsigned admit = realinv_admit(o->target, &r->in, path == o->driver->paths[1]);
    return realinv_check(&r->inv, &r->in, out, path, real_path_name(o->driver, path), admit, model, seed);
}

void real_check_pair_exit(struct real_run *r, const struct real_driver *d)
{
    real_check_outcomes_exit(r, d, 2);
}

int real_check_slow_verdict(struct real_run *r, const char *path, int w, const struct rk_extra *x,
                            const struct real_driver *d, const char *what)
{
    if (w < 0) {
        fprintf(stderr, "%s: does not fit the build: %s\n", path, rk_error(&r->k));
        return EXIT_USAGE;
    }
    if (w == HK_OUT_HALT) {
        printf("verdict: the real kernel halted in the slowpath: %s\n", x->text);
        return EXIT_DIVERGE;
    }
    uint32_t f = real_compare(&r->b, &r->a, r->k.info.debug);
    real_check_outcomes_exit(r, d, 1);
    char text[200];
    printf("verdict (the build has no %s fastpath: the model's slowpath against the real one): %s%s\n", what,
           f ? "MISMATCH in " : "AGREE", f ? diff_fields_text(f, text, sizeof text) : "");
    if (f)
        diff_compare(&r->b, &r->a, stdout);
    return f ? EXIT_DIVERGE : EXIT_AGREE;
}

void real_check_outcomes_exit(struct real_run *r, const struct real_driver *d, int n)
{
    const struct target *t = target_of(&r->in);
    /* a scenario of another kernel (a master reproducer on a base build)
     * may be no entry state of the build's: its outcomes prove nothing */
    uint8_t file_kernel = r->in.cfg.kernel;
    ks_features file_features = r->in.cfg.features;
    r->in.cfg.kernel = r->k.cfg.kernel, r->in.cfg.features = r->k.cfg.features;
    struct inv_report rep;
    bool fits = kstate_check_admit(&r->in, INV_AT_ENTRY, target_admit_built(&r->in), &rep) == 0;
    r->in.cfg.kernel = file_kernel, r->in.cfg.features = file_features;
    if (!fits) {
        r->inv.skipped += (uint64_t)n;
        r->inv.skip_why = "the scenario is no entry state of the build's kernel: it breaks an entry invariant as that "
                          "kernel (it is another kernel's)";
        return;
    }
    r->a.cfg.kernel = r->b.cfg.kernel = r->k.cfg.kernel;
    r->a.cfg.features = r->b.cfg.features = r->k.cfg.features;
    realinv_check(&r->inv, &r->in, &r->a, d->paths[0], real_path_name(d, d->paths[0]), realinv_admit(t, &r->in, false),
                  NULL, 0);
    if (n > 1)
        realinv_check(&r->inv, &r->in, &r->b, d->paths[1], real_path_name(d, d->paths[1]),
                      realinv_admit(t, &r->in, true), NULL, 0);
}

const char *real_who(const struct real_opts *o)
{
    return !strcmp(o->cmd, "fuzz") ? "irqsim fuzz" : "irqsim validate";
}

static void write_reproducer(const struct real_opts *o, struct real_run *r, struct rclass *c, const char *title)
{
    if (!o->out)
        return;
    char *path = out_join(o->out, "%s-%02d-seed%" PRIu64 ".scen", o->cmd, r->n_classes, c->first_seed);
    char *verdict = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&verdict, &len);
    if (mem) {
        fprintf(mem, "%s\nreal kernel: %s (%s, commit %s), seed %" PRIu64 "\n", title, r->k.dir, r->k.board,
                r->k.commit[0] ? r->k.commit : "?", c->first_seed);
        fclose(mem);
    }
    if (path && verdict && out_reproducer(real_who(o), path, verdict, &r->in, NULL) == 0) {
        c->reproducer = path;
    } else { /* the summary and the JSON name only reproducers that exist */
        r->write_errors++;
        free(path);
    }
    free(verdict);
}

/* A kind's label; its model cause is the run's target's (only the IRQ
 * driver's fuzz names one). */
static void class_label(const struct real_opts *o, const struct rclass *c, char *buf, size_t n)
{
    char f[200], cause[120];
    diff_fields_text(c->fields, f, sizeof f);
    if (c->path >= 0)
        snprintf(buf, n, "%s%s%s%s/%s", real_path_name(o->driver, c->path), c->halt ? " halt" : "",
                 c->note ? " " : "", c->note ? c->note : "", f);
    else if (c->cause == 0)
        snprintf(buf, n, "%s%s [the model agrees here]", c->halt ? "halt/" : "", f);
    else
        snprintf(buf, n, "%s%s [model cause %s]", c->halt ? "halt/" : "", f,
                 cause_text(o->target, c->cause, cause, sizeof cause));
}

static bool same_kind(const struct rclass *c, const struct rclass *key)
{
    return c->path == key->path && c->fields == key->fields && c->halt == key->halt && c->cause == key->cause &&
           c->note == key->note;
}

void real_count(const struct real_opts *o, struct real_run *r, struct rclass *key, const struct kstate *x,
                const struct kstate *y, const char *xname, const char *yname)
{
    for (int i = 0; i < r->n_classes; i++) {
        struct rclass *c = &r->classes[i];
        if (same_kind(c, key)) {
            c->count++;
            return;
        }
    }
    if (r->n_classes == REAL_MAX_CLASSES) {
        r->dropped++;
        return;
    }
    struct rclass *c = &r->classes[r->n_classes];
    *c = *key;
    c->path_name = real_path_name(o->driver, c->path);
    c->count = 1;
    c->first_s = progress_now() - r->t0;
    char label[300];
    class_label(o, c, label, sizeof label);
    write_reproducer(o, r, c, label);
    r->n_classes++;
    if (!strcmp(o->cmd, "fuzz") && !o->verbose && !o->show) /* the summary lists it */
        return;
    printf("-- seed %" PRIu64 ": %s\n", c->first_seed, label);
    if (c->halt)
        printf("  the real kernel halted: %s\n", c->text[0] ? c->text : "(release build: no text)");
    else
        printf("  (\"slow\" below is the %s, \"fast\" the %s)\n", xname, yname);
    if (!c->halt)
        diff_compare(x, y, stdout);
    if (c->reproducer)
        printf("  reproducer: %s\n", c->reproducer);
}

bool real_done(const struct real_opts *o, const struct real_run *r, uint64_t i)
{
    if (stop_requested()) /* SIGINT, SIGTERM: the summary of what was done */
        return true;
    if (o->checks)
        return i >= o->checks;
    return (i & 255) == 0 && progress_now() - r->t0 >= o->seconds;
}

void real_progress(struct progress *pr, const struct real_opts *o, const struct real_run *r, uint64_t i)
{
    if (!progress_due(pr))
        return;
    double t = pr->last - r->t0;
    progress_print(pr, "irqsim %s: %.0f s, %" PRIu64 " states, %" PRIu64 " %s, %.0f/s", o->cmd, t, i, r->diverged,
                   !strcmp(o->cmd, "validate") ? "mismatches" : "divergences", (double)i / t);
}

bool real_next_state(const struct real_opts *o, struct real_run *r, uint64_t seed)
{
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.target = o->target;
    if (rk_gen_state(&r->k, &r->in, seed, &b) == 0) {
        situation_tally(&r->in, r->sits);
        r->generated++;
        return true;
    }
    fprintf(stderr, "irqsim %s: the generator has no preset matching the build (board %s)\n", o->cmd, r->k.board);
    return false;
}

int real_refused_unbuilt(const struct real_opts *o, const struct real_run *r)
{
    if (real_has_fastpath(o->driver, &r->k.info))
        return 0;
    fprintf(stderr, "irqsim %s: %s has no %s (its kernel.info says the build leaves it out)\n", o->cmd, o->build,
            o->target->fast_fn);
    return -1;
}

int real_loop_next(const struct real_opts *o, struct real_run *r, struct progress *pr, uint64_t i)
{
    if (real_done(o, r, i))
        return 0;
    if (real_next_state(o, r, o->seed + i))
        return 1;
    progress_end(pr, false);
    return -1;
}

int real_pair_done(struct real_run *r, const char *path, int ws, int wf, const struct rk_extra *xs,
                   const struct rk_extra *xf)
{
    if (ws < 0 || wf < 0) {
        fprintf(stderr, "%s: does not fit the build: %s\n", path, rk_error(&r->k));
        return EXIT_USAGE;
    }
    if (ws == HK_OUT_HALT || wf == HK_OUT_HALT) {
        printf("verdict: the real kernel halted in the %s: %s\n", ws == HK_OUT_HALT ? "slowpath" : "fastpath",
               ws == HK_OUT_HALT ? xs->text : xf->text);
        return EXIT_DIVERGE;
    }
    return -1;
}

bool real_unexplained(const struct rclass *c)
{
    return c->halt ? !rk_known_halt(c->text) : !cause_is_fixes(c->cause);
}

bool real_classify_now(struct real_run *r, uint32_t key)
{
    for (int i = 0; i < r->n_seen; i++)
        if (r->seen[i].key == key)
            return ++r->seen[i].n <= CLASSIFY_FIRST || r->diverged % CLASSIFY_SAMPLE == 0;
    if (r->n_seen < REAL_MAX_CLASSES)
        r->seen[r->n_seen++] = (struct seen){key, 1};
    return true;
}

#define FUZZ_KINDS_SHOWN 10

/* order[]: the unexplained kinds first, then the others, each group by
 * count (insertion sort: at most REAL_MAX_CLASSES); returns how many are
 * unexplained. */
static int kinds_order(const struct real_run *r, int *order)
{
    int n = 0, unex = 0;
    for (int i = 0; i < r->n_classes; i++)
        unex += real_unexplained(&r->classes[i]);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < r->n_classes; i++)
            if (real_unexplained(&r->classes[i]) == (pass == 0))
                order[n++] = i;
    for (int g = 0, lo = 0; g < 2; lo = unex, g++)
        for (int i = lo + 1; i < (g ? n : unex); i++)
            for (int j = i; j > lo && r->classes[order[j]].count > r->classes[order[j - 1]].count; j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
    return unex;
}

/* --by class lists every kind, --by defect the first FUZZ_KINDS_SHOWN
 * after the unexplained and says how many more there are. */
void real_fuzz_kinds(const struct real_opts *o, const struct real_run *r)
{
    int order[REAL_MAX_CLASSES], n = r->n_classes;
    int unex = kinds_order(r, order);
    int shown = o->by == 1 ? n : unex + FUZZ_KINDS_SHOWN < n ? unex + FUZZ_KINDS_SHOWN : n;
    printf("kinds: %d (%d unexplained: no known defect explains them); states of each among the %" PRIu64
           " divergences named%s\n",
           r->n_classes, unex, r->classified, shown < n ? ", the unexplained and the largest:" : ":");
    for (int k = 0; k < shown; k++) {
        const struct rclass *c = &r->classes[order[k]];
        char label[300];
        class_label(o, c, label, sizeof label);
        printf("  %8" PRIu64 "  %s%s, first at seed %" PRIu64 "%s%s\n", c->count,
               real_unexplained(c) ? "UNEXPLAINED " : "", label, c->first_seed, c->reproducer ? ": " : "",
               c->reproducer ? c->reproducer : "");
    }
    if (shown < n)
        printf("  ... %d more kinds (--by class lists them all, --verbose prints each as found, --json has them)\n",
               n - shown);
}

void real_fuzz_divergence(const struct real_opts *o, struct real_run *r, struct rclass *key, const char *xname,
                          const char *yname)
{
    r->diverged++;
    for (int f = 0; f < DF_COUNT; f++)
        r->field_hits[f] += (key->fields >> f) & 1;
    if (!real_classify_now(r, key->fields | (uint32_t)key->halt << DF_COUNT))
        return;
    /* which of the model's fixes explains it (0: the model agrees here) */
    key->cause = classify_cause(&r->in, &r->ws);
    r->classified++;
    for (int d = 0; d < o->target->n_defects; d++)
        r->defect_hits[d] += (cause_defects(o->target, key->cause) >> d) & 1;
    real_count(o, r, key, &r->a, &r->b, xname, yname);
}

void real_fuzz_summary(const struct real_opts *o, const struct real_run *r)
{
    printf("defects (the model's cause, over the %" PRIu64 " divergences named: the first %d of each field set, "
           "then 1 in %d):",
           r->classified, CLASSIFY_FIRST, CLASSIFY_SAMPLE);
    for (int d = 0; d < o->target->n_defects; d++)
        if (r->defect_hits[d])
            printf(" %s %" PRIu64, defect_info(o->target, d)->id, r->defect_hits[d]);
    printf("\n");
    /* a field's count needs no model: it is over every divergence
     * (e.g. irq_mask: F9's mask, also where the cause names another fix) */
    printf("fields (over all %" PRIu64 " divergences):", r->diverged);
    for (int f = 0; f < DF_COUNT; f++)
        if (r->field_hits[f])
            printf(" %s %" PRIu64, diff_field_name(f), r->field_hits[f]);
    printf("\n");
    real_fuzz_kinds(o, r);
}

static const char exit_differs[] = "finished-or-fell-back differs";

struct sys_tally {
    uint64_t exits[TARGET_MAX_EXITS]; /* the model's fastpath exits */
    uint64_t real_done[3];           /* the real fastpath: not tracked (release), fell back, finished */
    uint64_t caps[SCAP_COUNT];       /* what the cptr named (enum ks_sys_cap) */
    uint64_t irq_methods[IRQM_COUNT]; /* the IRQ control cap's labels (enum ks_irq_method) */
};

/* ---- validate --real of a system-call target ---- */

/* The system-call pass's states: every odd --seed's call redrawn as one of
 * the invocations no interrupt entry runs (t's gen_invocation; a state
 * without one keeps its call), from a stream of its own, so a seed names
 * the same call in every run */
static void redraw_invocation(const struct target *t, struct kstate *in, uint64_t seed)
{
    if (!(seed & 1) || !t->gen_invocation)
        return;
    struct gen_src src;
    gen_src_seed(&src, seed ^ 0x9e3779b97f4a7c15u);
    t->gen_invocation(in, &src);
}

/* The state's system-call entry (kstate.sys, drawn by the target's
 * generator) becomes the bridge's system call (rk_sys_of_model); the
 * model's slowpath is compared with the real c_handle_syscall, and the
 * model's fastpath as written (which falls back to its slowpath) with the
 * real fastpath (the driver's paths). On a debug build the real kernel
 * also says whether its fastpath finished the call
 * (ksKernelEntry.is_fastpath); the model's exit says the same. */
static bool validate_path(const struct real_opts *o, struct real_run *r, struct sys_tally *st,
                          const struct rk_syscall *sys, int path, uint64_t seed)
{
    struct rk_extra x;
    int why = rk_run_sys(&r->k, &r->in, sys, path, &r->b, &x);
    if (why < 0)
        return false;
    ks_copy(&r->a, &r->in);
    struct rclass key = {.path = path, .first_seed = seed};
    const struct target *t = o->target;
    if (path == o->driver->paths[0]) {
        t->slow(&r->a);
    } else {
        int e = target_fast(t, &r->a, 0);
        bool model_done = !t->exit_is_fallback(e);
        st->exits[e]++;
        st->real_done[x.fastpath_done + 1]++;
        key.note = x.fastpath_done >= 0 && x.fastpath_done != model_done ? exit_differs : NULL;
    }
    if (why == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s", x.text);
        r->halts++;
        if (real_halt_predicted(o, r, &r->a, x.text, path, seed))
            return true;
    } else {
        key.fields = real_compare(&r->a, &r->b, r->k.info.debug);
        real_check_exit(o, r, &r->b, path, &r->a, seed);
        if (!key.fields && !key.note)
            return true;
    }
    r->diverged++;
    if (o->show && !key.halt) {
        printf("seed %" PRIu64 ", %s:\n", seed, real_path_name(o->driver, path));
        diff_compare(&r->a, &r->b, stdout);
    }
    real_count(o, r, &key, &r->a, &r->b, "model", "real kernel");
    return true;
}

static void validate_summary(const struct real_opts *o, const struct real_run *r, const struct sys_tally *st,
                             uint64_t states, uint64_t unfit)
{
    const struct target *t = o->target;
    uint64_t model_done = 0;
    /* what the calls invoked: the DomainSet and thread caps run the
     * slowpath's DomainSet_Set and TCB_SetFlags (the signal target's
     * generator; TCB_SetFlags on trees with TCB flags) */
    printf("  the cptr named:");
    for (int k = 0; k < SCAP_COUNT; k++)
        if (st->caps[k])
            printf(" %s %" PRIu64 " (%s)", ks_sys_cap_name(k), st->caps[k],
                   ks_sys_cap_invocation(k)[0] ? ks_sys_cap_invocation(k) : "nothing invoked");
    if (st->caps[SCAP_IRQ_CONTROL]) /* by label */
        printf("\n  the IRQ control cap's labels: get %" PRIu64 ", trigger %" PRIu64 ", trigger_core %" PRIu64,
               st->irq_methods[IRQM_GET], st->irq_methods[IRQM_TRIGGER], st->irq_methods[IRQM_TRIGGER_CORE]);
    /* and what no call reached: a kind the target does not draw, or not
     * on this build (TCB_SetFlags on trees with TCB flags), whose
     * slowpath this run did not check */
    printf("\n  never named (what they invoke not run):");
    int unnamed = 0;
    for (int k = 0; k < SCAP_COUNT; k++)
        if (!st->caps[k]) {
            printf(" %s", ks_sys_cap_name(k));
            unnamed++;
        }
    if (!unnamed)
        printf(" none");
    printf("\n");
    if (r->k.cfg.smp && (st->caps[SCAP_DOMAIN] || st->caps[SCAP_TCB]))
        printf("  not drawn: either call on the thread the other core runs (DomainSet_Set queues it while it "
               "runs, kernel finding K1 of docs/FINDINGS.md; the bridge emulates no remote stall)\n");
    /* split EOI leaves a delivered PPI active until the user's ack */
    if (r->k.cfg.smp && r->k.info.gic_split_eoi && st->caps[SCAP_IRQ_ACK])
        printf("  not drawn: an ack of core 1's PPI while it is active there (the remote deactivation deactivates "
               "INTID 0 instead: kernel finding K2 of docs/FINDINGS.md, "
               "tests/kernel-findings/k2-remote-ppi-deactivate.scen)\n");
    if (r->k.cfg.smp && st->caps[SCAP_IRQ_CONTROL])
        printf("  not drawn: IRQControl_GetTriggerCore without its CNode cap (the kernel reads extra cap 0 through "
               "NULL: kernel finding K3 of docs/FINDINGS.md, tests/kernel-findings/k3-trigger-core-no-cap.scen), "
               "nor for core 1's PPI (core 1's IRQ table is not held)\n");
    if (o->slow_only) {
        printf("  %" PRIu64 " mismatches in %d kinds; %" PRIu64 " real-kernel halts\n", r->diverged, r->n_classes,
               r->halts);
        real_predicted_print(r);
        return;
    }
    printf("  model fastpath exits:");
    for (int e = 0; e < t->exits; e++) {
        if (st->exits[e])
            printf(" %s %" PRIu64, t->exit_name(e), st->exits[e]);
        model_done += t->exit_is_fallback(e) ? 0 : st->exits[e];
    }
    printf("\n  fastpath finished the call: model %" PRIu64 ", real %" PRIu64 "; fell back: model %" PRIu64
           ", real %" PRIu64 "%s\n",
           model_done, st->real_done[2], states - unfit - model_done, st->real_done[1],
           r->k.info.debug ? "" : " (release build: the real kernel does not tell, not compared)");
    printf("  %" PRIu64 " mismatches in %d kinds; %" PRIu64 " real-kernel halts\n", r->diverged, r->n_classes,
           r->halts);
    real_predicted_print(r);
}

int real_sys_validate(const struct real_opts *o, struct real_run *r)
{
    struct sys_tally st = {{0}, {0}, {0}, {0}};
    const struct real_driver *d = o->driver;
    uint64_t i = 0, unfit = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    int more;
    for (; (more = real_loop_next(o, r, &pr, i)) > 0; i++) {
        struct rk_syscall sys;
        if (o->slow_only)
            redraw_invocation(o->target, &r->in, o->seed + i);
        if (r->in.sys.cap < SCAP_COUNT)
            st.caps[r->in.sys.cap]++;
        if (r->in.sys.cap == SCAP_IRQ_CONTROL && r->in.sys.irq_method < IRQM_COUNT)
            st.irq_methods[r->in.sys.irq_method]++;
        if (rk_sys_of_model(&r->in, &sys) != 0 || !validate_path(o, r, &st, &sys, d->paths[0], o->seed + i) ||
            (!o->slow_only && !validate_path(o, r, &st, &sys, d->paths[1], o->seed + i))) {
            if (unfit++ < 3)
                fprintf(stderr, "irqsim validate: seed %" PRIu64 ": the call does not fit the build: %s\n",
                        o->seed + i, rk_error(&r->k));
        }
        real_progress(&pr, o, r, i);
    }
    if (more < 0)
        return EXIT_USAGE;
    progress_end(&pr, false);
    r->checks = i;
    double t = progress_now() - r->t0;
    if (o->slow_only)
        printf("validate, system calls: %" PRIu64 " in %.1f s (%.0f/s), each %s through the %s alone (no "
               "fastpath compared), model (kernel %s) against real kernel; %" PRIu64 " did not fit the build\n",
               i, t, (double)i / t, o->target->words.entry_a, d->path_names[0], cfg_kernel_name(r->k.cfg.kernel),
               unfit);
    else
        printf("validate --target %s: %" PRIu64 " %s in %.1f s (%.0f/s), each through the %s and %s, model (kernel "
               "%s) against real kernel; %" PRIu64 " did not fit the build\n",
               o->target->name, i, o->target->words.checked_many, t, (double)i / t, d->path_names[0],
               d->path_names[1], cfg_kernel_name(r->k.cfg.kernel), unfit);
    validate_summary(o, r, &st, i, unfit);
    return r->diverged || unfit ? EXIT_DIVERGE : EXIT_AGREE;
}

const struct target *real_pass_target(void)
{
    for (int i = 0; target_at(i); i++)
        if (target_at(i)->gen_invocation && real_driver_of(target_at(i)))
            return target_at(i);
    return NULL;
}

/* one target's share of the pass, its reproducers in OUT/dir */
static int pass_one(const struct real_opts *o, struct real_run *r, const struct target *t, const char *dir,
                    uint64_t checks, double seconds)
{
    struct real_opts s = *o;
    s.target = t;
    s.driver = real_driver_of(t);
    s.target_set = s.slow_only = true;
    s.checks = checks;
    s.seconds = seconds;
    /* its reproducers apart from the interrupt entries' and the other
     * targets' (each numbers its kinds from 0) */
    char *out = o->out ? out_join(o->out, "%s", dir) : NULL;
    if (o->out && (!out || out_dir(real_who(o), out) != 0)) {
        free(out);
        r->write_errors++;
        return EXIT_OUTPUT;
    }
    s.out = out;
    struct real_run *p = calloc(1, sizeof *p);
    if (!p) {
        free(out);
        return EXIT_USAGE;
    }
    /* the same kernel and invariant tally; the pass's own counts, merged
     * after its summary */
    p->k = r->k;
    p->inv = r->inv;
    p->t0 = progress_now();
    int rc = real_sys_validate(&s, p);
    r->inv = p->inv;
    r->sys.ran = true;
    r->sys.checks += p->checks;
    r->sys.diverged += p->diverged;
    r->sys.halts += p->halts;
    r->sys.seconds += progress_now() - p->t0;
    r->checks += p->checks;
    r->diverged += p->diverged;
    r->halts += p->halts;
    r->known += p->known;
    r->predicted += p->predicted;
    r->generated += p->generated;
    r->dropped += p->dropped;
    r->write_errors += p->write_errors;
    for (int i = 0; i < p->n_classes; i++) {
        if (r->n_classes == REAL_MAX_CLASSES) {
            r->dropped += p->classes[i].count;
            free(p->classes[i].reproducer);
            continue;
        }
        r->classes[r->n_classes++] = p->classes[i];
    }
    free(p);
    free(out);
    return rc == EXIT_USAGE ? EXIT_INCOMPLETE : rc;
}

/* the other system-call targets of the pass (real_pass_target's first):
 * each with a driver, the slowpath of its own entry */
static bool pass_other(const struct target *t, const struct target *first)
{
    return t != first && t->syscall_entry && real_driver_of(t);
}

int real_syscall_pass(const struct real_opts *o, struct real_run *r, uint64_t checks, double seconds)
{
    const struct target *first = real_pass_target();
    if (!first) /* no registered target draws the invocations */
        return EXIT_AGREE;
    int others = 0;
    for (int i = 0; target_at(i); i++)
        others += pass_other(target_at(i), first);
    /* the first four shares of the time, each other one; --checks: the
     * first all of them, each other a quarter as many (at least one) */
    double share = seconds / (4.0 + others);
    int rc = pass_one(o, r, first, "syscalls", checks, 4.0 * share);
    for (int i = 0; target_at(i) && rc != EXIT_OUTPUT && !stop_requested(); i++) {
        const struct target *t = target_at(i);
        if (!pass_other(t, first))
            continue;
        char dir[64];
        snprintf(dir, sizeof dir, "syscalls-%s", t->name);
        int x = pass_one(o, r, t, dir, checks ? (checks + 3) / 4 : 0, share);
        rc = x > rc ? x : rc;
    }
    return rc;
}


/* ---- fuzz and check --real of a system-call target ---- */

int real_sys_fuzz(const struct real_opts *o, struct real_run *r)
{
    const struct real_driver *d = o->driver;
    uint64_t i = 0, ran = 0, unfit = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    int more;
    for (; (more = real_loop_next(o, r, &pr, i)) > 0; i++) {
        struct rk_syscall sys;
        struct rk_extra xs, xf;
        int ws = -1, wf = -1;
        if (rk_sys_of_model(&r->in, &sys) == 0) {
            ws = rk_run_sys(&r->k, &r->in, &sys, d->paths[0], &r->a, &xs);
            wf = rk_run_sys(&r->k, &r->in, &sys, d->paths[1], &r->b, &xf);
        }
        /* a state whose call the build cannot hold (rk_sys_of_model, a
         * path the build lacks) is counted and said, never dropped */
        if (ws < 0 || wf < 0) {
            if (unfit++ < 3)
                fprintf(stderr, "irqsim fuzz: seed %" PRIu64 ": the call does not fit the build: %s\n", o->seed + i,
                        rk_error(&r->k));
            continue;
        }
        ran++;
        struct rclass key = {.path = -1, .first_seed = o->seed + i};
        if (ws == HK_OUT_HALT || wf == HK_OUT_HALT) {
            key.halt = true;
            snprintf(key.text, sizeof key.text, "%s", ws == HK_OUT_HALT ? xs.text : xf.text);
            r->halts++;
        } else {
            key.fields = real_compare(&r->a, &r->b, false);
            real_check_exit(o, r, &r->a, d->paths[0], NULL, o->seed + i);
            real_check_exit(o, r, &r->b, d->paths[1], NULL, o->seed + i);
            if (!key.fields) {
                real_progress(&pr, o, r, i);
                continue;
            }
        }
        real_fuzz_divergence(o, r, &key, "real slowpath", d->path_names[1]);
        real_progress(&pr, o, r, i);
    }
    if (more < 0)
        return EXIT_USAGE;
    progress_end(&pr, false);
    r->checks = ran; /* what the command's "nothing checked" rule and its JSON count */
    printf("fuzz --real --target %s: %" PRIu64 " %s, real %s against the real syscall slowpath: %" PRIu64
           " diverged in %d kinds, %" PRIu64 " halts; %" PRIu64 " of %" PRIu64 " states did not fit the build\n",
           o->target->name, ran, o->target->words.checked_many, d->path_names[1], r->diverged, r->n_classes, r->halts,
           unfit, i);
    if (r->diverged)
        real_fuzz_summary(o, r);
    return r->diverged || unfit ? EXIT_DIVERGE : EXIT_AGREE;
}

uint32_t real_check_model_slow(struct real_run *r)
{
    ks_copy(&r->b, &r->in);
    target_of(&r->in)->slow(&r->b);
    uint32_t m = real_compare(&r->b, &r->a, r->k.info.debug);
    char text[200];
    printf("model's slowpath against the real one: %s%s\n", m ? "MISMATCH in " : "AGREE",
           m ? diff_fields_text(m, text, sizeof text) : "");
    if (m) {
        printf("  (\"slow\" below is the model, \"fast\" the real kernel)\n");
        diff_compare(&r->b, &r->a, stdout);
    }
    return m;
}

int real_sys_check(struct real_run *r, const char *path, const struct real_driver *d)
{
    struct rk_syscall sys;
    if (rk_sys_of_model(&r->in, &sys) != 0) {
        fprintf(stderr, "%s: the syscall line names an object the state does not have\n", path);
        return EXIT_USAGE;
    }
    struct rk_extra xs, xf;
    int ws = rk_run_sys(&r->k, &r->in, &sys, d->paths[0], &r->a, &xs);
    int wf = rk_run_sys(&r->k, &r->in, &sys, d->paths[1], &r->b, &xf);
    int done = real_pair_done(r, path, ws, wf, &xs, &xf);
    if (done >= 0)
        return done;
    uint32_t f = real_compare(&r->a, &r->b, false);
    real_check_pair_exit(r, d);
    char text[200];
    printf("verdict (real kernel, %s %s): %s%s\n", d->path_names[1],
           xf.fastpath_done < 0 ? "?" : xf.fastpath_done ? "finished" : "fell back", f ? "DIVERGE in " : "AGREE",
           f ? diff_fields_text(f, text, sizeof text) : "");
    diff_compare(&r->a, &r->b, stdout);
    uint32_t m = real_check_model_slow(r);
    /* the model's fastpath as the kernel writes it: variant 0 of every
     * system-call target (merged) */
    const struct target *t = target_of(&r->in);
    struct diff_verdict v;
    diff_run(&r->in, 0, false, &v, &r->a, &r->b);
    printf("model (%s, kernel %s): %s%s\n", t->variant_name(0), cfg_kernel_name(r->in.cfg.kernel),
           v.agree ? "AGREE" : "DIVERGE in ", v.agree ? "" : diff_fields_text(v.fields, text, sizeof text));
    return f || m ? EXIT_DIVERGE : EXIT_AGREE;
}

int real_sys_run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x, int entry)
{
    struct rk_syscall sys;
    if (in->sys.entry != entry || rk_sys_of_model(in, &sys) != 0)
        return -1;
    return rk_run_sys(k, in, &sys, path, out, x);
}
