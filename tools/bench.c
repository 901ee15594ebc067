/* bench: `irqsim bench`, checks per second and time per path execution. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cli.h"
#include "diff.h"
#include "gen.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "out.h"
#include "progress.h"
#include "refill.h"
#include "target.h"

static const char bench_usage[] =
    "usage: irqsim bench [options]\n"
    "  differential checks per second (generate, both paths, normalise, compare,\n"
    "  invariant checks on 1 in N, as `irqsim fuzz` does; one thread) and each\n"
    "  path's own time per execution, as the states grow along one axis at a time\n"
    "  from the default bounds: threads 4/16/62, priorities 2/16/256, refills per\n"
    "  SC 1/4/16, domains 1/4/16. Prints figures; asserts nothing about time.\n"
    "  --seconds-per-point S  time for each of the two measurements of a point (default 0.5)\n"
    "  --batch N              states generated per point for the path timings (default 256)\n"
    "  --fastpath pr1227|fixed  the fastpath of the differential check (default fixed)\n"
    "  --check-every N        invariant checker on 1 in N checks (default 8, as irqsim fuzz)\n"
    "  --seed N               first seed (default 1)\n"
    "  --axis NAME            only the points of one axis: default threads prios refills domains\n"
    "  --checks N             exactly N checks per point and no path timings: a fixed workload\n"
    "                         for comparing builds (e.g. under valgrind --tool=callgrind)\n"
    "  --json FILE            also write the figures as JSON\n";

enum axis { AX_DEFAULT, AX_THREADS, AX_PRIOS, AX_REFILLS, AX_DOMAINS, AX_COUNT };
static const char *const axis_names[] = {"default", "threads", "prios", "refills", "domains"};

struct point {
    int axis, value;
    int threads; /* 0: the default bound */
};

/* Threads stop at 62: the generator's limit (KS_MAX_TCBS less two idle
 * threads). Distinct priorities in use cannot exceed the threads, so the
 * last point also raises the threads to 62. */
static const struct point points[] = {
    {AX_DEFAULT, 0, 0},
    {AX_THREADS, 4, 0}, {AX_THREADS, 16, 0}, {AX_THREADS, 62, 0},
    {AX_PRIOS, 2, 0},   {AX_PRIOS, 16, 0},   {AX_PRIOS, 256, 0},   {AX_PRIOS, 256, 62},
    {AX_REFILLS, 1, 0}, {AX_REFILLS, 4, 0},  {AX_REFILLS, 16, 0},
    {AX_DOMAINS, 1, 0}, {AX_DOMAINS, 4, 0},  {AX_DOMAINS, 16, 0},
};
#define N_POINTS (sizeof points / sizeof points[0])

enum timed { TM_COPY, TM_SLOW, TM_PR1227, TM_FIXED, TM_COUNT };
static const char *const timed_names[] = {"copy", "slowpath", "pr1227", "fixed"};

struct result {
    bool measured, timed;
    double checks_per_s;
    uint64_t checks, divergences;
    double ns[TM_COUNT];  /* per execution; paths with the copy subtracted */
    double mean_threads, mean_prios, mean_refills, mean_refill_max, mean_domains;
};

struct bench_opts {
    double seconds;
    int batch, variant, check_every;
    int axis;        /* -1: all */
    uint64_t checks; /* 0: timed */
    uint64_t seed;
    const char *json;
};

static void point_bounds(const struct point *p, struct gen_bounds *b)
{
    gen_bounds_default(b);
    if (p->threads)
        b->max_threads = p->threads;
    switch (p->axis) {
    case AX_THREADS: b->max_threads = p->value; break;
    case AX_PRIOS: b->prios = p->value; break;
    case AX_REFILLS: b->max_refills = p->value; break;
    case AX_DOMAINS: b->max_domains = p->value; break;
    default: break;
    }
}

/* (a) The fuzzer's loop without its bookkeeping: generate, check the entry
 * state and both outcomes on 1 in check_every, and in full on divergence. */
static void measure_checks(const struct bench_opts *o, const struct gen_bounds *b, struct kstate *ws,
                           struct gen_cache *hist, struct result *r)
{
    struct kstate *in = &ws[0], *slow = &ws[1], *fast = &ws[2];
    uint64_t seed = o->seed, checks = 0, div = 0;
    double start = progress_now(), end = start + o->seconds, t = start;
    while (o->checks ? checks < o->checks : t < end) {
        for (int k = 0; k < 64 && (!o->checks || checks < o->checks); k++) {
            struct gen_src src;
            gen_src_seed(&src, seed++);
            gen_state_cached(in, &src, b, hist);
            bool full = checks % (uint64_t)o->check_every == 0;
            struct inv_report rep;
            if (full && kstate_check(in, INV_AT_ENTRY, &rep) != 0)
                continue;
            struct diff_verdict v;
            diff_run(in, o->variant, full, &v, slow, fast);
            if (!v.agree && !full)
                diff_run(in, o->variant, true, &v, slow, fast);
            div += !v.agree;
            checks++;
        }
        t = progress_now();
    }
    r->checks = checks;
    r->divergences = div;
    r->checks_per_s = (double)checks / (t - start);
}

static int distinct_prios(const struct kstate *ks)
{
    bool seen[KS_NUM_PRIOS] = {false};
    int n = 0;
    for (int i = 0; i < ks->n_tcbs; i++) {
        if (i == ks->idle_thread)
            continue;
        n += !seen[ks->tcbs[i].prio];
        seen[ks->tcbs[i].prio] = true;
    }
    return n;
}

/* The state sizes the batch actually has along each axis. */
static void batch_means(const struct kstate *batch, int n, struct result *r)
{
    double th = 0, pr = 0, dm = 0, in_use = 0, max = 0;
    int periodic = 0;
    for (int i = 0; i < n; i++) {
        const struct kstate *ks = &batch[i];
        th += ks->n_tcbs - (ks->idle_thread != KS_NONE) - (ks->core_idle[1] != KS_NONE);
        pr += distinct_prios(ks);
        dm += ks->cfg.num_domains;
        for (int s = 0; s < ks->n_scs; s++) {
            if (s == ks->idle_sc || ks->scs[s].refill_max == 0 || ks->scs[s].period == 0)
                continue;
            in_use += refill_size(&ks->scs[s]);
            max += ks->scs[s].refill_max;
            periodic++;
        }
    }
    r->mean_threads = th / n;
    r->mean_prios = pr / n;
    r->mean_domains = dm / n;
    /* over all periodic SCs of the batch */
    r->mean_refills = periodic ? in_use / periodic : 0;
    r->mean_refill_max = periodic ? max / periodic : 0;
}

/* Where the timed loops write, so no compiler drops the work. */
static struct kstate *volatile bench_sink_state;
static volatile int bench_sink;

/* One pass over the batch: copy each state and run one path on the copy. */
static void pass(int what, const struct kstate *batch, int n, struct kstate *work)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        ks_copy(work, &batch[i]);
        switch (what) {
        case TM_SLOW: handleInterruptEntry(work); break;
        case TM_PR1227: acc += fastpath_irq(work, FP_PR1227); break;
        case TM_FIXED: acc += fastpath_irq(work, FP_FIXED); break;
        default: break;
        }
        acc += work->cur_thread;
    }
    bench_sink_state = work;
    bench_sink = acc;
}

/* (b) Rounds of one pass of each kind, interleaved so drift hits all
 * alike, until the time is used; the copy's time is subtracted. */
static void measure_paths(const struct bench_opts *o, const struct kstate *batch, struct kstate *work,
                          struct result *r)
{
    double spent[TM_COUNT] = {0};
    uint64_t runs = 0;
    double end = progress_now() + o->seconds;
    for (int w = 0; w < TM_COUNT; w++) /* warm up */
        pass(w, batch, o->batch, work);
    do {
        for (int w = 0; w < TM_COUNT; w++) {
            double t0 = progress_now();
            pass(w, batch, o->batch, work);
            spent[w] += progress_now() - t0;
        }
        runs += (uint64_t)o->batch;
    } while (progress_now() < end);
    for (int w = 0; w < TM_COUNT; w++) {
        double per = spent[w] / (double)runs * 1e9;
        r->ns[w] = w == TM_COPY ? per : per - spent[TM_COPY] / (double)runs * 1e9;
    }
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *v = strchr(line, ':');
        if (!v)
            break;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = 0;
        snprintf(buf, len, "%s", v);
        break;
    }
    fclose(f);
}

#ifdef __OPTIMIZE__
#define BENCH_OPTIMIZED 1
#else
#define BENCH_OPTIMIZED 0
#endif


static int write_json(const struct bench_opts *o, const struct result *res, const struct utsname *u,
                      const char *cpu)
{
    struct out *out = out_open("irqsim bench", o->json);
    if (!out)
        return -1;
    FILE *f = out->f;
    fprintf(f, "{\n  \"machine\": {\"uname\": ");
    char un[600];
    snprintf(un, sizeof un, "%s %s %s %s %s", u->sysname, u->nodename, u->release, u->version, u->machine);
    out_string(out, un);
    fprintf(f, ", \"cpu\": ");
    out_string(out, cpu);
    fprintf(f, "},\n  \"build\": {\"optimized\": %s, \"compiler\": ", BENCH_OPTIMIZED ? "true" : "false");
    out_string(out, __VERSION__);
    fprintf(f, "},\n  \"seconds_per_point\": %.3f,\n  \"batch\": %d,\n  \"fastpath\": \"%s\",\n"
               "  \"check_every\": %d,\n  \"seed\": %llu,\n  \"points\": [",
            o->seconds, o->batch, fp_variant_name(o->variant), o->check_every, (unsigned long long)o->seed);
    bool first = true;
    for (size_t i = 0; i < N_POINTS; i++) {
        const struct result *r = &res[i];
        if (!r->measured)
            continue;
        fprintf(f, "%s\n    {\"axis\": \"%s\", \"value\": %d, \"max_threads\": %d, \"checks_per_second\": %.1f, "
                   "\"checks\": %llu, \"divergences\": %llu,\n     \"ns_per_execution\": {",
                first ? "" : ",", axis_names[points[i].axis], points[i].value,
                points[i].threads ? points[i].threads : 6, r->checks_per_s,
                (unsigned long long)r->checks, (unsigned long long)r->divergences);
        for (int w = 0; w < TM_COUNT && r->timed; w++)
            fprintf(f, "%s\"%s\": %.1f", w ? ", " : "", timed_names[w], r->ns[w]);
        first = false;
        fprintf(f, "},\n     \"batch_means\": {\"threads\": %.2f, \"prios\": %.2f, \"refills_in_use\": %.2f, "
                   "\"refill_max\": %.2f, \"domains\": %.2f}}",
                r->mean_threads, r->mean_prios, r->mean_refills, r->mean_refill_max, r->mean_domains);
    }
    fprintf(f, "\n  ]\n}\n");
    return out_close(out);
}

static void axis_actual(const struct result *r, int axis, char *buf, size_t len)
{
    switch (axis) {
    case AX_THREADS: snprintf(buf, len, "%.1f", r->mean_threads); break;
    case AX_PRIOS: snprintf(buf, len, "%.1f", r->mean_prios); break;
    case AX_REFILLS: snprintf(buf, len, "%.1f/%.1f", r->mean_refill_max, r->mean_refills); break;
    case AX_DOMAINS: snprintf(buf, len, "%.1f", r->mean_domains); break;
    default: snprintf(buf, len, "-"); break;
    }
}


#define O struct bench_opts
static const struct cli_opt bench_table[] = {
    CLI_NUM(O, "--seconds-per-point", CLI_REAL, seconds, 0.01, 3600),
    CLI_NUM(O, "--batch", CLI_INT, batch, 1, 4096),
    CLI_NUM(O, "--check-every", CLI_INT, check_every, 1, 1e6),
    CLI_NUM(O, "--seed", CLI_U64, seed, 0, 1e15),
    CLI_ROW(O, "--fastpath", CLI_VARIANT, variant),
    CLI_NUM(O, "--checks", CLI_U64, checks, 1, 1e12),
    CLI_PICK(O, "--axis", axis, "default|threads|prios|refills|domains"),
    CLI_ROW(O, "--json", CLI_STR, json),
};
#undef O
static const struct cli_cmd bench_cmd = {"bench", bench_usage, "irqsim bench --help", bench_table,
                                         sizeof bench_table / sizeof bench_table[0], NULL};

/* 0, 1 when --help printed the usage, 2 on an error */
static int parse(struct bench_opts *o, int argc, char **argv)
{
    return cli_parse(&bench_cmd, o, 2, argc, argv);
}

int bench_main(int argc, char **argv)
{
    struct bench_opts o = {.seconds = 0.5, .batch = 256, .variant = FP_FIXED, .check_every = 8, .axis = -1, .seed = 1};
    int p = parse(&o, argc, argv);
    if (p)
        return p == 1 ? EXIT_AGREE : EXIT_USAGE;
    struct kstate *batch = malloc((size_t)o.batch * sizeof *batch);
    struct kstate *ws = malloc(3 * sizeof *ws);
    struct result *res = calloc(N_POINTS, sizeof *res);
    struct gen_cache *hist = gen_cache_new(); /* as a fuzz worker's; NULL: same states, slower */
    if (!batch || !ws || !res) {
        fprintf(stderr, "irqsim bench: out of memory\n");
        gen_cache_free(hist);
        free(batch);
        free(ws);
        free(res);
        return EXIT_USAGE;
    }
    struct utsname u;
    if (uname(&u) != 0)
        memset(&u, 0, sizeof u);
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    printf("irqsim bench: %s %s %s; %s\n", u.sysname, u.release, u.machine, cpu);
    printf("%s build (%s); one thread; %.2f s per measurement; batch %d; checks with fastpath %s, "
           "invariants on 1 in %d\n",
           BENCH_OPTIMIZED ? "optimised" : "UNOPTIMISED (figures not representative)", __VERSION__, o.seconds,
           o.batch, fp_variant_name(o.variant), o.check_every);
    printf("threads stop at 62 (the generator's limit: 64 TCBs less two idle threads)\n");
    printf("'actual' is the batch's mean along the axis (bounds are maxima): threads, distinct\n"
           "priorities in use, refill_max/refills in use of periodic SCs, domains; prios 256* also\n"
           "has threads 62. Path times exclude generation and have the state copy subtracted.\n\n");
    printf("%-8s %5s %9s %11s %9s %9s %9s %9s\n", "axis", "bound", "actual", "checks/s", "slow ns", "pr1227 ns",
           "fixed ns", "copy ns");
    for (size_t i = 0; i < N_POINTS; i++) {
        if (o.axis >= 0 && points[i].axis != o.axis)
            continue;
        struct gen_bounds b;
        point_bounds(&points[i], &b);
        struct result *r = &res[i];
        measure_checks(&o, &b, ws, hist, r);
        for (int k = 0; k < o.batch; k++) {
            struct gen_src src;
            gen_src_seed(&src, o.seed + (uint64_t)k);
            gen_state(&batch[k], &src, &b);
        }
        batch_means(batch, o.batch, r);
        r->measured = true;
        r->timed = !o.checks;
        if (r->timed)
            measure_paths(&o, batch, &ws[0], r);
        char bound[16] = "-", actual[24];
        if (points[i].axis != AX_DEFAULT)
            snprintf(bound, sizeof bound, "%d%s", points[i].value, points[i].threads ? "*" : "");
        axis_actual(r, points[i].axis, actual, sizeof actual);
        if (r->timed)
            printf("%-8s %5s %9s %11.0f %9.0f %9.0f %9.0f %9.0f\n", axis_names[points[i].axis], bound, actual,
                   r->checks_per_s, r->ns[TM_SLOW], r->ns[TM_PR1227], r->ns[TM_FIXED], r->ns[TM_COPY]);
        else
            printf("%-8s %5s %9s %11.0f %9s %9s %9s %9s\n", axis_names[points[i].axis], bound, actual,
                   r->checks_per_s, "-", "-", "-", "-");
        fflush(stdout);
    }
    int rc = o.json && write_json(&o, res, &u, cpu) != 0 ? EXIT_OUTPUT : 0;
    gen_cache_free(hist);
    free(batch);
    free(ws);
    free(res);
    return rc;
}
