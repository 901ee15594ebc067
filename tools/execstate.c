/* execstate: the state file of exhaust --executions (execstate.h). */
#define _POSIX_C_SOURCE 200809L
#include "execstate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "diff.h"
#include "irq_fast.h"
#include "statefile.h"

/* format 4: the state's header grew (core 1's VCPU, 2026-12-07), so
 * every state's hash moved and format 3's set does not add to this one's;
 * format 3: the distinct entry states hashed as ks_same compares them
 * (check/statehash.c; format 2's hashed every byte of the state, so its
 * set does not add to this one's); format 2: every workload where the
 * GIC chose runs in the six orders (format 1's ran in two). The
 * longest line written is a line of hashes (HASHES_PER_LINE x 17) or the
 * refusal (EXEC_REFUSAL_LEN, 287 bytes, each at most 3 when encoded). */
static const struct sf_format FORMAT = {
    .who = "irqsim exhaust --executions",
    .magic = "irqsim-executions-state 4",
    .stem = "irqsim-executions-state ",
    .stem_why = "its totals do not add to this version's, start the run afresh",
    .line_max = 2048,
    .strict = true,
};
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
    char tag[256];
    struct out *out = sf_create(&FORMAT, path, run_tag(o, r, tag, sizeof tag));
    if (!out)
        return -1;
    FILE *f = out->f;
    fprintf(f, "position %" PRIu64 "\nelapsed %.3f\n", exec_done(r), elapsed);
    uint64_t counts[N_COUNTS] = {r->simulated, r->setup_refused, r->entries, r->refused,  r->asserts,  r->drifts,
                                 r->stopped,   r->lock_waits,    r->checks,  r->distinct, r->diverged, r->classes_dropped,
                                 r->gic_reruns};
    sf_put_list(f, "counts", counts, N_COUNTS);
    sf_put_list(f, "exits", r->exits, o->target->exits);
    sf_put_list(f, "sits", r->sits, SIT_COUNT);
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
    return sf_finish(out);
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
static int read_seen(struct sread *sr, int lineno, const char *s, struct sf_err *e)
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
                return sf_fail(e, lineno, "hash %d is not 16 lowercase hex digits", k + 1);
            h = h << 4 | (uint64_t)d;
        }
        s += 16;
        if (*s != ' ' && *s != '\n' && *s)
            return sf_fail(e, lineno, "hash %d is not 16 lowercase hex digits", k + 1);
        if (!(h & 1))
            return sf_fail(e, lineno, "hash %016" PRIx64 " is even (a state hash is odd)", h);
        if (exec_set_add(&sr->seen, h) == 0)
            return sf_fail(e, lineno, "hash %016" PRIx64 " again", h);
        k++;
    }
    return k ? 0 : sf_fail(e, lineno, "'seen' without a hash");
}

static int read_class(const struct exec_opts *o, struct sread *sr, int lineno, const char *v, struct sf_err *e)
{
    uint64_t u[6];
    if (sr->n_classes == EXEC_MAX_CLASSES)
        return sf_fail(e, lineno, "more than %d classes", EXEC_MAX_CLASSES);
    if (sf_read_list(v, u, 6) != 0 || u[0] >= (uint64_t)o->target->exits || u[1] > UINT32_MAX || u[2] > UINT32_MAX ||
        u[5] >= EXEC_GIC_ORDERS)
        return sf_fail(e, lineno, "bad class (an exit below %d, cause, fields, hits, first workload, GIC order 0-%d)",
                    o->target->exits, EXEC_GIC_ORDERS - 1);
    if (!sf_cause_ok(o->target, o->variant == FP_PR1227, (unsigned)u[1]))
        return sf_fail(e, lineno, "cause %" PRIu64 " is not a cause of this run's classes", u[1]);
    if (!sf_fields_ok(u[2]))
        return sf_fail(e, lineno, "fields 0x%" PRIx64 " name no field", u[2]);
    struct dclass cl = {(int)u[0], (unsigned)u[1], (uint32_t)u[2], target_index(o->target)};
    for (int i = 0; i < sr->n_classes; i++)
        if (dclass_same(&sr->classes[i].cl, &cl))
            return sf_fail(e, lineno, "the class of line %d again", sr->at.cls[i]);
    sr->at.cls[sr->n_classes] = lineno;
    sr->classes[sr->n_classes++] = (struct exec_class){.cl = cl, .hits = u[3], .first = u[4], .first_order = (uint8_t)u[5]};
    return 0;
}

/* What a load reads against. */
struct load {
    const struct exec_opts *o;
    const struct exec_result *r;
    struct sread *sr;
};

/* One "key values" line into sr (sf_reader's line). Every key but class
 * and seen once. */
static int read_line(void *ctx, int lineno, const char *key, const char *v, struct sf_err *e)
{
    const struct load *l = ctx;
    const struct exec_opts *o = l->o;
    struct sread *sr = l->sr;
    if (!strcmp(key, "run")) {
        char want[256];
        return sf_run_line(v, run_tag(o, l->r, want, sizeof want), "", 120, lineno, e);
    } else if (!strcmp(key, "position")) {
        if (sf_read_list(v, &sr->position, 1) != 0)
            return sf_fail(e, lineno, "bad position (a whole number of workloads)");
    } else if (!strcmp(key, "elapsed")) {
        return sf_read_elapsed(v, &sr->elapsed, lineno, e);
    } else if (!strcmp(key, "counts")) {
        if (sf_read_list(v, sr->counts, N_COUNTS) != 0)
            return sf_fail(e, lineno, "bad counts (%d whole numbers)", N_COUNTS);
    } else if (!strcmp(key, "exits")) {
        if (sf_read_list(v, sr->exits, o->target->exits) != 0)
            return sf_fail(e, lineno, "bad exits (%d whole numbers)", o->target->exits);
    } else if (!strcmp(key, "sits")) {
        if (sf_read_list(v, sr->sits, SIT_COUNT) != 0)
            return sf_fail(e, lineno, "bad sits (%d whole numbers)", SIT_COUNT);
    } else if (!strcmp(key, "class")) {
        return read_class(o, sr, lineno, v, e);
    } else if (!strcmp(key, "refusal")) {
        if (sf_read_u64(&v, &sr->first_refused) != 0 || *v != ' ' || read_text(v + 1, sr->refusal, sizeof sr->refusal))
            return sf_fail(e, lineno, "bad refusal (a workload, then the message, at most %zu bytes)",
                        sizeof sr->refusal - 1);
    } else if (!strcmp(key, "seen")) {
        if (!sr->at.first_seen)
            sr->at.first_seen = lineno;
        return read_seen(sr, lineno, v, e);
    } else if (strcmp(key, "end") != 0) {
        return sf_fail(e, lineno, "unknown key '%s'", key);
    }
    return 0;
}

/* a workload of this shard before the position */
static bool before(const struct exec_opts *o, const struct sread *sr, uint64_t wl)
{
    return wl % o->shard_n == o->shard_k - 1 && wl / o->shard_n < sr->position;
}

/* a list of counts, each at most of and adding up to sum (of when -1) */
static int check_parts(const uint64_t *v, int n, uint64_t of, bool add_up, int line, const char *what, struct sf_err *e)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] > of || (add_up && v[i] > of - sum))
            return sf_fail(e, line, "%s: more than the checked entries", what);
        sum += v[i];
    }
    if (add_up && sum != of)
        return sf_fail(e, line, "%s: they do not add up to the checked entries", what);
    return 0;
}

/* The counts against the position and each other: each figure the summary
 * and the bound statement print is one the run could have counted. */
static int check_read(const struct exec_opts *o, const struct exec_result *r, const struct sread *sr,
                      struct sf_err *e)
{
    const uint64_t *c = sr->counts;
    uint64_t simulated = c[0], setup_refused = c[1], entries = c[2], refused = c[3], drifts = c[5], stopped = c[6];
    uint64_t checks = c[8], distinct = c[9], diverged = c[10], dropped = c[11], reruns = c[12];
    const struct lines *at = &sr->at;
    if (sr->position > r->shard_space)
        return sf_fail(e, at->position, "position %" PRIu64 " is beyond the shard's %" PRIu64 " workloads",
                    sr->position, r->shard_space);
    if (simulated > sr->position || setup_refused != sr->position - simulated)
        return sf_fail(e, at->counts, "simulated + refused at setup is not the position (%" PRIu64 ")", sr->position);
    uint64_t runs = simulated + (EXEC_GIC_ORDERS - 1) * reruns; /* reruns <= simulated: no overflow */
    if (refused > entries || reruns > simulated || drifts > runs || stopped > runs ||
        diverged > checks || distinct > checks || (distinct == 0) != (checks == 0))
        return sf_fail(e, at->counts, "counts out of range (refused above entries, reruns above simulated, drifts or "
                    "stopped above the runs, diverged or distinct above checks, or distinct 0 with checks)");
    if (check_parts(sr->exits, o->target->exits, checks, true, at->exits, "exits", e) ||
        check_parts(sr->sits, SIT_COUNT, checks, false, at->sits, "sits", e))
        return -1;
    if ((diverged == 0) != (sr->n_classes == 0) || (dropped && !diverged))
        return sf_fail(e, at->counts, "divergences without a class, a class without divergences, or dropped ones "
                    "without divergences");
    for (int i = 0; i < sr->n_classes; i++) {
        const struct exec_class *x = &sr->classes[i];
        if (x->hits == 0 || x->hits > runs || !before(o, sr, x->first) || (x->first_order && !reruns))
            return sf_fail(e, at->cls[i], "hits or first workload out of range (a workload of this shard before the "
                        "position)");
    }
    if ((refused == 0) != (at->refusal == 0))
        return sf_fail(e, at->refusal ? at->refusal : at->counts, "a refusal %s", refused ? "missing" : "without refused states");
    if (at->refusal && !before(o, sr, sr->first_refused))
        return sf_fail(e, at->refusal, "workload %" PRIu64 " is not a workload of this shard before the position",
                    sr->first_refused);
    if (sr->seen.n != distinct)
        return sf_fail(e, at->first_seen ? at->first_seen : at->counts, "%zu hashes for %" PRIu64 " distinct entry states",
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

/* sf_reader's check: the whole file against the run */
static int check_load(void *ctx, struct sf_err *e)
{
    const struct load *l = ctx;
    return check_read(l->o, l->r, l->sr, e);
}

int execstate_load(const char *path, const struct exec_opts *o, struct exec_result *r, double *elapsed)
{
    struct sread *sr = calloc(1, sizeof *sr);
    if (!sr)
        return sf_refuse(&FORMAT, path, &(struct sf_err){0, "out of memory"});
    struct lines *at = &sr->at;
    const struct sf_key keys[] = {{"run", &at->run, true},         {"position", &at->position, true},
                                  {"elapsed", &at->elapsed, true}, {"counts", &at->counts, true},
                                  {"exits", &at->exits, true},     {"sits", &at->sits, true},
                                  {"refusal", &at->refusal, false}, {"end", &at->end, true}};
    struct load l = {o, r, sr};
    const struct sf_reader rd = {&FORMAT, keys, (int)(sizeof keys / sizeof keys[0]),
                                 "incomplete (run, position, elapsed, counts, exits, sits and end are needed: a file "
                                 "cut short?)", read_line, check_load, &l};
    int rc = sf_load(&rd, path);
    if (rc > 0) {
        use_read(r, sr);
        *elapsed = sr->elapsed;
    }
    exec_set_free(&sr->seen);
    free(sr);
    return rc;
}
