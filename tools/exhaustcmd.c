/* exhaustcmd: `irqsim exhaust`, bounded-exhaustive checking. */
#define _POSIX_C_SOURCE 200809L
#include "exhaustcmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "classify.h"
#include "defect.h"
#include "diff.h"
#include "exhaust.h"
#include "invariant.h"
#include "jval.h"
#include "irq_fast.h"
#include "out.h"
#include "print.h"
#include "progress.h"
#include "shrink.h"
#include "situation.h"
#include "statefile.h"
#include "stop.h"
#include "target.h"


#define MAX_CLASSES 256
#define MAX_MERGE 1024 /* shards --merge reads */
#define SAVE_EVERY_S 10.0
#define PROGRESS_EVERY_S 10.0

static const char exhaust_usage[] =
    "usage: irqsim exhaust [options]\n"
    "  check every state of the bounded space of docs/EXHAUSTIVE.md: each passes the\n"
    "  entry invariants (or is skipped and counted) and runs the differential check\n"
    "  --target irq|signal|call|reply_recv  the fastpath under check (default irq: PR #1227's\n"
    "                fastpath_irq; signal: master's fastpath_signal against slowpath(SysSend); call,\n"
    "                reply_recv: master's fastpath_call and fastpath_reply_recv, kernel master)\n"
    "  --fastpath V  the variant checked: pr1227|fixed for irq (default pr1227),\n"
    "                merged|fixed for the others (default merged)\n"
    "  --threads N   threads besides the idle thread, 1-6 (default 2)\n"
    "  --ntfns N     notifications, 1-2 (default 1)\n"
    "  --refills N   refills in a periodic SC, 1-4 (default 2)\n"
    "  --domains N   domains, 1-2 (default 2)\n"
    "  --board NAME  {boards} (default imx8mm)\n"
    "  --kernel base|master  the kernel modelled (default base 43607edb6; master 1326364bc\n"
    "                adds its own values: docs/EXHAUSTIVE.md, \"Master\")\n"
    "  --shard K/N   check only states K, K+N, K+2N, ... (1 <= K <= N): the N shards\n"
    "                together are the whole space\n"
    "  --state FILE  save the position every 10 s and at the end; resume from it\n"
    "  --json FILE   write the summary as JSON\n"
    "  --out DIR     write the smallest state of each defect (and, for fixed, of\n"
    "                each divergence class) as a scenario file\n"
    "  --seconds S   stop after S seconds (with --state: resume later from there)\n"
    "  --stop-after N  stop after N states of this invocation (likewise)\n"
    "  --count       print the size of the space (and the shard) and stop\n"
    "  --quiet       no progress lines\n"
    "  --merge STATE...  add up the finished shards' state files (--shard K/N --state FILE,\n"
    "                every K of one N, the same other options) and report as the straight\n"
    "                run of the whole space would: summary, --json, --out\n"
    "  --executions  executions from boot instead of states: --depth, --cores,\n"
    "                --signal-fastpath, --show (irqsim exhaust --executions --help)\n"
    "exit status: 0 no divergence in the whole bound, 1 divergences, 2 bad input, 4 an output could not be\n"
    "written, 5 incomplete: no divergence in the part done, but the run stopped (--seconds, --stop-after)\n"
    "before the end of the bound (its statement covers only that part), or checked nothing;\n"
    "SIGINT or SIGTERM saves the state file and ends the run by that signal\n";

struct xclass {
    int exit;
    unsigned cause;
    uint32_t fields;
    uint64_t count, first;
};

struct best {
    bool set;
    int size;
    uint64_t ordinal;
    int len;
    uint8_t digit[EXH_MAX_CHOICES];
};

/* Everything a run counts; saved in the state file. */
struct totals {
    uint64_t enumerated, skipped, checked, agree, diverged;
    uint64_t skip_inv[INV_COUNT];
    uint64_t exits[TARGET_MAX_EXITS];
    uint64_t defects[DEFECT_MAX];
    struct best best_defect[DEFECT_MAX];
    int n_classes;
    uint64_t dropped;
    struct xclass classes[MAX_CLASSES];
    struct best best_class[MAX_CLASSES]; /* smallest per class */
    uint64_t first_skip; /* ordinal of the first skipped state, UINT64_MAX none */
    double elapsed;
};

struct xopts {
    int variant;
    int kernel;            /* --kernel as given, -1: none (the target's, else base) */
    const char *fastpath;  /* as given; parsed once the target is known */
    struct exh_bounds b;
    char board[32];
    char label[64];        /* the board, and the kernel when master */
    uint64_t shard_k, shard_n; /* 1-based K */
    const char *state, *json, *out;
    bool count_only, quiet;
    bool merge;            /* --merge: the files are the shards' state files */
    const char *files[MAX_MERGE];
    int n_files;
    double seconds;        /* 0: no limit */
    uint64_t stop_after;   /* 0: no limit */
};

struct run {
    struct xopts o;
    char named[48]; /* "target signal, ": the target, left unnamed when the default */
    struct totals t;
    struct exh_iter it;
    struct kstate in, slow, fast;
    struct classify_ws cws;
    uint64_t space, shard_space;
    /* the situations this invocation checked (situation.h); not in the
     * state file, so a resumed run says it counts from its resumption */
    uint64_t sits[SIT_COUNT], checked_here;
    bool resumed;
    bool merged; /* the totals are the shards' (--merge): no situations */
    bool done;
    int write_errors; /* outputs that could not be written */
    int interrupted;  /* the signal that stopped the run, 0 none */
};

static const struct target *run_target(const struct run *r)
{
    return r->o.b.target;
}

static const char *run_variant(const struct run *r)
{
    return run_target(r)->variant_name(r->o.variant);
}

static int run_defects(const struct run *r)
{
    return r->o.b.target->n_defects;
}

static const struct defect_info *run_defect(const struct run *r, int d)
{
    return defect_info(r->o.b.target, d);
}

/* The fastpath as written (pr1227, merged: the targets share the variant
 * numbers, target.c), whose divergences are classified by their causes. */
static bool run_as_written(const struct run *r)
{
    return r->o.variant == FP_PR1227;
}

/* The target, named in outputs unless it is the default (whose outputs
 * stay as they were before targets existed). */
static bool run_named(const struct run *r)
{
    return !r->o.b.target->is_default;
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "irqsim exhaust: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(irqsim exhaust --help lists the options)\n");
    return EXIT_USAGE;
}

static int parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* --fastpath names a variant of the target's table (pr1227|fixed, merged|fixed). */
static int parse_variant(struct xopts *o)
{
    return cli_variant("exhaust", o->b.target, o->fastpath, "", &o->variant) ? -1 : 0;
}

/* --shard K/N with 1 <= K <= N */
static int shard_opt(void *opts, const char *v, char *why, size_t len)
{
    struct xopts *o = opts;
    const char *slash = strchr(v, '/');
    char k[32];
    snprintf(why, len, "expected K/N with 1 <= K <= N");
    if (!slash || (size_t)(slash - v) >= sizeof k)
        return -1;
    memcpy(k, v, (size_t)(slash - v));
    k[slash - v] = 0;
    if (parse_uint(k, 1, UINT32_MAX, &o->shard_k) != 0 || parse_uint(slash + 1, 1, UINT32_MAX, &o->shard_n) != 0 ||
        o->shard_k > o->shard_n)
        return -1;
    return 0;
}

#define X struct xopts
static const struct cli_opt exhaust_table[] = {
    CLI_NUM(X, "--threads", CLI_INT, b.threads, 1, EXH_MAX_THREADS),
    CLI_NUM(X, "--ntfns", CLI_INT, b.ntfns, 1, 2),
    CLI_NUM(X, "--refills", CLI_INT, b.refills, 1, EXH_MAX_REFILLS),
    CLI_NUM(X, "--domains", CLI_INT, b.domains, 1, 2),
    CLI_ROW(X, "--count", CLI_SET, count_only),
    CLI_ROW(X, "--quiet", CLI_SET, quiet),
    CLI_ROW(X, "--fastpath", CLI_STR, fastpath),
    CLI_ROW(X, "--target", CLI_TARGET, b.target),
    CLI_ROW(X, "--board", CLI_BOARD, b.board),
    CLI_ROW(X, "--kernel", CLI_KERNEL, kernel),
    CLI_CALL("--shard", shard_opt),
    CLI_NUM(X, "--seconds", CLI_REAL, seconds, 1e-3, 1e7),
    CLI_NUM(X, "--stop-after", CLI_U64, stop_after, 1, 1.8e19), /* above CLI_UNBOUNDED */
    CLI_ROW(X, "--state", CLI_STR, state),
    CLI_ROW(X, "--json", CLI_STR, json),
    CLI_ROW(X, "--out", CLI_STR, out),
    CLI_ROW(X, "--merge", CLI_SET, merge),
};
#undef X

/* a file that is not an option: a shard's state file for --merge */
static int merge_file(void *opts, const char *arg, char *why, size_t len)
{
    struct xopts *o = opts;
    if (o->n_files == MAX_MERGE) {
        snprintf(why, len, "--merge reads at most %d state files", MAX_MERGE);
        return -1;
    }
    o->files[o->n_files++] = arg;
    return 0;
}

static const struct cli_cmd exhaust_cmd = {"exhaust", exhaust_usage, "irqsim exhaust --help", exhaust_table,
                                           sizeof exhaust_table / sizeof exhaust_table[0], merge_file};

/* --merge reads finished shards: nothing of a run of its own applies */
static int merge_args(const struct xopts *o)
{
    if (!o->merge)
        return o->n_files ? bad("takes files only with --merge (got '%s')", o->files[0]) : 0;
    if (!o->n_files)
        return bad("--merge needs the shards' state files (--state FILE of each shard)%s", "");
    if (o->shard_n > 1 || o->state || o->seconds > 0 || o->stop_after || o->count_only)
        return bad("--merge reads the shards' state files: not with --shard, --state, --seconds, --stop-after or "
                   "--count%s", "");
    return 0;
}

static int parse_args(struct xopts *o, int argc, char **argv)
{
    int rc = cli_parse(&exhaust_cmd, o, 1, argc, argv);
    if (rc)
        return rc == 1 ? -2 : rc; /* -2: --help printed the usage */
    /* --state is read, then written over by design (the resume point) */
    if (out_not_input("irqsim exhaust", &o->json, 1, &o->state, 1))
        return EXIT_USAGE;
    snprintf(o->board, sizeof o->board, "%s", o->b.board);
    int kernel = target_kernel(o->b.target, o->kernel, o->b.kernel);
    if (kernel < 0) {
        char why[128];
        snprintf(why, sizeof why, "--kernel %s: the %s target models %s's fastpath only", cfg_kernel_name(o->kernel),
                 o->b.target->name, cfg_kernel_name(o->b.target->kernel));
        return bad("%s", why);
    }
    o->b.kernel = kernel;
    if (o->fastpath && parse_variant(o) != 0)
        return EXIT_USAGE;
    o->b.board = o->board;
    bool dflt = cfg_kernel_is_default(o->b.kernel);
    snprintf(o->label, sizeof o->label, "%s%s%s", o->board, dflt ? "" : ", kernel ", dflt ? "" : cfg_kernel_name(o->b.kernel));
    const char *why = exh_bounds_check(&o->b);
    if (why)
        return bad("bound not usable: %s", why);
    return merge_args(o);
}

/* ---- the state file ---- */

static uint64_t shard_size(uint64_t space, uint64_t k, uint64_t n)
{
    return space >= k ? (space - k) / n + 1 : 0; /* indices k-1, k-1+n, ... below space */
}


static void put_best(FILE *f, const char *tag, int i, const struct best *b)
{
    if (!b->set)
        return;
    fprintf(f, "%s %d %d %" PRIu64 " %d", tag, i, b->size, b->ordinal, b->len);
    for (int k = 0; k < b->len; k++)
        fprintf(f, " %u", b->digit[k]);
    fputc('\n', f);
}

static void put_digits(FILE *f, const struct exh_iter *it)
{
    fprintf(f, "digits %d", it->len);
    for (int k = 0; k < it->len; k++)
        fprintf(f, " %u", it->digit[k]);
    fputc('\n', f);
}

/* The longest line written is a class's best: 5 numbers and 64 digits.
 * Not strict: a blank line is passed over, as it always was. */
static const struct sf_format STATE_FORMAT = {
    .who = "irqsim exhaust",
    .magic = "irqsim-exhaust-state 1",
    .line_max = 2048,
};

/* The run a state file belongs to: fastpath board threads ntfns refills
 * domains shard. The variant as the run line names it: the signal
 * target's carries the target, so neither target resumes from the other's
 * file (both have a "fixed"); the IRQ target's stays as it was. */
static const char *run_line(const struct run *r, char *buf, size_t len)
{
    char tag[64];
    if (run_named(r))
        snprintf(tag, sizeof tag, "%s/%s", r->o.b.target->name, run_variant(r));
    else
        snprintf(tag, sizeof tag, "%s", run_variant(r));
    snprintf(buf, len, "%s %s %d %d %d %d %" PRIu64 " %" PRIu64, tag, r->o.label, r->o.b.threads, r->o.b.ntfns,
             r->o.b.refills, r->o.b.domains, r->o.shard_k, r->o.shard_n);
    return buf;
}

/* Through a temporary (out.h): a crash leaves the previous save. */
static int save_state(const struct run *r, double elapsed)
{
    char run[256];
    struct out *out = sf_create(&STATE_FORMAT, r->o.state, run_line(r, run, sizeof run));
    if (!out)
        return -1;
    FILE *f = out->f;
    const struct totals *t = &r->t;
    fprintf(f, "done %d\nordinal %" PRIu64 "\n", r->done, r->it.ordinal);
    put_digits(f, &r->it);
    fprintf(f, "elapsed %.3f\n", elapsed);
    uint64_t counts[6] = {t->enumerated, t->skipped, t->checked, t->agree, t->diverged, t->dropped};
    sf_put_list(f, "counts", counts, 6);
    fprintf(f, "first_skip %" PRIu64 "\n", t->first_skip);
    sf_put_list(f, "skip_inv", t->skip_inv, INV_COUNT);
    sf_put_list(f, "exits", t->exits, run_target(r)->exits);
    sf_put_list(f, "defects", t->defects, run_defects(r));
    for (int d = 0; d < run_defects(r); d++)
        put_best(f, "best_defect", d, &t->best_defect[d]);
    for (int c = 0; c < t->n_classes; c++) {
        const struct xclass *x = &t->classes[c];
        fprintf(f, "class %d %u %" PRIu32 " %" PRIu64 " %" PRIu64 "\n", x->exit, x->cause, x->fields, x->count,
                x->first);
        put_best(f, "best_class", c, &t->best_class[c]);
    }
    return sf_finish(out);
}

/* "len d0 d1 ..." into digits; returns len or -1 (the digits' ranges are
 * the plan walk's to check: exh_seek, state_walk) */
static int read_digits(const char *s, uint8_t *digit)
{
    uint64_t len;
    if (sf_read_u64(&s, &len) != 0 || len > EXH_MAX_CHOICES)
        return -1;
    uint64_t v[EXH_MAX_CHOICES];
    if (sf_read_list(s, v, (int)len) != 0)
        return -1;
    for (uint64_t k = 0; k < len; k++) {
        if (v[k] > 255)
            return -1;
        digit[k] = (uint8_t)v[k];
    }
    return (int)len;
}

/* "idx size ordinal len d0 d1 ..." */
static int read_best(const char *s, struct best *b, int *idx)
{
    uint64_t head[3];
    for (int i = 0; i < 3; i++)
        if (sf_read_u64(&s, &head[i]) != 0)
            return -1;
    if (head[0] > MAX_CLASSES || head[1] > INT32_MAX)
        return -1;
    int len = read_digits(s, b->digit);
    if (len < 0)
        return -1;
    *idx = (int)head[0];
    b->set = true;
    b->size = (int)head[1];
    b->ordinal = head[2];
    b->len = len;
    return 0;
}

/* Where each part of a state file was, for the refusal's file:line. */
struct state_lines {
    int run, done, ordinal, digits, elapsed, counts, first_skip, skip_inv, exits, defects, end, last;
    int best_defect[DEFECT_MAX], cls[MAX_CLASSES], best_class[MAX_CLASSES];
};

/* A saved plan to find on the walk: the position and each best state. */
struct state_mark {
    uint64_t ordinal;
    const uint8_t *digit;
    int len, line, size; /* size -1: the position (no size) */
};

/* What a state file said, before any of it is used. */
struct state_read {
    int len, done;
    uint64_t ordinal;
    uint8_t digit[EXH_MAX_CHOICES];
    double elapsed;
    struct totals t;
    struct state_lines at;
    struct state_mark marks[1 + DEFECT_MAX + MAX_CLASSES]; /* state_walk's */
};

/* What a load reads against. */
struct state_load {
    struct run *r;
    struct state_read *sr;
};

/* One line "key values" into sr (sf_reader's line); -1 with e filled. A
 * key other than class, best_class and best_defect appears once. */
static int state_line(void *ctx, int lineno, const char *key, const char *v, struct sf_err *e)
{
    const struct state_load *l = ctx;
    const struct run *r = l->r;
    struct state_read *sr = l->sr;
    struct totals *t = &sr->t;
    struct state_lines *at = &sr->at;
    uint64_t u[6];
    int idx;
    if (!strcmp(key, "run")) {
        char want[256];
        return sf_run_line(v, run_line(r, want, sizeof want), "fastpath board threads ntfns refills domains shard: ",
                           60, lineno, e);
    } else if (!strcmp(key, "done")) {
        if (sf_read_list(v, u, 1) != 0 || u[0] > 1)
            return sf_fail(e, lineno, "'done' is not 0 or 1");
        sr->done = (int)u[0];
    } else if (!strcmp(key, "ordinal")) {
        if (sf_read_list(v, &sr->ordinal, 1) != 0)
            return sf_fail(e, lineno, "bad ordinal");
    } else if (!strcmp(key, "digits")) {
        if ((sr->len = read_digits(v, sr->digit)) < 0)
            return sf_fail(e, lineno, "bad digits (a count up to %d, then that many numbers up to 255)",
                              EXH_MAX_CHOICES);
    } else if (!strcmp(key, "elapsed")) {
        return sf_read_elapsed(v, &sr->elapsed, lineno, e);
    } else if (!strcmp(key, "counts")) {
        if (sf_read_list(v, u, 6) != 0)
            return sf_fail(e, lineno, "bad counts (six whole numbers)");
        t->enumerated = u[0];
        t->skipped = u[1];
        t->checked = u[2];
        t->agree = u[3];
        t->diverged = u[4];
        t->dropped = u[5];
    } else if (!strcmp(key, "first_skip")) {
        if (sf_read_list(v, &t->first_skip, 1) != 0)
            return sf_fail(e, lineno, "bad first_skip");
    } else if (!strcmp(key, "skip_inv")) {
        if (sf_read_list(v, t->skip_inv, INV_COUNT) != 0)
            return sf_fail(e, lineno, "bad skip_inv (%d whole numbers)", INV_COUNT);
    } else if (!strcmp(key, "exits")) {
        if (sf_read_list(v, t->exits, run_target(r)->exits) != 0)
            return sf_fail(e, lineno, "bad exits (%d whole numbers)", run_target(r)->exits);
    } else if (!strcmp(key, "defects")) {
        if (sf_read_list(v, t->defects, run_defects(r)) != 0)
            return sf_fail(e, lineno, "bad defects (%d whole numbers)", run_defects(r));
    } else if (!strcmp(key, "best_defect")) {
        struct best b;
        if (read_best(v, &b, &idx) != 0 || idx >= run_defects(r))
            return sf_fail(e, lineno, "bad best_defect");
        if (at->best_defect[idx])
            return sf_fail(e, lineno, "best_defect %d again (first on line %d)", idx, at->best_defect[idx]);
        at->best_defect[idx] = lineno;
        t->best_defect[idx] = b;
    } else if (!strcmp(key, "class")) {
        struct xclass x;
        if (t->n_classes >= MAX_CLASSES)
            return sf_fail(e, lineno, "more than %d classes", MAX_CLASSES);
        if (sf_read_list(v, u, 5) != 0 || u[0] >= (uint64_t)run_target(r)->exits || u[1] > UINT32_MAX ||
            u[2] > UINT32_MAX)
            return sf_fail(e, lineno, "bad class (exit below %d, cause, fields, count, first)",
                              run_target(r)->exits);
        x = (struct xclass){(int)u[0], (unsigned)u[1], (uint32_t)u[2], u[3], u[4]};
        at->cls[t->n_classes] = lineno;
        t->classes[t->n_classes++] = x;
    } else if (!strcmp(key, "best_class")) {
        struct best b;
        if (read_best(v, &b, &idx) != 0 || idx >= t->n_classes)
            return sf_fail(e, lineno, "bad best_class (of a class on a line before it)");
        if (at->best_class[idx])
            return sf_fail(e, lineno, "best_class %d again (first on line %d)", idx, at->best_class[idx]);
        at->best_class[idx] = lineno;
        t->best_class[idx] = b;
    } else if (strcmp(key, "end") != 0) {
        return sf_fail(e, lineno, "unknown key '%s'", key);
    }
    return 0;
}

/* A state index of this run's shard below lim: how many there are, and
 * whether i is one. */
static bool in_shard(const struct run *r, uint64_t i)
{
    return i % r->o.shard_n == r->o.shard_k - 1;
}

/* A best (smallest) state: a state of this shard before the position;
 * that its digits are the plan of its ordinal is state_walk's to check. */
static int best_ok(const struct run *r, const struct best *b, uint64_t lim, int line, const char *what,
                   struct sf_err *e)
{
    if (b->ordinal >= lim || !in_shard(r, b->ordinal))
        return sf_fail(e, line, "%s: state %" PRIu64 " is not a state of this shard checked before the "
                          "position", what, b->ordinal);
    return 0;
}

/* The counts against the position and each other: every figure the
 * summary and the bound statement print follows from the states checked. */
static int state_counts(const struct run *r, const struct state_read *sr, struct sf_err *e)
{
    const struct totals *t = &sr->t;
    const struct state_lines *at = &sr->at;
    uint64_t lim = sr->done ? r->space : sr->ordinal; /* the states checked are those below */
    if (sr->done ? (sr->ordinal != (r->space ? r->space - 1 : 0)) : sr->ordinal >= r->space)
        return sf_fail(e, at->ordinal, "ordinal %" PRIu64 " is not %s of the space of %" PRIu64 " states",
                          sr->ordinal, sr->done ? "the last state" : "a state", r->space);
    uint64_t want = shard_size(lim, r->o.shard_k, r->o.shard_n);
    if (t->enumerated != want)
        return sf_fail(e, at->counts, "%" PRIu64 " states enumerated, but the shard has %" PRIu64
                          " states below position %" PRIu64, t->enumerated, want, lim);
    if (t->skipped > t->enumerated || t->skipped + t->checked != t->enumerated)
        return sf_fail(e, at->counts, "skipped + checked is not the states enumerated");
    if (t->agree > t->checked || t->agree + t->diverged != t->checked)
        return sf_fail(e, at->counts, "agree + diverged is not the states checked");
    if (t->dropped > t->diverged || (t->dropped && t->n_classes < MAX_CLASSES))
        return sf_fail(e, at->counts, "dropped divergences without %d classes", MAX_CLASSES);
    if ((t->skipped == 0) != (t->first_skip == UINT64_MAX) ||
        (t->skipped && (t->first_skip >= lim || !in_shard(r, t->first_skip))))
        return sf_fail(e, at->first_skip, "first_skip is not a state of this shard before the position");
    uint64_t sum = 0;
    for (int i = 0; i < INV_COUNT; i++) {
        if (t->skip_inv[i] > t->skipped)
            return sf_fail(e, at->skip_inv, "more skips by one invariant than states skipped");
        sum += t->skip_inv[i];
    }
    if (sum < t->skipped)
        return sf_fail(e, at->skip_inv, "skipped states no invariant broke");
    sum = 0;
    for (int x = 0; x < run_target(r)->exits; x++) {
        if (t->exits[x] > t->checked)
            return sf_fail(e, at->exits, "more exits than states checked");
        sum += t->exits[x];
    }
    if (sum != t->checked)
        return sf_fail(e, at->exits, "the exits do not add up to the states checked");
    return 0;
}

static int state_classes(const struct run *r, const struct state_read *sr, struct sf_err *e)
{
    const struct totals *t = &sr->t;
    const struct state_lines *at = &sr->at;
    uint64_t lim = sr->done ? r->space : sr->ordinal, sum = 0, per_exit[TARGET_MAX_EXITS] = {0};
    uint64_t per_defect[DEFECT_MAX] = {0};
    for (int c = 0; c < t->n_classes; c++) {
        const struct xclass *x = &t->classes[c];
        if (!sf_cause_ok(run_target(r), run_as_written(r), x->cause))
            return sf_fail(e, at->cls[c], "cause %u is not a cause of this run's classes", x->cause);
        for (int o = 0; o < c; o++)
            if (t->classes[o].exit == x->exit && t->classes[o].cause == x->cause)
                return sf_fail(e, at->cls[c], "the class of line %d again", at->cls[o]);
        if (!sf_fields_ok(x->fields))
            return sf_fail(e, at->cls[c], "fields 0x%" PRIx32 " name no field", x->fields);
        if (x->count == 0 || x->count > t->diverged || x->first >= lim || !in_shard(r, x->first))
            return sf_fail(e, at->cls[c], "count or first state out of range");
        if (!t->best_class[c].set)
            return sf_fail(e, at->cls[c], "a class without its best_class");
        if (t->best_class[c].ordinal < x->first)
            return sf_fail(e, at->best_class[c], "the smallest state is before the class's first");
        if (best_ok(r, &t->best_class[c], lim, at->best_class[c], "best_class", e))
            return -1;
        sum += x->count;
        per_exit[x->exit] += x->count;
        if (per_exit[x->exit] > t->exits[x->exit])
            return sf_fail(e, at->cls[c], "more states in the classes of exit %d than at that exit", x->exit);
        unsigned ds = cause_defects(run_target(r), x->cause);
        for (int d = 0; d < run_defects(r); d++)
            per_defect[d] += (ds >> d & 1) ? x->count : 0;
    }
    if (sum + t->dropped != t->diverged)
        return sf_fail(e, at->counts, "the classes do not add up to the states that diverged");
    for (int d = 0; d < run_defects(r); d++) {
        /* a dropped divergence still counts for its defects */
        if (t->defects[d] < per_defect[d] || t->defects[d] > per_defect[d] + t->dropped)
            return sf_fail(e, at->defects, "defect %s's count is not its classes'", run_defect(r, d)->id);
        if (t->best_defect[d].set != (t->defects[d] > 0))
            return sf_fail(e, at->best_defect[d] ? at->best_defect[d] : at->defects,
                              "defect %s: a smallest state %s", run_defect(r, d)->id,
                              t->defects[d] ? "missing" : "without a state");
        if (t->best_defect[d].set && best_ok(r, &t->best_defect[d], lim, at->best_defect[d], "best_defect", e))
            return -1;
    }
    return 0;
}

static int mark_cmp(const void *a, const void *b)
{
    const struct state_mark *x = a, *y = b;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

/* Walk the plans up to the last saved ordinal: each saved plan must be the
 * plan of its ordinal (its digits, each in its range), and a best state's
 * size the size of the state it builds. The walk costs what the space's
 * count (exh_count) already cost. */
static int state_walk(struct run *r, struct state_read *sr, struct sf_err *e)
{
    struct state_mark *m = sr->marks;
    int n = 0;
    const struct totals *t = &sr->t;
    m[n++] = (struct state_mark){sr->ordinal, sr->digit, sr->len, sr->at.digits, -1};
    for (int d = 0; d < run_defects(r); d++)
        if (t->best_defect[d].set)
            m[n++] = (struct state_mark){t->best_defect[d].ordinal, t->best_defect[d].digit, t->best_defect[d].len,
                                         sr->at.best_defect[d], t->best_defect[d].size};
    for (int c = 0; c < t->n_classes; c++)
        m[n++] = (struct state_mark){t->best_class[c].ordinal, t->best_class[c].digit, t->best_class[c].len,
                                     sr->at.best_class[c], t->best_class[c].size};
    qsort(m, (size_t)n, sizeof m[0], mark_cmp);
    struct exh_iter *it = malloc(sizeof *it);
    if (!it)
        return sf_fail(e, 0, "out of memory");
    exh_begin(it, &r->o.b);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        while (!it->done && it->ordinal < m[i].ordinal)
            exh_next(it);
        if (it->done || it->ordinal != m[i].ordinal || it->len != m[i].len ||
            memcmp(it->digit, m[i].digit, (size_t)m[i].len) != 0)
            rc = sf_fail(e, m[i].line, "the digits are not those of state %" PRIu64 " of this space",
                            m[i].ordinal);
        else if (m[i].size >= 0 && (exh_build(&it->plan, &r->o.b, &r->in) != 0 || shrink_size(&r->in) != m[i].size))
            rc = sf_fail(e, m[i].line, "size %d is not the size of state %" PRIu64, m[i].size, m[i].ordinal);
    }
    free(it);
    return rc;
}

/* Returns 1 when resumed, 0 when there is no state file yet, -1 on error
 * (message printed). Nothing read is used before all of it is checked
 * against the bound: digits, ordinal, counts, classes, exits and causes
 * (docs/inputs.md, "Exhaust state files"). */
/* sf_reader's check: the parts against each other and the bound */
static int state_check(void *ctx, struct sf_err *e)
{
    const struct state_load *l = ctx;
    struct run *r = l->r;
    struct state_read *sr = l->sr;
    if (state_counts(r, sr, e) || state_classes(r, sr, e) || state_walk(r, sr, e))
        return -1;
    if (!sr->done && exh_seek(&r->it, &r->o.b, sr->digit, sr->len, sr->ordinal) != 0)
        return sf_fail(e, sr->at.digits, "its position is not a state of this space");
    return 0;
}

static int load_state(struct run *r, double *elapsed)
{
    struct state_read *sr = calloc(1, sizeof *sr);
    if (!sr)
        return sf_refuse(&STATE_FORMAT, r->o.state, &(struct sf_err){0, "out of memory"});
    sr->len = -1;
    struct state_lines *at = &sr->at;
    const struct sf_key keys[] = {
        {"run", &at->run, true},           {"done", &at->done, true},         {"ordinal", &at->ordinal, true},
        {"digits", &at->digits, true},     {"elapsed", &at->elapsed, false},  {"counts", &at->counts, true},
        {"first_skip", &at->first_skip, true}, {"skip_inv", &at->skip_inv, true}, {"exits", &at->exits, true},
        {"defects", &at->defects, true},   {"end", &at->end, true}};
    struct state_load l = {r, sr};
    const struct sf_reader rd = {&STATE_FORMAT, keys, (int)(sizeof keys / sizeof keys[0]),
                                 "incomplete (run, done, ordinal, digits, counts, first_skip, skip_inv, exits, "
                                 "defects and end are needed)", state_line, state_check, &l};
    int rc = sf_load(&rd, r->o.state);
    if (rc > 0) {
        r->t = sr->t;
        *elapsed = sr->elapsed;
        r->done = sr->done;
        if (r->done)
            r->it.ordinal = sr->ordinal;
    }
    free(sr);
    return rc;
}

/* ---- checking ---- */

static void best_offer(struct best *b, const struct exh_iter *it, int size)
{
    if (b->set && (b->size < size || (b->size == size && b->ordinal <= it->ordinal)))
        return;
    b->set = true;
    b->size = size;
    b->ordinal = it->ordinal;
    b->len = it->len;
    memcpy(b->digit, it->digit, (size_t)it->len);
}

static void check_one(struct run *r)
{
    struct totals *t = &r->t;
    t->enumerated++;
    struct inv_report rep;
    int bad_build = exh_build(&r->it.plan, &r->o.b, &r->in);
    int n = bad_build ? 1 : kstate_check(&r->in, INV_AT_ENTRY, &rep);
    if (n) {
        t->skipped++;
        if (t->first_skip == UINT64_MAX)
            t->first_skip = r->it.ordinal;
        bool seen[INV_COUNT] = {false};
        int kept = bad_build ? 0 : (n < INV_MAX_ITEMS ? n : INV_MAX_ITEMS);
        for (int i = 0; i < kept; i++)
            seen[rep.items[i].id] = true;
        if (bad_build)
            seen[INV_INDEX] = true; /* the model's capacity; never within the bounds */
        for (int i = 0; i < INV_COUNT; i++)
            t->skip_inv[i] += seen[i];
        return;
    }
    struct diff_verdict v;
    diff_run(&r->in, r->o.variant, true, &v, &r->slow, &r->fast);
    t->checked++;
    t->exits[v.exit]++;
    situation_tally(&r->in, r->sits);
    r->checked_here++;
    if (v.agree) {
        t->agree++;
        return;
    }
    t->diverged++;
    unsigned cause = run_as_written(r) ? classify_cause(&r->in, &r->cws) : CLASS_NO_FIX;
    int size = shrink_size(&r->in);
    int c = 0;
    while (c < t->n_classes && !(t->classes[c].exit == v.exit && t->classes[c].cause == cause))
        c++;
    if (c == t->n_classes) {
        if (c == MAX_CLASSES) {
            t->dropped++;
            c = -1;
        } else {
            t->classes[c] = (struct xclass){v.exit, cause, 0, 0, r->it.ordinal};
            t->n_classes++;
        }
    }
    if (c >= 0) {
        t->classes[c].count++;
        t->classes[c].fields |= v.fields;
        best_offer(&t->best_class[c], &r->it, size);
    }
    unsigned defects = cause_defects(r->o.b.target, cause);
    for (int d = 0; d < run_defects(r); d++)
        if (defects & (1u << d)) {
            t->defects[d]++;
            best_offer(&t->best_defect[d], &r->it, size);
        }
}

/* Rebuild a saved state from its digits. */
static int rebuild(struct run *r, const struct best *b, struct exh_iter *it)
{
    if (exh_seek(it, &r->o.b, b->digit, b->len, b->ordinal) != 0)
        return -1;
    return exh_build(&it->plan, &r->o.b, &r->in);
}

static int write_scenario(struct run *r, const char *path, const char *title, const struct exh_iter *it)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        struct diff_verdict v;
        char plan[1024];
        diff_run(&r->in, r->o.variant, true, &v, &r->slow, &r->fast);
        fprintf(mem, "%s (%sfastpath %s)\nexhaust state %" PRIu64 " of the space threads<=%d ntfns<=%d refills<=%d "
                "domains<=%d board %s\nplan: %s\n",
                title, r->named, run_variant(r), it->ordinal, r->o.b.threads, r->o.b.ntfns, r->o.b.refills,
                r->o.b.domains, r->o.label, exh_plan_text(&it->plan, plan, sizeof plan));
        diff_report(mem, &v, &r->slow, &r->fast);
        if (!v.agree) {
            unsigned cause = run_as_written(r) ? classify_cause(&r->in, &r->cws) : CLASS_NO_FIX;
            struct dclass cl = {v.exit, cause, v.fields, target_index(r->o.b.target)};
            char name[200], defs[64];
            fprintf(mem, "class: %s (defects %s)\n", dclass_name(&cl, name, sizeof name),
                    defects_text(r->o.b.target, cause_defects(r->o.b.target, cause), defs, sizeof defs));
        }
        fclose(mem);
    }
    int rc = out_reproducer("irqsim exhaust", path, text, &r->in, NULL);
    free(text);
    return rc;
}

/* One reproducer into --out; a failure is counted (the exit status). */
static void write_one(struct run *r, const char *name, const char *title, const struct exh_iter *it)
{
    char *path = out_join(r->o.out, "%s.scen", name);
    if (!path || write_scenario(r, path, title, it) != 0)
        r->write_errors++;
    free(path);
}

static void write_files(struct run *r)
{
    if (!r->o.out)
        return;
    static struct exh_iter it;
    char title[200], name[200];
    for (int d = 0; d < run_defects(r); d++) {
        const struct best *b = &r->t.best_defect[d];
        if (!b->set || rebuild(r, b, &it) != 0)
            continue;
        snprintf(title, sizeof title, "smallest state of defect %s (%s)", run_defect(r, d)->id, run_defect(r, d)->title);
        write_one(r, run_defect(r, d)->id, title, &it);
    }
    if (run_as_written(r))
        return;
    for (int c = 0; c < r->t.n_classes; c++) {
        const struct best *b = &r->t.best_class[c];
        if (!b->set || rebuild(r, b, &it) != 0)
            continue;
        struct dclass cl = {r->t.classes[c].exit, r->t.classes[c].cause, r->t.classes[c].fields, target_index(r->o.b.target)};
        dclass_name(&cl, name, sizeof name);
        for (char *p = name; *p; p++)
            if (*p == '/')
                *p = '_';
        write_one(r, name, "smallest divergent state of its class", &it);
    }
}

/* ---- merging shards (--merge) ---- */

/* The shard a state file's run line names: its last two numbers. 0, -1
 * when there is none (the rest of the file is load_state's to check), -2
 * when the file cannot be read (errno says why). */
static int state_shard(const char *path, uint64_t *k, uint64_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -2;
    char line[512];
    int rc = -1;
    while (rc && fgets(line, sizeof line, f)) {
        if (strncmp(line, "run ", 4) != 0)
            continue;
        line[strcspn(line, "\n")] = 0;
        char *last = strrchr(line, ' ');
        if (!last || last == line)
            break;
        *last = 0;
        char *before = strrchr(line, ' ');
        if (before && parse_uint(before + 1, 1, UINT32_MAX, k) == 0 && parse_uint(last + 1, 1, UINT32_MAX, n) == 0 &&
            *k <= *n)
            rc = 0;
        break;
    }
    fclose(f);
    return rc;
}

/* as best_offer: the smaller size, and of equal sizes the earlier state */
static void best_merge(struct best *into, const struct best *b)
{
    if (!b->set || (into->set && (into->size < b->size || (into->size == b->size && into->ordinal <= b->ordinal))))
        return;
    *into = *b;
}

/* One finished shard's totals into t. The shards are disjoint, so every
 * count adds up; a class is the same class in every shard (exit, cause). */
static void totals_merge(const struct run *r, struct totals *t, const struct totals *s)
{
    t->enumerated += s->enumerated;
    t->skipped += s->skipped;
    t->checked += s->checked;
    t->agree += s->agree;
    t->diverged += s->diverged;
    t->dropped += s->dropped;
    t->elapsed += s->elapsed;
    if (s->first_skip < t->first_skip)
        t->first_skip = s->first_skip;
    for (int i = 0; i < INV_COUNT; i++)
        t->skip_inv[i] += s->skip_inv[i];
    for (int e = 0; e < run_target(r)->exits; e++)
        t->exits[e] += s->exits[e];
    for (int d = 0; d < run_defects(r); d++) {
        t->defects[d] += s->defects[d];
        best_merge(&t->best_defect[d], &s->best_defect[d]);
    }
    for (int i = 0; i < s->n_classes; i++) {
        const struct xclass *x = &s->classes[i];
        int c = 0;
        while (c < t->n_classes && !(t->classes[c].exit == x->exit && t->classes[c].cause == x->cause))
            c++;
        if (c == MAX_CLASSES) {
            t->dropped += x->count;
            continue;
        }
        if (c == t->n_classes) {
            t->classes[c] = (struct xclass){x->exit, x->cause, 0, 0, x->first};
            t->n_classes++;
        }
        t->classes[c].count += x->count;
        t->classes[c].fields |= x->fields;
        if (x->first < t->classes[c].first)
            t->classes[c].first = x->first;
        best_merge(&t->best_class[c], &s->best_class[i]);
    }
}

/* The classes in the order a straight run meets them: by first state. */
static void classes_in_order(struct totals *t)
{
    for (int i = 1; i < t->n_classes; i++)
        for (int j = i; j > 0 && t->classes[j].first < t->classes[j - 1].first; j--) {
            struct xclass x = t->classes[j];
            struct best b = t->best_class[j];
            t->classes[j] = t->classes[j - 1];
            t->best_class[j] = t->best_class[j - 1];
            t->classes[j - 1] = x;
            t->best_class[j - 1] = b;
        }
}

/* Which shard each file is: every one of 1..N exactly once, one N. */
static int merge_cover(const struct xopts *o, uint64_t *k)
{
    uint64_t n = 0, n0 = 0;
    for (int i = 0; i < o->n_files; i++) {
        int got = state_shard(o->files[i], &k[i], &n);
        if (got == -2)
            fprintf(stderr, "irqsim exhaust: --merge: cannot read %s: %s\n", o->files[i], strerror(errno));
        else if (got)
            fprintf(stderr, "irqsim exhaust: --merge: %s: not a state file with a run line naming its shard K N\n",
                    o->files[i]);
        if (got)
            return -1;
        if (i && n != n0) {
            fprintf(stderr, "irqsim exhaust: --merge: %s is a shard of %" PRIu64 ", %s of %" PRIu64
                    ": not one split of the space\n", o->files[0], n0, o->files[i], n);
            return -1;
        }
        n0 = n;
        for (int j = 0; j < i; j++)
            if (k[j] == k[i]) {
                fprintf(stderr, "irqsim exhaust: --merge: shard %" PRIu64 "/%" PRIu64 " twice (%s, %s)\n", k[i], n,
                        o->files[j], o->files[i]);
                return -1;
            }
    }
    if ((uint64_t)o->n_files == n0)
        return 0;
    fprintf(stderr, "irqsim exhaust: --merge: %" PRIu64 " shards make the space, %d given; missing:", n0, o->n_files);
    int shown = 0;
    for (uint64_t want = 1; want <= n0 && shown < 10; want++) {
        bool have = false;
        for (int i = 0; i < o->n_files && !have; i++)
            have = k[i] == want;
        if (!have)
            fprintf(stderr, " %" PRIu64 "/%" PRIu64, want, n0), shown++;
    }
    fprintf(stderr, "%s\n", shown == 10 ? " ..." : "");
    return -1;
}

/* Load each shard's state file as that shard's run would resume from it
 * (every check of load_state), require it finished, and add it up into r:
 * r then reports as the straight run of the whole space would. 0, or -1
 * after a message naming the file. */
static int merge_shards(struct run *r, double *elapsed)
{
    uint64_t *k = calloc(MAX_MERGE, sizeof *k);
    struct run *s = malloc(sizeof *s);
    int rc = k && s ? merge_cover(&r->o, k) : -1;
    *elapsed = 0;
    for (int i = 0; rc == 0 && i < r->o.n_files; i++) {
        memset(s, 0, sizeof *s);
        s->o = r->o;
        s->o.state = r->o.files[i];
        s->o.shard_k = k[i];
        s->o.shard_n = (uint64_t)r->o.n_files;
        s->space = r->space;
        s->t.first_skip = UINT64_MAX;
        double el = 0;
        int got = load_state(s, &el); /* 0 (no file) cannot be: merge_cover read it */
        if (got > 0 && !s->done)
            fprintf(stderr, "irqsim exhaust: --merge: %s: shard %" PRIu64 "/%" PRIu64 " is not finished (%" PRIu64
                    " of its states; rerun its command to resume it)\n", s->o.state, s->o.shard_k, s->o.shard_n,
                    s->t.enumerated);
        if (got == 0)
            fprintf(stderr, "irqsim exhaust: --merge: %s: gone while merging\n", s->o.state);
        if (got <= 0 || !s->done) {
            rc = -1;
            break;
        }
        s->t.elapsed = el;
        totals_merge(r, &r->t, &s->t);
    }
    if (rc == 0) {
        classes_in_order(&r->t);
        *elapsed = r->t.elapsed;
        r->done = r->merged = true;
        r->it.ordinal = r->space ? r->space - 1 : 0;
        if (!r->o.quiet)
            fprintf(stderr, "irqsim exhaust: merged %d shards: %" PRIu64 " of %" PRIu64 " states\n", r->o.n_files,
                    r->t.enumerated, r->space);
    }
    free(k);
    free(s);
    return rc;
}

/* ---- report ---- */

static const char *space_word(uint64_t n)
{
    return n == 1 ? "state" : "states";
}

/* What the space varies at the entry, per target. */
static const char *edges_text(const struct run *r)
{
    return r->o.b.target->words.space;
}

static void bound_text(const struct run *r, char *buf, size_t len)
{
    const struct totals *t = &r->t;
    char shard[96] = "";
    if (r->o.shard_n > 1)
        snprintf(shard, sizeof shard, " (shard %" PRIu64 "/%" PRIu64 ": the states whose index is %" PRIu64
                 " mod %" PRIu64 ")", r->o.shard_k, r->o.shard_n, r->o.shard_k - 1, r->o.shard_n);
    char verdict[400];
    const char *which = r->o.b.target->words.verdict_fast, *slow = r->o.b.target->words.verdict_slow;
    if (t->diverged == 0)
        snprintf(verdict, sizeof verdict, "the %s%s agrees with %s on every one of them", run_variant(r), which,
                 slow);
    else {
        unsigned mask = 0;
        for (int d = 0; d < run_defects(r); d++)
            if (t->defects[d])
                mask |= 1u << d;
        char defs[64];
        snprintf(verdict, sizeof verdict, "the %s%s diverges from %s on %" PRIu64 " of them (%d "
                 "classes; defects %s)", run_variant(r), which, slow, t->diverged, t->n_classes,
                 defects_text(r->o.b.target, mask, defs, sizeof defs));
    }
    /* a run stopped before the end quotes no bound: it says what part it
     * covered (the states below its position) and claims nothing more */
    char part[400] = "";
    if (!r->done)
        snprintf(part, sizeof part, ", NOT all of it: the run stopped after %" PRIu64 " of its %" PRIu64
                 " states (those whose index is below %" PRIu64 "), and nothing is claimed for the other %" PRIu64
                 "%s. Of those %" PRIu64, t->enumerated, r->shard_space, r->it.ordinal,
                 r->shard_space - t->enumerated, r->o.state ? " (--state resumes from there)" : "", t->enumerated);
    snprintf(buf, len,
             "%s state%s of irqsim's bounded space (docs/EXHAUSTIVE.md) with at most %d thread%s besides the "
             "idle thread, %d notification%s, %d refill%s per periodic scheduling context and %d domain%s, on "
             "board %s, %s enumerated%s%s: %" PRIu64 " %s, each distinct up to thread renaming and "
             "order-preserving priority relabelling, %s. %" PRIu64
             " passed the kernel's entry invariants and were run through both paths%s; %s%s.",
             r->done ? "Every" : "Part of the", r->done ? "" : "s", r->o.b.threads, r->o.b.threads == 1 ? "" : "s",
             r->o.b.ntfns, r->o.b.ntfns == 1 ? "" : "s", r->o.b.refills, r->o.b.refills == 1 ? "" : "s",
             r->o.b.domains, r->o.b.domains == 1 ? "" : "s", r->o.label, r->done ? "was" : "were", shard, part,
             t->enumerated, space_word(t->enumerated), edges_text(r), t->checked,
             t->skipped ? " (the others were skipped: see the skips by invariant)" : " (none was skipped)", verdict,
             t->checked ? "" : ": nothing was checked, which is no pass");
}

static void print_summary(const struct run *r, FILE *out, double elapsed)
{
    const struct totals *t = &r->t;
    char buf[4096];
    fprintf(out, "irqsim exhaust: %sfastpath %s, board %s, threads<=%d ntfns<=%d refills<=%d domains<=%d\n",
            r->named, run_variant(r), r->o.label, r->o.b.threads, r->o.b.ntfns, r->o.b.refills, r->o.b.domains);
    if (r->o.shard_n > 1)
        fprintf(out, "space: %" PRIu64 " states; shard %" PRIu64 "/%" PRIu64 ": %" PRIu64 " of them\n", r->space,
                r->o.shard_k, r->o.shard_n, r->shard_space);
    else
        fprintf(out, "space: %" PRIu64 " states\n", r->space);
    if (r->done)
        fprintf(out, "enumerated: %" PRIu64 "\n", t->enumerated);
    else
        fprintf(out, "enumerated: %" PRIu64 " of %" PRIu64 " (NOT finished: the statement below covers only these)\n",
                t->enumerated, r->shard_space);
    if (r->interrupted)
        fprintf(out, "interrupted by %s: the figures are of the states enumerated%s\n", stop_name(r->interrupted),
                r->o.state ? " (--state resumes from there)" : "");
    fprintf(out, "skipped: %" PRIu64, t->skipped);
    if (t->skipped) {
        fprintf(out, " (by invariant:");
        for (int i = 0; i < INV_COUNT; i++)
            if (t->skip_inv[i])
                fprintf(out, " %s %" PRIu64, inv_name(i), t->skip_inv[i]);
        fprintf(out, "; first: state %" PRIu64 ")", t->first_skip);
    }
    fprintf(out, "\nchecked: %" PRIu64 " (agree %" PRIu64 ", diverge %" PRIu64 ")\n", t->checked, t->agree,
            t->diverged);
    fprintf(out, "fastpath exits:");
    for (int e = 0; e < run_target(r)->exits; e++)
        if (t->exits[e])
            fprintf(out, " %s %" PRIu64, run_target(r)->exit_name(e), t->exits[e]);
    fprintf(out, "\n");
    if (t->diverged) {
        fprintf(out, "divergences by defect:\n");
        for (int d = 0; d < run_defects(r); d++) {
            if (!t->defects[d])
                continue;
            fprintf(out, "  %s %-40s %10" PRIu64 " states; smallest: state %" PRIu64 " (size %d)\n",
                    run_defect(r, d)->id, run_defect(r, d)->title, t->defects[d], t->best_defect[d].ordinal,
                    t->best_defect[d].size);
        }
        fprintf(out, "divergences by class (exit/cause):\n");
        for (int c = 0; c < t->n_classes; c++) {
            const struct xclass *x = &t->classes[c];
            struct dclass cl = {x->exit, x->cause, x->fields, target_index(r->o.b.target)};
            char name[200], defs[64], fields[512];
            fprintf(out, "  %-50s %10" PRIu64 "  %s  [%s]\n", dclass_name(&cl, name, sizeof name), x->count,
                    defects_text(r->o.b.target, cause_defects(r->o.b.target, x->cause), defs, sizeof defs),
                    diff_fields_text(x->fields, fields, sizeof fields));
        }
        if (t->dropped)
            fprintf(out, "  (%" PRIu64 " divergences of classes past the first %d)\n", t->dropped, MAX_CLASSES);
    }
    if (r->merged) /* a state file keeps no situations */
        fprintf(out, "situations: not kept in state files (each shard's output prints its own)\n");
    else if (r->resumed)
        fprintf(out, "(the situations below count the states checked since the resumption)\n");
    if (!r->merged) {
        /* the enumeration's other core runs its idle thread (build_core1,
         * check/build.c): core 1 running a thread of its own is drawn by
         * the generator and run by the workloads, not built here */
        const char *why[SIT_COUNT] = {NULL};
        why[SIT_CORE1_THREAD] = "the enumeration's other core runs its idle thread, build_core1";
        situation_print_why(out, r->sits, r->checked_here, !r->o.b.target->syscall_entry, why);
    }
    fprintf(out, "time: %.1f s%s (%.0f states/s)\n", elapsed, r->merged ? " summed over the shards" : "",
            elapsed > 0 ? (double)t->enumerated / elapsed : 0.0);
    bound_text(r, buf, sizeof buf);
    fprintf(out, "bound: %s\n", buf);
}


static int write_json(const struct run *r, double elapsed)
{
    struct out *out = out_open("irqsim exhaust", r->o.json);
    if (!out)
        return -1;
    FILE *f = out->f;
    const struct totals *t = &r->t;
    char buf[4096];
    fprintf(f, "{\n");
    if (r->interrupted) /* only then: an uninterrupted run's JSON stays as it was */
        fprintf(f, "  \"interrupted\": \"%s\",\n", stop_name(r->interrupted));
    if (run_named(r)) /* the default target's JSON stays as it was */
        fprintf(f, "  \"target\": \"%s\",\n", r->o.b.target->name);
    fprintf(f, "  \"fastpath\": \"%s\",\n  \"board\": \"%s\",\n", run_variant(r), r->o.board);
    if (!cfg_kernel_is_default(r->o.b.kernel))
        fprintf(f, "  \"kernel\": \"%s\",\n", cfg_kernel_name(r->o.b.kernel));
    fprintf(f, "  \"bound\": {\"threads\": %d, \"ntfns\": %d, \"refills\": %d, \"domains\": %d},\n", r->o.b.threads,
            r->o.b.ntfns, r->o.b.refills, r->o.b.domains);
    fprintf(f, "  \"shard\": [%" PRIu64 ", %" PRIu64 "],\n  \"space\": %" PRIu64 ",\n  \"shard_space\": %" PRIu64
            ",\n  \"finished\": %s,\n", r->o.shard_k, r->o.shard_n, r->space, r->shard_space,
            r->done ? "true" : "false");
    fprintf(f, "  \"enumerated\": %" PRIu64 ",\n  \"skipped\": %" PRIu64 ",\n  \"skipped_by_invariant\": {",
            t->enumerated, t->skipped);
    int k = 0;
    for (int i = 0; i < INV_COUNT; i++)
        if (t->skip_inv[i])
            fprintf(f, "%s\"%s\": %" PRIu64, k++ ? ", " : "", inv_name(i), t->skip_inv[i]);
    fprintf(f, "},\n  \"checked\": %" PRIu64 ",\n  \"agree\": %" PRIu64 ",\n  \"diverged\": %" PRIu64 ",\n",
            t->checked, t->agree, t->diverged);
    fprintf(f, "  \"exits\": {");
    k = 0;
    for (int e = 0; e < run_target(r)->exits; e++)
        if (t->exits[e])
            fprintf(f, "%s\"%s\": %" PRIu64, k++ ? ", " : "", run_target(r)->exit_name(e), t->exits[e]);
    fprintf(f, "},\n  \"defects\": [");
    k = 0;
    for (int d = 0; d < run_defects(r); d++) {
        if (!t->defects[d])
            continue;
        fprintf(f, "%s\n    {\"id\": \"%s\", \"states\": %" PRIu64 ", \"smallest_state\": %" PRIu64
                ", \"smallest_size\": %d}", k++ ? "," : "", run_defect(r, d)->id, t->defects[d],
                t->best_defect[d].ordinal, t->best_defect[d].size);
    }
    fprintf(f, "%s],\n  \"classes\": [", k ? "\n  " : "");
    for (int c = 0; c < t->n_classes; c++) {
        const struct xclass *x = &t->classes[c];
        struct dclass cl = {x->exit, x->cause, x->fields, target_index(r->o.b.target)};
        char name[200], defs[64], fields[512];
        fprintf(f, "%s\n    {\"class\": ", c ? "," : "");
        out_string(out, dclass_name(&cl, name, sizeof name));
        fprintf(f, ", \"exit\": \"%s\", \"cause\": ", run_target(r)->exit_name(x->exit));
        out_string(out, cause_text(r->o.b.target, x->cause, name, sizeof name));
        fprintf(f, ", \"defects\": \"%s\", \"states\": %" PRIu64 ", \"first_state\": %" PRIu64
                ", \"smallest_state\": %" PRIu64 ", \"fields\": \"%s\"}",
                defects_text(r->o.b.target, cause_defects(r->o.b.target, x->cause), defs, sizeof defs), x->count, x->first,
                t->best_class[c].ordinal, diff_fields_text(x->fields, fields, sizeof fields));
    }
    fprintf(f, "%s],\n  \"seconds\": %.3f,\n  \"statement\": ", t->n_classes ? "\n  " : "", elapsed);
    bound_text(r, buf, sizeof buf);
    out_string(out, buf);
    fprintf(f, "\n}\n");
    return out_close(out);
}

/* Enumerate this invocation's states (resuming from --state), into r and
 * *elapsed; 0, or -1 when the state file was refused. */
static int run_space(struct run *r, double *elapsed)
{
    double before = 0;
    int resumed = 0;
    if (r->o.state) {
        resumed = load_state(r, &before);
        if (resumed < 0)
            return -1;
    }
    if (!resumed)
        exh_begin(&r->it, &r->o.b);
    r->resumed = resumed > 0;
    if (resumed && !r->o.quiet)
        fprintf(stderr, "irqsim exhaust: resuming from %s at state %" PRIu64 "%s\n", r->o.state, r->it.ordinal,
                r->done ? " (finished)" : "");
    double start = progress_now(), last_save = start;
    struct progress pr;
    progress_init(&pr, !r->o.quiet, PROGRESS_EVERY_S);
    uint64_t step = 0, session = 0;
    stop_catch();
    while (!r->done) {
        if (r->it.done) {
            r->done = true;
            break;
        }
        if (r->it.ordinal % r->o.shard_n == r->o.shard_k - 1) {
            check_one(r);
            if (r->o.stop_after && ++session >= r->o.stop_after) {
                if (!exh_next(&r->it))
                    r->done = true;
                break;
            }
        }
        if ((++step & 1023) == 0) {
            if ((r->o.seconds && progress_now() - start >= r->o.seconds) || stop_requested()) {
                if (!exh_next(&r->it))
                    r->done = true;
                break;
            }
            double t = progress_now();
            if (r->o.state && t - last_save >= SAVE_EVERY_S) {
                /* the position saved is the next state: advance first */
                if (!exh_next(&r->it))
                    r->done = true;
                save_state(r, before + t - start);
                last_save = t;
                continue;
            }
            if (progress_due(&pr)) {
                double el = t - start, frac = r->shard_space ? (double)r->t.enumerated / (double)r->shard_space : 1;
                double rate = el > 0 ? (double)(r->t.enumerated) / (before + el) : 0;
                progress_print(&pr, "exhaust: %.1f%% (%" PRIu64 " of %" PRIu64 " states), %" PRIu64 " checked, %" PRIu64
                               " divergent, %.0f states/s, about %.0f s left", 100 * frac, r->t.enumerated,
                               r->shard_space, r->t.checked, r->t.diverged, rate,
                               rate > 0 ? (double)(r->shard_space - r->t.enumerated) / rate : 0.0);
            }
        }
        if (!exh_next(&r->it))
            r->done = true;
    }
    *elapsed = before + progress_now() - start;
    progress_end(&pr, false);
    return 0;
}

int exhaust_main(int argc, char **argv)
{
    struct run *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "irqsim exhaust: out of memory\n");
        return EXIT_USAGE;
    }
    exh_bounds_default(&r->o.b);
    snprintf(r->o.board, sizeof r->o.board, "%s", r->o.b.board);
    r->o.variant = FP_PR1227;
    r->o.kernel = -1;
    r->o.shard_k = r->o.shard_n = 1;
    int rc = parse_args(&r->o, argc, argv);
    if (rc) {
        free(r);
        return rc == -2 ? EXIT_AGREE : rc;
    }
    r->t.first_skip = UINT64_MAX;
    if (run_named(r))
        snprintf(r->named, sizeof r->named, "target %s, ", r->o.b.target->name);
    r->space = exh_count(&r->o.b);
    r->shard_space = shard_size(r->space, r->o.shard_k, r->o.shard_n);
    if (r->o.count_only) {
        printf("space: %" PRIu64 " states (%sthreads<=%d ntfns<=%d refills<=%d domains<=%d board %s)", r->space,
               r->named, r->o.b.threads, r->o.b.ntfns, r->o.b.refills, r->o.b.domains, r->o.label);
        if (r->o.shard_n > 1)
            printf("; shard %" PRIu64 "/%" PRIu64 ": %" PRIu64, r->o.shard_k, r->o.shard_n, r->shard_space);
        printf("\n");
        free(r);
        return EXIT_AGREE;
    }
    if (r->o.out && out_dir("irqsim exhaust", r->o.out) != 0) {
        free(r);
        return EXIT_OUTPUT;
    }
    double elapsed;
    if (r->o.merge ? merge_shards(r, &elapsed) : run_space(r, &elapsed)) {
        free(r);
        return EXIT_USAGE;
    }
    r->interrupted = stop_requested();
    if (r->o.state && save_state(r, elapsed) != 0)
        r->write_errors++;
    print_summary(r, stdout, elapsed);
    write_files(r);
    if (r->o.json && write_json(r, elapsed) != 0)
        r->write_errors++;
    if (r->write_errors)
        fprintf(stderr, "irqsim exhaust: %d output%s could not be written (exit status %d)\n", r->write_errors,
                r->write_errors == 1 ? "" : "s", EXIT_OUTPUT);
    /* a part of the bound, or nothing checked, is no pass of the bound */
    if (!rc)
        rc = r->write_errors      ? EXIT_OUTPUT
             : r->t.diverged      ? EXIT_DIVERGE
             : !r->done || !r->t.checked ? EXIT_INCOMPLETE
                                  : EXIT_AGREE;
    free(r);
    return stop_finish(rc);
}
