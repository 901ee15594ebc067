/* fuzzrun: standalone multi-threaded differential fuzzing. */
#define _POSIX_C_SOURCE 200809L
#include "fuzzrun.h"

#include <stdatomic.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classify.h"
#include "defect.h"
#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "out.h"
#include "print.h"
#include "progress.h"
#include "shrink.h"
#include "situation.h"
#include "stop.h"
#include "target.h"

#define MAX_CLASSES 256
#define MAX_JOBS 64
/* a worker's tally: its exits, then the situations it drew (situation.h) */
#define TALLY_LEN (TARGET_MAX_EXITS + SIT_COUNT)
#define PUBLISH 4096

struct found {
    struct dclass cl;
    uint32_t fields_seen; /* union over all hits */
    uint64_t count;
    /* the class's check of lowest index (seed, entry clock: 0 is
     * gen_state's own): with a budget the same at any --jobs, unlike the
     * first one found */
    uint64_t first_idx, seed;
    int clock;
    double first_s;
    char *reproducer; /* written (allocated); NULL: none */
    int shrunk_size;
};

struct session {
    const struct fuzz_opts *o;
    pthread_mutex_t lock;
    double start;
    atomic_int stop;
    atomic_int finished; /* workers that have left their loop */
    /* published by each worker under the lock every PUBLISH checks */
    uint64_t checks[MAX_JOBS];
    uint64_t exits[MAX_JOBS][TALLY_LEN];
    struct found classes[MAX_CLASSES];
    int n_classes;
    uint64_t dropped; /* hits of classes past MAX_CLASSES */
    uint64_t invalid;
    uint64_t invalid_seed;
    int write_errors; /* outputs that could not be written */
    int interrupted;  /* the signal that stopped the run, 0 none */
};

struct worker {
    struct session *s;
    int id;
    uint64_t next_publish;
    struct kstate in;
    struct shrink_ws sws; /* also the classification work space */
    struct gen_cache *hist; /* the worker's refill histories; NULL (out of
                               memory) builds each anew, same states */
};


int fuzz_write_scenario(const char *path, const struct kstate *ks, int variant, const char *title)
{
    struct kstate *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (a && b && mem) {
        struct diff_verdict v;
        diff_run(ks, variant, true, &v, a, b);
        fprintf(mem, "%s (fastpath %s)\n", title, target_of(ks)->variant_name(variant));
        diff_report(mem, &v, a, b);
    }
    if (mem)
        fclose(mem);
    int rc = out_reproducer("irqsim", path, a && b ? text : NULL, ks, NULL);
    free(text);
    free(a);
    free(b);
    return rc;
}

static void write_failed(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    s->write_errors++;
    pthread_mutex_unlock(&s->lock);
}

static void invalid_state(struct session *s, const struct kstate *ks, uint64_t seed)
{
    pthread_mutex_lock(&s->lock);
    bool first = s->invalid++ == 0;
    if (first || seed < s->invalid_seed) /* the first in check order, at any --jobs */
        s->invalid_seed = seed;
    pthread_mutex_unlock(&s->lock);
    if (first && s->o->out_dir) {
        char *path = out_join(s->o->out_dir, "generator-bug-seed-%" PRIu64 ".scen", seed);
        if (!path || fuzz_write_scenario(path, ks, s->o->variant, "a generated state that breaks an invariant"))
            write_failed(s);
        free(path);
    }
}

/* The state of check (seed, clock) as worker_main builds it. */
static void check_state(struct kstate *ks, const struct fuzz_opts *o, uint64_t seed, int clock)
{
    struct gen_src src, clocks;
    gen_src_seed(&src, seed);
    gen_state_cached(ks, &src, &o->bounds, NULL);
    gen_src_seed(&clocks, ~seed);
    for (int c = 0; c < clock; c++)
        gen_reclock(ks, &clocks, &o->bounds);
}

/* Class i's first state ks (its check of lowest index) in full, unless
 * the run's sampling checked it so (check_one): the entry invariants,
 * and both outcomes', whose verdict joins the class's fields. So every
 * class has a state checked in full, the same one at any --jobs. False
 * when ks breaks an entry invariant (a generator bug). */
static bool check_first(struct session *s, int i, const struct kstate *ks, struct shrink_ws *ws)
{
    struct found *fd = &s->classes[i];
    if (fd->first_idx % (uint64_t)s->o->check_every == 0)
        return true;
    struct inv_report r;
    if (kstate_check(ks, INV_AT_ENTRY, &r) != 0) {
        invalid_state(s, ks, fd->seed);
        return false;
    }
    struct diff_verdict v;
    diff_run(ks, s->o->variant, true, &v, &ws->cws.a, &ws->cws.b);
    fd->fields_seen |= v.fields;
    return true;
}

/* Shrink class i's first state ks (its check of lowest index) and save it
 * as class-NN: after the run, so the reproducers, like the counts, are
 * the same at any --jobs. */
static void save_class(struct session *s, int i, struct kstate *ks, struct shrink_ws *ws)
{
    const struct fuzz_opts *o = s->o;
    struct found *fd = &s->classes[i];
    shrink_state(ks, target_variant_fixes(target_of(ks), o->variant), ws);
    char name[128];
    dclass_name(&fd->cl, name, sizeof name);
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '+')
            *p = '-';
    char *path = out_join(o->out_dir, "class-%02d-%s.scen", i + 1, name);
    char title[320];
    snprintf(title, sizeof title, "divergence class %s, found from seed %" PRIu64 "%s, shrunk", name, fd->seed,
             fd->clock ? " (a later entry clock)" : "");
    if (!path || fuzz_write_scenario(path, ks, o->variant, title) != 0) {
        /* the summary and the JSON name only reproducers that exist */
        s->write_errors++;
        free(path);
        return;
    }
    fd->reproducer = path;
    fd->shrunk_size = shrink_size(ks);
}

static int by_first_idx(const void *x, const void *y)
{
    uint64_t a = ((const struct found *)x)->first_idx, b = ((const struct found *)y)->first_idx;
    return (a > b) - (a < b);
}

/* After the run: the classes in the order of their first checks (the
 * order --jobs 1 finds them in), each one's first state checked in full,
 * and shrunk and saved with --out. Returns -1 when out of memory. */
static int finish_classes(struct session *s)
{
    qsort(s->classes, (size_t)s->n_classes, sizeof s->classes[0], by_first_idx);
    if (!s->n_classes)
        return 0;
    struct kstate *ks = malloc(sizeof *ks);
    struct shrink_ws *ws = malloc(sizeof *ws);
    int rc = ks && ws ? 0 : -1;
    for (int i = 0; rc == 0 && i < s->n_classes; i++) {
        struct found *fd = &s->classes[i];
        check_state(ks, s->o, fd->seed, fd->clock);
        if (check_first(s, i, ks, ws) && s->o->out_dir)
            save_class(s, i, ks, ws);
    }
    if (rc)
        fprintf(stderr, "irqsim fuzz: out of memory\n");
    free(ks);
    free(ws);
    return rc;
}

/* Record a divergence found by check idx. */
static void record(struct session *s, const struct dclass *cl, uint64_t idx, uint64_t seed, int clock)
{
    pthread_mutex_lock(&s->lock);
    int i = 0;
    while (i < s->n_classes && !dclass_same(&s->classes[i].cl, cl))
        i++;
    if (i == s->n_classes && i < MAX_CLASSES) {
        struct found *fd = &s->classes[i];
        memset(fd, 0, sizeof *fd);
        fd->cl = *cl;
        fd->first_idx = idx;
        fd->seed = seed;
        fd->clock = clock;
        fd->first_s = progress_now() - s->start;
        s->n_classes++;
    }
    if (i < s->n_classes) {
        struct found *fd = &s->classes[i];
        fd->count++;
        fd->fields_seen |= cl->fields;
        if (idx < fd->first_idx) {
            fd->first_idx = idx;
            fd->seed = seed;
            fd->clock = clock;
        }
    } else {
        s->dropped++;
    }
    pthread_mutex_unlock(&s->lock);
}

static void publish(struct session *s, int id, uint64_t checks, const uint64_t *exits)
{
    pthread_mutex_lock(&s->lock);
    s->checks[id] = checks;
    memcpy(s->exits[id], exits, sizeof s->exits[id]);
    pthread_mutex_unlock(&s->lock);
}

/* Every divergence is classified, from the slowpath outcome the check
 * left in the work space: a class is then a function of the state, and
 * every count is exact at any --jobs. (A memo of causes by exit and
 * fields, re-derived on every 32nd hit, made the counts depend on which
 * state a worker classified first, as two states with the same exit and
 * fields can have different causes: issue 27.) The invariant checker
 * runs where check_one's sampling says and on each class's first check
 * (finish_classes), not on every divergence: that cost more than the
 * classification (a quarter of the signal target's checks/s). */
static void classify_divergence(struct worker *w, const struct diff_verdict *v, struct dclass *cl)
{
    cl->exit = v->exit;
    cl->fields = v->fields;
    cl->target = target_index(target_of(&w->in));
    cl->cause = classify_verdict(&w->in, v, w->s->o->variant, &w->sws.cws);
}

/* One differential check of w->in, the state of index idx of the run
 * (seed, entry clock draw). */
static void check_one(struct worker *w, uint64_t idx, uint64_t seed, int clock, uint64_t *checks, uint64_t *exits)
{
    struct session *s = w->s;
    const struct fuzz_opts *o = s->o;
    bool full = idx % (uint64_t)o->check_every == 0;
    struct inv_report r;
    if (full && kstate_check(&w->in, INV_AT_ENTRY, &r) != 0) {
        invalid_state(s, &w->in, seed);
        return;
    }
    struct diff_verdict v;
    diff_run(&w->in, o->variant, full, &v, &w->sws.cws.a, &w->sws.cws.b);
    exits[v.exit]++;
    situation_tally(&w->in, exits + TARGET_MAX_EXITS);
    (*checks)++;
    if (v.agree)
        return;
    struct dclass cl;
    classify_divergence(w, &v, &cl);
    record(s, &cl, idx, seed, clock);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct session *s = w->s;
    const struct fuzz_opts *o = s->o;
    uint64_t checks = 0, exits[TALLY_LEN] = {0};
    /* Check i of the run is entry clock i % clocks of the state generated
     * from seed + i / clocks; worker j takes every jobs-th state from the
     * j-th. With a budget, the checks are exactly 0..max-1, whatever the
     * number of jobs. */
    uint64_t id = (uint64_t)w->id, jobs = (uint64_t)o->jobs, per = (uint64_t)o->clocks;
    uint64_t states = o->max_checks ? (o->max_checks + per - 1) / per : UINT64_MAX;
    uint64_t quota = states > id ? (states - id + jobs - 1) / jobs : 0;
    if (!o->max_checks)
        quota = UINT64_MAX;
    for (uint64_t k = 0; k < quota && !atomic_load_explicit(&s->stop, memory_order_relaxed); k++) {
        if (checks >= w->next_publish) {
            publish(s, w->id, checks, exits);
            w->next_publish = checks + PUBLISH;
        }
        uint64_t base = id + k * jobs, seed = o->seed + base;
        struct gen_src src, clocks;
        gen_src_seed(&src, seed);
        gen_state_cached(&w->in, &src, &o->bounds, w->hist);
        gen_src_seed(&clocks, ~seed); /* a stream apart from the state's */
        for (uint64_t c = 0; c < per; c++) {
            uint64_t idx = base * per + c;
            if (o->max_checks && idx >= o->max_checks)
                break;
            if (c)
                gen_reclock(&w->in, &clocks, &o->bounds);
            check_one(w, idx, seed, (int)c, &checks, exits);
        }
    }
    publish(s, w->id, checks, exits);
    atomic_fetch_add(&s->finished, 1);
    return NULL;
}

/* Callers hold the lock, or all workers have stopped. */
static uint64_t total_checks(const struct session *s)
{
    uint64_t n = 0;
    for (int j = 0; j < s->o->jobs; j++)
        n += s->checks[j];
    return n;
}

static const struct target *target_run(const struct session *s)
{
    return s->o->bounds.target;
}

static void exit_totals(const struct session *s, uint64_t *out)
{
    memset(out, 0, TALLY_LEN * sizeof out[0]);
    for (int j = 0; j < s->o->jobs; j++)
        for (int e = 0; e < TALLY_LEN; e++)
            out[e] += s->exits[j][e];
}

static void progress_line(struct session *s, struct progress *pr)
{
    uint64_t ex[TALLY_LEN];
    const struct target *tg = target_run(s);
    pthread_mutex_lock(&s->lock);
    exit_totals(s, ex);
    uint64_t n = total_checks(s);
    int classes = s->n_classes;
    pthread_mutex_unlock(&s->lock);
    int reached = 0, possible = s->o->variant == FP_FIXED ? tg->exits : tg->exits - tg->first_merged_exit;
    for (int e = 0; e < tg->exits; e++)
        reached += ex[e] > 0;
    double t = progress_now() - s->start;
    progress_print(pr, "[%6.1fs] %12" PRIu64 " checks  %9.0f/s  exits %2d/%d  classes %d", t, n,
                   t > 0 ? (double)n / t : 0.0, reached, possible, classes);
}

static void print_fields(FILE *f, uint32_t mask)
{
    char buf[512];
    fputs(diff_fields_text(mask, buf, sizeof buf), f);
}

/* The defects beneath the classes found (defect.h): hits, exits and
 * fields summed over the classes that hold each, and the reproducer that
 * shows it most plainly: a class with the fewest defects, then the smallest
 * shrunk state, then the earliest. Callers hold the lock or all workers
 * have stopped. */
struct defect_sum {
    uint32_t exits;
    uint32_t fields;     /* of the classes that show this defect alone, if any, else of all */
    uint32_t all_fields; /* of all its classes */
    int n_classes, n_alone;
    uint64_t count;
    double first_s;
    int best; /* class index, -1 when none */
};

static int popcount(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static bool better_repro(const struct session *s, int a, int b)
{
    const struct found *x = &s->classes[a], *y = &s->classes[b];
    const struct target *tg = s->o->bounds.target;
    int dx = popcount(cause_defects(tg, x->cl.cause)), dy = popcount(cause_defects(tg, y->cl.cause));
    if (dx != dy)
        return dx < dy;
    int sx = x->reproducer ? x->shrunk_size : INT32_MAX, sy = y->reproducer ? y->shrunk_size : INT32_MAX;
    if (sx != sy)
        return sx < sy;
    return x->first_idx < y->first_idx;
}

static int defect_sums(const struct session *s, struct defect_sum *out)
{
    int found = 0;
    const struct target *tg = s->o->bounds.target;
    for (int d = 0; d < tg->n_defects; d++) {
        struct defect_sum *ds = &out[d];
        memset(ds, 0, sizeof *ds);
        ds->best = -1;
        for (int i = 0; i < s->n_classes; i++) {
            const struct found *fd = &s->classes[i];
            if (!(cause_defects(tg, fd->cl.cause) & (1u << d)))
                continue;
            ds->exits |= 1u << fd->cl.exit;
            ds->all_fields |= fd->fields_seen;
            if (cause_defects(tg, fd->cl.cause) == 1u << d) {
                ds->fields |= fd->fields_seen;
                ds->n_alone++;
            }
            ds->count += fd->count;
            if (ds->best < 0 || fd->first_s < ds->first_s)
                ds->first_s = fd->first_s;
            if (ds->best < 0 || better_repro(s, i, ds->best))
                ds->best = i;
            ds->n_classes++;
        }
        if (!ds->n_alone)
            ds->fields = ds->all_fields;
        found += ds->best >= 0;
    }
    return found;
}

static uint64_t fast_exit_total(const struct target *tg, const uint64_t *ex)
{
    uint64_t n = 0;
    for (int e = 0; e < tg->exits; e++)
        if (!tg->exit_is_fallback(e))
            n += ex[e];
    return n;
}

static void print_exit_names(FILE *f, const struct target *tg, uint32_t mask, const char *sep)
{
    bool first = true;
    for (int e = 0; e < tg->exits; e++)
        if (mask & (1u << e)) {
            fprintf(f, "%s%s", first ? "" : sep, tg->exit_name(e));
            first = false;
        }
}

static void print_class_list(FILE *f, struct session *s)
{
    for (int i = 0; i < s->n_classes; i++) {
        struct found *fd = &s->classes[i];
        char name[160], defs[64];
        fprintf(f, "  %2d. %-44s first after %7.2f s, %10" PRIu64 " hits\n", i + 1,
                dclass_name(&fd->cl, name, sizeof name), fd->first_s, fd->count);
        const struct target *tg = s->o->bounds.target;
        fprintf(f, "      defects: %s\n      fields: ", cause_defects_text(tg, fd->cl.cause, defs, sizeof defs));
        print_fields(f, fd->fields_seen);
        fprintf(f, "\n");
        if (fd->reproducer)
            fprintf(f, "      reproducer: %s (size %d)\n", fd->reproducer, fd->shrunk_size);
    }
    if (s->dropped)
        fprintf(f, "  (%" PRIu64 " hits of further classes not kept)\n", s->dropped);
}

/* one line per class of this cause (CLASS_NO_FIX, CLASS_KERNEL) */
static void print_cause_rows(FILE *f, const struct session *s, unsigned cause)
{
    for (int i = 0; i < s->n_classes; i++) {
        const struct found *fd = &s->classes[i];
        if (fd->cl.cause != cause)
            continue;
        char name[160];
        fprintf(f, "  %s: %" PRIu64 " hits, first after %.2f s, fields ", dclass_name(&fd->cl, name, sizeof name),
                fd->count, fd->first_s);
        print_fields(f, fd->fields_seen);
        if (fd->reproducer)
            fprintf(f, ", reproducer %s", fd->reproducer);
        else
            fprintf(f, ", seed %" PRIu64, fd->seed);
        fprintf(f, "\n");
    }
}

/* the classes whose outcome the kernel's own code breaks (CLASS_KERNEL):
 * no divergence of the fastpath, said apart */
static void print_kernel_own(FILE *f, const struct session *s)
{
    int n = 0;
    for (int i = 0; i < s->n_classes; i++)
        n += s->classes[i].cl.cause == CLASS_KERNEL;
    if (!n)
        return;
    fprintf(f, "\nthe kernel's own outcome breaks an invariant or an assertion, the fastpath's alike (no divergence "
               "of the fastpath: on a reachable state a kernel bug, on a generated one a generator or invariant "
               "bug): %d class%s\n", n, n == 1 ? "" : "es");
    print_cause_rows(f, s, CLASS_KERNEL);
}

static void print_defects(FILE *f, struct session *s)
{
    struct defect_sum ds[DEFECT_MAX];
    int found = defect_sums(s, ds);
    const struct target *tg = s->o->bounds.target;
    fprintf(f, "\ndefects: %d (from %d divergence class%s; --by class lists the classes)\n", found, s->n_classes,
            s->n_classes == 1 ? "" : "es");
    for (int d = 0; d < tg->n_defects; d++) {
        if (ds[d].best < 0)
            continue;
        const struct defect_info *di = defect_info(tg, d);
        const struct found *b = &s->classes[ds[d].best];
        fprintf(f, "  %s. %s (fix %s)\n", di->id, di->title, di->fixes);
        fprintf(f, "      first after %.2f s, %" PRIu64 " hits in %d class%s\n", ds[d].first_s, ds[d].count,
                ds[d].n_classes, ds[d].n_classes == 1 ? "" : "es");
        fprintf(f, "      exits: ");
        print_exit_names(f, tg, ds[d].exits, " ");
        fprintf(f, "\n      fields%s: ", ds[d].n_alone ? " (where it shows alone)" : " (seen only with other defects)");
        print_fields(f, ds[d].fields);
        char name[160];
        if (b->reproducer)
            fprintf(f, "\n      smallest reproducer: %s (size %d, class %s)\n", b->reproducer, b->shrunk_size,
                    dclass_name(&b->cl, name, sizeof name));
        else
            fprintf(f, "\n      reproducer: seed %" PRIu64 ", clock %d (class %s; --out DIR writes shrunk ones)\n",
                    b->seed, b->clock, dclass_name(&b->cl, name, sizeof name));
        fprintf(f, "      classes:");
        for (int i = 0; i < s->n_classes; i++)
            if (cause_defects(tg, s->classes[i].cl.cause) & (1u << d))
                fprintf(f, " %s (%" PRIu64 ")", dclass_name(&s->classes[i].cl, name, sizeof name),
                        s->classes[i].count);
        fprintf(f, "\n");
    }
    /* the defects this run's states can show: its kernel's, of the cores
     * it draws (--no-smp: one), with VCPU threads only under --vcpus (F12) */
    const struct gen_bounds *b = &s->o->bounds;
    int possible = 0, cores = b->allow_smp ? KS_MAX_CORES : 1;
    for (int d = 0; d < tg->n_defects; d++)
        possible += defect_possible_here(tg, d, b->kernel, cores, b->vcpus);
    if (s->o->variant == FP_PR1227 && found < possible) {
        fprintf(f, "  not found:");
        for (int d = 0; d < tg->n_defects; d++)
            if (ds[d].best < 0 && defect_possible_here(tg, d, b->kernel, cores, b->vcpus))
                fprintf(f, " %s", defect_info(tg, d)->id);
        fprintf(f, "\n");
    }
    print_kernel_own(f, s);
    int unexplained = 0;
    for (int i = 0; i < s->n_classes; i++)
        unexplained += s->classes[i].cl.cause == CLASS_NO_FIX;
    if (!unexplained)
        return;
    fprintf(f, "\nunexplained divergences (no fix set removes them%s): %d class%s\n",
            s->o->variant == FP_FIXED ? "; the corrected fastpath diverges" : "", unexplained,
            unexplained == 1 ? "" : "es");
    print_cause_rows(f, s, CLASS_NO_FIX);
}

static void summary(FILE *f, struct session *s, double elapsed)
{
    const struct fuzz_opts *o = s->o;
    const struct target *tg = target_run(s);
    uint64_t n = total_checks(s), ex[TALLY_LEN];
    exit_totals(s, ex);
    fprintf(f, "\nirqsim fuzz: ");
    if (!tg->is_default) /* the default target's summary stays as it was */
        fprintf(f, "target %s (%s against %s), ", tg->name, tg->fast_fn, tg->slowpath);
    fprintf(f, "fastpath %s, %.1f s, %d job%s, seed %" PRIu64, tg->variant_name(o->variant), elapsed, o->jobs,
            o->jobs == 1 ? "" : "s", o->seed);
    if (o->max_checks)
        fprintf(f, ", budget %" PRIu64 " checks (--checks)", o->max_checks);
    fprintf(f, ", %d entry clock%s per generated state", o->clocks, o->clocks == 1 ? "" : "s");
    fprintf(f, "\nchecks: %" PRIu64 " (%.0f per second)\n", n, elapsed > 0 ? (double)n / elapsed : 0.0);
    if (s->interrupted)
        fprintf(f, "interrupted by %s: the figures below are of the %" PRIu64 " checks done\n",
                stop_name(s->interrupted), n);
    fprintf(f, "\nfastpath exits (share of checks):\n");
    for (int e = 0; e < tg->exits; e++)
        if (o->variant == FP_FIXED || e >= tg->first_merged_exit) /* the first ones are the fix's own */
            fprintf(f, "  %-22s %12" PRIu64 "  %5.1f%%  %s\n", tg->exit_name(e), ex[e],
                n ? 100.0 * (double)ex[e] / (double)n : 0.0,
                tg->exit_is_fallback(e) ? "falls back to the slowpath" : "finishes by itself");
    target_print_unreached(f, tg, o->variant, ex);
    uint64_t fast = fast_exit_total(tg, ex);
    fprintf(f, "fast exits (finish by themselves): %" PRIu64 " of %" PRIu64 " (%.3f%%)\n", fast, n,
            n ? 100.0 * (double)fast / (double)n : 0.0);
    const char *why[SIT_COUNT];
    situation_why_states(why, o->bounds.kernel, o->bounds.allow_smp, o->bounds.vcpus,
                         target_admit_beside(tg) & INV_ADMIT_IPI,
                         target_admit_left_by(tg, o->variant) & INV_ADMIT_IPI);
    situation_print_why(f, ex + TARGET_MAX_EXITS, n, !tg->syscall_entry, why);
    if (s->invalid)
        fprintf(f, "\nGENERATOR BUG: %" PRIu64 " generated states broke an invariant (first: seed %" PRIu64 ")\n",
                s->invalid, s->invalid_seed);
    if (!s->n_classes && !n) {
        fprintf(f, "\ndivergences: none found, and nothing checked (0 checks: NOT a pass)\n");
        return;
    }
    if (!s->n_classes) {
        fprintf(f, "\ndivergences: none (the fastpath agreed with the slowpath on every check)\n");
        return;
    }
    if (o->by_class) {
        fprintf(f, "\ndivergence classes: %d\n", s->n_classes);
        print_class_list(f, s);
    } else {
        print_defects(f, s);
    }
}

static void json_string_list(FILE *f, char *plus_joined)
{
    char *save = NULL;
    for (char *p = strtok_r(plus_joined, "+", &save), *first = p; p; p = strtok_r(NULL, "+", &save))
        fprintf(f, "%s\"%s\"", p == first ? "" : ", ", p);
}

static int write_json(struct session *s, double elapsed)
{
    const struct fuzz_opts *o = s->o;
    struct out *out = out_open("irqsim fuzz", o->json);
    if (!out)
        return -1;
    FILE *f = out->f;
    const struct target *tgt = target_run(s), *tg = tgt;
    uint64_t n = total_checks(s), ex[TALLY_LEN];
    exit_totals(s, ex);
    fprintf(f, "{\n");
    if (s->interrupted) /* only then: an uninterrupted run's JSON stays as it was */
        fprintf(f, "  \"interrupted\": \"%s\",\n", stop_name(s->interrupted));
    if (!tg->is_default) /* the default target's JSON stays as it was */
        fprintf(f, "  \"target\": \"%s\",\n", tgt->name);
    fprintf(f, "  \"fastpath\": \"%s\",\n  \"seconds\": %.3f,\n  \"jobs\": %d,\n  \"seed\": %" PRIu64 ",\n",
            tgt->variant_name(o->variant), elapsed, o->jobs, o->seed);
    fprintf(f, "  \"max_checks\": %" PRIu64 ",\n  \"clocks\": %d,\n", o->max_checks, o->clocks);
    fprintf(f, "  \"checks\": %" PRIu64 ",\n  \"checks_per_second\": %.1f,\n", n,
            elapsed > 0 ? (double)n / elapsed : 0.0);
    fprintf(f, "  \"fast_exits\": %" PRIu64 ",\n", fast_exit_total(tgt, ex));
    fprintf(f, "  ");
    situation_json(f, ex + TARGET_MAX_EXITS, !tgt->syscall_entry);
    fprintf(f, ",\n");
    fprintf(f, "  \"invalid_states\": %" PRIu64 ",\n  \"exits\": {", s->invalid);
    for (int e = 0; e < tgt->exits; e++)
        fprintf(f, "%s\n    \"%s\": %" PRIu64, e ? "," : "", tgt->exit_name(e), ex[e]);
    fprintf(f, "\n  },\n  \"defects\": [");
    struct defect_sum ds[DEFECT_MAX];
    int found = defect_sums(s, ds);
    char name[160], fields[512], cause[160], defs[64];
    for (int d = 0, k = 0; d < tg->n_defects; d++) {
        if (ds[d].best < 0)
            continue;
        const struct defect_info *di = defect_info(tg, d);
        const struct found *b = &s->classes[ds[d].best];
        fprintf(f, "%s\n    {\"id\": \"%s\", \"title\": \"%s\", \"fixes\": \"%s\", \"exits\": [", k++ ? "," : "",
                di->id, di->title, di->fixes);
        for (int e = 0, m = 0; e < tgt->exits; e++)
            if (ds[d].exits & (1u << e))
                fprintf(f, "%s\"%s\"", m++ ? ", " : "", tgt->exit_name(e));
        fprintf(f, "], \"fields\": [");
        json_string_list(f, (char *)diff_fields_text(ds[d].fields, fields, sizeof fields));
        fprintf(f, "], \"fields_alone\": %s, \"all_fields\": [", ds[d].n_alone ? "true" : "false");
        json_string_list(f, (char *)diff_fields_text(ds[d].all_fields, fields, sizeof fields));
        fprintf(f, "], \"count\": %" PRIu64 ", \"first_seconds\": %.3f, \"reproducer\": ", ds[d].count,
                ds[d].first_s);
        out_string(out, b->reproducer ? b->reproducer : "");
        fprintf(f, ", \"reproducer_size\": %d, \"reproducer_class\": \"%s\", \"seed\": %" PRIu64
                   ", \"clock\": %d, \"classes\": [",
                b->reproducer ? b->shrunk_size : -1, dclass_name(&b->cl, name, sizeof name), b->seed, b->clock);
        for (int i = 0, m = 0; i < s->n_classes; i++)
            if (cause_defects(tg, s->classes[i].cl.cause) & (1u << d))
                fprintf(f, "%s\"%s\"", m++ ? ", " : "", dclass_name(&s->classes[i].cl, name, sizeof name));
        fprintf(f, "]}");
    }
    fprintf(f, "%s],\n  \"classes\": [", found ? "\n  " : "");
    for (int i = 0; i < s->n_classes; i++) {
        struct found *fd = &s->classes[i];
        cause_text(tg, fd->cl.cause, cause, sizeof cause);
        diff_fields_text(fd->fields_seen, fields, sizeof fields);
        fprintf(f, "%s\n    {\"exit\": \"%s\", \"cause\": \"%s\", \"defects\": [", i ? "," : "",
                tgt->exit_name(fd->cl.exit), cause);
        if (cause_is_fixes(fd->cl.cause))
            json_string_list(f, (char *)defects_text(tg, cause_defects(tg, fd->cl.cause), defs, sizeof defs));
        fprintf(f, "], \"fields\": [");
        json_string_list(f, fields);
        fprintf(f, "], \"count\": %" PRIu64 ", \"first_seconds\": %.3f, \"seed\": %" PRIu64 ", \"reproducer\": ",
                fd->count, fd->first_s, fd->seed);
        out_string(out, fd->reproducer ? fd->reproducer : "");
        fprintf(f, ", \"reproducer_size\": %d}", fd->reproducer ? fd->shrunk_size : -1);
    }
    fprintf(f, "%s]\n}\n", s->n_classes ? "\n  " : "");
    return out_close(out);
}

int fuzz_run(const struct fuzz_opts *o)
{
    if (o->out_dir && out_dir("irqsim fuzz", o->out_dir) != 0)
        return OUT_FAILED;
    struct session *s = calloc(1, sizeof *s);
    struct worker *w = calloc((size_t)o->jobs, sizeof *w);
    pthread_t tid[MAX_JOBS];
    if (!s || !w) {
        fprintf(stderr, "irqsim: out of memory\n");
        free(s);
        free(w);
        return 2;
    }
    s->o = o;
    pthread_mutex_init(&s->lock, NULL);
    s->start = progress_now();
    stop_catch();
    int started = 0;
    for (int j = 0; j < o->jobs; j++) {
        w[j].s = s;
        w[j].id = j;
        w[j].hist = gen_cache_new();
        if (pthread_create(&tid[j], NULL, worker_main, &w[j]) != 0)
            break;
        started++;
    }
    double end = s->start + o->seconds;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    while ((o->max_checks || progress_now() < end) && atomic_load(&s->finished) < started && !stop_requested()) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (progress_due(&pr))
            progress_line(s, &pr);
    }
    atomic_store(&s->stop, 1);
    for (int j = 0; j < started; j++)
        pthread_join(tid[j], NULL);
    s->interrupted = stop_requested();
    double elapsed = progress_now() - s->start;
    bool oom = finish_classes(s) != 0;
    progress_line(s, &pr);
    progress_end(&pr, false);
    summary(stdout, s, elapsed);
    if (o->json && write_json(s, elapsed) != 0)
        s->write_errors++;
    int rc = s->invalid || started < o->jobs || oom ? 2
             : s->write_errors                      ? OUT_FAILED
             : s->n_classes                         ? 1
             : total_checks(s) == 0                 ? RUN_INCOMPLETE /* nothing checked is no pass */
                                                    : 0;
    if (s->write_errors)
        fprintf(stderr, "irqsim fuzz: %d output%s could not be written (exit status %d)\n", s->write_errors,
                s->write_errors == 1 ? "" : "s", OUT_FAILED);
    pthread_mutex_destroy(&s->lock);
    for (int j = 0; j < o->jobs; j++)
        gen_cache_free(w[j].hist);
    for (int i = 0; i < s->n_classes; i++)
        free(s->classes[i].reproducer);
    free(s);
    free(w);
    return stop_finish(rc);
}
