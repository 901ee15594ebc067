/* execcmd: `irqsim exhaust --executions`, the enumeration of executions
 * from boot (check/executions.h, docs/EXHAUSTIVE.md "Executions"). */
#define _POSIX_C_SOURCE 200809L
#include "execcmd.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "config.h"
#include "defect.h"
#include "executions.h"
#include "exectree.h"
#include "execstate.h"
#include "out.h"
#include "progress.h"
#include "stop.h"

#define SAVE_EVERY_S 10.0
/* the tree engine's full copies of the states it remembers, to compare
 * a revisit in full; past them, on the 128-bit hash alone (said) */
#define TREE_FULL_BYTES ((size_t)2 << 30)

enum { ENGINE_UNSET, ENGINE_TREE, ENGINE_RESTART };

struct eopts {
    bool executions, quiet, signal_fastpath, vcpus;
    int engine;          /* ENGINE_*: unset is the tree, or restart with --shard, --state, --stop-after */
    bool no_ipi_latency; /* ipi_latency 0 only (the space before issue 31) */
    bool no_visited;     /* the tree without its visited set */
    int jobs;            /* the tree's roots in this many processes at once (0: 1) */
    int depth, cores, kernel;
    const struct target *target;
    const char *fastpath, *json, *state;
    uint64_t shard_k, shard_n;
    double seconds;      /* 0: no limit */
    uint64_t stop_after; /* 0: no limit */
    bool show_set;
    int show_order;      /* the GIC's order of --show (EXEC_GIC_ORDERS) */
    uint64_t show;
};

static const char exec_usage[] =
    "usage: irqsim exhaust --executions [options]\n"
    "  every execution from boot of a small system within a depth (docs/EXHAUSTIVE.md,\n"
    "  \"Executions\"): a handler on IRQ 40's notification and two threads whose programs\n"
    "  of up to DEPTH operations are enumerated, with IRQ 40's arrival and the entry\n"
    "  latency; each runs on the workload simulator, every kernel entry through the\n"
    "  invariant checker, the differential check at every checked entry\n"
    "  --depth K       operations per program, 1-3 (default 3)\n"
    "  --cores 1|2     one core, or two (thread b on core 1) (default 1)\n"
    "  --signal-fastpath  KernelSignalFastpath built beside the IRQ fastpath\n"
    "  --vcpus         a hypervisor build: thread a a guest with a VCPU, a VMM thread on its faults,\n"
    "                  the guest's virtual timer firing with IRQ 40 (on two cores b a guest too,\n"
    "                  each core's virtual timer firing)\n"
    "  --target irq|signal  the fastpath under check (default irq)\n"
    "  --fastpath V    pr1227|fixed (irq), merged|fixed (signal); default as written\n"
    "  --kernel base|master  the kernel modelled (default base; the call targets' master)\n"
    "  --no-ipi-latency  on two cores, the IPI latency 0 only (by default 0 and " EXEC_IPI_LATENCY_TEXT " ticks are\n"
    "                  enumerated; one core sends no IPI)\n"
    "  --engine tree|restart  tree (the default): one simulation forked at each choice, visited\n"
    "                  states not explored again; restart: every workload from boot (the\n"
    "                  default with --shard, --state or --stop-after, which only it takes)\n"
    "  --no-visited    the tree engine without its visited set (every subtree explored)\n"
    "  --jobs N        the tree engine's roots (entry x IPI latency), each cut at its first\n"
    "                  two choice points into 16 slices, in up to N child processes at once,\n"
    "                  merged in order (the same answers; revisits across the slices are\n"
    "                  explored again, so the execution and entry counts are the slices')\n"
    "  --shard K/N     the workloads i with i mod N == K-1\n"
    "  --state FILE    save the position and every total every 10 s and at the end;\n"
    "                  a later run with the same options resumes from it\n"
    "  --seconds S     stop after S seconds (with --state: resume later from there)\n"
    "  --stop-after N  stop after N workloads of this invocation (likewise)\n"
    "  --show I[r|oK]  print workload I of the space (for irqsim sim) and stop; Ir: its run in the\n"
    "                  GIC's reversed order, IoK (K 2-5): in the GIC's order K\n"
    "  --json FILE     the summary as JSON\n"
    "  --quiet         no progress on stderr\n"
    "exit status: 0 every checked entry agrees and every entry state passes the\n"
    "invariants, 1 a divergence or a refused reached state (an invariant bug),\n"
    "2 bad usage or state file, 4 an output could not be written, 5 incomplete: no divergence\n"
    "in the part done, but the run stopped (--seconds, --stop-after) before the end of the space,\n"
    "or checked nothing;\n"
    "SIGINT or SIGTERM saves the state file and ends the run by that signal\n";

static int shard_opt(void *opts, const char *v, char *why, size_t len)
{
    struct eopts *o = opts;
    unsigned long long k, n;
    char tail;
    snprintf(why, len, "expected K/N with 1 <= K <= N");
    if (sscanf(v, "%llu/%llu%c", &k, &n, &tail) != 2 || k < 1 || k > n || n > UINT32_MAX)
        return -1;
    o->shard_k = k;
    o->shard_n = n;
    return 0;
}

static int engine_opt(void *opts, const char *v, char *why, size_t len)
{
    struct eopts *o = opts;
    snprintf(why, len, "expected tree or restart");
    o->engine = strcmp(v, "tree") == 0 ? ENGINE_TREE : strcmp(v, "restart") == 0 ? ENGINE_RESTART : ENGINE_UNSET;
    return o->engine == ENGINE_UNSET ? -1 : 0;
}

static int show_opt(void *opts, const char *v, char *why, size_t len)
{
    struct eopts *o = opts;
    unsigned long long i;
    char tail;
    int n = -1;
    snprintf(why, len, "expected a workload index, or one followed by r (its run in the GIC's reversed order) "
             "or by oK, K 1-5 (its run in the GIC's order K)");
    if (sscanf(v, "%llu%n%c", &i, &n, &tail) < 1 || v[0] == '-' || (o->show_order = exec_gic_order_parse(v + n)) < 0)
        return -1;
    o->show = i;
    o->show_set = true;
    return 0;
}

#define X struct eopts
static const struct cli_opt exec_table[] = {
    CLI_ROW(X, "--executions", CLI_SET, executions),
    CLI_NUM(X, "--depth", CLI_INT, depth, 1, EXEC_MAX_DEPTH),
    CLI_NUM(X, "--cores", CLI_INT, cores, 1, 2),
    CLI_ROW(X, "--signal-fastpath", CLI_SET, signal_fastpath),
    CLI_ROW(X, "--vcpus", CLI_SET, vcpus),
    CLI_ROW(X, "--target", CLI_TARGET, target),
    CLI_ROW(X, "--fastpath", CLI_STR, fastpath),
    CLI_ROW(X, "--kernel", CLI_KERNEL, kernel),
    CLI_ROW(X, "--no-ipi-latency", CLI_SET, no_ipi_latency),
    CLI_CALL("--engine", engine_opt),
    CLI_ROW(X, "--no-visited", CLI_SET, no_visited),
    CLI_NUM(X, "--jobs", CLI_INT, jobs, 1, 64),
    CLI_CALL("--shard", shard_opt),
    CLI_ROW(X, "--state", CLI_STR, state),
    CLI_NUM(X, "--seconds", CLI_REAL, seconds, 1e-3, 1e7),
    CLI_NUM(X, "--stop-after", CLI_U64, stop_after, 1, 1.8e19), /* above CLI_UNBOUNDED */
    CLI_CALL("--show", show_opt),
    CLI_ROW(X, "--json", CLI_STR, json),
    CLI_ROW(X, "--quiet", CLI_SET, quiet),
};
#undef X
static const struct cli_cmd exec_cmd = {"exhaust --executions", exec_usage, "irqsim exhaust --executions --help",
                                        exec_table, sizeof exec_table / sizeof exec_table[0], NULL};

bool exec_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--executions") == 0)
            return true;
    return false;
}

/* The run as the loop's callbacks see it: the limits, the state file and
 * when it was last saved. */
struct prog {
    const struct eopts *o;
    const struct exec_opts *e;
    const struct exec_result *r;
    double start, before;   /* this invocation's start; the seconds of the runs it resumes */
    double last_save;
    uint64_t done_at_start; /* the shard's workloads done when it started */
    struct progress line;
};

static void progress(void *ctx, uint64_t done, uint64_t of)
{
    struct prog *p = ctx;
    if (progress_due(&p->line))
        progress_print(&p->line, "[%6.1fs] %" PRIu64 " of %" PRIu64 " workloads", p->line.last - p->start + p->before,
                       done, of);
}

/* Before each workload: a signal, --seconds or --stop-after ends the run;
 * the state file is saved every SAVE_EVERY_S (here the totals are those
 * of the workloads before the position). */
static bool stopped(void *ctx)
{
    struct prog *p = ctx;
    double t = progress_now();
    if (stop_requested() || (p->o->seconds && t - p->start >= p->o->seconds) ||
        (p->o->stop_after && exec_done(p->r) - p->done_at_start >= p->o->stop_after))
        return true;
    if (p->o->state && t - p->last_save >= SAVE_EVERY_S) {
        execstate_save(p->o->state, p->e, p->r, p->before + t - p->start); /* a failure: said, and again at the end */
        p->last_save = t;
    }
    return false;
}

/* The tree engine's: the workloads covered so far; --seconds or a signal
 * ends the run (it has no position to save) */
static void tree_progress(void *ctx, uint64_t done, uint64_t of)
{
    struct prog *p = ctx;
    if (progress_due(&p->line))
        progress_print(&p->line, "[%6.1fs] %" PRIu64 " of %" PRIu64 " workloads covered", p->line.last - p->start,
                       done, of);
}

static bool tree_stopped(void *ctx)
{
    struct prog *p = ctx;
    return stop_requested() || (p->o->seconds && progress_now() - p->start >= p->o->seconds);
}

static bool finished(const struct exec_result *r)
{
    return exec_done(r) == r->shard_space;
}

/* The tree's coverage and its visited set: what stood for what, what was
 * compared in full, what on the hash alone, what was not remembered. */
static void print_tree(FILE *f, const struct exec_result *r, int jobs)
{
    const struct exec_tree_counts *t = &r->tree;
    fprintf(f, "engine: tree (one simulation forked at each choice, visited states not explored again)\n");
    if (jobs > 1) /* (exec_tree_unit: each slice has a visited set of its own) */
        fprintf(f, "  with --jobs %d: each root cut into %d slices, each with its own visited set; the executions, "
                   "choice points, states remembered and revisits below and the entry states checked are the "
                   "slices' sums, which depend on the cut (the coverage, the distinct entry states and the verdicts "
                   "do not)\n",
                jobs, EXEC_JOB_SLICES);
    fprintf(f, "covered: %" PRIu64 " workloads of %" PRIu64 "%s and %" PRIu64 " runs in another GIC order, by %" PRIu64
               " executions simulated to the horizon from %" PRIu64 " choice points\n",
            t->covered, r->space, t->cut ? " (STOPPED before the end: the rest not covered)" : "", t->covered_reruns,
            t->leaves, t->forks);
    fprintf(f, "visited states: %" PRIu64 " distinct simulator states remembered at choice points; %" PRIu64
               " revisits not explored again (standing for %" PRIu64 " workloads and %" PRIu64 " reruns), %" PRIu64
               " compared in full, %" PRIu64 " on the 128-bit hash alone\n",
            t->states, t->skipped, t->skipped_covered, t->skipped_reruns, t->compared, t->hash_only);
    if (t->hash_only) /* the birthday bound over the states remembered and looked up */
        fprintf(f, "  (a revisit on the hash alone is wrong with probability below %.1e: n^2/2^129 for n = %" PRIu64
                   " states hashed, the hash taken as random)\n",
                (double)(t->states + t->skipped) * (double)(t->states + t->skipped) / 6.8056473384187693e38,
                t->states + t->skipped);
    if (t->not_remembered || t->collisions)
        fprintf(f, "  %" PRIu64 " states not remembered (the visited set full), %" PRIu64
                   " hash collisions (two states, one hash: explored)\n", t->not_remembered, t->collisions);
}

static void print_summary(FILE *f, const struct eopts *opts, const struct exec_opts *o, const struct exec_result *r,
                          double elapsed)
{
    const struct target *t = o->target;
    char buf[4096];
    fprintf(f, "irqsim exhaust --executions: %s%s%sfastpath %s, depth %d, %d core%s%s\n",
            t->is_default ? "" : "target ", t->is_default ? "" : t->name, t->is_default ? "" : ", ",
            t->variant_name(o->variant), o->depth, o->cores, o->cores == 1 ? "" : "s",
            o->signal_fastpath ? ", KernelSignalFastpath beside" : "");
    if (o->vcpus && o->cores > 1)
        fprintf(f, "hypervisor build: threads a (core 0) and b (core 1) guests with a VCPU each, their VMM v, each "
                   "core's virtual timer firing with IRQ 40\n");
    else if (o->vcpus)
        fprintf(f, "hypervisor build: thread a a guest with a VCPU, its VMM v, the virtual timer firing with IRQ 40\n");
    fprintf(f, "space: %" PRIu64 " workloads", r->space);
    if (o->shard_n > 1)
        fprintf(f, "; shard %" PRIu64 "/%" PRIu64 ": %" PRIu64, o->shard_k, o->shard_n, r->shard_space);
    fprintf(f, "%s\n", o->ipi_latency ? " (IPI latency 0 and " EXEC_IPI_LATENCY_TEXT " ticks)" : "");
    if (opts->engine == ENGINE_TREE) {
        print_tree(f, r, opts->jobs);
        if (r->setup_refused)
            fprintf(f, "refused at setup: %" PRIu64 " workloads\n", r->setup_refused);
    } else {
        fprintf(f, "engine: restart (every workload simulated from boot)\n");
        fprintf(f, "simulated: %" PRIu64 " (%" PRIu64 " refused at setup)%s\n", r->simulated, r->setup_refused,
                finished(r) ? "" : opts->state ? " (not finished: --state resumes from there)" : " (not finished)");
    }
    fprintf(f, "kernel entry states through the invariant checker: %" PRIu64 ", refused: %" PRIu64
               ", failed kernel assertions: %" PRIu64 ", drifts: %" PRIu64 "\n",
            r->entries, r->refused, r->asserts, r->drifts);
    if (r->stopped)
        fprintf(f, "%" PRIu64 " runs stopped at the simulator's event limit before the horizon, or not set up in "
                   "another GIC order (their later entries not checked)\n", r->stopped);
    if (r->refused)
        fprintf(f, "INVARIANT BUG OR KERNEL BUG: a state the kernel modelled reached from boot was refused (first: "
                   "workload %" PRIu64 ", %s)\n",
                r->first_refused, r->refusal);
    fprintf(f, "%s checked: %" PRIu64 " (%" PRIu64 " distinct entry states)", t->words.checked_many, r->checks,
            r->distinct);
    if (o->cores > 1)
        fprintf(f, "; taken in a lock wait: %" PRIu64, r->lock_waits);
    fprintf(f, "\nthe GIC chose among interrupts pending at once in %" PRIu64 " workloads, each run again in the "
               "%d other orders of timer, device and IPI (the figures count every run)",
            r->gic_reruns, EXEC_GIC_ORDERS - 1);
    fprintf(f, "\nfastpath exits:");
    for (int e = 0; e < t->exits; e++)
        if (r->exits[e])
            fprintf(f, " %s %" PRIu64, t->exit_name(e), r->exits[e]);
    fprintf(f, "\n");
    target_print_unreached(f, t, o->variant, r->exits);
    situation_print(f, r->sits, r->checks, !t->syscall_entry);
    if (r->n_classes) {
        fprintf(f, "divergences: %" PRIu64 " checked entries in %d classes:\n", r->diverged, r->n_classes);
        for (int i = 0; i < r->n_classes; i++) {
            char name[200], defs[64], note[EXEC_NOTE_LEN];
            const struct exec_class *c = &r->classes[i];
            fprintf(f, "  %-50s %10" PRIu64 "  %s  first in workload %" PRIu64 "%s%s\n",
                    dclass_name(&c->cl, name, sizeof name), c->hits,
                    defects_text(t, cause_defects(t, c->cl.cause), defs, sizeof defs), c->first,
                    exec_gic_order_suffix(c->first_order), exec_gic_order_note(c->first_order, note, sizeof note));
        }
        if (r->classes_dropped)
            fprintf(f, "  (%" PRIu64 " divergences of classes past the first %d)\n", r->classes_dropped,
                    EXEC_MAX_CLASSES);
        fprintf(f, "  (irqsim exhaust --executions --show I prints workload I, --show Ir its reverse-order run, "
                   "--show IoK its run in order K, for irqsim sim)\n");
    } else {
        fprintf(f, "divergences: none\n");
    }
    fprintf(f, "time: %.1f s (%.0f workloads/s)\n", elapsed, elapsed > 0 ? (double)r->simulated / elapsed : 0.0);
    fprintf(f, "bound: %s\n", exec_bound_text(o, r, buf, sizeof buf));
}

static int write_json(const char *path, const struct eopts *opts, const struct exec_opts *o, const struct exec_result *r,
                      double elapsed)
{
    struct out *out = out_open("irqsim exhaust --executions", path);
    if (!out)
        return -1;
    FILE *f = out->f;
    const struct target *t = o->target;
    fprintf(f, "{\n  \"target\": \"%s\",\n  \"fastpath\": \"%s\",\n  \"kernel\": \"%s\",\n  \"depth\": %d,\n"
               "  \"cores\": %d,\n  \"signal_fastpath\": %s,\n  \"space\": %" PRIu64 ",\n  \"shard\": \"%" PRIu64
               "/%" PRIu64 "\",\n  \"workloads\": %" PRIu64 ",\n  \"setup_refused\": %" PRIu64
               ",\n  \"states_checked\": %" PRIu64 ",\n  \"states_refused\": %" PRIu64 ",\n  \"asserts\": %" PRIu64
               ",\n  \"checks\": %" PRIu64 ",\n  \"distinct_entry_states\": %" PRIu64 ",\n  \"lock_waits\": %" PRIu64
               ",\n  \"gic_reruns\": %" PRIu64 ",\n  \"diverged\": %" PRIu64 ",\n  \"seconds\": %.3f,\n%s  \"exits\": {",
            t->name, t->variant_name(o->variant), cfg_kernel_name(o->kernel), o->depth, o->cores,
            o->signal_fastpath ? "true" : "false", r->space, o->shard_k, o->shard_n, r->simulated, r->setup_refused,
            r->entries, r->refused, r->asserts, r->checks, r->distinct, r->lock_waits, r->gic_reruns, r->diverged, elapsed,
            /* only then: the JSON of a run without the options stays as it was */
            !finished(r) && (opts->state || opts->seconds || opts->stop_after) ? "  \"finished\": false,\n" : "");
    if (o->vcpus)
        fprintf(f, "  \"vcpus\": true,\n");
    for (int e = 0, k = 0; e < t->exits; e++)
        if (r->exits[e])
            fprintf(f, "%s\"%s\": %" PRIu64, k++ ? ", " : "", t->exit_name(e), r->exits[e]);
    fprintf(f, "},\n  ");
    situation_json(f, r->sits, !t->syscall_entry);
    if (opts->engine == ENGINE_TREE) {
        const struct exec_tree_counts *x = &r->tree;
        fprintf(f, ",\n  \"tree\": {\"covered\": %" PRIu64 ", \"covered_reruns\": %" PRIu64 ", \"executions\": %" PRIu64
                   ", \"choice_points\": %" PRIu64 ", \"states\": %" PRIu64 ", \"skipped\": %" PRIu64
                   ", \"skipped_workloads\": %" PRIu64 ", \"skipped_reruns\": %" PRIu64 ", \"compared_full\": %" PRIu64
                   ", \"hash_only\": %" PRIu64 ", \"not_remembered\": %" PRIu64 ", \"collisions\": %" PRIu64
                   ", \"stopped\": %s}",
                x->covered, x->covered_reruns, x->leaves, x->forks, x->states, x->skipped, x->skipped_covered,
                x->skipped_reruns, x->compared, x->hash_only, x->not_remembered, x->collisions,
                x->cut ? "true" : "false");
    }
    fprintf(f, ",\n  \"classes\": [");
    for (int i = 0; i < r->n_classes; i++) {
        char name[200];
        const struct exec_class *c = &r->classes[i];
        fprintf(f, "%s\n    {\"class\": \"%s\", \"hits\": %" PRIu64 ", \"first_workload\": %" PRIu64, i ? "," : "",
                dclass_name(&c->cl, name, sizeof name), c->hits, c->first);
        if (c->first_order) /* the workload's run in that GIC order; gic_reversed kept for the reverse */
            fprintf(f, ", \"gic_order\": \"%s\"%s", exec_gic_order_name(c->first_order),
                    c->first_order == 1 ? ", \"gic_reversed\": true" : "");
        fprintf(f, "}");
    }
    fprintf(f, "%s]\n}\n", r->n_classes ? "\n  " : "");
    return out_close(out);
}

int exec_main(int argc, char **argv)
{
    struct eopts o = {.depth = 3, .cores = 1, .kernel = -1, .shard_k = 1, .shard_n = 1, .target = target_default()};
    int rc = cli_parse(&exec_cmd, &o, 1, argc, argv);
    if (rc)
        return rc == 1 ? EXIT_AGREE : rc;
    int kernel = target_kernel(o.target, o.kernel, KS_KERNEL_BASE);
    if (kernel < 0)
        return cli_error(&exec_cmd, "--kernel %s: the %s target models %s's fastpath only", cfg_kernel_name(o.kernel),
                         o.target->name, cfg_kernel_name(o.target->kernel));
    o.kernel = kernel;
    /* --state is read, then written over by design (the resume point) */
    if (out_not_input("irqsim exhaust --executions", &o.json, 1, &o.state, 1))
        return EXIT_USAGE;
    struct exec_opts e = {.depth = o.depth, .cores = o.cores, .signal_fastpath = o.signal_fastpath,
                          .target = o.target, .kernel = o.kernel, .shard_k = o.shard_k, .shard_n = o.shard_n,
                          .ipi_latency = o.cores > 1 && !o.no_ipi_latency, .vcpus = o.vcpus};
    bool resumable = o.state || o.shard_n > 1 || o.stop_after;
    if (o.engine == ENGINE_UNSET)
        o.engine = resumable ? ENGINE_RESTART : ENGINE_TREE;
    if (o.engine == ENGINE_TREE && resumable)
        return cli_error(&exec_cmd, "--shard, --state and --stop-after take the restart engine (--engine restart): "
                                    "the tree has no position between workloads to split or save");
    if (o.no_visited && o.engine != ENGINE_TREE)
        return cli_error(&exec_cmd, "--no-visited is the tree engine's");
    if (o.jobs > 1 && o.engine != ENGINE_TREE)
        return cli_error(&exec_cmd, "--jobs is the tree engine's");
    if (cli_variant("exhaust --executions", o.target, o.fastpath, "", &e.variant))
        return EXIT_USAGE;
    if (o.signal_fastpath && o.target->built)
        return cli_error(&exec_cmd, "--signal-fastpath builds the kernel's own %s beside another target's; "
                                    "with --target %s it is the one under check", o.target->fast_fn, o.target->name);
    if (o.show_set) {
        char text[2048];
        if (o.show >= exec_space(&e))
            return cli_error(&exec_cmd, "--show %" PRIu64 ": the space has %" PRIu64 " workloads (0 to %" PRIu64 ")",
                             o.show, exec_space(&e), exec_space(&e) - 1);
        exec_workload_text_order(&e, o.show, o.show_order, text, sizeof text);
        printf("# irqsim exhaust --executions --depth %d --cores %d%s%s: workload %" PRIu64 "%s\n%s", e.depth, e.cores,
               e.signal_fastpath ? " --signal-fastpath" : "", e.vcpus ? " --vcpus" : "", o.show,
               exec_gic_order_suffix(o.show_order), text);
        return EXIT_AGREE;
    }
    struct exec_result *r = malloc(sizeof *r);
    if (!r)
        abort();
    if (exec_begin(&e, r) != 0) { /* the table's bounds make this unreachable */
        free(r);
        return cli_error(&exec_cmd, "the options name no space of executions");
    }
    struct prog p = {.o = &o, .e = &e, .r = r};
    if (o.state) {
        int resumed = execstate_load(o.state, &e, r, &p.before);
        if (resumed < 0) {
            exec_free(r);
            free(r);
            return EXIT_USAGE;
        }
        if (resumed && !o.quiet)
            fprintf(stderr, "irqsim exhaust --executions: resuming from %s at workload %" PRIu64 " of the %" PRIu64
                    "%s (the totals so far restored)\n", o.state, exec_done(r), r->shard_space,
                    o.shard_n > 1 ? " of the shard" : "");
    }
    p.done_at_start = exec_done(r);
    p.start = p.last_save = progress_now();
    stop_catch();
    progress_init(&p.line, !o.quiet, 1.0);
    if (o.engine == ENGINE_TREE) {
        struct exec_tree_opts to = {.remember = !o.no_visited, .full_bytes = TREE_FULL_BYTES, .jobs = o.jobs,
                                    /* each root cut at its first two choice points into runs of paths
                                       (docs/EXHAUSTIVE.md: at the first alone, 8 slices, today's bound on two
                                       cores took 1.2x longer with two jobs, its slices unequal) */
                                    .slices = EXEC_JOB_SLICES, .cut_levels = 2};
        exec_tree_run(&e, &to, r, o.quiet ? NULL : tree_progress, tree_stopped, &p);
    } else {
        exec_continue(&e, r, o.quiet ? NULL : progress, stopped, &p);
    }
    double elapsed = p.before + progress_now() - p.start;
    progress_end(&p.line, true);
    int write_errors = 0;
    if (o.state && execstate_save(o.state, &e, r, elapsed) != 0)
        write_errors++;
    if (stop_requested())
        printf("interrupted by %s: the figures below are of the workloads done%s\n", stop_name(stop_requested()),
               o.state ? " (--state resumes from there)" : "");
    print_summary(stdout, &o, &e, r, elapsed);
    /* a part of the space, or nothing checked, is no pass of the bound */
    int status = r->diverged || r->refused         ? EXIT_DIVERGE
                 : !finished(r) || r->checks == 0 ? EXIT_INCOMPLETE
                                                  : EXIT_AGREE;
    if (o.json && write_json(o.json, &o, &e, r, elapsed) != 0)
        write_errors++;
    if (write_errors)
        status = EXIT_OUTPUT;
    exec_free(r);
    free(r);
    return stop_finish(status);
}
