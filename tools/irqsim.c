/*
 * irqsim: the command line. check and run scenario files, fuzz the
 * fastpath against the slowpath, shrink a divergent scenario, print a
 * generated state. Exit status: enum irqsim_exit (cli.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "out.h"
#include "classify.h"
#include "costcmd.h"
#include "diff.h"
#include "fuzzrun.h"
#include "gen.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "print.h"
#include "execcmd.h"
#include "exhaustcmd.h"
#include "realcmd.h"
#include "reviewcmd.h"
#include "replay.h"
#include "simcmd.h"
#include "wlfuzz.h"
#include "report.h"
#include "scenario.h"
#include "shrink.h"
#include "stop.h"
#include "target.h"

/* the options check, run, minimize, gen, fuzz, ratio and sim share */
#define TARGET_OPTIONS \
    "      --target irq|signal|call|reply_recv  check, run, minimize, gen, fuzz, ratio, sim: the fastpath\n" \
    "                   checked: PR #1227's fastpath_irq (default), master's fastpath_signal (SysSend\n" \
    "                   entries), or master's fastpath_call and fastpath_reply_recv (SysCall and SysReplyRecv\n" \
    "                   entries, kernel master only); but irq, --fastpath merged|fixed;\n" \
    "                   a scenario file names its own (a syscall line)\n" \
    "      --kernel base|master  check, run, minimize, gen, fuzz, ratio, exhaust: the kernel modelled (default\n" \
    "                   base 43607edb6, or the scenario's config kernel=; master 1326364bc)\n"

/* fuzz's own options, in the overview and in irqsim fuzz --help */
#define FUZZ_OPTIONS \
    "      --mode state|workload  generated states (default), or generated workloads simulated\n" \
    "                   on both kernels, every device interrupt (--target signal: every SysSend on\n" \
    "                   a notification) checked (--checks N: N workloads;\n" \
    "                   --fastpath --seconds --seed --out --json --quiet apply; --cores 2: an\n" \
    "                   SMP kernel whose second core runs threads too; --signal-fastpath:\n" \
    "                   every workload builds KernelSignalFastpath beside, not one in 3)\n" \
    "      --fastpath pr1227|fixed  --seconds N  --seed N  --jobs N  --out DIR  --json FILE\n" \
    "      --threads N (1-62)  --prios N (1-256)  --refills N (1-16)  --domains N (1-16)\n" \
    "      --ntfns N (1-16)  --no-smp  --uniform-clock  --realistic  --quiet\n" \
    "      --vcpus          hypervisor builds with VCPU threads: their virtual timer and VGIC\n" \
    "                       maintenance interrupts (docs/model.md, \"VCPUs\"); with --mode\n" \
    "                       workload, guests and their VMM, on either core with --cores 2\n" \
    "      --board NAME  {boards} (default: drawn among them)\n" \
    "      --check-every N  invariant checker on 1 in N states and outcomes, and on each\n" \
    "                       class's first state (default 8; 1 checks all)\n" \
    "      --checks N   exactly N checks (the same on every build and number of jobs), no\n" \
    "                   time limit: a deterministic budget (not with --seconds)\n" \
    "      --clocks K   entry clocks drawn per generated state (default 1; 1-64)\n" \
    "      --by defect|class  summary by defect (the default; irq: {defects:irq:base} on base,\n" \
    "                   {defects:irq:master} on master; signal: {defects:signal}) or by class\n"

#define EXIT_STATUS_TEXT                                                                                     \
    "exit status: 0 the paths agree, 1 they diverge, 2 bad input or usage (an output that is an input too),\n" \
    "4 an output (standard output too) could not be written, 5 incomplete: no divergence, but nothing\n"      \
    "was checked or the run stopped before the end of its bound (exhaust --seconds, --stop-after)\n"

/* Printed by cli_usage: {boards} and {defects:...} are the tables' lists. */
static const char usage_text[] =
    "usage: irqsim COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  check [--fastpath pr1227|fixed] FILE...   run both paths on each scenario, print the verdict\n"
    TARGET_OPTIONS
    "      --admit pr1227|fixed|all|LIST  check, run: also accept at entry what that fastpath\n"
    "                   leaves at user level (LIST: action,reprogram,outranked,domain_end,masked,inherited,ipi)\n"
    "  run --path slow|fast [--fastpath V] FILE  print the outcome state of one path\n"
    "  fuzz [options]                            differential fuzzing (default: pr1227, 60 s; irqsim fuzz --help)\n"
    FUZZ_OPTIONS
    "  minimize [--fastpath V] [-o FILE] FILE    shrink a divergent scenario, same class\n"
    "  gen [--seed N] [bound options]            print a generated state as a scenario\n"
    "  bench [options]                           checks per second and time per path as states\n"
    "                                            grow (irqsim bench --help)\n"
    "  cost [--board NAME] [--json FILE]         reads, writes, branches per path and section\n"
    "  ratio [--count N] [--seed N] [bounds]     share of fast exits the corrected fastpath keeps\n"
    "  report [-o FILE] RUN.json                 a fuzz run's defects as a Markdown review comment\n"
    "  replay [--fastpath V] [--out DIR] TRACE... captured entries of a running kernel through the\n"
    "                                            model (irqsim replay --help)\n"
    "  sim [--target T] [--fastpath V] [--horizon T] [--svg FILE] [--json FILE] WORKLOAD\n"
    "                                            a workload on a slowpath and a fastpath kernel\n"
    "  exhaust [--fastpath V] [--threads N] [--ntfns N] [--refills N] [--domains N] [--board B]\n"
    "          [--shard K/N] [--state FILE] [--json FILE] [--out DIR]\n"
    "                                            every state within a bound (docs/EXHAUSTIVE.md;\n"
    "                                            --merge, --executions: irqsim exhaust --help)\n"
    "  kernel build --sel4 DIR|TARBALL [...]     build a host kernel from a seL4 tree\n"
    "  kernel coverage BUILD [--seconds N] [--json FILE]  the kernel's branches generated states reach\n"
    "                                            (docs/KERNEL-COVERAGE.md; kernel coverage --help)\n"
    "  validate --real BUILD [--seconds N] [--target irq|signal|call]  the model against that kernel, both paths\n"
    "  fuzz --real BUILD [--fastpath as-built|fixed] [--target irq|signal|call]  real fastpath against real slowpath\n"
    "  check --real BUILD FILE...                scenario files through the real kernel\n"
    "                                            (docs/REAL-KERNEL.md)\n"
    "  review --sel4 TREE [--baseline TREE] [--configs LIST] [-o REPORT.md] [--json FILE]\n"
    "                                            a tree against a baseline over a configuration matrix,\n"
    "                                            on the real kernels (irqsim review --help, docs/REVIEW.md)\n"
    "\n"
    EXIT_STATUS_TEXT;

/* irqsim fuzz --help: fuzz's options alone (docs/FUZZING.md) */
static const char fuzz_usage[] =
    "usage: irqsim fuzz [options]\n"
    "  differential fuzzing: generated states (or workloads) through both paths, divergences\n"
    "  classed, shrunk and summarised by defect (default: the proposal pr1227, 60 s; docs/FUZZING.md)\n"
    TARGET_OPTIONS
    FUZZ_OPTIONS
    "  irqsim fuzz --real BUILD [--fastpath as-built|fixed] [--target irq|signal|call]: a host-built\n"
    "                   kernel's own fastpath against its own slowpath (docs/REAL-KERNEL.md)\n"
    EXIT_STATUS_TEXT;

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "irqsim %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(irqsim --help lists the options)\n");
    return EXIT_USAGE;
}

struct opts {
    const char *cmd;
    int variant;
    const char *variant_name; /* --fastpath as given, resolved per target */
    const struct target *target; /* from --target, NULL when not given */
    unsigned admit; /* enum inv_admit: leftovers accepted at entry */
    int kernel; /* enum ks_kernel from --kernel, -1 when not given */
    int path; /* --path: RUN_SLOW, RUN_FAST; -1 when not given */
    int mode, by; /* --mode state|workload, --by defect|class: their indexes */
    const char *out_file;
    struct fuzz_opts fuzz;
    bool seconds_set;
    const char *files[256];
    int n_files;
};

/* --fastpath's value for a target's variants (pr1227|fixed, merged|fixed) */
static int resolve_variant(struct opts *o, const struct target *t)
{
    return cli_variant(o->cmd, t, o->variant_name, "", &o->variant) ? -1 : 0;
}

enum { RUN_SLOW, RUN_FAST }; /* --path */

static int add_file(void *opts, const char *arg, char *why, size_t len)
{
    struct opts *o = opts;
    if (o->n_files == (int)(sizeof o->files / sizeof o->files[0])) {
        snprintf(why, len, "too many files (at most 256)");
        return -1;
    }
    o->files[o->n_files++] = arg;
    return 0;
}

static int admit_opt(void *opts, const char *v, char *why, size_t len)
{
    struct opts *o = opts;
    snprintf(why, len, "expected pr1227, fixed, all, none or a list of "
                       "action,reprogram,outranked,domain_end,masked,inherited,ipi");
    return inv_admit_parse(v, &o->admit);
}

/* The options of check, run, minimize, gen, ratio and fuzz (one table: the
 * commands share their bounds and their target). */
#define O struct opts
static const struct cli_opt family_table[] = {
    CLI_ROW(O, "--no-smp", CLI_CLEAR, fuzz.bounds.allow_smp),
    CLI_ROW(O, "--uniform-clock", CLI_CLEAR, fuzz.bounds.edges),
    CLI_ROW(O, "--realistic", CLI_SET, fuzz.bounds.realistic),
    CLI_ROW(O, "--vcpus", CLI_SET, fuzz.bounds.vcpus),
    CLI_ROW(O, "--signal-fastpath", CLI_SET, fuzz.signal_fastpath),
    CLI_ROW(O, "--quiet", CLI_CLEAR, fuzz.progress),
    {"--seconds", CLI_REAL, offsetof(O, fuzz.seconds), 0.1, 86400, NULL, NULL, offsetof(O, seconds_set)},
    CLI_NUM(O, "--seed", CLI_U64, fuzz.seed, 0, 1e15),
    CLI_NUM(O, "--jobs", CLI_INT, fuzz.jobs, 1, 64),
    CLI_NUM(O, "--threads", CLI_INT, fuzz.bounds.max_threads, 1, 62),
    CLI_NUM(O, "--prios", CLI_INT, fuzz.bounds.prios, 1, 256),
    CLI_NUM(O, "--refills", CLI_INT, fuzz.bounds.max_refills, 1, 16),
    CLI_NUM(O, "--domains", CLI_INT, fuzz.bounds.max_domains, 1, 16),
    CLI_NUM(O, "--ntfns", CLI_INT, fuzz.bounds.max_ntfns, 1, 16),
    CLI_NUM(O, "--check-every", CLI_INT, fuzz.check_every, 1, 1e6),
    CLI_NUM(O, "--count", CLI_U64, fuzz.count, 1, 1e9),
    CLI_NUM(O, "--checks", CLI_U64, fuzz.max_checks, 1, 1e15),
    CLI_NUM(O, "--clocks", CLI_INT, fuzz.clocks, 1, 64),
    CLI_NUM(O, "--cores", CLI_INT, fuzz.cores, 1, KS_MAX_CORES),
    CLI_ROW(O, "--fastpath", CLI_STR, variant_name),
    CLI_ROW(O, "--target", CLI_TARGET, target),
    CLI_CALL("--admit", admit_opt),
    CLI_ROW(O, "--kernel", CLI_KERNEL, kernel),
    CLI_PICK(O, "--path", path, "slow|fast"),
    CLI_PICK(O, "--mode", mode, "state|workload"),
    CLI_PICK(O, "--by", by, "defect|class"),
    CLI_ROW(O, "--out", CLI_STR, fuzz.out_dir),
    CLI_ROW(O, "--json", CLI_STR, fuzz.json),
    CLI_ROW(O, "-o", CLI_STR, out_file),
    CLI_ROW(O, "--board", CLI_BOARD, fuzz.bounds.board),
};
#undef O

static int parse_opts(struct opts *o, int argc, char **argv)
{
    bool fuzz = !strcmp(o->cmd, "fuzz");
    struct cli_cmd c = {o->cmd, fuzz ? fuzz_usage : usage_text, fuzz ? "irqsim fuzz --help" : "irqsim --help", family_table,
                        sizeof family_table / sizeof family_table[0], add_file};
    int rc = cli_parse(&c, o, 2, argc, argv);
    if (rc)
        return rc == 1 ? -1 : rc;
    if (o->target)
        o->fuzz.bounds.target = o->target;
    const struct target *t = o->target ? o->target : target_default();
    int kernel = target_kernel(t, o->kernel, o->fuzz.bounds.kernel);
    if (kernel < 0) {
        char why[128];
        snprintf(why, sizeof why, "--kernel %s: the %s target models %s's fastpath only", cfg_kernel_name(o->kernel),
                 t->name, cfg_kernel_name(t->kernel));
        return usage_error(o->cmd, "%s", why);
    }
    o->fuzz.bounds.kernel = kernel;
    o->fuzz.workload_mode = o->mode == 1;
    o->fuzz.by_class = o->by == 1;
    if (o->seconds_set && o->fuzz.max_checks)
        return usage_error(o->cmd, "--checks and --seconds exclude each other (a budget of states or of time)%s", "");
    /* with scenario files and no --target, each file's entry decides (load_valid) */
    if ((o->target || !o->n_files) && resolve_variant(o, o->target ? o->target : target_default()) != 0)
        return EXIT_USAGE;
    o->fuzz.variant = o->variant;
    return 0;
}

/* Load a scenario and require a valid entry state; errors name the file.
 * kernel (enum ks_kernel, -1: the file's) replaces the file's kernel. */
static int load_valid(struct opts *o, const char *path, struct kstate *ks)
{
    unsigned admit = o->admit;
    int kernel = o->kernel;
    struct scen_error err;
    if (scenario_load(path, ks, &err) != 0) {
        scen_error_print(stderr, &err);
        return -1;
    }
    if (o->target && o->target != target_of(ks)) {
        const struct target *t = target_of(ks);
        fprintf(stderr, "%s: the scenario is at %s entry (target %s), not --target %s%s\n", path, t->words.entry_a,
                t->name, o->target->name, t->words.mismatch_hint);
        return -1;
    }
    if (resolve_variant(o, target_of(ks)) != 0)
        return -1;
    if (kernel >= 0) {
        ks->cfg.kernel = (uint8_t)kernel;
        ks->cfg.features = 0; /* --kernel: the version's row */
    }
    const struct target *t = target_of(ks);
    if (target_kernel(t, ks->cfg.kernel, ks->cfg.kernel) < 0 || (t->kernel >= 0 && ks->cfg.features != 0)) {
        fprintf(stderr, "%s: the %s target models %s's fastpath only, not kernel %s%s\n", path, t->name,
                cfg_kernel_name(t->kernel), cfg_kernel_name(ks->cfg.kernel), ks->cfg.features ? " with features=" : "");
        return -1;
    }
    struct inv_report r;
    int n = kstate_check_admit(ks, INV_AT_ENTRY, admit, &r);
    if (!n)
        return 0;
    fprintf(stderr, "%s: not a reachable kernel state at entry: %d invariant%s broken\n", path, n, n == 1 ? "" : "s");
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
        fprintf(stderr, "%s: invariant %s: %s\n", path, inv_name(r.items[i].id), r.items[i].msg);
    return -1;
}

struct states {
    struct kstate in, slow, fast;
};

/* The fuzzer's name for a divergence of the proposal: exit and cause. */
static void print_class(const struct kstate *in, const struct diff_verdict *v)
{
    struct classify_ws *ws = malloc(sizeof *ws);
    if (!ws)
        return;
    struct dclass cl = {.exit = v->exit, .fields = v->fields, .cause = diff_kernel_own(v) ? CLASS_KERNEL : classify_cause(in, ws), .target = target_index(target_of(in))};
    char name[200];
    printf("class: %s\n", dclass_name(&cl, name, sizeof name));
    free(ws);
}

static int cmd_check(struct opts *o, struct states *st)
{
    if (!o->n_files)
        return usage_error(o->cmd, "no scenario file given%s", "");
    int rc = EXIT_AGREE;
    for (int i = 0; i < o->n_files; i++) {
        printf("== %s\n", o->files[i]);
        if (load_valid(o, o->files[i], &st->in) != 0) {
            rc = EXIT_USAGE;
            continue;
        }
        struct diff_verdict v;
        diff_run(&st->in, o->variant, true, &v, &st->slow, &st->fast);
        diff_report(stdout, &v, &st->slow, &st->fast);
        if (v.agree)
            continue;
        if (o->variant == FP_PR1227)
            print_class(&st->in, &v);
        if (rc == EXIT_AGREE)
            rc = EXIT_DIVERGE;
    }
    return rc;
}

static int cmd_run(struct opts *o, struct states *st)
{
    if (o->n_files != 1 || o->path < 0)
        return usage_error(o->cmd, "needs --path slow|fast and one scenario file%s", "");
    if (load_valid(o, o->files[0], &st->in) != 0)
        return EXIT_USAGE;
    ks_copy(&st->slow, &st->in);
    const struct target *t = target_of(&st->in);
    if (o->path == RUN_SLOW) {
        t->slow(&st->slow);
        printf("# outcome of the slowpath\n");
    } else {
        int e = target_fast(t, &st->slow, o->variant);
        printf("# outcome of the %s fastpath: exit %s (%s)\n", t->variant_name(o->variant), t->exit_name(e),
               t->exit_what(e));
    }
    ks_print(stdout, &st->slow);
    return EXIT_AGREE;
}

static int cmd_minimize(struct opts *o, struct states *st)
{
    if (o->n_files != 1)
        return usage_error(o->cmd, "needs exactly one scenario file%s", "");
    if (out_not_input("irqsim minimize", (const char *const *)&o->out_file, 1, o->files, 1))
        return EXIT_USAGE;
    if (load_valid(o, o->files[0], &st->in) != 0)
        return EXIT_USAGE;
    struct shrink_ws *ws = malloc(sizeof *ws);
    if (!ws)
        return EXIT_USAGE;
    unsigned fixes = target_variant_fixes(target_of(&st->in), o->variant);
    struct dclass cl;
    struct diff_verdict v;
    if (!classify_run(&st->in, fixes, &ws->cws, &cl, &v)) {
        fprintf(stderr, "%s: the paths agree; nothing to minimize\n", o->files[0]);
        free(ws);
        return EXIT_AGREE;
    }
    int before = shrink_size(&st->in);
    shrink_state(&st->in, fixes, ws);
    char name[160];
    fprintf(stderr, "%s: class %s, size %d -> %d\n", o->files[0], dclass_name(&cl, name, sizeof name), before,
            shrink_size(&st->in));
    free(ws);
    if (!o->out_file) {
        ks_print(stdout, &st->in);
        return EXIT_DIVERGE;
    }
    return fuzz_write_scenario(o->out_file, &st->in, o->variant, "minimized") ? EXIT_OUTPUT : EXIT_DIVERGE;
}

static int cmd_gen(struct opts *o, struct states *st)
{
    struct gen_src src;
    gen_src_seed(&src, o->fuzz.seed);
    if (gen_state(&st->in, &src, &o->fuzz.bounds) != 0)
        return usage_error(o->cmd, "bounds not usable: %s", gen_bounds_check(&o->fuzz.bounds));
    printf("# generated from seed %" PRIu64 "\n", o->fuzz.seed);
    ks_print(stdout, &st->in);
    return EXIT_AGREE;
}

/* On how many generated states the corrected fastpath still finishes by
 * itself where the fastpath as written does (the proposal's fastpath_irq,
 * or master's fastpath_signal with --target signal). */
static int cmd_ratio(struct opts *o, struct states *st)
{
    const struct target *t = o->fuzz.bounds.target;
    const char *as_written = t->variant_name(FP_PR1227), *fixed = t->variant_name(FP_FIXED);
    uint64_t n = o->fuzz.count, both = 0, fast_pr = 0, fast_fixed = 0, right = 0, right_fx = 0;
    uint64_t lost[TARGET_MAX_EXITS] = {0}; /* the fixed exit where it falls back on a right state */
    for (uint64_t seed = o->fuzz.seed; seed < o->fuzz.seed + n; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        gen_state(&st->in, &src, &o->fuzz.bounds);
        struct diff_verdict v;
        diff_run(&st->in, FP_PR1227, false, &v, &st->slow, &st->fast);
        bool pr = !t->exit_is_fallback(v.exit);
        ks_copy(&st->fast, &st->in);
        int fx_exit = target_fast(t, &st->fast, FP_FIXED);
        bool fx = !t->exit_is_fallback(fx_exit);
        lost[fx_exit] += pr && v.agree && !fx;
        fast_pr += pr;
        fast_fixed += fx;
        both += pr && fx;
        right += pr && v.agree;
        right_fx += pr && v.agree && fx;
    }
    printf("generated states: %" PRIu64 " (seeds %" PRIu64 "..%" PRIu64 ", target %s, entry clock %s)\n", n,
           o->fuzz.seed, o->fuzz.seed + n - 1, t->name,
           o->fuzz.bounds.realistic ? "uniform, realistic timing"
           : o->fuzz.bounds.edges  ? "drawn to the edges"
                                   : "uniform up to the deadline");
    printf("finish by themselves: %s %" PRIu64 " (%.1f%%), %s %" PRIu64 " (%.1f%%)\n", as_written, fast_pr,
           100.0 * (double)fast_pr / (double)n, fixed, fast_fixed, 100.0 * (double)fast_fixed / (double)n);
    printf("of the states %s finishes by itself, %s also does: %.1f%%\n", as_written, fixed,
           fast_pr ? 100.0 * (double)both / (double)fast_pr : 0.0);
    printf("of those on which %s is also right (agrees), %s finishes by itself on: %.1f%% (%" PRIu64 " of %" PRIu64
           ")\n",
           as_written, fixed, right ? 100.0 * (double)right_fx / (double)right : 0.0, right_fx, right);
    if (right_fx == right)
        return EXIT_AGREE;
    printf("where %s falls back on them instead:", fixed);
    for (int e = 0; e < t->exits; e++)
        if (lost[e])
            printf(" %s %" PRIu64, t->exit_name(e), lost[e]);
    putchar('\n');
    return EXIT_AGREE;
}

static int cmd_fuzz(struct opts *o)
{
    if (o->n_files)
        return usage_error(o->cmd, "takes no files (got '%s')", o->files[0]);
    if (o->fuzz.workload_mode && o->fuzz.jobs != 1)
        return usage_error(o->cmd, "--mode workload runs one job (got --jobs %s)", "> 1");
    if (o->fuzz.signal_fastpath && (!o->fuzz.workload_mode || o->fuzz.bounds.target->built))
        return usage_error(o->cmd, "--signal-fastpath is for --mode workload of an IRQ target (%s)",
                           "it builds the kernel's own fastpath_signal beside the one under check");
    if (!o->fuzz.workload_mode && o->fuzz.cores != 1)
        return usage_error(o->cmd, "--cores is for --mode workload (generated states are on two cores %s)",
                           "unless --no-smp");
    return o->fuzz.workload_mode ? wlfuzz_run(&o->fuzz) : fuzz_run(&o->fuzz);
}

static int run_command(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        cli_usage(argc < 2 ? stderr : stdout, usage_text);
        return argc < 2 ? EXIT_USAGE : EXIT_AGREE;
    }
    if (realcmd_wants(argc, argv)) /* kernel, validate, fuzz/check/bench --real */
        return realcmd_main(argc, argv);
    if (!strcmp(argv[1], "review"))
        return review_main(argc, argv);
    if (!strcmp(argv[1], "bench")) /* bench and cost parse their own options */
        return bench_main(argc, argv);
    if (!strcmp(argv[1], "cost"))
        return cost_main(argc, argv);
    if (!strcmp(argv[1], "report"))
        return report_main(argc, argv);
    if (!strcmp(argv[1], "replay"))
        return replay_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "sim"))
        return sim_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "exhaust"))
        return exec_wanted(argc - 1, argv + 1) ? exec_main(argc - 1, argv + 1) : exhaust_main(argc - 1, argv + 1);

    static struct opts o; /* large; main's frame only */
    o.cmd = argv[1];
    o.variant = FP_PR1227;
    o.kernel = -1;
    o.path = -1;
    o.target = NULL;
    o.fuzz.seconds = 60;
    o.fuzz.seed = 1;
    o.fuzz.jobs = 1;
    o.fuzz.progress = true;
    o.fuzz.check_every = 8;
    o.fuzz.clocks = FUZZ_DEFAULT_CLOCKS;
    o.fuzz.count = 100000;
    o.fuzz.cores = 1;
    gen_bounds_default(&o.fuzz.bounds);
    int rc = parse_opts(&o, argc, argv);
    if (rc)
        return rc < 0 ? EXIT_AGREE : rc; /* -1: --help printed the usage */
    struct states *st = malloc(sizeof *st);
    if (!st) {
        fprintf(stderr, "irqsim: out of memory\n");
        return EXIT_USAGE;
    }
    if (!strcmp(o.cmd, "check"))
        rc = cmd_check(&o, st);
    else if (!strcmp(o.cmd, "run"))
        rc = cmd_run(&o, st);
    else if (!strcmp(o.cmd, "minimize"))
        rc = cmd_minimize(&o, st);
    else if (!strcmp(o.cmd, "gen"))
        rc = cmd_gen(&o, st);
    else if (!strcmp(o.cmd, "ratio"))
        rc = cmd_ratio(&o, st);
    else if (!strcmp(o.cmd, "fuzz"))
        rc = cmd_fuzz(&o);
    else
        rc = usage_error(o.cmd, "unknown command%s; try irqsim --help", "");
    free(st);
    return rc;
}

/* Standard output is checked in this one place for every command: a
 * closed one before the command runs, a failed write (a full disk,
 * /dev/full) at the end, after the command's own outputs; then a run
 * stopped by SIGINT or SIGTERM ends by that signal (stop_exit). */
int main(int argc, char **argv)
{
    char who[64];
    snprintf(who, sizeof who, "irqsim%s%.40s", argc >= 2 ? " " : "", argc >= 2 ? argv[1] : "");
    if (out_stdout_open(who) != 0)
        return OUT_FAILED;
    return stop_exit(out_stdout_close(who, run_command(argc, argv)));
}
