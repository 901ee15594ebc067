/*
 * kcovcmd: `irqsim kernel coverage BUILD` (docs/KERNEL-COVERAGE.md). Builds the
 * build's configuration with gcov instrumentation (build-kernel.sh
 * --coverage), runs generated states through it for --seconds in a child
 * process (each target's states through every path of its real-kernel
 * driver the build has, tools/realdrv.h, and each driver's extra entries:
 * the signal driver's seL4_Send of every kind of cap), reads gcov's branch
 * counts and
 * reports per function on the path: branches, reached, argued unreachable
 * (real/coverage-argued.txt), and every branch neither reached nor argued.
 * Exit (enum irqsim_exit): 0 every branch of each target's fastpath
 * (fastpath_irq, fastpath_signal) reached or argued and no argued branch
 * reached; 1
 * otherwise or the run failed; 2 bad input; 3 the kernel cannot be built
 * here; 4 --json could not be written.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L
#include "kcovcmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "covrun.h"
#include "out.h"
#include "progress.h"
#include "rk_cov.h"
#include "rk_load.h"
#include "realdrv.h"
#include "target.h"

#ifndef IRQSIM_SOURCE_DIR
#define IRQSIM_SOURCE_DIR "."
#endif

static const char usage[] =
    "usage: irqsim kernel coverage BUILD [--seconds N] [--seed S] [--argued FILE] [--json FILE] [--all]\n"
    "  BUILD: a directory `irqsim kernel build` printed; its configuration is built again with\n"
    "         gcov instrumentation (kernel build --coverage, cached), or BUILD is such a build\n"
    "  --seconds N   how long the generated states run (default 10)\n"
    "  --seed S      the first seed (default 1)\n"
    "  --argued FILE the branches argued unreachable (default real/coverage-argued.txt)\n"
    "  --json FILE   {\"functions\": [{\"name\", \"branches\", \"reached\", \"argued\", ...}], ...}\n"
    "  --all         list every branch neither reached nor argued, not only the goal functions'\n"
    "goal functions: the fastpaths of the bridged targets (fastpath_irq, fastpath_signal,\n"
    "fastpath_call, fastpath_reply_recv) and, on hypervisor builds, VPPIEvent and VGICMaintenance\n"
    "exit 0: every branch of the goal functions the build has reached or argued, no argued\n"
    "branch reached; 1 otherwise; 2 bad input; 3 the kernel cannot be built here;\n"
    "4 --json could not be written\n";

struct kcov_opts {
    const char *build, *argued, *json;
    double seconds;
    uint64_t seed;
    bool all;
};

#define KCOV_MAX_TARGETS 8

/* the entries the run put through each target's paths (target_at order) */
struct kcov_counts {
    uint64_t states[KCOV_MAX_TARGETS];
    double seconds;
};

/* Kernel functions held to every branch beside the fastpaths: the
 * hypervisor's interrupt handlers (issue 29), on the builds that have them */
static const char *const extra_goals[] = {"VPPIEvent", "VGICMaintenance"};

/* The functions every branch of which must be reached or argued: each
 * target's fastpath (its descriptor's fast_fn) that has a real-kernel
 * driver, then extra_goals; NULL past the last. */
static const char *goal_at(int i)
{
    for (int t = 0; target_at(t) && t < KCOV_MAX_TARGETS; t++)
        if (real_driver_of(target_at(t)) && i-- == 0)
            return target_at(t)->fast_fn;
    return i < (int)(sizeof extra_goals / sizeof extra_goals[0]) ? extra_goals[i] : NULL;
}

/* BUILD, the one argument that is not an option */
static int build_arg(void *opts, const char *arg, char *why, size_t len)
{
    struct kcov_opts *o = opts;
    if (o->build) {
        snprintf(why, len, "one BUILD only, got another: '%s'", arg);
        return -1;
    }
    o->build = arg;
    return 0;
}

#define K struct kcov_opts
static const struct cli_opt kcov_table[] = {
    CLI_NUM(K, "--seconds", CLI_REAL, seconds, 1e-3, 86400),
    CLI_NUM(K, "--seed", CLI_U64, seed, 0, 1e15),
    CLI_ROW(K, "--argued", CLI_STR, argued),
    CLI_ROW(K, "--json", CLI_STR, json),
    CLI_ROW(K, "--all", CLI_SET, all),
};
#undef K
static const struct cli_cmd kcov_cmd = {"kernel coverage", usage, "irqsim kernel coverage --help", kcov_table,
                                        sizeof kcov_table / sizeof kcov_table[0], build_arg};

/* 0, -1 when --help printed the usage, or the exit status of an error */
static int parse(int argc, char **argv, struct kcov_opts *o)
{
    *o = (struct kcov_opts){.argued = IRQSIM_SOURCE_DIR "/real/coverage-argued.txt", .seconds = 10, .seed = 1};
    int rc = cli_parse(&kcov_cmd, o, 3, argc, argv);
    if (rc)
        return rc == 1 ? -1 : rc;
    return o->build ? 0 : cli_error(&kcov_cmd, "BUILD is required");
}

/* ---- the run (in a child: its exit writes the counters) ---- */

/* in through each of d's paths the build has; whether one fitted it */
static bool run_paths(const struct real_driver *d, struct rk_kernel *k, struct kstate *in, struct kstate *out)
{
    bool ran = false;
    for (int p = 0; p < REAL_NPATH; p++)
        if (real_path_built(d, &k->info, p))
            ran |= d->run(k, in, d->paths[p], out, NULL) >= 0;
    return ran;
}

/* Each target's generated states through every path of its driver the
 * build has (a target whose fastpath the build lacks: its slowpath, the
 * first target's only; the others' entries need their fastpath built),
 * and each driver's extra entries made from the first target's state
 * (cover: the signal driver's seL4_Send of every kind of cap and message),
 * until the time is up. */
static int child_run(const struct kcov_opts *o, const char *cov, struct kcov_counts *c)
{
    static struct rk_kernel k;
    static struct kstate in, out;
    char err[600];
    if (rk_open(&k, cov, err, sizeof err)) {
        fprintf(stderr, "irqsim kernel coverage: %s\n", err);
        return EXIT_USAGE;
    }
    double t0 = progress_now();
    for (uint64_t s = o->seed; progress_now() - t0 < o->seconds; s++)
        for (int t = 0; target_at(t) && t < KCOV_MAX_TARGETS; t++) {
            const struct real_driver *d = real_driver_of(target_at(t));
            if (!d || (t > 0 && !real_has_fastpath(d, &k.info)))
                continue;
            struct gen_bounds b;
            gen_bounds_default(&b);
            b.target = target_at(t);
            if (rk_gen_state(&k, &in, s, &b) != 0)
                continue;
            c->states[t] += run_paths(d, &k, &in, &out);
            if (t == 0) /* the drivers' extra entries, from the first target's state */
                for (int u = 1; target_at(u) && u < KCOV_MAX_TARGETS; u++) {
                    const struct real_driver *e = real_driver_of(target_at(u));
                    if (e && e->cover && real_has_fastpath(e, &k.info))
                        c->states[u] += (uint64_t)e->cover(&k, &in, s, &out);
                }
        }
    c->seconds = progress_now() - t0;
    return 0;
}

struct kcov_child {
    const struct kcov_opts *o;
    const char *cov;
};

static int child_main(void *arg, void *res)
{
    const struct kcov_child *ch = arg;
    return child_run(ch->o, ch->cov, res);
}

/* ---- the report ---- */

/* qsort has no context argument in C99: the data being sorted */
static const struct cov_data *sort_data;
static int cmp_fn(const void *a, const void *b)
{
    return strcmp(sort_data->fns[*(const int *)a].name, sort_data->fns[*(const int *)b].name);
}

static bool is_goal(const char *name)
{
    for (int i = 0; goal_at(i); i++)
        if (!strcmp(name, goal_at(i)))
            return true;
    return false;
}

/* the functions reported: the goals present, then every kernel function on
 * the call graph from the roots that the run entered, by name */
static int listed(const struct cov_data *d, int *out, int *never)
{
    int n = 0;
    *never = 0;
    for (int g = 0; goal_at(g); g++) {
        int f = rk_cov_find(d, goal_at(g));
        if (f >= 0)
            out[n++] = f;
    }
    int first = n;
    for (int f = 0; f < d->nfns; f++) {
        if (!d->fns[f].on_path || is_goal(d->fns[f].name))
            continue;
        if (d->fns[f].calls > 0)
            out[n++] = f;
        else
            (*never)++;
    }
    sort_data = d;
    qsort(out + first, (size_t)(n - first), sizeof *out, cmp_fn);
    return n;
}

static const char *rel(const struct cov_data *d, int file)
{
    size_t rl = strlen(d->root);
    return strncmp(d->files[file], d->root, rl) ? d->files[file] : d->files[file] + rl;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static int write_json(const struct kcov_opts *o, const struct cov_data *d, const int *fl, int n,
                      const struct kcov_counts *c, const char *cov, int stale)
{
    /* through a temporary: written whole or not at all */
    struct out *out = out_open("irqsim kernel coverage", o->json);
    if (!out)
        return EXIT_OUTPUT;
    FILE *f = out->f;
    fprintf(f, "{\"build\": ");
    json_str(f, cov);
    fprintf(f, ", \"seconds\": %.1f", c->seconds);
    for (int t = 0; target_at(t) && t < KCOV_MAX_TARGETS; t++) /* "irq_states", "signal_states" */
        if (real_driver_of(target_at(t)))
            fprintf(f, ", \"%s_states\": %" PRIu64, target_at(t)->name, c->states[t]);
    fprintf(f, ", \"functions\": [");
    for (int i = 0; i < n; i++) {
        const struct cov_fn *fn = &d->fns[fl[i]];
        struct cov_fn_sum s = rk_cov_sum(d, fl[i], NULL);
        fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
        json_str(f, fn->name);
        fprintf(f, ", \"file\": ");
        json_str(f, rel(d, fn->file));
        fprintf(f, ", \"line\": %d, \"entered\": %lld, \"branches\": %d, \"reached\": %d, \"argued\": %d, "
                "\"unreached\": %d, \"goal\": %s}",
                fn->start, fn->calls, s.branches, s.reached, s.argued, s.unreached, is_goal(fn->name) ? "true" : "false");
    }
    fprintf(f, "\n], \"stale\": %d}\n", stale);
    return out_close(out) ? EXIT_OUTPUT : EXIT_AGREE;
}

/* "N irq states (slowpath, fastpath_irq, corrected fastpath), M signal
 * states (...)": each target's count and the paths its states ran (a
 * fastpath when the coverage build has its function) */
static void print_counts(const struct kcov_counts *c, const struct cov_data *d)
{
    const char *sep = "";
    for (int t = 0; target_at(t) && t < KCOV_MAX_TARGETS; t++) {
        const struct real_driver *r = real_driver_of(target_at(t));
        if (!r)
            continue;
        printf("%s%" PRIu64 " %s states (", sep, c->states[t], target_at(t)->name);
        for (int p = 0, n = 0; p < REAL_NPATH; p++)
            if (r->paths[p] >= 0 && (p == 0 || (d->nfns && rk_cov_find(d, target_at(t)->fast_fn) >= 0)))
                printf("%s%s", n++ ? ", " : "", r->path_names[p]);
        printf(")");
        sep = ", ";
    }
    if (target_at(KCOV_MAX_TARGETS)) /* the counts' capacity: said, never dropped in silence */
        printf("%s(targets past the first %d not run)", sep, KCOV_MAX_TARGETS);
}

static int report(const struct kcov_opts *o, const struct cov_data *d, const struct kcov_counts *c, const char *cov)
{
    int *fl = calloc((size_t)d->nfns + 1, sizeof *fl), never;
    if (!fl)
        return EXIT_DIVERGE;
    int n = listed(d, fl, &never);
    printf("| function | file:line | entered | branches | reached | argued | neither |\n"
           "|---|---|---:|---:|---:|---:|---:|\n");
    int goal_open = 0, other_open = 0;
    for (int i = 0; i < n; i++) {
        const struct cov_fn *fn = &d->fns[fl[i]];
        struct cov_fn_sum s = rk_cov_sum(d, fl[i], NULL);
        printf("| %s%s%s | %s:%d | %lld | %d | %d | %d | %d |\n", is_goal(fn->name) ? "**" : "", fn->name,
               is_goal(fn->name) ? "**" : "", rel(d, fn->file), fn->start, fn->calls, s.branches, s.reached, s.argued,
               s.unreached);
        *(is_goal(fn->name) ? &goal_open : &other_open) += s.unreached;
    }
    printf("\n%d functions on the call graph from the entries (", never);
    for (int i = 0; i < COVRUN_ROOTS; i++)
        printf("%s%s", i ? ", " : "", covrun_roots[i]);
    printf(") that the run never entered (behind branches above that it never took)\n");
    for (int i = 0; i < n; i++)
        if (o->all || is_goal(d->fns[fl[i]].name))
            rk_cov_sum(d, fl[i], stdout);
    if (!o->all && other_open)
        printf("%d branches of the other functions neither reached nor argued: --all lists them\n", other_open);
    int stale = 0, unmatched = 0;
    for (int i = 0; i < d->nargued; i++) {
        const struct cov_argued *a = &d->argued[i];
        if (a->stale) {
            stale++;
            printf("STALE: %s:%d: %s %s:%d arc %d is argued unreachable but the run reached it\n", o->argued,
                   a->src_line, a->fn, a->file, a->at_line, a->arc);
        } else if (a->applies && !a->at_line && rk_cov_find(d, a->fn) >= 0) {
            unmatched++;
            printf("not in this tree: %s:%d: %s %s:%d %08x arc %d (no such line in the function)\n", o->argued,
                   a->src_line, a->fn, a->file, a->line, a->hash, a->arc);
        }
    }
    printf("kernel coverage: ");
    print_counts(c, d);
    printf(" in %.1f s; goal branches (fastpaths, VCPU handlers) neither reached nor argued: %d; stale arguments: %d%s\n", c->seconds,
           goal_open, stale, unmatched ? "; some arguments name lines not in this tree (above)" : "");
    int rc = o->json ? write_json(o, d, fl, n, c, cov, stale) : 0;
    free(fl);
    return rc ? rc : (goal_open || stale) ? EXIT_DIVERGE : EXIT_AGREE;
}

static int analyse(const struct kcov_opts *o, const char *cov, const char *dir, const struct kcov_counts *c)
{
    char why[2048], root[1024], path[1200], cfg[1400], dom[16], cores[16], debug[8], gic[8], hyp[8], feats[1024];
    covrun_info(cov, "source", root, sizeof root);
    char compiled[1024];
    covrun_info(cov, "compiled_source", compiled, sizeof compiled);
    covrun_info(cov, "num_domains", dom, sizeof dom);
    covrun_info(cov, "cores", cores, sizeof cores);
    covrun_info(cov, "debug", debug, sizeof debug);
    covrun_info(cov, "gic_version", gic, sizeof gic);
    covrun_info(cov, "hyp", hyp, sizeof hyp);
    covrun_info(cov, "model_features", feats, sizeof feats);
    /* what an argued entry's `when` may ask of the build: its
     * configuration, and each feature the tree was probed to have */
    int at = snprintf(cfg, sizeof cfg, "domains=%s cores=%s mode=%s gic=%s hyp=%s", dom, cores,
                      !strcmp(debug, "1") ? "debug" : "release", gic, hyp);
    for (char *f = strtok(feats, "+"); f && at > 0 && at < (int)sizeof cfg; f = strtok(NULL, "+"))
        at += snprintf(cfg + at, sizeof cfg - (size_t)at, " feature=%s", f);
    char *json = covrun_gcov_json(cov, dir);
    if (!json) {
        fprintf(stderr, "irqsim kernel coverage: gcov gave no JSON for %s (gcov -b -j -t)\n", dir);
        return EXIT_DIVERGE;
    }
    static struct cov_data d;
    int rc = rk_cov_read_gcov(&d, json, root, compiled, why, sizeof why);
    free(json);
    snprintf(path, sizeof path, "%s/host_all.ci", cov);
    FILE *ci = rc ? NULL : fopen(path, "r");
    if (!rc && !ci)
        snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
    rc = rc ? rc : !ci ? -1 : rk_cov_read_graph(&d, ci, covrun_roots, COVRUN_ROOTS, why, sizeof why);
    if (ci)
        fclose(ci);
    FILE *af = rc ? NULL : fopen(o->argued, "r");
    if (!rc && !af)
        snprintf(why, sizeof why, "--argued %s: %s", o->argued, strerror(errno));
    rc = rc ? rc : !af ? -1 : rk_cov_read_argued(&d, af, o->argued, why, sizeof why);
    if (af)
        fclose(af);
    if (!rc)
        rk_cov_apply(&d, cfg);
    if (rc) {
        fprintf(stderr, "irqsim kernel coverage: %s\n", why);
        rk_cov_free(&d);
        return EXIT_DIVERGE;
    }
    rc = report(o, &d, c, cov);
    rk_cov_free(&d);
    return rc;
}

/* the argued file, read before anything runs: bad input is said first */
static int check_argued(const struct kcov_opts *o)
{
    FILE *f = fopen(o->argued, "r");
    if (!f) {
        fprintf(stderr, "irqsim kernel coverage: --argued %s: %s\n", o->argued, strerror(errno));
        return EXIT_USAGE;
    }
    static struct cov_data d;
    char why[600];
    int rc = rk_cov_read_argued(&d, f, o->argued, why, sizeof why);
    fclose(f);
    rk_cov_free(&d);
    if (rc)
        fprintf(stderr, "irqsim kernel coverage: %s\n", why);
    return rc ? EXIT_USAGE : EXIT_AGREE;
}

int kcovcmd_main(int argc, char **argv)
{
    struct kcov_opts o;
    char cov[1024], tmp[] = "/tmp/irqsim-kcov.XXXXXX", dir[4096];
    int rc = parse(argc, argv, &o);
    if (rc < 0)
        return EXIT_AGREE; /* --help */
    rc = rc ? rc : out_not_input("irqsim kernel coverage", &o.json, 1, &o.argued, 1) ? EXIT_USAGE : EXIT_AGREE;
    rc = rc ? rc : check_argued(&o);
    rc = rc ? rc : covrun_build("irqsim kernel coverage", o.build, NULL, cov, sizeof cov);
    if (rc)
        return rc;
    if (!mkdtemp(tmp)) {
        fprintf(stderr, "irqsim kernel coverage: cannot make a folder in /tmp: %s\n", strerror(errno));
        return EXIT_DIVERGE;
    }
    printf("coverage build: %s\n", cov);
    struct kcov_counts c = {0};
    struct kcov_child ch = {&o, cov};
    rc = covrun_fork("irqsim kernel coverage", tmp, child_main, &ch, &c, sizeof c);
    if (!rc && !covrun_find_gcda(tmp, dir, sizeof dir, 0)) {
        fprintf(stderr, "irqsim kernel coverage: the run wrote no counters (host_all.gcda) under %s\n", tmp);
        rc = EXIT_DIVERGE;
    }
    if (!rc) {
        rc = analyse(&o, cov, dir, &c);
    }
    covrun_rm_tree(tmp);
    return rc;
}
