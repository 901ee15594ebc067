/* execstate: the state file of exhaust --executions (execstate.h). */
#define _POSIX_C_SOURCE 200809L
#include "execstate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "diff.h"
#include "irq_fast.h"
#include "lineread.h"
#include "out.h"

static const char WHO[] = "irqsim exhaust --executions";
/* format 2: every workload where the GIC chose runs in the six orders
 * (format 1's ran in two, so its totals do not add to this one's) */
static const char MAGIC[] = "irqsim-executions-state 2";
static const char MAGIC_STEM[] = "irqsim-executions-state ";
/* The longest line written is a line of hashes (HASHES_PER_LINE x 17)
 * or the refusal (EXEC_REFUSAL_LEN, 287 bytes, each at most 3 when encoded). */
#define LINE_MAX_ 2048
#define HASHES_PER_LINE 100
#define N_COUNTS 13

/* The run a state file belongs to: the options that make the space, the
 * shard, and what is checked. */
static const char *run_tag(const struct exec_opts *o, const struct exec_result *r, char *buf, size_t len)
{
    snprintf(buf, len, "target=%s fastpath=%s kernel=%s depth=%d cores=%d signal_fastpath=%d space=%" PRIu64
             " shard=%" PRIu64 "/%" PRIu64, o->target->name, o->target->variant_name(o->variant),
             cfg_kernel_name(o->kernel), o->depth, o->cores, o->signal_fastpath, r->space, o->shard_k, o->shard_n);
    return buf;
}

static void put_list(FILE *f, const char *tag, const uint64_t *v, int n)
{
    fprintf(f, "%s", tag);
    for (int i = 0; i < n; i++)
        fprintf(f, " %" PRIu64, v[i]);
    fputc('\n', f);
}

/* The refusal's text on one line: a control byte, a space at either end
 * and '%' as %XX, so that it reads back byte for byte. */
static void put_text(FILE *f, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '%' || (c == ' ' && (i == 0 || i + 1 == n)))
            fprintf(f, "%%%02X", c);
        else
            fputc(c, f);
    }
}

int execstate_save(const char *path, const struct exec_opts *o, const struct exec_result *r, double elapsed)
{
    struct out *out = out_open(WHO, path);
    if (!out)
        return -1;
    FILE *f = out->f;
    char tag[256];
    fprintf(f, "%s\nrun %s\nposition %" PRIu64 "\nelapsed %.3f\n", MAGIC, run_tag(o, r, tag, sizeof tag),
            exec_done(r), elapsed);
    uint64_t counts[N_COUNTS] = {r->simulated, r->setup_refused, r->entries, r->refused,  r->asserts,  r->drifts,
                                 r->stopped,   r->lock_waits,    r->checks,  r->distinct, r->diverged, r->classes_dropped,
                                 r->gic_reruns};
    put_list(f, "counts", counts, N_COUNTS);
    put_list(f, "exits", r->exits, o->target->exits);
    put_list(f, "sits", r->sits, SIT_COUNT);
    for (int i = 0; i < r->n_classes; i++) {
        const struct exec_class *c = &r->classes[i];
        fprintf(f, "class %d %u %" PRIu32 " %" PRIu64 " %" PRIu64 " %d\n", c->cl.exit, c->cl.cause, c->cl.fields,
                c->hits, c->first, c->first_order);
    }
    if (r->refusal[0]) {
        fprintf(f, "refusal %" PRIu64 " ", r->first_refused);
        put_text(f, r->refusal);
        fputc('\n', f);
    }
    int k = 0;
    for (size_t i = 0; i < r->seen.cap; i++) {
        if (!r->seen.slot[i])
            continue;
        fprintf(f, "%s%016" PRIx64, k ? " " : "seen ", r->seen.slot[i]);
        if (++k == HASHES_PER_LINE) {
            fputc('\n', f);
            k = 0;
        }
    }
    if (k)
        fputc('\n', f);
    fprintf(f, "end\n");
    return out_close(out);
}

/* ---- reading ---- */

/* Where each part was, for the refusal's FILE:LINE. */
struct lines {
    int run, position, elapsed, counts, exits, sits, refusal, end, first_seen;
    int cls[EXEC_MAX_CLASSES];
};

/* What the file said, before any of it is used. */
struct sread {
    uint64_t position, counts[N_COUNTS], exits[TARGET_MAX_EXITS], sits[SIT_COUNT];
    double elapsed;
    int n_classes;
    struct exec_class classes[EXEC_MAX_CLASSES];
    uint64_t first_refused;
    char refusal[sizeof ((struct exec_result *)0)->refusal];
    struct exec_set seen;
    struct lines at;
};

struct serr {
    int line;
    char why[300];
};

static int fail(struct serr *e, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct serr *e, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    e->line = line;
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* the first line: this format's, another format's, or not a state file */
static int first_line(const char *line, struct serr *e)
{
    size_t n = strcspn(line, "\n");
    if (n == sizeof MAGIC - 1 && strncmp(line, MAGIC, n) == 0)
        return 0;
    if (strncmp(line, MAGIC_STEM, sizeof MAGIC_STEM - 1) == 0)
        return fail(e, 1, "a state file of another format (%.*s; this irqsim writes %s): its totals do not add "
                    "to this version's, start the run afresh", (int)n, line, MAGIC);
    return fail(e, 1, "not an irqsim exhaust --executions state file");
}

/* One whole decimal number at *s (after spaces); *s moves past it. */
static int read_u64(const char **s, uint64_t *v)
{
    char *end;
    while (**s == ' ')
        (*s)++;
    if (**s < '0' || **s > '9')
        return -1;
    errno = 0;
    *v = strtoull(*s, &end, 10);
    if (errno == ERANGE)
        return -1;
    *s = end;
    return 0;
}

static bool at_eol(const char *s)
{
    return s[strspn(s, " \n")] == 0;
}

/* exactly n numbers and the end of the line */
static int read_list(const char *s, uint64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (read_u64(&s, &v[i]) != 0)
            return -1;
    return at_eol(s) ? 0 : -1;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* put_text's encoding back into buf (len bytes with the NUL); -1 when it
 * is not (a bad %XX, a NUL, too long, empty) */
static int read_text(const char *s, char *buf, size_t len)
{
    size_t n = 0, end = strcspn(s, "\n");
    for (size_t i = 0; i < end; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            int hi = i + 2 < end ? hexval(s[i + 1]) : -1, lo = hi >= 0 ? hexval(s[i + 2]) : -1;
            if (lo < 0 || (c = hi * 16 + lo) == 0)
                return -1;
            i += 2;
        }
        if (n + 1 >= len)
            return -1;
        buf[n++] = (char)c;
    }
    buf[n] = 0;
    return n ? 0 : -1;
}

/* "h h h ...": 16 hex digits each, odd (a state hash), each once */
static int read_seen(struct sread *sr, int lineno, const char *s, struct serr *e)
{
    int k = 0;
    for (;;) {
        while (*s == ' ')
            s++;
        if (*s == '\n' || !*s)
            break;
        uint64_t h = 0;
        for (int i = 0; i < 16; i++) {
            int d = hexval(s[i]);
            if (d < 0 || (s[i] >= 'A' && s[i] <= 'F'))
                return fail(e, lineno, "hash %d is not 16 lowercase hex digits", k + 1);
            h = h << 4 | (uint64_t)d;
        }
        s += 16;
        if (*s != ' ' && *s != '\n' && *s)
            return fail(e, lineno, "hash %d is not 16 lowercase hex digits", k + 1);
        if (!(h & 1))
            return fail(e, lineno, "hash %016" PRIx64 " is even (a state hash is odd)", h);
        if (exec_set_add(&sr->seen, h) == 0)
            return fail(e, lineno, "hash %016" PRIx64 " again", h);
        k++;
    }
    return k ? 0 : fail(e, lineno, "'seen' without a hash");
}

static bool cause_ok(const struct exec_opts *o, unsigned cause)
{
    if (o->variant != FP_PR1227)
        return cause == CLASS_NO_FIX; /* only the fastpath as written classifies (check/sim.c) */
    unsigned all = (1u << o->target->fixes) - 1;
    return cause == CLASS_NO_FIX || (cause != 0 && (cause & ~all) == 0);
}

static int read_class(const struct exec_opts *o, struct sread *sr, int lineno, const char *v, struct serr *e)
{
    uint64_t u[6];
    uint32_t fields = DF_COUNT >= 32 ? UINT32_MAX : (1u << DF_COUNT) - 1;
    if (sr->n_classes == EXEC_MAX_CLASSES)
        return fail(e, lineno, "more than %d classes", EXEC_MAX_CLASSES);
    if (read_list(v, u, 6) != 0 || u[0] >= (uint64_t)o->target->exits || u[1] > UINT32_MAX || u[2] > UINT32_MAX ||
        u[5] >= EXEC_GIC_ORDERS)
        return fail(e, lineno, "bad class (an exit below %d, cause, fields, hits, first workload, GIC order 0-%d)",
                    o->target->exits, EXEC_GIC_ORDERS - 1);
    if (!cause_ok(o, (unsigned)u[1]))
        return fail(e, lineno, "cause %" PRIu64 " is not a cause of this run's classes", u[1]);
    if (u[2] & ~(uint64_t)fields)
        return fail(e, lineno, "fields 0x%" PRIx64 " name no field", u[2]);
    struct dclass cl = {(int)u[0], (unsigned)u[1], (uint32_t)u[2], o->target->entry};
    for (int i = 0; i < sr->n_classes; i++)
        if (dclass_same(&sr->classes[i].cl, &cl))
            return fail(e, lineno, "the class of line %d again", sr->at.cls[i]);
    sr->at.cls[sr->n_classes] = lineno;
    sr->classes[sr->n_classes++] = (struct exec_class){.cl = cl, .hits = u[3], .first = u[4], .first_order = (uint8_t)u[5]};
    return 0;
}

/* One "key values" line into sr. Every key but class and seen once. */
static int read_line(const struct exec_opts *o, const struct exec_result *r, struct sread *sr, int lineno,
                     const char *line, struct serr *e)
{
    char key[32];
    int n = 0;
    if (sscanf(line, "%31s %n", key, &n) != 1)
        return fail(e, lineno, "an empty line");
    const char *v = line + n;
    struct lines *at = &sr->at;
    static const char *const once[] = {"run", "position", "elapsed", "counts", "exits", "sits", "refusal", "end"};
    int *const once_at[] = {&at->run, &at->position, &at->elapsed, &at->counts,
                            &at->exits, &at->sits, &at->refusal, &at->end};
    for (size_t i = 0; i < sizeof once / sizeof once[0]; i++)
        if (!strcmp(key, once[i])) {
            if (*once_at[i])
                return fail(e, lineno, "'%s' again (first on line %d)", key, *once_at[i]);
            *once_at[i] = lineno;
        }
    if (at->end && strcmp(key, "end") != 0)
        return fail(e, lineno, "'%s' after 'end'", key);
    if (!strcmp(key, "run")) {
        char want[256], got[256];
        run_tag(o, r, want, sizeof want);
        snprintf(got, sizeof got, "%s", v);
        got[strcspn(got, "\n")] = 0;
        if (strcmp(want, got) != 0)
            return fail(e, lineno, "is the state of another run ('%.120s'; this run: '%.120s')", got, want);
    } else if (!strcmp(key, "position")) {
        if (read_list(v, &sr->position, 1) != 0)
            return fail(e, lineno, "bad position (a whole number of workloads)");
    } else if (!strcmp(key, "elapsed")) {
        char *end;
        sr->elapsed = strtod(v, &end);
        if (end == v || !at_eol(end) || !(sr->elapsed >= 0 && sr->elapsed < 1e12))
            return fail(e, lineno, "bad elapsed (seconds, 0 or more)");
    } else if (!strcmp(key, "counts")) {
        if (read_list(v, sr->counts, N_COUNTS) != 0)
            return fail(e, lineno, "bad counts (%d whole numbers)", N_COUNTS);
    } else if (!strcmp(key, "exits")) {
        if (read_list(v, sr->exits, o->target->exits) != 0)
            return fail(e, lineno, "bad exits (%d whole numbers)", o->target->exits);
    } else if (!strcmp(key, "sits")) {
        if (read_list(v, sr->sits, SIT_COUNT) != 0)
            return fail(e, lineno, "bad sits (%d whole numbers)", SIT_COUNT);
    } else if (!strcmp(key, "class")) {
        return read_class(o, sr, lineno, v, e);
    } else if (!strcmp(key, "refusal")) {
        if (read_u64(&v, &sr->first_refused) != 0 || *v != ' ' || read_text(v + 1, sr->refusal, sizeof sr->refusal))
            return fail(e, lineno, "bad refusal (a workload, then the message, at most %zu bytes)",
                        sizeof sr->refusal - 1);
    } else if (!strcmp(key, "seen")) {
        if (!at->first_seen)
            at->first_seen = lineno;
        return read_seen(sr, lineno, v, e);
    } else if (strcmp(key, "end") != 0) {
        return fail(e, lineno, "unknown key '%s'", key);
    }
    return 0;
}

/* a workload of this shard before the position */
static bool before(const struct exec_opts *o, const struct sread *sr, uint64_t wl)
{
    return wl % o->shard_n == o->shard_k - 1 && wl / o->shard_n < sr->position;
}

/* a list of counts, each at most of and adding up to sum (of when -1) */
static int check_parts(const uint64_t *v, int n, uint64_t of, bool add_up, int line, const char *what, struct serr *e)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] > of || (add_up && v[i] > of - sum))
            return fail(e, line, "%s: more than the checked entries", what);
        sum += v[i];
    }
    if (add_up && sum != of)
        return fail(e, line, "%s: they do not add up to the checked entries", what);
    return 0;
}

/* The counts against the position and each other: each figure the summary
 * and the bound statement print is one the run could have counted. */
static int check_read(const struct exec_opts *o, const struct exec_result *r, const struct sread *sr,
                      struct serr *e)
{
    const uint64_t *c = sr->counts;
    uint64_t simulated = c[0], setup_refused = c[1], entries = c[2], refused = c[3], drifts = c[5], stopped = c[6];
    uint64_t checks = c[8], distinct = c[9], diverged = c[10], dropped = c[11], reruns = c[12];
    const struct lines *at = &sr->at;
    if (sr->position > r->shard_space)
        return fail(e, at->position, "position %" PRIu64 " is beyond the shard's %" PRIu64 " workloads",
                    sr->position, r->shard_space);
    if (simulated > sr->position || setup_refused != sr->position - simulated)
        return fail(e, at->counts, "simulated + refused at setup is not the position (%" PRIu64 ")", sr->position);
    uint64_t runs = simulated + (EXEC_GIC_ORDERS - 1) * reruns; /* reruns <= simulated: no overflow */
    if (refused > entries || reruns > simulated || drifts > runs || stopped > runs ||
        diverged > checks || distinct > checks || (distinct == 0) != (checks == 0))
        return fail(e, at->counts, "counts out of range (refused above entries, reruns above simulated, drifts or "
                    "stopped above the runs, diverged or distinct above checks, or distinct 0 with checks)");
    if (check_parts(sr->exits, o->target->exits, checks, true, at->exits, "exits", e) ||
        check_parts(sr->sits, SIT_COUNT, checks, false, at->sits, "sits", e))
        return -1;
    if ((diverged == 0) != (sr->n_classes == 0) || (dropped && !diverged))
        return fail(e, at->counts, "divergences without a class, a class without divergences, or dropped ones "
                    "without divergences");
    for (int i = 0; i < sr->n_classes; i++) {
        const struct exec_class *x = &sr->classes[i];
        if (x->hits == 0 || x->hits > runs || !before(o, sr, x->first) || (x->first_order && !reruns))
            return fail(e, at->cls[i], "hits or first workload out of range (a workload of this shard before the "
                        "position)");
    }
    if ((refused == 0) != (at->refusal == 0))
        return fail(e, at->refusal ? at->refusal : at->counts, "a refusal %s", refused ? "missing" : "without refused states");
    if (at->refusal && !before(o, sr, sr->first_refused))
        return fail(e, at->refusal, "workload %" PRIu64 " is not a workload of this shard before the position",
                    sr->first_refused);
    if (sr->seen.n != distinct)
        return fail(e, at->first_seen ? at->first_seen : at->counts, "%zu hashes for %" PRIu64 " distinct entry states",
                    sr->seen.n, distinct);
    return 0;
}

/* r from sr, all of it checked */
static void use_read(struct exec_result *r, struct sread *sr)
{
    const uint64_t *c = sr->counts;
    r->simulated = c[0];
    r->setup_refused = c[1];
    r->entries = c[2];
    r->refused = c[3];
    r->asserts = c[4];
    r->drifts = c[5];
    r->stopped = c[6];
    r->lock_waits = c[7];
    r->checks = c[8];
    r->distinct = c[9];
    r->diverged = c[10];
    r->classes_dropped = c[11];
    r->gic_reruns = c[12];
    memcpy(r->exits, sr->exits, sizeof r->exits);
    memcpy(r->sits, sr->sits, sizeof r->sits);
    r->n_classes = sr->n_classes;
    memcpy(r->classes, sr->classes, sizeof r->classes);
    r->first_refused = sr->first_refused;
    memcpy(r->refusal, sr->refusal, sizeof r->refusal);
    exec_set_free(&r->seen);
    r->seen = sr->seen;
    sr->seen = (struct exec_set){NULL, 0, 0};
}

static int read_file(FILE *f, const struct exec_opts *o, const struct exec_result *r, struct sread *sr,
                     struct serr *e)
{
    char line[LINE_MAX_];
    size_t n;
    int lineno = 0, rc = 0;
    for (enum line_status st; rc == 0 && (st = line_read(f, line, sizeof line, &n)) != LINE_EOF;) {
        lineno++;
        if (st == LINE_ERROR)
            rc = fail(e, lineno, "read error: %s", strerror(errno));
        else if (st == LINE_LONG)
            rc = fail(e, lineno, "line longer than %d bytes", LINE_MAX_ - 2);
        else if (st == LINE_NUL)
            rc = fail(e, lineno, "a NUL byte");
        else if (st == LINE_CUT)
            rc = fail(e, lineno, "cut short (no end of line: a file not written to its end)");
        else if (lineno == 1)
            rc = first_line(line, e);
        else
            rc = read_line(o, r, sr, lineno, line, e);
    }
    const struct lines *at = &sr->at;
    if (rc == 0 && (!at->run || !at->position || !at->elapsed || !at->counts || !at->exits || !at->sits || !at->end))
        rc = fail(e, lineno ? lineno : 1, "incomplete (run, position, elapsed, counts, exits, sits and end are "
                  "needed: a file cut short?)");
    return rc;
}

int execstate_load(const char *path, const struct exec_opts *o, struct exec_result *r, double *elapsed)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        fprintf(stderr, "%s: cannot read %s: %s\n", WHO, path, strerror(errno));
        return -1;
    }
    struct sread *sr = calloc(1, sizeof *sr);
    struct serr e = {0, ""};
    int rc = sr ? read_file(f, o, r, sr, &e) : fail(&e, 0, "out of memory");
    fclose(f);
    if (rc == 0)
        rc = check_read(o, r, sr, &e);
    if (rc != 0)
        fprintf(stderr, "%s: %s:%d: %s\n", WHO, path, e.line, e.why);
    else {
        use_read(r, sr);
        *elapsed = sr->elapsed;
    }
    if (sr)
        exec_set_free(&sr->seen);
    free(sr);
    return rc ? -1 : 1;
}
