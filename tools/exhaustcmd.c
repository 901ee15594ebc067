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
#include "shrink.h"
#include "stop.h"
#include "target.h"

#define EX_AGREE 0
#define EX_DIVERGE 1
#define EX_USAGE 2

#define MAX_CLASSES 256
#define SAVE_EVERY_S 10.0
#define PROGRESS_EVERY_S 10.0

static const char exhaust_usage[] =
    "usage: irqsim exhaust [options]\n"
    "  check every state of the bounded space of docs/EXHAUSTIVE.md: each passes the\n"
    "  entry invariants (or is skipped and counted) and runs the differential check\n"
    "  --target irq|signal  the fastpath under check (default irq: PR #1227's fastpath_irq;\n"
    "                signal: master's fastpath_signal against slowpath(SysSend))\n"
    "  --fastpath V  the variant checked: pr1227|fixed for irq (default pr1227),\n"
    "                merged|fixed for signal (default merged)\n"
    "  --threads N   threads besides the idle thread, 1-6 (default 2)\n"
    "  --ntfns N     notifications, 1-2 (default 1)\n"
    "  --refills N   refills in a periodic SC, 1-4 (default 2)\n"
    "  --domains N   domains, 1-2 (default 2)\n"
    "  --board NAME  imx8mm (default) imx8mq odroidc4 tqma tx1 zcu106\n"
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
    "exit status: 0 no divergence, 1 divergences, 2 bad input, 4 an output could not be written;\n"
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
    const char *fastpath;  /* as given; parsed once the target is known */
    struct exh_bounds b;
    char board[32];
    char label[64];        /* the board, and the kernel when master */
    uint64_t shard_k, shard_n; /* 1-based K */
    const char *state, *json, *out;
    bool count_only, quiet;
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
    return EX_USAGE;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
    CLI_ROW(X, "--kernel", CLI_KERNEL, b.kernel),
    CLI_CALL("--shard", shard_opt),
    CLI_NUM(X, "--seconds", CLI_REAL, seconds, 1e-3, 1e7),
    CLI_NUM(X, "--stop-after", CLI_U64, stop_after, 1, 1.8e19), /* above CLI_UNBOUNDED */
    CLI_ROW(X, "--state", CLI_STR, state),
    CLI_ROW(X, "--json", CLI_STR, json),
    CLI_ROW(X, "--out", CLI_STR, out),
};
#undef X
static const struct cli_cmd exhaust_cmd = {"exhaust", exhaust_usage, "irqsim exhaust --help", exhaust_table,
                                           sizeof exhaust_table / sizeof exhaust_table[0], NULL};

static int parse_args(struct xopts *o, int argc, char **argv)
{
    int rc = cli_parse(&exhaust_cmd, o, 1, argc, argv);
    if (rc)
        return rc == 1 ? -2 : rc; /* -2: --help printed the usage */
    snprintf(o->board, sizeof o->board, "%s", o->b.board);
    if (o->fastpath && parse_variant(o) != 0)
        return EX_USAGE;
    o->b.board = o->board;
    bool dflt = cfg_kernel_is_default(o->b.kernel);
    snprintf(o->label, sizeof o->label, "%s%s%s", o->board, dflt ? "" : ", kernel ", dflt ? "" : cfg_kernel_name(o->b.kernel));
    const char *why = exh_bounds_check(&o->b);
    if (why)
        return bad("bound not usable: %s", why);
    return 0;
}

/* ---- the state file ---- */

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

static void put_list(FILE *f, const char *tag, const uint64_t *v, int n)
{
    fprintf(f, "%s", tag);
    for (int i = 0; i < n; i++)
        fprintf(f, " %" PRIu64, v[i]);
    fputc('\n', f);
}

static const char STATE_MAGIC[] = "irqsim-exhaust-state 1";

/* The variant as the state file's run line names it: the signal target's
 * carries the target, so neither target resumes from the other's file (both
 * have a "fixed"); the IRQ target's stays as it was. */
static const char *run_tag(const struct run *r, char *buf, size_t len)
{
    if (run_named(r))
        snprintf(buf, len, "%s/%s", r->o.b.target->name, run_variant(r));
    else
        snprintf(buf, len, "%s", run_variant(r));
    return buf;
}

/* Through a temporary (out.h): a crash leaves the previous save. */
static int save_state(const struct run *r, double elapsed)
{
    struct out *out = out_open("irqsim exhaust", r->o.state);
    if (!out)
        return -1;
    FILE *f = out->f;
    const struct totals *t = &r->t;
    fprintf(f, "%s\n", STATE_MAGIC);
    char tag[64];
    fprintf(f, "run %s %s %d %d %d %d %" PRIu64 " %" PRIu64 "\n", run_tag(r, tag, sizeof tag), r->o.label,
            r->o.b.threads, r->o.b.ntfns, r->o.b.refills, r->o.b.domains, r->o.shard_k, r->o.shard_n);
    fprintf(f, "done %d\nordinal %" PRIu64 "\n", r->done, r->it.ordinal);
    put_digits(f, &r->it);
    fprintf(f, "elapsed %.3f\n", elapsed);
    uint64_t counts[6] = {t->enumerated, t->skipped, t->checked, t->agree, t->diverged, t->dropped};
    put_list(f, "counts", counts, 6);
    fprintf(f, "first_skip %" PRIu64 "\n", t->first_skip);
    put_list(f, "skip_inv", t->skip_inv, INV_COUNT);
    put_list(f, "exits", t->exits, run_target(r)->exits);
    put_list(f, "defects", t->defects, run_defects(r));
    for (int d = 0; d < run_defects(r); d++)
        put_best(f, "best_defect", d, &t->best_defect[d]);
    for (int c = 0; c < t->n_classes; c++) {
        const struct xclass *x = &t->classes[c];
        fprintf(f, "class %d %u %" PRIu32 " %" PRIu64 " %" PRIu64 "\n", x->exit, x->cause, x->fields, x->count,
                x->first);
        put_best(f, "best_class", c, &t->best_class[c]);
    }
    fprintf(f, "end\n");
    return out_close(out);
}

static int read_list(const char *s, uint64_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        while (*s == ' ')
            s++;
        if (*s < '0' || *s > '9')
            return -1;
        v[i] = strtoull(s, &end, 10);
        s = end;
    }
    while (*s == ' ' || *s == '\n')
        s++;
    return *s ? -1 : 0;
}

/* "len d0 d1 ..." into digits; returns len or -1 */
static int read_digits(const char *s, uint8_t *digit)
{
    uint64_t len;
    char *end;
    len = strtoull(s, &end, 10);
    if (end == s || len > EXH_MAX_CHOICES)
        return -1;
    uint64_t v[EXH_MAX_CHOICES];
    if (read_list(end, v, (int)len) != 0)
        return -1;
    for (uint64_t k = 0; k < len; k++) {
        if (v[k] > 255)
            return -1;
        digit[k] = (uint8_t)v[k];
    }
    return (int)len;
}

static int read_best(const char *s, struct best *b, int *idx)
{
    int n = 0;
    uint64_t ord;
    int size;
    if (sscanf(s, "%d %d %" SCNu64 " %n", idx, &size, &ord, &n) != 3)
        return -1;
    int len = read_digits(s + n, b->digit);
    if (len < 0)
        return -1;
    b->set = true;
    b->size = size;
    b->ordinal = ord;
    b->len = len;
    return 0;
}

/* Returns 1 when resumed, 0 when there is no state file yet, -1 on error
 * (message printed). */
static int load_state(struct run *r, double *elapsed)
{
    FILE *f = fopen(r->o.state, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        fprintf(stderr, "irqsim exhaust: cannot read %s: %s\n", r->o.state, strerror(errno));
        return -1;
    }
    static char line[8192];
    struct totals *t = &r->t;
    int lineno = 0, len = -1, done = 0;
    bool ended = false, run_ok = false;
    uint64_t ordinal = 0;
    uint8_t digit[EXH_MAX_CHOICES];
    const char *why = NULL;
    while (!why && fgets(line, sizeof line, f)) {
        lineno++;
        char key[32];
        int n = 0;
        if (lineno == 1) {
            if (strncmp(line, STATE_MAGIC, sizeof STATE_MAGIC - 1) != 0)
                why = "not an irqsim exhaust state file";
            continue;
        }
        if (sscanf(line, "%31s %n", key, &n) != 1)
            continue;
        const char *v = line + n;
        uint64_t counts[6];
        int idx;
        if (!strcmp(key, "run")) {
            char want[256], got[256], tag[64];
            snprintf(want, sizeof want, "%s %s %d %d %d %d %" PRIu64 " %" PRIu64, run_tag(r, tag, sizeof tag),
                     r->o.label, r->o.b.threads, r->o.b.ntfns, r->o.b.refills, r->o.b.domains, r->o.shard_k,
                     r->o.shard_n);
            snprintf(got, sizeof got, "%s", v);
            got[strcspn(got, "\n")] = 0;
            if (strcmp(want, got) != 0) {
                fclose(f);
                fprintf(stderr,
                        "irqsim exhaust: %s is the state of another run (fastpath board threads ntfns refills "
                        "domains shard: '%s'; this run: '%s')\n",
                        r->o.state, got, want);
                return -1;
            }
            run_ok = true;
        } else if (!strcmp(key, "done")) {
            done = atoi(v);
        } else if (!strcmp(key, "ordinal")) {
            if (sscanf(v, "%" SCNu64, &ordinal) != 1)
                why = "bad ordinal";
        } else if (!strcmp(key, "digits")) {
            len = read_digits(v, digit);
            if (len < 0)
                why = "bad digits";
        } else if (!strcmp(key, "elapsed")) {
            *elapsed = atof(v);
        } else if (!strcmp(key, "counts")) {
            if (read_list(v, counts, 6) != 0)
                why = "bad counts";
            t->enumerated = counts[0];
            t->skipped = counts[1];
            t->checked = counts[2];
            t->agree = counts[3];
            t->diverged = counts[4];
            t->dropped = counts[5];
        } else if (!strcmp(key, "first_skip")) {
            if (sscanf(v, "%" SCNu64, &t->first_skip) != 1)
                why = "bad first_skip";
        } else if (!strcmp(key, "skip_inv")) {
            if (read_list(v, t->skip_inv, INV_COUNT) != 0)
                why = "bad skip_inv";
        } else if (!strcmp(key, "exits")) {
            if (read_list(v, t->exits, run_target(r)->exits) != 0)
                why = "bad exits";
        } else if (!strcmp(key, "defects")) {
            if (read_list(v, t->defects, run_defects(r)) != 0)
                why = "bad defects";
        } else if (!strcmp(key, "best_defect")) {
            struct best b;
            if (read_best(v, &b, &idx) != 0 || idx < 0 || idx >= run_defects(r))
                why = "bad best_defect";
            else
                t->best_defect[idx] = b;
        } else if (!strcmp(key, "class")) {
            struct xclass x;
            if (t->n_classes >= MAX_CLASSES ||
                sscanf(v, "%d %u %" SCNu32 " %" SCNu64 " %" SCNu64, &x.exit, &x.cause, &x.fields, &x.count,
                       &x.first) != 5)
                why = "bad class";
            else
                t->classes[t->n_classes++] = x;
        } else if (!strcmp(key, "best_class")) {
            struct best b;
            if (read_best(v, &b, &idx) != 0 || idx < 0 || idx >= t->n_classes)
                why = "bad best_class";
            else
                t->best_class[idx] = b;
        } else if (!strcmp(key, "end")) {
            ended = true;
        } else {
            why = "unknown key";
        }
    }
    fclose(f);
    if (!why && (!ended || !run_ok || len < 0))
        why = "incomplete";
    if (!why && !done && exh_seek(&r->it, &r->o.b, digit, len, ordinal) != 0)
        why = "its position is not a state of this space";
    if (why) {
        fprintf(stderr, "irqsim exhaust: %s:%d: %s\n", r->o.state, lineno, why);
        return -1;
    }
    r->done = done;
    if (done)
        r->it.ordinal = ordinal;
    return 1;
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
            struct dclass cl = {v.exit, cause, v.fields, r->o.b.target->entry};
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
        struct dclass cl = {r->t.classes[c].exit, r->t.classes[c].cause, r->t.classes[c].fields, r->o.b.target->entry};
        dclass_name(&cl, name, sizeof name);
        for (char *p = name; *p; p++)
            if (*p == '/')
                *p = '_';
        write_one(r, name, "smallest divergent state of its class", &it);
    }
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
    snprintf(buf, len,
             "Every state of irqsim's bounded space (docs/EXHAUSTIVE.md) with at most %d thread%s besides the "
             "idle thread, %d notification%s, %d refill%s per periodic scheduling context and %d domain%s, on "
             "board %s, was enumerated%s: %" PRIu64 " %s, each distinct up to thread renaming and "
             "order-preserving priority relabelling, %s. %" PRIu64
             " passed the kernel's entry invariants and were run through both paths%s; %s.",
             r->o.b.threads, r->o.b.threads == 1 ? "" : "s", r->o.b.ntfns, r->o.b.ntfns == 1 ? "" : "s",
             r->o.b.refills, r->o.b.refills == 1 ? "" : "s", r->o.b.domains, r->o.b.domains == 1 ? "" : "s",
             r->o.label, shard, t->enumerated, space_word(t->enumerated), edges_text(r), t->checked,
             t->skipped ? " (the others were skipped: see the skips by invariant)" : " (none was skipped)", verdict);
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
    fprintf(out, "enumerated: %" PRIu64 "%s\n", t->enumerated, r->done ? "" : " (not finished)");
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
            struct dclass cl = {x->exit, x->cause, x->fields, r->o.b.target->entry};
            char name[200], defs[64], fields[512];
            fprintf(out, "  %-50s %10" PRIu64 "  %s  [%s]\n", dclass_name(&cl, name, sizeof name), x->count,
                    defects_text(r->o.b.target, cause_defects(r->o.b.target, x->cause), defs, sizeof defs),
                    diff_fields_text(x->fields, fields, sizeof fields));
        }
        if (t->dropped)
            fprintf(out, "  (%" PRIu64 " divergences of classes past the first %d)\n", t->dropped, MAX_CLASSES);
    }
    fprintf(out, "time: %.1f s (%.0f states/s)\n", elapsed, elapsed > 0 ? (double)t->enumerated / elapsed : 0.0);
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
        struct dclass cl = {x->exit, x->cause, x->fields, r->o.b.target->entry};
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

static uint64_t shard_size(uint64_t space, uint64_t k, uint64_t n)
{
    return space >= k ? (space - k) / n + 1 : 0; /* indices k-1, k-1+n, ... below space */
}

int exhaust_main(int argc, char **argv)
{
    struct run *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "irqsim exhaust: out of memory\n");
        return EX_USAGE;
    }
    exh_bounds_default(&r->o.b);
    snprintf(r->o.board, sizeof r->o.board, "%s", r->o.b.board);
    r->o.variant = FP_PR1227;
    r->o.shard_k = r->o.shard_n = 1;
    int rc = parse_args(&r->o, argc, argv);
    if (rc) {
        free(r);
        return rc == -2 ? EX_AGREE : rc;
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
        return EX_AGREE;
    }
    if (r->o.out && out_dir("irqsim exhaust", r->o.out) != 0) {
        free(r);
        return OUT_FAILED;
    }
    double before = 0;
    int resumed = 0;
    if (r->o.state) {
        resumed = load_state(r, &before);
        if (resumed < 0) {
            free(r);
            return EX_USAGE;
        }
    }
    if (!resumed)
        exh_begin(&r->it, &r->o.b);
    if (resumed && !r->o.quiet)
        fprintf(stderr, "irqsim exhaust: resuming from %s at state %" PRIu64 "%s\n", r->o.state, r->it.ordinal,
                r->done ? " (finished)" : "");
    double start = now_s(), last_save = start, last_progress = start;
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
            if ((r->o.seconds && now_s() - start >= r->o.seconds) || stop_requested()) {
                if (!exh_next(&r->it))
                    r->done = true;
                break;
            }
            double t = now_s();
            if (r->o.state && t - last_save >= SAVE_EVERY_S) {
                /* the position saved is the next state: advance first */
                if (!exh_next(&r->it))
                    r->done = true;
                save_state(r, before + t - start);
                last_save = t;
                continue;
            }
            if (!r->o.quiet && t - last_progress >= PROGRESS_EVERY_S) {
                double el = t - start, frac = r->shard_space ? (double)r->t.enumerated / (double)r->shard_space : 1;
                double rate = el > 0 ? (double)(r->t.enumerated) / (before + el) : 0;
                fprintf(stderr, "exhaust: %.1f%% (%" PRIu64 " of %" PRIu64 " states), %" PRIu64 " checked, %" PRIu64
                        " divergent, %.0f states/s, about %.0f s left\n", 100 * frac, r->t.enumerated,
                        r->shard_space, r->t.checked, r->t.diverged, rate,
                        rate > 0 ? (double)(r->shard_space - r->t.enumerated) / rate : 0.0);
                last_progress = t;
            }
        }
        if (!exh_next(&r->it))
            r->done = true;
    }
    double elapsed = before + now_s() - start;
    r->interrupted = stop_requested();
    if (r->o.state && save_state(r, elapsed) != 0)
        r->write_errors++;
    print_summary(r, stdout, elapsed);
    write_files(r);
    if (r->o.json && write_json(r, elapsed) != 0)
        r->write_errors++;
    if (r->write_errors)
        fprintf(stderr, "irqsim exhaust: %d output%s could not be written (exit status %d)\n", r->write_errors,
                r->write_errors == 1 ? "" : "s", OUT_FAILED);
    if (!rc)
        rc = r->write_errors ? OUT_FAILED : r->t.diverged ? EX_DIVERGE : EX_AGREE;
    free(r);
    return stop_finish(rc);
}
