/* realcmd: the real-kernel commands (realcmd.h, docs/REAL-KERNEL.md). */
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
#include "classify.h"
#include "defect.h"
#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "kcovcmd.h"
#include "out.h"
#include "print.h"
#include "progress.h"
#include "rk_diff.h"
#include "rk_load.h"
#include "rk_sig.h"
#include "scenario.h"
#include "situation.h"
#include "stop.h"
#include "target.h"
#include "sig_fast.h"

#ifndef IRQSIM_SOURCE_DIR
#define IRQSIM_SOURCE_DIR "."
#endif

#define REAL_MAX_FILES 256
#define REAL_MAX_CLASSES 128

struct real_opts {
    const char *cmd;
    const char *build;
    bool fixed;             /* fuzz: the corrected kernel-C fastpath, not the one built */
    const struct target *target; /* --target */
    const struct real_driver *driver; /* the target's, real_drivers */
    int fastpath;           /* --fastpath as-built|fixed: its index */
    bool fastpath_set;      /* --fastpath given */
    bool seconds_set;
    double seconds;
    uint64_t checks;        /* 0: run for seconds */
    uint64_t seed;
    const char *json, *out;
    bool progress;
    bool show;              /* --target signal: print every state's differing fields */
    bool verbose;           /* fuzz: each kind's fields as it is found (default: the summary) */
    int by;                 /* fuzz: --by defect (0) or class (1): the summary's kinds */
    int jobs;               /* --jobs: 1 (one kernel per process) */
    int kernel;             /* --kernel: enum ks_kernel the model runs, -1 not given (base; check: the file's) */
    const char *files[REAL_MAX_FILES];
    int n_files;
};

/* A kind of mismatch (validate) or divergence (fuzz). */
struct rclass {
    int path;               /* validate: RK_SLOW, RK_FAST, RK_FIXED; fuzz: -1 */
    uint32_t fields;        /* DF_* bits */
    bool halt;              /* the real kernel failed an assertion */
    bool exit_differs;      /* validate --target signal: the model's fastpath fell back and the real one
                               finished, or the reverse (debug builds: ksKernelEntry.is_fastpath) */
    unsigned cause;         /* fuzz: the model's cause (classify.h), CLASS_NO_FIX, or 0: the model agrees */
    uint64_t count, first_seed;
    double first_s;
    char *reproducer;       /* written (allocated); NULL: none */
    char text[HK_TEXT_LEN + 32]; /* a failed assertion's text */
};

struct seen {
    uint32_t key;           /* DF_* fields, bit DF_COUNT: a halt */
    uint64_t n;
};

struct real_run {
    struct rk_kernel k;
    struct kstate in, a, b;
    struct classify_ws ws;
    struct rclass classes[REAL_MAX_CLASSES];
    int n_classes;
    uint64_t dropped, checks, diverged, halts, unfit, classified, known;
    struct seen seen[REAL_MAX_CLASSES];
    int n_seen;
    uint64_t defect_hits[DEF_COUNT];
    uint64_t field_hits[DF_COUNT]; /* fuzz: divergences (every one, not a sample) in which each field differs */
    uint64_t sig_exits[SIG_EXIT_COUNT]; /* validate --target signal: the model's fastpath exits */
    uint64_t sig_real_done[3];          /* the real fastpath: not tracked (release), fell back, finished */
    uint64_t sits[SIT_COUNT];           /* the situations of the states generated (situation.h) */
    uint64_t generated;
    double t0;
    int write_errors; /* outputs that could not be written */
};

static const char usage[] =
    "usage: irqsim kernel build --sel4 DIR|TARBALL [--board B] [--domains N] [--cores 1|2] [--debug|--release]\n"
    "                           [--cache DIR] [--pyfdt DIR|TARBALL] [-D NAME=VALUE]... [--force] [--quiet]\n"
    "                           [--coverage] (irqsim kernel --help)\n"
    "       irqsim kernel coverage BUILD [--seconds N] [--json FILE] ...   (irqsim kernel coverage --help)\n"
    "       irqsim validate --real BUILD [--target irq|signal] [--seconds N | --checks N] [--seed S] [--kernel K]\n"
    "                       [--show] [--out DIR] [--json FILE] [--quiet]\n"
    "       irqsim fuzz --real BUILD [--target irq|signal] [--fastpath as-built|fixed] [--seconds N | --checks N]\n"
    "                   [--seed S] [--kernel K] [--by defect|class] [--verbose] [--show] [--jobs 1] [--out DIR]\n"
    "                   [--json FILE] [--quiet]\n"
    "       irqsim check --real BUILD [--kernel K] FILE...\n"
    "       irqsim bench --real BUILD [--checks N] [--seed S]\n"
    "       irqsim review --sel4 TREE [--baseline TREE] ...   (irqsim review --help, docs/REVIEW.md)\n"
    "  BUILD             the directory `irqsim kernel build` printed (docs/REAL-KERNEL.md); relative paths\n"
    "                    are the caller's\n"
    "  --target T        irq (an interrupt, default) or signal (a seL4_Send: the signal fastpath)\n"
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

/* The real-kernel bridge per target, in one table keyed by the target's
 * name (the descriptors are check/target.c's to name): each target's
 * entry reaches the kernel's own C its own way (an IRQ through the
 * interrupt glue, a seL4_Send through the syscall glue), so each has its
 * drivers. */
struct real_driver {
    const char *name; /* the target's */
    /* refuses a build that lacks what the command needs of it, after the
     * message (-1); NULL: its drivers check for themselves */
    int (*refused)(const struct real_opts *o, const struct real_run *r);
    int (*validate)(const struct real_opts *o, struct real_run *r);
    int (*fuzz)(const struct real_opts *o, struct real_run *r);
    /* a scenario of the target's entry; NULL: check_file's IRQ pair */
    int (*check)(struct real_run *r, const char *path);
    bool corrected_in_c; /* a kernel-C corrected fastpath: --fastpath fixed */
};

static int validate(const struct real_opts *o, struct real_run *r);
static int validate_signal(const struct real_opts *o, struct real_run *r);
static int fuzz_signal(const struct real_opts *o, struct real_run *r);
static int real_fuzz(const struct real_opts *o, struct real_run *r);
static int check_signal(struct real_run *r, const char *path);
static int irq_fastpath_refused(const struct real_opts *o, const struct real_run *r);

static const struct real_driver real_drivers[] = {
    {"irq", irq_fastpath_refused, validate, real_fuzz, NULL, true},
    {"signal", NULL, validate_signal, fuzz_signal, check_signal, false},
};

static const struct real_driver *driver_of(const struct target *t)
{
    for (size_t i = 0; i < sizeof real_drivers / sizeof real_drivers[0]; i++)
        if (!strcmp(real_drivers[i].name, t->name))
            return &real_drivers[i];
    return NULL;
}

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
    CLI_ROW(O, "--target", CLI_TARGET, target),
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
    o->driver = driver_of(o->target);
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
    if (o->fixed && !o->driver->corrected_in_c)
        return cli_error(&c, "--fastpath fixed: there is no kernel-C corrected %s fastpath", o->target->name);
    return 0;
}

/* ---- shared pieces ---- */

static const char *path_name(int p)
{
    switch (p) {
    case RK_SLOW: return "slowpath";
    case RK_FAST: return "fastpath (as built)";
    case RK_FIXED: return "corrected fastpath";
    case RK_SIG_SLOW: return "syscall slowpath";
    case RK_SIG_FAST: return "fastpath_signal";
    default: return "-";
    }
}

/* Both outcomes normalised as the differential check does; the fields that
 * differ (rk_compare). */
static uint32_t compare(struct kstate *x, struct kstate *y, bool model_debug)
{
    bool ox = !diff_normalise(x), oy = !diff_normalise(y);
    return rk_compare(x, ox, y, oy, model_debug);
}

/* The prefix of the command's messages about its outputs. */
static const char *who(const struct real_opts *o)
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
    if (path && verdict && out_reproducer(who(o), path, verdict, &r->in, NULL) == 0) {
        c->reproducer = path;
    } else { /* the summary and the JSON name only reproducers that exist */
        r->write_errors++;
        free(path);
    }
    free(verdict);
}

/* A kind's label; its model cause is t's (the run's target: only the IRQ
 * target's fuzz names one, fuzz_one). */
static void class_label(const struct target *t, const struct rclass *c, char *buf, size_t n)
{
    char f[200], cause[120];
    diff_fields_text(c->fields, f, sizeof f);
    if (c->path >= 0)
        snprintf(buf, n, "%s%s%s/%s", path_name(c->path), c->halt ? " halt" : "",
                 c->exit_differs ? " finished-or-fell-back differs" : "", f);
    else if (c->cause == 0)
        snprintf(buf, n, "%s%s [the model agrees here]", c->halt ? "halt/" : "", f);
    else
        snprintf(buf, n, "%s%s [model cause %s]", c->halt ? "halt/" : "", f, cause_text(t, c->cause, cause, sizeof cause));
}

/* Count one mismatch or divergence; the first of a kind is printed with
 * its field differences and saved. */
static void count(const struct real_opts *o, struct real_run *r, struct rclass *key, const struct kstate *x,
                  const struct kstate *y, const char *xname, const char *yname)
{
    for (int i = 0; i < r->n_classes; i++) {
        struct rclass *c = &r->classes[i];
        if (c->path == key->path && c->fields == key->fields && c->halt == key->halt && c->cause == key->cause &&
            c->exit_differs == key->exit_differs) {
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
    c->count = 1;
    c->first_s = progress_now() - r->t0;
    char label[300];
    class_label(o->target, c, label, sizeof label);
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

static bool done(const struct real_opts *o, const struct real_run *r, uint64_t i)
{
    if (stop_requested()) /* SIGINT, SIGTERM: the summary of what was done */
        return true;
    if (o->checks)
        return i >= o->checks;
    return (i & 255) == 0 && progress_now() - r->t0 >= o->seconds;
}

static void progress(struct progress *pr, const struct real_opts *o, const struct real_run *r, uint64_t i)
{
    if (!progress_due(pr))
        return;
    double t = pr->last - r->t0;
    progress_print(pr, "irqsim %s: %.0f s, %" PRIu64 " states, %" PRIu64 " %s, %.0f/s", o->cmd, t, i, r->diverged,
                   !strcmp(o->cmd, "validate") ? "mismatches" : "divergences", (double)i / t);
}

/* The IRQ target's refused (real_drivers): what needs fastpath_irq on a
 * build without it (kernel.info irq_fastpath=0: the tree has no
 * KernelIRQFastpath) is refused, with that reason: fuzz and bench compare
 * a fastpath, --fastpath asks for one. validate runs the slowpath alone
 * and says so; check refuses an IRQ scenario (check_file). 0, or -1 after
 * the message. */
static int irq_fastpath_refused(const struct real_opts *o, const struct real_run *r)
{
    if (r->k.info.irq_fastpath)
        return 0;
    const char *what = o->fastpath_set ? (o->fixed ? "--fastpath fixed" : "--fastpath as-built")
                       : !strcmp(o->cmd, "fuzz") || !strcmp(o->cmd, "bench") ? "fastpath to compare"
                                                                               : NULL;
    if (!what)
        return 0;
    fprintf(stderr,
            "irqsim %s: %s has no IRQ fastpath (kernel.info irq_fastpath=0: its tree has no KernelIRQFastpath), so "
            "there is no %s; `irqsim validate --real` checks its slowpath against the model\n",
            o->cmd, o->build, what);
    return -1;
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
    if (o->out && out_dir(who(o), o->out) != 0)
        return -2;
    printf("real kernel: %s\n  board %s, commit %s, %s, %u domain%s, %s; timer %" PRIu64 " Hz, maxIRQ %u, GICv%u\n",
           r->k.dir, r->k.board, r->k.commit[0] ? r->k.commit : "?", r->k.info.debug ? "debug" : "release",
           r->k.cfg.num_domains, r->k.cfg.num_domains == 1 ? "" : "s", r->k.cfg.smp ? "2 cores" : "1 core",
           r->k.cfg.timer_hz, r->k.cfg.max_irq, r->k.cfg.gic_version);
    /* the model is the kernel the build is of (kernel.info features)
     * unless --kernel says otherwise */
    r->k.cfg.kernel = (uint8_t)(o->kernel >= 0 ? o->kernel : r->k.kernel);
    printf("  model: kernel %s (%s)\n", cfg_kernel_name(r->k.cfg.kernel),
           o->kernel >= 0 ? "--kernel" : "the build's, kernel.info features; --kernel overrides");
    return 0;
}

/* The next generated state of the build; false when the generator cannot
 * make states for it (counted, and the run stops). */
static bool next_state(const struct real_opts *o, struct real_run *r, uint64_t seed)
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

/* ---- validate: the model against the real kernel ---- */

static void model_path(struct kstate *ks, int path)
{
    if (path == RK_SLOW)
        handleInterruptEntry(ks);
    else
        fastpath_irq(ks, path == RK_FAST ? FP_PR1227 : FP_FIXED);
}

/* One path on one state: returns false when the build cannot run it. */
static bool validate_path(const struct real_opts *o, struct real_run *r, int path, uint64_t seed)
{
    struct rk_extra x;
    int why = rk_run_x(&r->k, &r->in, path, &r->b, &x);
    if (why < 0)
        return false;
    ks_copy(&r->a, &r->in);
    model_path(&r->a, path);
    struct rclass key = {.path = path, .first_seed = seed};
    if (why == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s", x.text);
        r->halts++;
        if (rk_known_halt(x.text)) {
            r->known++;
            return true;
        }
    } else {
        key.fields = compare(&r->a, &r->b, r->k.info.debug);
        if (!key.fields)
            return true;
    }
    r->diverged++;
    count(o, r, &key, &r->a, &r->b, "model", "real kernel");
    return true;
}

static int validate(const struct real_opts *o, struct real_run *r)
{
    /* a build without fastpath_irq: its slowpath only, and said so */
    bool fast = r->k.info.irq_fastpath, fixed_ok = fast;
    uint64_t i = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    for (; !done(o, r, i); i++) {
        if (!next_state(o, r, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        validate_path(o, r, RK_SLOW, o->seed + i);
        if (fast)
            validate_path(o, r, RK_FAST, o->seed + i);
        if (fixed_ok)
            fixed_ok = validate_path(o, r, RK_FIXED, o->seed + i);
        progress(&pr, o, r, i);
    }
    progress_end(&pr, false);
    r->checks = i;
    double t = progress_now() - r->t0;
    printf("validate: %" PRIu64 " states in %.1f s (%.0f/s), each through the slowpath%s%s\n", i, t, (double)i / t,
           fast ? " and the fastpath as built" : " only (the build has no IRQ fastpath: kernel.info irq_fastpath=0)",
           fixed_ok ? " and the corrected fastpath" : "");
    printf("  model against real kernel: %" PRIu64 " unexplained mismatches; %" PRIu64 " real-kernel halts, %" PRIu64
           " of them known findings\n",
           r->diverged, r->halts, r->known);
    if (r->known)
        printf("  known: %s\n", rk_known_halt("cap_vspace_cap_get_capVSBasePtr"));
    if (fast && !fixed_ok)
        printf("  (this build has no corrected kernel-C fastpath: not compared)\n");
    situation_print(stdout, r->sits, r->generated, !o->target->syscall_entry);
    return r->diverged ? EXIT_DIVERGE : EXIT_AGREE;
}

/* validate --target signal: the model's SysSend against the real one.
 * The state's signal entry (kstate.sys, drawn by the model's generator)
 * becomes the bridge's system call (rk_sig_of_model); the model's
 * slowpath(SysSend) is compared with the real c_handle_syscall(SysSend),
 * and the model's merged fastpath_signal (which falls back to its
 * slowpath) with the real c_handle_fastpath_signal. On a debug build the
 * real kernel also says whether its fastpath finished the call
 * (ksKernelEntry.is_fastpath); the model's exit says the same. */
static bool validate_sig_path(const struct real_opts *o, struct real_run *r, const struct rk_syscall *sys, int path,
                              uint64_t seed)
{
    struct rk_extra x;
    int why = rk_run_sys(&r->k, &r->in, sys, path, &r->b, &x);
    if (why < 0)
        return false;
    ks_copy(&r->a, &r->in);
    struct rclass key = {.path = path, .first_seed = seed};
    if (path == RK_SIG_SLOW) {
        slowpath_signal(&r->a);
    } else {
        int e = fastpath_signal(&r->a, SIG_MERGED);
        bool model_done = !sig_exit_is_fallback(e);
        r->sig_exits[e]++;
        r->sig_real_done[x.fastpath_done + 1]++;
        key.exit_differs = x.fastpath_done >= 0 && x.fastpath_done != model_done;
    }
    if (why == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s", x.text);
        r->halts++;
    } else {
        key.fields = compare(&r->a, &r->b, r->k.info.debug);
        if (!key.fields && !key.exit_differs)
            return true;
    }
    r->diverged++;
    if (o->show && !key.halt) {
        printf("seed %" PRIu64 ", %s:\n", seed, path_name(path));
        diff_compare(&r->a, &r->b, stdout);
    }
    count(o, r, &key, &r->a, &r->b, "model", "real kernel");
    return true;
}

static int validate_signal(const struct real_opts *o, struct real_run *r)
{
    if (!r->k.info.signal_fastpath) {
        fprintf(stderr, "irqsim validate: %s has no signal fastpath (CONFIG_SIGNAL_FASTPATH)\n", o->build);
        return EXIT_USAGE;
    }
    uint64_t i = 0, unfit = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    for (; !done(o, r, i); i++) {
        if (!next_state(o, r, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        struct rk_syscall sys;
        if (rk_sig_of_model(&r->in, &sys) != 0 || !validate_sig_path(o, r, &sys, RK_SIG_SLOW, o->seed + i) ||
            !validate_sig_path(o, r, &sys, RK_SIG_FAST, o->seed + i)) {
            if (unfit++ < 3)
                fprintf(stderr, "irqsim validate: seed %" PRIu64 ": the call does not fit the build: %s\n",
                        o->seed + i, rk_error(&r->k));
        }
        progress(&pr, o, r, i);
    }
    progress_end(&pr, false);
    r->checks = i;
    r->unfit = unfit;
    double t = progress_now() - r->t0;
    printf("validate --target signal: %" PRIu64 " seL4_Send in %.1f s (%.0f/s), each through the syscall slowpath "
           "and fastpath_signal, model (kernel %s) against real kernel; %" PRIu64 " did not fit the build\n",
           i, t, (double)i / t, cfg_kernel_name(r->k.cfg.kernel), unfit);
    uint64_t model_done = 0;
    printf("  model fastpath exits:");
    for (int e = 0; e < SIG_EXIT_COUNT; e++) {
        if (r->sig_exits[e])
            printf(" %s %" PRIu64, sig_exit_name(e), r->sig_exits[e]);
        model_done += sig_exit_is_fallback(e) ? 0 : r->sig_exits[e];
    }
    printf("\n  fastpath finished the call: model %" PRIu64 ", real %" PRIu64 "; fell back: model %" PRIu64
           ", real %" PRIu64 "%s\n",
           model_done, r->sig_real_done[2], i - unfit - model_done, r->sig_real_done[1],
           r->k.info.debug ? "" : " (release build: the real kernel does not tell, not compared)");
    printf("  %" PRIu64 " mismatches in %d kinds; %" PRIu64 " real-kernel halts\n", r->diverged, r->n_classes,
           r->halts);
    return r->diverged || unfit ? EXIT_DIVERGE : EXIT_AGREE;
}

/* fuzz --real --target signal: the real fastpath_signal against the real
 * syscall slowpath of the same seL4_Send (real/rk_sig.h), --checks states
 * (default 20000) from --seed; no model in the verdict */
static int fuzz_signal(const struct real_opts *o, struct real_run *r)
{
    if (!r->k.info.signal_fastpath) {
        fprintf(stderr, "irqsim fuzz: %s has no signal fastpath (CONFIG_SIGNAL_FASTPATH)\n", o->build);
        return EXIT_USAGE;
    }
    return rk_sig_run(&r->k, o->seed, o->checks ? o->checks : 20000, o->show);
}

/* ---- fuzz: real fastpath against real slowpath ---- */

/* Naming a divergence runs the model up to a dozen times, more than the
 * check itself: the first divergences of each field set are named, then
 * one in CLASSIFY_SAMPLE (the defect counts are over those). */
#define CLASSIFY_FIRST 16
#define CLASSIFY_SAMPLE 32
static bool classify_now(struct real_run *r, uint32_t key)
{
    for (int i = 0; i < r->n_seen; i++)
        if (r->seen[i].key == key)
            return ++r->seen[i].n <= CLASSIFY_FIRST || r->diverged % CLASSIFY_SAMPLE == 0;
    if (r->n_seen < REAL_MAX_CLASSES)
        r->seen[r->n_seen++] = (struct seen){key, 1};
    return true;
}

/* One state through both real paths; -1 when the build cannot run it. */
static int fuzz_one(const struct real_opts *o, struct real_run *r, int fast, uint64_t seed)
{
    struct rk_extra xs, xf;
    int ws = rk_run_x(&r->k, &r->in, RK_SLOW, &r->a, &xs);
    int wf = rk_run_x(&r->k, &r->in, fast, &r->b, &xf);
    if (ws < 0 || wf < 0) {
        fprintf(stderr, "irqsim fuzz: %s: %s\n", path_name(ws < 0 ? RK_SLOW : fast), rk_error(&r->k));
        return -1;
    }
    struct rclass key = {.path = -1, .first_seed = seed};
    if (ws == HK_OUT_HALT || wf == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s: %s", path_name(ws == HK_OUT_HALT ? RK_SLOW : fast),
                 ws == HK_OUT_HALT ? xs.text : xf.text);
        r->halts++;
    } else {
        key.fields = compare(&r->a, &r->b, false);
        if (!key.fields)
            return 0;
    }
    r->diverged++;
    for (int f = 0; f < DF_COUNT; f++)
        r->field_hits[f] += (key.fields >> f) & 1;
    if (!classify_now(r, key.fields | (uint32_t)key.halt << DF_COUNT))
        return 0;
    /* which of the model's fixes explains it (0: the model agrees here) */
    key.cause = classify_cause(&r->in, &r->ws);
    r->classified++;
    for (int d = 0; d < DEF_COUNT; d++)
        r->defect_hits[d] += (cause_defects(o->target, key.cause) >> d) & 1;
    count(o, r, &key, &r->a, &r->b, "real slowpath", o->fixed ? "corrected fastpath" : "real fastpath");
    return 0;
}

/* A kind no known defect explains: the model agrees, no fix removes it,
 * or a halt that is no known finding. */
static bool unexplained(const struct rclass *c)
{
    return c->halt ? !rk_known_halt(c->text) : c->cause == 0 || c->cause == CLASS_NO_FIX;
}

#define FUZZ_KINDS_SHOWN 10

/* The summary's kinds: the unexplained first, then by count; --by class
 * lists every one, --by defect the first FUZZ_KINDS_SHOWN after the
 * unexplained and says how many more there are. */
static void fuzz_kinds(const struct real_opts *o, const struct real_run *r)
{
    int order[REAL_MAX_CLASSES], n = 0, unex = 0;
    for (int i = 0; i < r->n_classes; i++)
        unex += unexplained(&r->classes[i]);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < r->n_classes; i++)
            if (unexplained(&r->classes[i]) == (pass == 0))
                order[n++] = i;
    /* by count within each group (insertion sort: at most 128) */
    for (int g = 0, lo = 0; g < 2; lo = unex, g++)
        for (int i = lo + 1; i < (g ? n : unex); i++)
            for (int j = i; j > lo && r->classes[order[j]].count > r->classes[order[j - 1]].count; j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
    int shown = o->by == 1 ? n : unex + FUZZ_KINDS_SHOWN < n ? unex + FUZZ_KINDS_SHOWN : n;
    printf("kinds: %d (%d unexplained: no known defect explains them); states of each among the %" PRIu64
           " divergences named%s\n",
           r->n_classes, unex, r->classified, shown < n ? ", the unexplained and the largest:" : ":");
    for (int k = 0; k < shown; k++) {
        const struct rclass *c = &r->classes[order[k]];
        char label[300];
        class_label(o->target, c, label, sizeof label);
        printf("  %8" PRIu64 "  %s%s, first at seed %" PRIu64 "%s%s\n", c->count, unexplained(c) ? "UNEXPLAINED " : "",
               label, c->first_seed, c->reproducer ? ": " : "", c->reproducer ? c->reproducer : "");
    }
    if (shown < n)
        printf("  ... %d more kinds (--by class lists them all, --verbose prints each as found, --json has them)\n",
               n - shown);
}

static int real_fuzz(const struct real_opts *o, struct real_run *r)
{
    int fast = o->fixed ? RK_FIXED : RK_FAST;
    uint64_t i = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    for (; !done(o, r, i); i++) {
        if (!next_state(o, r, o->seed + i) || fuzz_one(o, r, fast, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        progress(&pr, o, r, i);
    }
    progress_end(&pr, false);
    r->checks = i;
    double t = progress_now() - r->t0;
    printf("fuzz --real: %" PRIu64 " states in %.1f s (%.0f checks/s), real %s against the real slowpath: "
           "%" PRIu64 " diverge, %d kinds, %" PRIu64 " real-kernel halts\n",
           i, t, (double)i / t, path_name(fast), r->diverged, r->n_classes, r->halts);
    situation_print(stdout, r->sits, r->generated, !o->target->syscall_entry);
    if (r->diverged) {
        printf("defects (the model's cause, over the %" PRIu64 " divergences named: the first %d of each field set, "
               "then 1 in %d):",
               r->classified, CLASSIFY_FIRST, CLASSIFY_SAMPLE);
        for (int d = 0; d < DEF_COUNT; d++)
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
        fuzz_kinds(o, r);
    }
    return r->diverged ? EXIT_DIVERGE : EXIT_AGREE;
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

/* After both real paths of check --real ran: the exit status when one
 * could not run (EXIT_USAGE) or the kernel halted (EXIT_DIVERGE, with the halting side's
 * text); -1 when both finished. */
static int real_pair_done(struct real_run *r, const char *path, int ws, int wf, const struct rk_extra *xs,
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

/* a signal entry (syscall line): the real fastpath_signal against the
 * real syscall slowpath, the model's verdict beside */
static int check_signal(struct real_run *r, const char *path)
{
    struct rk_syscall sys;
    if (!r->k.info.signal_fastpath) {
        fprintf(stderr, "%s: a signal entry, and the build has no signal fastpath\n", path);
        return EXIT_USAGE;
    }
    if (rk_sig_of_model(&r->in, &sys) != 0) {
        fprintf(stderr, "%s: the syscall line names a notification the state does not have\n", path);
        return EXIT_USAGE;
    }
    struct rk_extra xs, xf;
    int ws = rk_run_sys(&r->k, &r->in, &sys, RK_SIG_SLOW, &r->a, &xs);
    int wf = rk_run_sys(&r->k, &r->in, &sys, RK_SIG_FAST, &r->b, &xf);
    int done = real_pair_done(r, path, ws, wf, &xs, &xf);
    if (done >= 0)
        return done;
    uint32_t f = compare(&r->a, &r->b, false);
    char text[200];
    printf("verdict (real kernel, fastpath_signal %s): %s%s\n",
           xf.fastpath_done < 0 ? "?" : xf.fastpath_done ? "finished" : "fell back", f ? "DIVERGE in " : "AGREE",
           f ? diff_fields_text(f, text, sizeof text) : "");
    diff_compare(&r->a, &r->b, stdout);
    struct diff_verdict v;
    diff_run(&r->in, SIG_MERGED, false, &v, &r->a, &r->b);
    printf("model (merged, kernel %s): %s%s\n", cfg_kernel_name(r->in.cfg.kernel), v.agree ? "AGREE" : "DIVERGE in ",
           v.agree ? "" : diff_fields_text(v.fields, text, sizeof text));
    return f ? EXIT_DIVERGE : EXIT_AGREE;
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
    r->in.cfg = r->k.cfg;
    if (o_kernel < 0) /* no --kernel: the file's */
        r->in.cfg.kernel = kernel;
    const struct real_driver *d = driver_of(target_of(&r->in));
    if (d && d->check)
        return d->check(r, path);
    if (!r->k.info.irq_fastpath) {
        fprintf(stderr, "%s: an IRQ entry, and the build has no IRQ fastpath (kernel.info irq_fastpath=0)\n", path);
        return EXIT_USAGE;
    }
    struct rk_extra xs, xf;
    int ws = rk_run_x(&r->k, &r->in, RK_SLOW, &r->a, &xs), wf = rk_run_x(&r->k, &r->in, RK_FAST, &r->b, &xf);
    int done = real_pair_done(r, path, ws, wf, &xs, &xf);
    if (done >= 0)
        return done;
    uint32_t f = compare(&r->a, &r->b, false);
    char text[200];
    printf("verdict (real kernel): %s%s\n", f ? "DIVERGE in " : "AGREE", f ? diff_fields_text(f, text, sizeof text) : "");
    diff_compare(&r->a, &r->b, stdout);
    /* the model's verdict on the same state, for comparison */
    struct diff_verdict v;
    diff_run(&r->in, FP_PR1227, false, &v, &r->a, &r->b);
    printf("model (pr1227): %s%s\n", v.agree ? "AGREE" : "DIVERGE in ", v.agree ? "" : diff_fields_text(v.fields, text, sizeof text));
    return f ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- bench: where the time of a real differential check goes ---- */

#define BENCH_POOL 256

/* ns per state of one step over n states of a pool */
static double bench_step(struct real_run *r, struct kstate *pool, uint64_t n, int step)
{
    double t = progress_now();
    for (uint64_t i = 0; i < n; i++) {
        struct kstate *in = &pool[i % BENCH_POOL];
        if (step == 0)
            rk_run(&r->k, in, RK_SLOW, &r->a);
        else if (step == 1)
            rk_run(&r->k, in, RK_FAST, &r->b);
        else if (step == 2)
            rk_roundtrip(&r->k, in, &r->a);
        else
            diff_run(in, FP_PR1227, false, &(struct diff_verdict){0}, &r->a, &r->b);
    }
    return (progress_now() - t) * 1e9 / (double)n;
}

static int bench(const struct real_opts *o, struct real_run *r)
{
    uint64_t n = o->checks ? o->checks : 200000;
    struct kstate *pool = calloc(BENCH_POOL, sizeof *pool);
    if (!pool)
        return EXIT_USAGE;
    double t = progress_now();
    for (int i = 0; i < BENCH_POOL; i++)
        if (!next_state(o, r, o->seed + (uint64_t)i)) {
            free(pool);
            return EXIT_USAGE;
        }
        else
            ks_copy(&pool[i], &r->in);
    double gen = (progress_now() - t) * 1e9 / BENCH_POOL;
    double slow = bench_step(r, pool, n, 0), fast = bench_step(r, pool, n, 1);
    double bridge = bench_step(r, pool, n, 2), model = bench_step(r, pool, n, 3);
    /* the check as fuzz --real runs it: generate, both paths, compare */
    t = progress_now();
    uint64_t checks = 0;
    for (; checks < n; checks++) {
        if (!next_state(o, r, o->seed + checks))
            break;
        rk_run(&r->k, &r->in, RK_SLOW, &r->a);
        rk_run(&r->k, &r->in, RK_FAST, &r->b);
        compare(&r->a, &r->b, false);
    }
    double check = (progress_now() - t) * 1e9 / (double)checks;
    printf("bench --real (%" PRIu64 " states, one core; ns per state):\n", n);
    printf("  generate a state of the build       %8.0f\n", gen);
    printf("  bridge only (load + save, no entry) %8.0f\n", bridge);
    printf("  real slowpath (load, entry, save)   %8.0f\n", slow);
    printf("  real fastpath (load, entry, save)   %8.0f\n", fast);
    printf("  real differential check             %8.0f  = %.0f checks/s (generate, both paths, normalise, compare)\n",
           check, 1e9 / check);
    printf("  model differential check            %8.0f  = %.0f checks/s (both model paths on a pooled state)\n",
           model, 1e9 / model);
    printf("  the real check costs %.1f model checks; the bridge is %.0f%% of a real path\n", check / model,
           100.0 * bridge / ((slow + fast) / 2));
    free(pool);
    return 0;
}

/* ---- JSON ---- */

static int write_json(const struct real_opts *o, const struct real_run *r)
{
    struct out *out = out_open(who(o), o->json);
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
               ", \"named\": %" PRIu64 ", \"halts\": %" PRIu64 ", \"known_halts\": %" PRIu64 ",\n \"defects\": {",
            r->checks, t, (double)r->checks / t, r->diverged, r->classified, r->halts, r->known);
    const char *sep = "";
    for (int d = 0; d < DEF_COUNT; d++)
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
    fprintf(f, " \"kinds_dropped\": %" PRIu64 ",\n", r->dropped);
    fprintf(f, " \"kinds\": [");
    for (int i = 0; i < r->n_classes; i++) {
        const struct rclass *c = &r->classes[i];
        char fields[200], cause[120];
        fprintf(f, "%s\n  {\"path\": \"%s\", \"fields\": \"%s\", \"halt\": %s, \"model_cause\": \"%s\", \"count\": %" PRIu64
                   ", \"seed\": %" PRIu64 ", \"first_seconds\": %.2f, \"reproducer\": ",
                i ? "," : "", path_name(c->path), diff_fields_text(c->fields, fields, sizeof fields),
                c->halt ? "true" : "false", c->cause ? cause_text(o->target, c->cause, cause, sizeof cause) : "none",
                c->count, c->first_seed, c->first_s);
        out_string(out, c->reproducer ? c->reproducer : "");
        /* a halt's text; whether a known defect explains the kind (fuzz) */
        fprintf(f, ", \"text\": ");
        out_string(out, c->halt ? c->text : "");
        fprintf(f, ", \"unexplained\": %s", c->path < 0 && unexplained(c) ? "true" : "false");
        fputc('}', f);
    }
    fprintf(f, "]");
    if (stop_requested())
        fprintf(f, ", \"interrupted\": \"%s\"", stop_name(stop_requested()));
    fprintf(f, "}\n");
    return out_close(out);
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
    stop_catch();
    if (!strcmp(o.cmd, "validate")) {
        rc = o.driver->validate(&o, r);
    } else if (!strcmp(o.cmd, "fuzz")) {
        rc = o.driver->fuzz(&o, r);
    } else if (!strcmp(o.cmd, "bench")) {
        rc = bench(&o, r);
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
    for (int i = 0; i < r->n_classes; i++)
        free(r->classes[i].reproducer);
    free(r);
    return stop_finish(rc);
}
