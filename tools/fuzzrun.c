/* fuzzrun: standalone multi-threaded differential fuzzing. */
#define _POSIX_C_SOURCE 200809L
#include "fuzzrun.h"

#include <errno.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "classify.h"
#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "print.h"
#include "shrink.h"

#define MAX_CLASSES 256
#define MAX_JOBS 64
#define PUBLISH 4096

struct found {
    struct dclass cl;
    uint32_t fields_seen; /* union over all hits */
    uint64_t count, seed;
    double first_s;
    char reproducer[400];
    int shrunk_size;
};

struct session {
    const struct fuzz_opts *o;
    pthread_mutex_t lock;
    double start;
    atomic_int stop;
    /* published by each worker under the lock every PUBLISH checks */
    uint64_t checks[MAX_JOBS];
    uint64_t exits[MAX_JOBS][FP_EXIT_COUNT];
    struct found classes[MAX_CLASSES];
    int n_classes;
    uint64_t dropped; /* hits of classes past MAX_CLASSES */
    uint64_t invalid;
    uint64_t invalid_seed;
    int job_errors;
};

#define CAUSE_CACHE 64

/* Classifying costs eight more fastpath runs; a divergence whose exit and
 * fields were classified before reuses that class, except on every
 * RECLASSIFY-th hit, so a second cause behind the same fields still shows. */
#define RECLASSIFY 32

struct cause_memo {
    int exit;
    uint32_t fields;
    unsigned cause;
    uint32_t hits;
};

struct worker {
    struct session *s;
    int id;
    int n_memo;
    struct cause_memo memo[CAUSE_CACHE];
    struct kstate in;
    struct shrink_ws sws; /* also the classification work space */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Prefix every line of a report with "# " into f. */
static void write_commented(FILE *f, const char *text)
{
    fputs("# ", f);
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fputs("# ", f);
    }
}

void fuzz_write_scenario(const char *path, const struct kstate *ks, int variant, const char *title)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "irqsim: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    struct kstate *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (a && b && mem) {
        struct diff_verdict v;
        diff_run(ks, variant, true, &v, a, b);
        fprintf(mem, "%s (fastpath %s)\n", title, fp_variant_name(variant));
        diff_report(mem, &v, a, b);
        fclose(mem);
        write_commented(f, text);
    } else if (mem) {
        fclose(mem);
    }
    ks_print(f, ks);
    fclose(f);
    free(text);
    free(a);
    free(b);
}

/* Shrink a new class's state and save it; outside the lock. */
static void save_class(struct worker *w, int idx, const struct kstate *in)
{
    struct session *s = w->s;
    const struct fuzz_opts *o = s->o;
    struct kstate *ks = malloc(sizeof *ks);
    if (!ks)
        return;
    ks_copy(ks, in);
    unsigned fixes = fp_variant_fixes(o->variant);
    shrink_state(ks, fixes, &w->sws);
    char name[128], path[400];
    pthread_mutex_lock(&s->lock);
    struct found *fd = &s->classes[idx];
    dclass_name(&fd->cl, name, sizeof name);
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '+')
            *p = '-';
    snprintf(path, sizeof path, "%s/class-%02d-%s.scen", o->out_dir, idx + 1, name);
    snprintf(fd->reproducer, sizeof fd->reproducer, "%s", path);
    fd->shrunk_size = shrink_size(ks);
    uint64_t seed = fd->seed;
    pthread_mutex_unlock(&s->lock);
    char title[320];
    snprintf(title, sizeof title, "divergence class %s, found from seed %" PRIu64 ", shrunk", name, seed);
    fuzz_write_scenario(path, ks, o->variant, title);
    free(ks);
}

/* Record a divergence; returns the index of a class that is new, else -1. */
static int record(struct session *s, const struct dclass *cl, uint64_t seed)
{
    int fresh = -1;
    pthread_mutex_lock(&s->lock);
    int i = 0;
    while (i < s->n_classes && !dclass_same(&s->classes[i].cl, cl))
        i++;
    if (i == s->n_classes && i < MAX_CLASSES) {
        struct found *fd = &s->classes[i];
        memset(fd, 0, sizeof *fd);
        fd->cl = *cl;
        fd->seed = seed;
        fd->first_s = now_s() - s->start;
        s->n_classes++;
        fresh = i;
    }
    if (i < s->n_classes) {
        s->classes[i].count++;
        s->classes[i].fields_seen |= cl->fields;
    } else {
        s->dropped++;
    }
    pthread_mutex_unlock(&s->lock);
    return fresh;
}

static void invalid_state(struct worker *w, uint64_t seed)
{
    struct session *s = w->s;
    pthread_mutex_lock(&s->lock);
    bool first = s->invalid++ == 0;
    if (first)
        s->invalid_seed = seed;
    pthread_mutex_unlock(&s->lock);
    if (first && s->o->out_dir) {
        char path[256];
        snprintf(path, sizeof path, "%s/generator-bug-seed-%" PRIu64 ".scen", s->o->out_dir, seed);
        fuzz_write_scenario(path, &w->in, s->o->variant, "a generated state that breaks an invariant");
    }
}

static void publish(struct session *s, int id, uint64_t checks, const uint64_t *exits)
{
    pthread_mutex_lock(&s->lock);
    s->checks[id] = checks;
    memcpy(s->exits[id], exits, sizeof s->exits[id]);
    pthread_mutex_unlock(&s->lock);
}

/* A divergence seen before in this worker: its exit and fields (without
 * the invariant bit, known only after a full check) give its class. */
static struct cause_memo *memo_find(struct worker *w, int exit, uint32_t fields)
{
    fields &= ~(1u << DF_INVARIANT);
    for (int i = 0; i < w->n_memo; i++) {
        struct cause_memo *m = &w->memo[i];
        if (m->exit == exit && m->fields == fields)
            return m;
    }
    return NULL;
}

static void memo_add(struct worker *w, int exit, uint32_t fields, unsigned cause)
{
    if (w->n_memo == CAUSE_CACHE)
        return;
    struct cause_memo *m = &w->memo[w->n_memo++];
    m->exit = exit;
    m->fields = fields & ~(1u << DF_INVARIANT);
    m->cause = cause;
    m->hits = 0;
}

/* A new or sampled divergence: checked in full (the generated state's
 * invariants, both outcomes'), then classified. False for a generator bug. */
static bool classify_full(struct worker *w, uint64_t seed, struct diff_verdict *v, struct dclass *cl)
{
    struct session *s = w->s;
    struct inv_report r;
    if (kstate_check(&w->in, INV_AT_ENTRY, &r) != 0) {
        invalid_state(w, seed);
        return false;
    }
    diff_run(&w->in, s->o->variant, true, v, &w->sws.cws.a, &w->sws.cws.b);
    cl->exit = v->exit;
    cl->fields = v->fields;
    cl->cause = s->o->variant == FP_PR1227 ? classify_cause(&w->in, &w->sws.cws) : CLASS_NO_FIX;
    memo_add(w, cl->exit, cl->fields, cl->cause);
    return true;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct session *s = w->s;
    const struct fuzz_opts *o = s->o;
    uint64_t k = 0, checks = 0, exits[FP_EXIT_COUNT] = {0};
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
        if (checks % PUBLISH == 0)
            publish(s, w->id, checks, exits);
        uint64_t seed = o->seed + (uint64_t)w->id + k++ * (uint64_t)o->jobs;
        struct gen_src src;
        gen_src_seed(&src, seed);
        gen_state(&w->in, &src, &o->bounds);
        bool full = checks % (uint64_t)o->check_every == 0;
        struct inv_report r;
        if (full && kstate_check(&w->in, INV_AT_ENTRY, &r) != 0) {
            invalid_state(w, seed);
            continue;
        }
        struct diff_verdict v;
        diff_run(&w->in, o->variant, full, &v, &w->sws.cws.a, &w->sws.cws.b);
        exits[v.exit]++;
        checks++;
        if (v.agree)
            continue;
        /* a divergence already classified is counted; a new one, and every
         * RECLASSIFY-th known one, is checked in full and classified */
        struct cause_memo *m = memo_find(w, v.exit, v.fields);
        struct dclass cl = {.exit = v.exit, .fields = v.fields, .cause = m ? m->cause : 0};
        if ((!m || ++m->hits % RECLASSIFY == 0) && !classify_full(w, seed, &v, &cl))
            continue;
        int fresh = record(s, &cl, seed);
        if (fresh >= 0 && o->out_dir)
            save_class(w, fresh, &w->in);
    }
    publish(s, w->id, checks, exits);
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

static void exit_totals(const struct session *s, uint64_t *out)
{
    memset(out, 0, FP_EXIT_COUNT * sizeof out[0]);
    for (int j = 0; j < s->o->jobs; j++)
        for (int e = 0; e < FP_EXIT_COUNT; e++)
            out[e] += s->exits[j][e];
}

static void progress_line(struct session *s)
{
    uint64_t ex[FP_EXIT_COUNT];
    pthread_mutex_lock(&s->lock);
    exit_totals(s, ex);
    uint64_t n = total_checks(s);
    int classes = s->n_classes;
    pthread_mutex_unlock(&s->lock);
    int reached = 0, possible = s->o->variant == FP_FIXED ? FP_EXIT_COUNT : FP_EXIT_COUNT - 3;
    for (int e = 0; e < FP_EXIT_COUNT; e++)
        reached += ex[e] > 0;
    double t = now_s() - s->start;
    fprintf(stderr, "\r[%6.1fs] %12" PRIu64 " checks  %9.0f/s  exits %2d/%d  classes %d ", t, n,
            t > 0 ? (double)n / t : 0.0, reached, possible, classes);
}

static void print_fields(FILE *f, uint32_t mask)
{
    char buf[512];
    fputs(diff_fields_text(mask, buf, sizeof buf), f);
}

static void summary(FILE *f, struct session *s, double elapsed)
{
    const struct fuzz_opts *o = s->o;
    uint64_t n = total_checks(s), ex[FP_EXIT_COUNT];
    exit_totals(s, ex);
    fprintf(f, "\nirqsim fuzz: fastpath %s, %.1f s, %d job%s, seed %" PRIu64 "\n", fp_variant_name(o->variant),
            elapsed, o->jobs, o->jobs == 1 ? "" : "s", o->seed);
    fprintf(f, "checks: %" PRIu64 " (%.0f per second)\n", n, elapsed > 0 ? (double)n / elapsed : 0.0);
    fprintf(f, "\nfastpath exits (share of checks):\n");
    for (int e = 0; e < FP_EXIT_COUNT; e++)
        if (o->variant == FP_FIXED || e > FP_SLOW_RELEASE) /* the first three are the fix's own */
            fprintf(f, "  %-22s %12" PRIu64 "  %5.1f%%  %s\n", fp_exit_name(e), ex[e],
                n ? 100.0 * (double)ex[e] / (double)n : 0.0,
                fp_exit_is_fallback(e) ? "falls back to the slowpath" : "finishes by itself");
    fprintf(f, "  never reached:");
    int never = 0;
    for (int e = 0; e < FP_EXIT_COUNT; e++)
        if (!ex[e] && (o->variant == FP_FIXED || e > FP_SLOW_RELEASE))
            fprintf(f, " %s", fp_exit_name(e)), never++;
    fprintf(f, "%s\n", never ? "" : " none");
    if (s->invalid)
        fprintf(f, "\nGENERATOR BUG: %" PRIu64 " generated states broke an invariant (first: seed %" PRIu64 ")\n",
                s->invalid, s->invalid_seed);
    fprintf(f, "\ndivergence classes: %d%s\n", s->n_classes, s->n_classes ? "" : " (the fastpath agreed with the slowpath on every check)");
    for (int i = 0; i < s->n_classes; i++) {
        struct found *fd = &s->classes[i];
        char name[160];
        fprintf(f, "  %2d. %-44s first after %7.2f s, %10" PRIu64 " hits\n", i + 1,
                dclass_name(&fd->cl, name, sizeof name), fd->first_s, fd->count);
        fprintf(f, "      fields: ");
        print_fields(f, fd->fields_seen);
        fprintf(f, "\n");
        if (fd->reproducer[0])
            fprintf(f, "      reproducer: %s (size %d)\n", fd->reproducer, fd->shrunk_size);
    }
    if (s->dropped)
        fprintf(f, "  (%" PRIu64 " hits of further classes not kept)\n", s->dropped);
}

static void write_json(struct session *s, double elapsed)
{
    const struct fuzz_opts *o = s->o;
    FILE *f = fopen(o->json, "w");
    if (!f) {
        fprintf(stderr, "irqsim: cannot write %s: %s\n", o->json, strerror(errno));
        s->job_errors++;
        return;
    }
    uint64_t n = total_checks(s), ex[FP_EXIT_COUNT];
    exit_totals(s, ex);
    fprintf(f, "{\n  \"fastpath\": \"%s\",\n  \"seconds\": %.3f,\n  \"jobs\": %d,\n  \"seed\": %" PRIu64 ",\n",
            fp_variant_name(o->variant), elapsed, o->jobs, o->seed);
    fprintf(f, "  \"checks\": %" PRIu64 ",\n  \"checks_per_second\": %.1f,\n", n,
            elapsed > 0 ? (double)n / elapsed : 0.0);
    fprintf(f, "  \"invalid_states\": %" PRIu64 ",\n  \"exits\": {", s->invalid);
    for (int e = 0; e < FP_EXIT_COUNT; e++)
        fprintf(f, "%s\n    \"%s\": %" PRIu64, e ? "," : "", fp_exit_name(e), ex[e]);
    fprintf(f, "\n  },\n  \"classes\": [");
    for (int i = 0; i < s->n_classes; i++) {
        struct found *fd = &s->classes[i];
        char cause[160], fields[512];
        cause_text(fd->cl.cause, cause, sizeof cause);
        diff_fields_text(fd->fields_seen, fields, sizeof fields);
        fprintf(f, "%s\n    {\"exit\": \"%s\", \"cause\": \"%s\", \"fields\": [", i ? "," : "",
                fp_exit_name(fd->cl.exit), cause);
        for (char *p = strtok(fields, "+"), *first = p; p; p = strtok(NULL, "+"))
            fprintf(f, "%s\"%s\"", p == first ? "" : ", ", p);
        fprintf(f, "], \"count\": %" PRIu64 ", \"first_seconds\": %.3f, \"seed\": %" PRIu64
                   ", \"reproducer\": \"%s\"}",
                fd->count, fd->first_s, fd->seed, fd->reproducer);
    }
    fprintf(f, "%s]\n}\n", s->n_classes ? "\n  " : "");
    fclose(f);
}

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "irqsim: cannot create %s: %s\n", dir, strerror(errno));
    return -1;
}

int fuzz_run(const struct fuzz_opts *o)
{
    if (o->out_dir && make_dir(o->out_dir) != 0)
        return 2;
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
    s->start = now_s();
    int started = 0;
    for (int j = 0; j < o->jobs; j++) {
        w[j].s = s;
        w[j].id = j;
        if (pthread_create(&tid[j], NULL, worker_main, &w[j]) != 0)
            break;
        started++;
    }
    double end = s->start + o->seconds, shown = s->start;
    while (now_s() < end && started) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (o->progress && now_s() - shown >= 1.0) {
            shown = now_s();
            progress_line(s);
        }
    }
    atomic_store(&s->stop, 1);
    for (int j = 0; j < started; j++)
        pthread_join(tid[j], NULL);
    double elapsed = now_s() - s->start;
    if (o->progress)
        progress_line(s), fputc('\n', stderr);
    summary(stdout, s, elapsed);
    if (o->json)
        write_json(s, elapsed);
    int rc = s->invalid || s->job_errors || started < o->jobs ? 2 : s->n_classes ? 1 : 0;
    pthread_mutex_destroy(&s->lock);
    free(s);
    free(w);
    return rc;
}
