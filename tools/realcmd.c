/* realcmd: the real-kernel commands (realcmd.h, docs/REAL-KERNEL.md): the
 * options, the build, check's scenario loading, the JSON; what runs on a
 * target's entry is its driver's (realdrv.h), looked up by the run's
 * target (a scenario's: its own entry's). */
#define _POSIX_C_SOURCE 200809L
#include "realcmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "invariant.h"
#include "kcovcmd.h"
#include "out.h"
#include "realdrv.h"
#include "scenario.h"
#include "stop.h"

#ifndef IRQSIM_SOURCE_DIR
#define IRQSIM_SOURCE_DIR "."
#endif

static const char usage[] =
    "usage: irqsim kernel build --sel4 DIR|TARBALL [--board B] [--domains N] [--cores 1|2] [--debug|--release]\n"
    "                           [--cache DIR] [--pyfdt DIR|TARBALL] [-D NAME=VALUE]... [--force] [--quiet]\n"
    "                           [--coverage] (irqsim kernel --help)\n"
    "       irqsim kernel coverage BUILD [--seconds N] [--json FILE] ...   (irqsim kernel coverage --help)\n"
    "       irqsim validate --real BUILD [--target irq|signal|call|reply_recv] [--seconds N | --checks N] [--seed S] [--kernel K]\n"
    "                       [--show] [--out DIR] [--json FILE] [--quiet]\n"
    "       irqsim fuzz --real BUILD [--target irq|signal|call|reply_recv] [--fastpath as-built|fixed] [--seconds N | --checks N]\n"
    "                   [--seed S] [--kernel K] [--by defect|class] [--verbose] [--show] [--jobs 1] [--out DIR]\n"
    "                   [--json FILE] [--quiet]\n"
    "       irqsim check --real BUILD [--kernel K] FILE...\n"
    "       irqsim bench --real BUILD [--checks N] [--seed S]\n"
    "       irqsim review --sel4 TREE [--baseline TREE] ...   (irqsim review --help, docs/REVIEW.md)\n"
    "  BUILD             the directory `irqsim kernel build` printed (docs/REAL-KERNEL.md); relative paths\n"
    "                    are the caller's\n"
    "  --target T        irq (an interrupt, default) or signal (a seL4_Send: the signal fastpath), call,\n"
    "                    reply_recv; validate without it: the interrupt entries, then the system calls\n"
    "                    whose slowpaths no interrupt runs (DomainSet_Set, TCB_SetFlags, seL4_Send on a\n"
    "                    notification), slowpath only, for a fifth of --seconds or a quarter of --checks\n"
    "  --fastpath F      fuzz: as-built (the build's fastpath_irq, default) or fixed (the kernel-C corrected\n"
    "                    one); refused on a build without fastpath_irq\n"
    "  --seconds N       run for N seconds (default 60); --checks N: exactly N states instead\n"
    "  --seed S          the first state's seed (default 1)\n"
    "  --kernel K        base or master, the kernel the model mirrors (default: the build's, kernel.info;\n"
    "                    check: the file's)\n"
    "  --by defect|class fuzz: the summary's kinds: the 10 largest after the unexplained (defect, default),\n"
    "                    or every kind (class)\n"
    "  --verbose         fuzz: each kind's field differences as it is found\n"
    "  --show            --target signal: every state's differing fields\n"
    "  --jobs N          fuzz: 1 only (the kernel's globals are one per process)\n"
    "  --out DIR         a reproducer scenario for the first state of each kind\n"
    "  --json FILE       the run as JSON (irqsim report reads a fuzz --real one)\n"
    "  --quiet           no progress line on stderr (the default when stderr is not a terminal)\n"
    "  -h, --help        this text\n";

static int bad(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "irqsim %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return EXIT_USAGE;
}

bool realcmd_wants(int argc, char **argv)
{
    if (argc < 2)
        return false;
    if (!strcmp(argv[1], "kernel") || !strcmp(argv[1], "validate"))
        return true;
    if (strcmp(argv[1], "fuzz") && strcmp(argv[1], "check") && strcmp(argv[1], "bench"))
        return false;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--real"))
            return true;
    return false;
}

/* ---- kernel build: the script does the work ---- */

static bool is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help");
}

/* `irqsim kernel build ARGS` runs real/build-kernel.sh ARGS in the caller's
 * working directory (relative paths are the caller's); `irqsim kernel
 * --help` is the script's --help, which lists its options, the cache key
 * and the exit statuses. */
static int kernel_build(int argc, char **argv)
{
    bool help = argc >= 3 && is_help(argv[2]);
    if (!help && (argc < 3 || strcmp(argv[2], "build")))
        return bad("kernel", "expected 'kernel build', 'kernel coverage' or 'kernel --help', got '%s'", argc < 3 ? "kernel" : argv[2]);
    char script[600];
    snprintf(script, sizeof script, "%s/real/build-kernel.sh", IRQSIM_SOURCE_DIR);
    if (access(script, X_OK)) {
        fprintf(stderr, "irqsim kernel: %s: %s (run irqsim from the build of a source tree)\n", script,
                strerror(errno));
        return EXIT_USAGE;
    }
    char **args = calloc((size_t)argc, sizeof *args);
    if (!args)
        return EXIT_USAGE;
    args[0] = script;
    if (help)
        args[1] = "--help";
    else
        for (int i = 3; i < argc; i++)
            args[i - 2] = argv[i];
    execv(script, args);
    fprintf(stderr, "irqsim kernel: cannot run %s: %s\n", script, strerror(errno));
    free(args);
    return EXIT_USAGE;
}

/* ---- options ---- */

static int real_file(void *opts, const char *arg, char *why, size_t len)
{
    struct real_opts *o = opts;
    if (o->n_files == REAL_MAX_FILES) {
        snprintf(why, len, "too many files (at most %d)", REAL_MAX_FILES);
        return -1;
    }
    o->files[o->n_files++] = arg;
    return 0;
}

#define O struct real_opts
static const struct cli_opt real_table[] = {
    CLI_ROW(O, "--real", CLI_STR, build),
    {"--seconds", CLI_REAL, offsetof(O, seconds), 0.01, 1e7, NULL, NULL, offsetof(O, seconds_set)},
    CLI_NUM(O, "--checks", CLI_U64, checks, 1, 1e15),
    CLI_NUM(O, "--seed", CLI_U64, seed, 0, 1.8e19),
    CLI_ROW(O, "--json", CLI_STR, json),
    CLI_ROW(O, "--out", CLI_STR, out),
    {"--fastpath", CLI_CHOICE, offsetof(O, fastpath), 0, 0, "as-built|fixed", NULL, offsetof(O, fastpath_set)},
    {"--target", CLI_TARGET, offsetof(O, target), 0, 0, NULL, NULL, offsetof(O, target_set)},
    CLI_ROW(O, "--kernel", CLI_KERNEL, kernel),
    CLI_ROW(O, "--show", CLI_SET, show),
    CLI_ROW(O, "--verbose", CLI_SET, verbose),
    CLI_PICK(O, "--by", by, "defect|class"),
    CLI_NUM(O, "--jobs", CLI_INT, jobs, 1, 64),
    CLI_ROW(O, "--quiet", CLI_CLEAR, progress),
};
#undef O

static int parse(int argc, char **argv, struct real_opts *o)
{
    /* --help anywhere, even after --real, whose value it would be */
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return -1;
        }
    memset(o, 0, sizeof *o);
    o->jobs = 1;
    o->cmd = argv[1];
    o->seconds = 60;
    o->seed = 1;
    o->progress = isatty(2);
    o->kernel = -1;
    o->target = target_default();
    struct cli_cmd c = {o->cmd, usage, NULL, real_table, sizeof real_table / sizeof real_table[0], real_file};
    int rc = cli_parse(&c, o, 2, argc, argv);
    if (rc)
        return rc == 1 ? -1 : rc;
    o->fixed = o->fastpath == 1;
    o->driver = real_driver_of(o->target);
    if (!o->driver)
        return cli_error(&c, "--target %s: no real-kernel bridge for it", o->target->name);
    if (!o->build)
        return cli_error(&c, "needs --real BUILD (the directory `irqsim kernel build` printed)");
    if (out_not_input("irqsim check --real", &o->json, 1, o->files, o->n_files))
        return 2;
    if (o->checks && o->seconds_set)
        return cli_error(&c, "--checks and --seconds exclude each other");
    if (strcmp(o->cmd, "check") && o->n_files)
        return cli_error(&c, "takes no files (got '%s')", o->files[0]);
    if (!strcmp(o->cmd, "check") && !o->n_files)
        return cli_error(&c, "no scenario file given");
    if (o->jobs > 1)
        return cli_error(&c, "--jobs %d: the --real commands run one job (a host kernel's globals are one per "
                             "process); run several processes with different --seed values instead", o->jobs);
    if (strcmp(o->cmd, "fuzz") && (o->verbose || o->by))
        return cli_error(&c, "%s is for fuzz --real", o->verbose ? "--verbose" : "--by");
    if (!strcmp(o->cmd, "bench") && !o->driver->bench)
        return cli_error(&c, "--target %s: no bench --real for it", o->target->name);
    if (o->fixed && !o->driver->corrected_in_c)
        return cli_error(&c, "--fastpath fixed: there is no kernel-C corrected %s fastpath", o->target->name);
    return 0;
}

static int open_build(const struct real_opts *o, struct real_run *r)
{
    char err[600];
    if (rk_open(&r->k, o->build, err, sizeof err)) {
        fprintf(stderr, "irqsim %s: %s\n", o->cmd, err);
        return -1;
    }
    if (o->driver->refused && o->driver->refused(o, r)) {
        rk_close(&r->k);
        return -1;
    }
    if (o->out && out_dir(real_who(o), o->out) != 0)
        return -2;
    printf("real kernel: %s\n  board %s, commit %s, %s, %u domain%s, %s; timer %" PRIu64 " Hz, maxIRQ %u, GICv%u\n",
           r->k.dir, r->k.board, r->k.commit[0] ? r->k.commit : "?", r->k.info.debug ? "debug" : "release",
           r->k.cfg.num_domains, r->k.cfg.num_domains == 1 ? "" : "s", r->k.cfg.smp ? "2 cores" : "1 core",
           r->k.cfg.timer_hz, r->k.cfg.max_irq, r->k.cfg.gic_version);
    /* the model is the kernel the build is of (kernel.info features)
     * unless --kernel says otherwise */
    rk_model(&r->k, o->kernel);
    char feats[CFG_FEATURES_TEXT_LEN], diff[2 * CFG_FEATURES_TEXT_LEN + 16];
    if (r->k.cfg.features) /* a tree between the versions: its own features */
        printf("  model: the tree's own features (kernel.info model_features: %s): kernel %s's but %s\n",
               cfg_features_text(r->k.cfg.features, feats, sizeof feats), cfg_kernel_name(r->k.cfg.kernel),
               cfg_features_diff(r->k.cfg.features, cfg_kernel_features(r->k.cfg.kernel), diff, sizeof diff));
    else
        printf("  model: kernel %s (%s)\n", cfg_kernel_name(r->k.cfg.kernel),
               o->kernel >= 0 ? "--kernel" : "the build's, kernel.info features; --kernel overrides");
    return 0;
}

/* ---- check: scenario files through the real kernel ---- */

/* The build's compile-time constants against the scenario's. */
static const char *config_mismatch(const struct ks_config *s, const struct ks_config *k)
{
    if (s->timer_hz != k->timer_hz || s->wcet_us != k->wcet_us || s->wcet_scale != k->wcet_scale ||
        s->precision_us != k->precision_us || s->overhead_ticks != k->overhead_ticks)
        return "timer (frequency, WCET, precision, overhead)";
    if (s->max_irq != k->max_irq)
        return "maxIRQ";
    if (s->gic_version != k->gic_version)
        return "GIC version";
    if ((s->num_domains > 1) != (k->num_domains > 1) || s->num_domains > k->num_domains)
        return "number of domains";
    if (s->smp != k->smp)
        return "cores";
    if (s->fpu != k->fpu || s->hyp != k->hyp)
        return "FPU or hypervisor";
    return NULL;
}

static int check_file(struct real_run *r, const char *path, int o_kernel)
{
    struct scen_error err;
    printf("== %s\n", path);
    if (scenario_load(path, &r->in, &err)) {
        scen_error_print(stderr, &err);
        return EXIT_USAGE;
    }
    struct inv_report rep;
    if (kstate_check(&r->in, INV_AT_ENTRY, &rep)) {
        fprintf(stderr, "%s: not a reachable kernel state at entry: invariant %s: %s\n", path,
                inv_name(rep.items[0].id), rep.items[0].msg);
        return EXIT_USAGE;
    }
    const char *why = config_mismatch(&r->in.cfg, &r->k.cfg);
    if (why) {
        fprintf(stderr, "%s: its configuration (board %s) differs from the build's (%s) in: %s\n", path,
                r->in.cfg.board, r->k.board, why);
        return EXIT_USAGE;
    }
    uint8_t kernel = r->in.cfg.kernel;
    ks_features features = r->in.cfg.features;
    r->in.cfg = r->k.cfg;
    if (o_kernel < 0) { /* no --kernel: the file's */
        r->in.cfg.kernel = kernel;
        r->in.cfg.features = features;
    }
    /* the scenario's own entry picks the driver, not --target */
    const struct target *t = target_of(&r->in);
    const struct real_driver *d = real_driver_of(t);
    if (!d) {
        fprintf(stderr, "%s: a %s entry, and the real-kernel bridge has no driver for it\n", path, t->name);
        return EXIT_USAGE;
    }
    return d->check(r, path);
}

/* ---- JSON ---- */

static int write_json(const struct real_opts *o, const struct real_run *r)
{
    struct out *out = out_open(real_who(o), o->json);
    if (!out)
        return -1;
    FILE *f = out->f;
    double t = progress_now() - r->t0;
    /* the build's folder, board and commit come from the command line and
     * the build's kernel.info: escaped */
    fprintf(f, "{\"command\": \"%s\", \"build\": ", o->cmd);
    out_string(out, r->k.dir);
    fprintf(f, ", \"board\": ");
    out_string(out, r->k.board);
    fprintf(f, ", \"commit\": ");
    out_string(out, r->k.commit);
    fprintf(f, ", \"checks\": %" PRIu64 ", \"seconds\": %.2f, \"checks_per_second\": %.0f, \"diverged\": %" PRIu64
               ", \"named\": %" PRIu64 ", \"halts\": %" PRIu64 ", \"known_halts\": %" PRIu64 ", \"predicted_halts\": %" PRIu64 ",\n \"defects\": {",
            r->checks, t, (double)r->checks / t, r->diverged, r->classified, r->halts, r->known, r->predicted);
    const char *sep = "";
    for (int d = 0; d < o->target->n_defects; d++)
        if (r->defect_hits[d]) {
            fprintf(f, "%s\"%s\": %" PRIu64, sep, defect_info(o->target, d)->id, r->defect_hits[d]);
            sep = ", ";
        }
    fprintf(f, "},\n");
    if (!strcmp(o->cmd, "fuzz")) {
        fprintf(f, " \"fields\": {");
        sep = "";
        for (int d = 0; d < DF_COUNT; d++)
            if (r->field_hits[d]) {
                fprintf(f, "%s\"%s\": %" PRIu64, sep, diff_field_name(d), r->field_hits[d]);
                sep = ", ";
            }
        fprintf(f, "},\n");
    }
    if (r->sys.ran) /* validate without --target: its system-call pass, in the totals above too */
        fprintf(f, " \"syscalls\": {\"checks\": %" PRIu64 ", \"diverged\": %" PRIu64 ", \"halts\": %" PRIu64
                   ", \"seconds\": %.2f},\n",
                r->sys.checks, r->sys.diverged, r->sys.halts, r->sys.seconds);
    fprintf(f, " ");
    realinv_json(f, &r->inv);
    fprintf(f, ",\n \"kinds_dropped\": %" PRIu64 ",\n", r->dropped);
    fprintf(f, " \"kinds\": [");
    for (int i = 0; i < r->n_classes; i++) {
        const struct rclass *c = &r->classes[i];
        char fields[200], cause[120];
        fprintf(f, "%s\n  {\"path\": \"%s\", \"fields\": \"%s\", \"halt\": %s, \"model_cause\": \"%s\", \"count\": %" PRIu64
                   ", \"seed\": %" PRIu64 ", \"first_seconds\": %.2f, \"reproducer\": ",
                i ? "," : "", c->path_name ? c->path_name : "-", diff_fields_text(c->fields, fields, sizeof fields),
                c->halt ? "true" : "false", c->cause ? cause_text(o->target, c->cause, cause, sizeof cause) : "none",
                c->count, c->first_seed, c->first_s);
        out_string(out, c->reproducer ? c->reproducer : "");
        /* a halt's text; whether a known defect explains the kind (fuzz) */
        fprintf(f, ", \"text\": ");
        out_string(out, c->halt ? c->text : "");
        fprintf(f, ", \"unexplained\": %s", c->path < 0 && real_unexplained(c) ? "true" : "false");
        fputc('}', f);
    }
    fprintf(f, "]");
    if (stop_requested())
        fprintf(f, ", \"interrupted\": \"%s\"", stop_name(stop_requested()));
    fprintf(f, "}\n");
    return out_close(out);
}

/* What validate without --target leaves to the system-call targets:
 * their fastpaths (the pass runs each one's slowpath, real_syscall_pass) */
static void print_not_run(void)
{
    printf("  not run: the fastpaths of --target");
    const char *sep = " ";
    for (int i = 0; target_at(i); i++)
        if (target_at(i)->syscall_entry) {
            printf("%s%s", sep, target_at(i)->name);
            sep = ", ";
        }
    printf("; irqsim review runs every target\n");
}

/* validate: the target's driver; without --target, the interrupt entries
 * for four fifths of --seconds, then the system calls whose slowpaths no
 * interrupt entry runs (real_syscall_pass: every system-call target's) for
 * the rest, or --checks N interrupt entries and N/4 calls of the first
 * system-call target, N/16 of each other (at least one each) */
static int validate(const struct real_opts *o, struct real_run *r)
{
    if (o->target_set)
        return o->driver->validate(o, r);
    struct real_opts irq = *o;
    if (!o->checks)
        irq.seconds = o->seconds * 0.8;
    int rc = o->driver->validate(&irq, r);
    if (rc == EXIT_USAGE || stop_requested())
        return rc;
    double left = o->seconds - (progress_now() - r->t0);
    if (left < o->seconds * 0.1)
        left = o->seconds * 0.1;
    int s = real_syscall_pass(o, r, o->checks ? (o->checks + 3) / 4 : 0, left);
    if (!stop_requested())
        print_not_run();
    return s > rc ? s : rc;
}

int realcmd_main(int argc, char **argv)
{
    if (!strcmp(argv[1], "kernel"))
        return argc >= 3 && !strcmp(argv[2], "coverage") ? kcovcmd_main(argc, argv) : kernel_build(argc, argv);
    struct real_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_AGREE : rc; /* -1: --help printed the usage */
    struct real_run *r = calloc(1, sizeof *r);
    if (!r)
        return EXIT_USAGE;
    int opened = open_build(&o, r);
    if (opened) {
        free(r);
        return opened == -2 ? EXIT_OUTPUT : EXIT_USAGE;
    }
    r->t0 = progress_now();
    r->inv = (struct realinv){.cmd = o.cmd, .who = real_who(&o), .out = o.out, .kernel = r->k.dir};
    stop_catch();
    if (!strcmp(o.cmd, "validate")) {
        rc = validate(&o, r);
    } else if (!strcmp(o.cmd, "fuzz")) {
        rc = o.driver->fuzz(&o, r);
    } else if (!strcmp(o.cmd, "bench")) {
        rc = o.driver->bench(&o, r);
    } else {
        rc = EXIT_AGREE;
        for (int i = 0; i < o.n_files && !stop_requested(); i++) {
            int c = check_file(r, o.files[i], o.kernel);
            rc = c > rc ? c : rc;
        }
    }
    if (r->dropped) /* count() keeps REAL_MAX_CLASSES kinds; the rest are counted here only */
        printf("  (%" PRIu64 " mismatches or divergences of kinds past the first %d: counted in the totals above, "
               "not listed)\n", r->dropped, REAL_MAX_CLASSES);
    if (strcmp(o.cmd, "bench") && (r->inv.checked || r->inv.skipped))
        realinv_print(stdout, &r->inv);
    if ((r->inv.broken || r->predicted) && rc < EXIT_DIVERGE) /* a broken invariant, a failed assertion: findings */
        rc = EXIT_DIVERGE;
    r->write_errors += r->inv.write_errors;
    if (stop_requested())
        printf("interrupted by %s: the figures above are of the states checked before it\n",
               stop_name(stop_requested()));
    if (rc == 0 && strcmp(o.cmd, "check") && strcmp(o.cmd, "bench") && !r->generated) {
        /* --seconds spent before the first state: "0 mismatches" is no pass */
        printf("nothing checked: no state went through the kernel (NOT a pass)\n");
        rc = EXIT_INCOMPLETE;
    }
    if (o.json && strcmp(o.cmd, "check") && strcmp(o.cmd, "bench") && write_json(&o, r))
        r->write_errors++;
    if (r->write_errors && rc < EXIT_USAGE)
        rc = EXIT_OUTPUT;
    rk_close(&r->k);
    realinv_free(&r->inv);
    for (int i = 0; i < r->n_classes; i++)
        free(r->classes[i].reproducer);
    free(r);
    return stop_finish(rc);
}
