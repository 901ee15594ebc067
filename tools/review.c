/* review: a tree against a baseline over a configuration matrix (review.h). */
#define _POSIX_C_SOURCE 200809L
#include "review.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "classify.h"
#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "kassert.h"
#include "out.h"
#include "progress.h"
#include "realdrv.h"
#include "rk_diff.h"
#include "rk_load.h"
#include "shrink.h"
#include "stop.h"
#include "target.h"

#ifndef IRQSIM_SOURCE_DIR
#define IRQSIM_SOURCE_DIR "."
#endif

/* The matrix: one core and one domain, release, on a GICv3 board;
 * 16 domains, debug; two cores, debug; a GICv2 board. */
const char review_default_configs[] = "imx8mm-evk:release,imx8mm-evk:debug:d16,imx8mm-evk:debug:c2,odroidc4:release";

/* ---- the targets ---- */

/* A state's paths: the slowpath, the fastpath as built, the corrected
 * fastpath (kernel C, the IRQ target's only). */
enum { NPATH = REAL_NPATH };

/* Each target, by its descriptor's name (the descriptor is looked up, so
 * this table needs none of them: check/target.c registers them), as the
 * report words it and as the engine runs it. How one of its states runs
 * on the bridge (its paths, the kernel.info flag that says a build has
 * its fastpath, the entry's step) is its real-kernel driver's
 * (tools/realdrv.h: one file per target), found by the same name: every
 * row's target has one. */
/* The review's targets: the registered ones with a real-kernel driver, in
 * registration order (t 0 the default, RV_T_FIRST); NULL past the last. The
 * default target's slowpath runs even where no build has its fastpath. */
const struct target *review_target_of(int t)
{
    for (int i = 0; target_at(i); i++)
        if (real_driver_of(target_at(i)) && t-- == 0)
            return target_at(i);
    return NULL;
}

static const struct real_driver *driver_of(int t)
{
    return real_driver_of(review_target_of(t));
}

static bool info_has(const struct hk_info *info, int t)
{
    return real_has_fastpath(driver_of(t), info);
}

bool review_target_present(const struct review_result *res, int t)
{
    return res->side[0].present[t] || (res->has_base && res->side[1].present[t]);
}

bool review_target_unreviewed(const struct review_result *res, int t)
{
    return review_target_present(res, t) && !res->reviewed[t];
}

unsigned review_unreviewed(const struct review_result *res)
{
    unsigned m = 0;
    for (int t = 0; t < RV_TARGETS; t++)
        m |= (unsigned)review_target_unreviewed(res, t) << t;
    return m;
}

const char *review_target_label(int t)
{
    return review_target_of(t)->words.label;
}

/* "the IRQ and the signal target" of mask's targets; the number of them. */
static int targets_text(unsigned mask, char *buf, size_t len)
{
    size_t n = 0;
    int count = 0;
    buf[0] = 0;
    for (int t = 0; t < RV_TARGETS; t++)
        if (mask >> t & 1 && n < len)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", count++ ? " and the " : "the ", review_target_label(t));
    if (count && n < len)
        snprintf(buf + n, len - n, " target%s", count > 1 ? "s" : "");
    return count;
}

const char *review_unreviewed_text(unsigned mask, char *buf, size_t len)
{
    char t[100];
    int count = targets_text(mask, t, sizeof t);
    snprintf(buf, len, "%s%s", t, count ? (count > 1 ? " were not reviewed" : " was not reviewed") : "");
    return buf;
}

const char *review_nothing_new_text(unsigned reviewed, unsigned unreviewed, char *buf, size_t len)
{
    char r[100], u[160];
    if (!unreviewed || !targets_text(reviewed, r, sizeof r)) {
        snprintf(buf, len, unreviewed ? "nothing reviewed: %s" : "nothing new",
                 review_unreviewed_text(unreviewed, u, sizeof u));
        return buf;
    }
    snprintf(buf, len, "nothing new on %s; %s", r, review_unreviewed_text(unreviewed, u, sizeof u));
    return buf;
}

unsigned review_reviewed(const struct review_result *res)
{
    unsigned m = 0;
    for (int t = 0; t < RV_TARGETS; t++)
        m |= (unsigned)res->reviewed[t] << t;
    return m;
}

/* ---- the matrix ---- */

/* One ":"-separated option of a configuration: 0, or -1 with why. */
static int config_token(struct review_config *c, const char *t, size_t n, char *why, size_t len)
{
    char *end;
    if (n == 5 && !strncmp(t, "debug", 5)) {
        c->debug = true;
        return 0;
    }
    if (n == 7 && !strncmp(t, "release", 7)) {
        c->debug = false;
        return 0;
    }
    if (n == 3 && !strncmp(t, "hyp", 3)) {
        c->hyp = true;
        return 0;
    }
    if (n >= 2 && (t[0] == 'd' || t[0] == 'c')) {
        long v = strtol(t + 1, &end, 10);
        if (end == t + n && v >= 1 && v <= (t[0] == 'd' ? 16 : 2)) {
            *(t[0] == 'd' ? &c->domains : &c->cores) = (int)v;
            return 0;
        }
    }
    snprintf(why, len,
             "'%.*s': a configuration's options are debug, release, hyp (hypervisor support), dN (domains, 1-16), "
             "cN (cores, 1-2)",
             (int)n, t);
    return -1;
}

/* One configuration "BOARD[:opt...]" of length n. */
static int config_one(struct review_config *c, const char *s, size_t n, char *why, size_t len)
{
    memset(c, 0, sizeof *c);
    c->domains = c->cores = 1;
    size_t b = strcspn(s, ":");
    if (b > n)
        b = n;
    if (b == 0 || b >= sizeof c->board) {
        snprintf(why, len, "'%.*s': a configuration starts with a board name", (int)n, s);
        return -1;
    }
    memcpy(c->board, s, b);
    for (size_t i = b; i < n;) {
        size_t t = i + 1, e = t;
        while (e < n && s[e] != ':')
            e++;
        if (config_token(c, s + t, e - t, why, len))
            return -1;
        i = e;
    }
    if (c->cores > 1 && c->domains > 1) {
        snprintf(why, len, "'%.*s': two cores only with one domain (build-kernel.sh)", (int)n, s);
        return -1;
    }
    return 0;
}

int review_parse_configs(const char *list, struct review_config *cfgs, int max, char *why, size_t len)
{
    int n = 0;
    for (const char *p = list;;) {
        size_t l = strcspn(p, ",");
        if (n == max) {
            snprintf(why, len, "more than %d configurations", max);
            return -1;
        }
        if (config_one(&cfgs[n++], p, l, why, len))
            return -1;
        if (!p[l])
            return n;
        p += l + 1;
    }
}

const char *review_config_name(const struct review_config *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s, %s, %d core%s, %d domain%s%s", c->board, c->debug ? "debug" : "release", c->cores,
             c->cores == 1 ? "" : "s", c->domains, c->domains == 1 ? "" : "s", c->hyp ? ", hypervisor" : "");
    return buf;
}

/* ---- the builds ---- */

/* The last line of a text (its end trimmed), into buf. */
static void last_line(const char *text, char *buf, size_t len)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        n--;
    size_t s = n;
    while (s && text[s - 1] != '\n')
        s--;
    snprintf(buf, len, "%.*s", (int)(n - s), text + s);
}

/* All of fd into a new string (NULL when out of memory). */
static char *read_all(int fd)
{
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    for (ssize_t r; s && (r = read(fd, s + n, cap - n - 1)) != 0;) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        n += (size_t)r;
        if (cap - n < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                return NULL;
            }
            s = t;
        }
    }
    if (s)
        s[n] = 0;
    return s;
}

/* build-kernel.sh's argument list for tree and c (static storage: one
 * build at a time). */
static char **build_args(const struct review_opts *o, const char *script, const char *tree,
                         const struct review_config *c, char *dom, char *cores)
{
    static char *a[24 + 2 * REVIEW_MAX_DEFINES];
    int n = 0;
    snprintf(dom, 8, "%d", c->domains);
    snprintf(cores, 8, "%d", c->cores);
    a[n++] = (char *)script;
    a[n++] = "--sel4", a[n++] = (char *)tree;
    a[n++] = "--board", a[n++] = (char *)c->board;
    a[n++] = "--domains", a[n++] = dom;
    a[n++] = "--cores", a[n++] = cores;
    a[n++] = c->debug ? "--debug" : "--release";
    if (o->cache)
        a[n++] = "--cache", a[n++] = (char *)o->cache;
    if (o->pyfdt)
        a[n++] = "--pyfdt", a[n++] = (char *)o->pyfdt;
    if (c->hyp)
        a[n++] = "-D", a[n++] = "KernelArmHypervisorSupport=ON";
    for (int i = 0; i < o->n_defines; i++)
        a[n++] = "-D", a[n++] = (char *)o->defines[i];
    if (o->quiet)
        a[n++] = "--quiet";
    a[n] = NULL;
    return a;
}

int review_build(const struct review_opts *o, const char *tree, const struct review_config *c, char *dir,
                 size_t dirlen, char *why, size_t whylen)
{
    char script[600], dom[8], cores[8];
    snprintf(script, sizeof script, "%s/real/build-kernel.sh", IRQSIM_SOURCE_DIR);
    dir[0] = why[0] = 0;
    int out[2];
    FILE *err = tmpfile();
    if (!err || pipe(out)) {
        snprintf(why, whylen, "cannot run %s: %s", script, strerror(errno));
        if (err)
            fclose(err);
        return 2;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(fileno(err), 2);
        close(out[0]);
        close(out[1]);
        execv(script, build_args(o, script, tree, c, dom, cores));
        fprintf(stderr, "cannot run %s: %s\n", script, strerror(errno));
        _exit(2);
    }
    close(out[1]);
    char *text = pid > 0 ? read_all(out[0]) : NULL;
    close(out[0]);
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    int rc = pid < 0 || !WIFEXITED(st) ? 1 : WEXITSTATUS(st);
    /* the script's notes and errors, after it: its last line says why */
    rewind(err);
    char *etext = read_all(fileno(err));
    fclose(err);
    if (etext && (rc || !o->quiet))
        fputs(etext, stderr);
    if (etext)
        last_line(etext, why, whylen);
    if (text && rc == 0)
        last_line(text, dir, dirlen);
    if (rc == 0 && !dir[0]) {
        snprintf(why, whylen, "%s printed no build folder", script);
        rc = 1;
    }
    free(text);
    free(etext);
    return rc;
}

/* ---- one state through both sides ---- */

/* A side's kernel and its outcomes on the current state, normalised. */
struct side_run {
    struct rk_kernel k;
    bool open;
    struct kstate in;             /* the state, with the model's kernel for this side */
    struct kstate real[NPATH], model[NPATH];
    bool real_over[NPATH], model_over[NPATH];
    int why[NPATH];               /* rk_run_x: an hk_outcome, -1 not run or unfit */
    char text[NPATH][HK_TEXT_LEN];
    bool predicted[NPATH];        /* a halt the model's own failed assertion explains (rk_predicted_halt) */
    uint32_t fuzz[NPATH];         /* [1] fastpath, [2] corrected: fields against the slowpath */
    bool fuzz_halt[NPATH];
};

struct engine {
    struct side_run side[2];
    struct kstate in;
    struct classify_ws ws;
};

/* Path p of target t in the model: its slowpath, its fastpath as written
 * (which falls back to the slowpath itself: a signal state's SysSend, as
 * validate --real --target signal), its corrected one (variant 0 and 1:
 * the targets share the numbers, target_variant_fixes). */
static void model_path(const struct target *t, struct kstate *ks, int p)
{
    if (p == 0)
        t->slow(ks);
    else
        target_fast(t, ks, p == 1 ? FP_PR1227 : FP_FIXED);
}

/* Whether side k's build runs path p of target t (a fastpath: when built). */
static bool path_built(const struct rk_kernel *k, int t, int p)
{
    return real_path_built(driver_of(t), &k->info, p);
}

/* Path p of target t on the side's state, as its driver makes the entry
 * (a signal state's seL4_Send sets the badge register of s->in). */
static int run_path(struct side_run *s, int t, int p, struct rk_extra *x)
{
    return driver_of(t)->run(&s->k, &s->in, driver_of(t)->paths[p], &s->real[p], x);
}

/* A halt's text as a kind's key: its halting line (the kernel's "seL4
 * failed assertion" or "seL4 called fail", src/assert.c; else its first
 * line: what the kernel printed before may fill the text), every path cut
 * to its file name without the line ("at structures_gen.h in function
 * f"), so the same assertion is one kind on every build, whatever its
 * folder and wherever the tree moved the line. */
static void halt_text(const char *raw, char *buf, size_t len)
{
    size_t n = 0;
    const char *last = NULL;
    for (const char *q = raw; (q = strstr(q, "seL4 ")) != NULL; q++)
        if (!strncmp(q, "seL4 failed assertion", 21) || !strncmp(q, "seL4 called fail", 16))
            last = q;
    raw = last ? last : raw;
    for (const char *p = raw; *p && *p != '\r' && *p != '\n' && n + 1 < len;) {
        if (*p == '/' && (p == raw || p[-1] == ' ')) {
            const char *end = p + strcspn(p, " \r\n"), *base = p;
            for (const char *q = p; q < end; q++)
                if (*q == '/')
                    base = q + 1;
            size_t l = strcspn(base, ": \r\n");
            l = l < (size_t)(end - base) ? l : (size_t)(end - base);
            n += (size_t)snprintf(buf + n, len - n, "%.*s", (int)l, base);
            if (n >= len)
                n = len - 1;
            p = end;
            continue;
        }
        buf[n++] = *p++;
    }
    buf[n] = 0;
}

/* Run the side's real paths of target t and the model's on e->in. */
static void side_state(struct side_run *s, const struct kstate *in, int t)
{
    ks_copy(&s->in, in);
    s->in.cfg.kernel = s->k.cfg.kernel;
    s->in.cfg.features = s->k.cfg.features;
    for (int p = 0; p < NPATH; p++) {
        struct rk_extra x;
        s->why[p] = path_built(&s->k, t, p) ? run_path(s, t, p, &x) : -1;
        s->text[p][0] = 0;
        s->predicted[p] = false;
        if (s->why[p] >= 0 && s->why[p] != HK_OUT_HALT)
            s->real_over[p] = !diff_normalise(&s->real[p]);
        if (s->why[p] < 0)
            continue;
        ks_copy(&s->model[p], &s->in);
        model_path(review_target_of(t), &s->model[p], p);
        if (s->why[p] == HK_OUT_HALT) {
            /* the model's own failed assertion names it (validate --real's
             * "halts the model's kernel makes too"), on release and debug
             * builds alike; a known finding keeps its text (rk_known_halt) */
            int id = real_predicted_halt(&s->in, &s->model[p], x.text);
            s->predicted[p] = id >= 0;
            if (id >= 0)
                snprintf(s->text[p], sizeof s->text[p], "KERNEL ASSERTION FAILED (the model's kernel too) in %s: %s",
                         kassert_fn(id), kassert_msg(id));
            else
                halt_text(x.text, s->text[p], sizeof s->text[p]);
        }
        s->model_over[p] = !diff_normalise(&s->model[p]);
    }
}

/* ---- kinds ---- */

static bool kind_same(const struct review_kind *a, const struct review_kind *b)
{
    return a->target == b->target && a->check == b->check && a->fields == b->fields && a->halt == b->halt && a->cause == b->cause &&
           a->change == b->change && (!a->halt || !strcmp(a->text, b->text));
}

static bool kind_known(const struct review_kind *k)
{
    if (k->halt)
        return rk_known_halt(k->text) != NULL && k->check != RV_FUZZ_FIXED && k->check < RV_SLOW_VS_BASE;
    return k->check == RV_FUZZ && cause_is_fixes(k->cause) && cause_defects(review_target_of(k->target), k->cause);
}

/* Count key on side s (0 the tree, 1 the baseline). */
static void kind_count(struct review_result *res, int s, const struct review_kind *key, uint64_t seed)
{
    struct review_kind tk = *key;
    tk.target = res->running;
    key = &tk;
    for (int i = 0; i < res->n_kinds; i++) {
        struct review_kind *k = &res->kinds[i];
        if (kind_same(k, key)) {
            if (!k->count[s]++)
                k->seed[s] = seed;
            return;
        }
    }
    if (res->n_kinds == REVIEW_MAX_KINDS) {
        res->dropped++;
        return;
    }
    struct review_kind *k = &res->kinds[res->n_kinds++];
    *k = *key;
    k->known = kind_known(k);
    k->count[s] = 1;
    k->seed[s] = seed;
}

/* A halt or the fields of check on side s; false when nothing differs. */
static void count_diff(struct review_result *res, int s, int check, uint32_t fields, const char *halt, unsigned cause,
                       uint64_t seed)
{
    struct review_kind key = {.check = check, .fields = halt ? 0 : fields, .halt = halt != NULL, .cause = cause};
    if (halt)
        snprintf(key.text, sizeof key.text, "%s", halt);
    kind_count(res, s, &key, seed);
}

/* validate: the model against each real path of side s. */
static void validate_side(struct review_result *res, struct side_run *r, int s, uint64_t seed)
{
    struct review_side *side = &res->side[s];
    for (int p = 0; p < NPATH; p++) {
        if (r->why[p] < 0)
            continue;
        const char *halt = r->why[p] == HK_OUT_HALT ? r->text[p] : NULL;
        uint32_t f = halt ? 0 : rk_compare(&r->model[p], r->model_over[p], &r->real[p], r->real_over[p], r->k.info.debug);
        if (!halt && !f)
            continue;
        /* a known halt (validate --real's "known findings") is no mismatch;
         * fuzz_side counts the halts */
        bool mismatch = !(halt && (rk_known_halt(halt) || r->predicted[p]));
        side->t_mismatches[res->running] += mismatch;
        side->mismatches += mismatch && res->running == RV_T_FIRST;
        count_diff(res, s, RV_VAL_SLOW + p, f, halt, 0, seed);
    }
}

/* The side's real outcomes held to the exit invariants (realinv.h): a
 * broken one is a kind of its own per path and invariant, new as any kind
 * (with a baseline: where the baseline's kernel keeps it; without one:
 * always, no invariant break is a known finding). */
static void invariant_side(struct review_result *res, struct side_run *r, int s, uint64_t seed)
{
    struct review_side *side = &res->side[s];
    for (int p = 0; p < NPATH; p++) {
        if (r->why[p] < 0 || r->why[p] == HK_OUT_HALT)
            continue;
        struct inv_report rep;
        unsigned admit = realinv_admit(review_target_of(res->running), &r->in, p == 1);
        if (kstate_check_admit(&r->real[p], INV_AT_EXIT, admit, &rep) == 0) {
            side->inv_checked++;
            continue;
        }
        unsigned broken = (unsigned)rep.items[0].id;
        /* the states are the tree's build's: on a baseline of another
         * kernel one may be no entry state of it (master's domain schedule
         * on base), and its outcome then proves nothing */
        if (kstate_check_admit(&r->in, INV_AT_ENTRY, target_admit_built(&r->in), &rep) != 0) {
            side->inv_unfit++;
            continue;
        }
        side->inv_checked++;
        side->inv_broken++;
        struct review_kind key = {.check = RV_INV_SLOW + p, .cause = broken};
        kind_count(res, s, &key, seed);
    }
}

/* fuzz: the fields of each real fastpath against the real slowpath. */
static void fuzz_fields(struct side_run *r)
{
    for (int p = 1; p < NPATH; p++) {
        r->fuzz[p] = 0;
        r->fuzz_halt[p] = false;
        if (r->why[0] < 0 || r->why[p] < 0)
            continue;
        r->fuzz_halt[p] = r->why[0] == HK_OUT_HALT || r->why[p] == HK_OUT_HALT;
        if (!r->fuzz_halt[p])
            r->fuzz[p] = rk_compare(&r->real[0], r->real_over[0], &r->real[p], r->real_over[p], false);
    }
}

static bool diverges(const struct side_run *r, int p)
{
    return r->fuzz_halt[p] || r->fuzz[p];
}

/* The halt of a fuzz pair: "slowpath: TEXT" or "fastpath: TEXT". */
static const char *fuzz_halt_text(const struct side_run *r, int p, char *buf, size_t len)
{
    bool slow = r->why[0] == HK_OUT_HALT;
    snprintf(buf, len, "%s: %s", slow ? "slowpath" : p == 1 ? "fastpath" : "corrected fastpath",
             slow ? r->text[0] : r->text[p]);
    return buf;
}

static void fuzz_side(struct review_result *res, struct side_run *r, int s, unsigned cause, uint64_t seed)
{
    struct review_side *side = &res->side[s];
    char text[HK_TEXT_LEN + 32];
    int t = res->running;
    const struct target *tg = review_target_of(t);
    if (diverges(r, 1)) {
        const char *halt = r->fuzz_halt[1] ? fuzz_halt_text(r, 1, text, sizeof text) : NULL;
        unsigned c = halt ? 0 : cause;
        unsigned d = cause_defects(tg, c);
        bool explained = halt ? rk_known_halt(halt) != NULL : cause_is_fixes(c) && d;
        side->t_diverged[t]++;
        side->t_unexplained[t] += !explained;
        for (int i = 0; i < tg->n_defects; i++)
            side->t_defects[t][i] += (d >> i) & 1;
        /* the IRQ target's figures are also the side's own (the JSON's first keys) */
        bool irq = t == RV_T_FIRST;
        side->diverged += irq;
        side->halts += irq && halt != NULL;
        side->unexplained += irq && !explained;
        side->known_halts += irq && halt && explained;
        for (int i = 0; irq && i < tg->n_defects; i++)
            side->defects[i] += (d >> i) & 1;
        count_diff(res, s, RV_FUZZ, r->fuzz[1], halt, c, seed);
    }
    if (diverges(r, 2)) {
        side->diverged_fixed++;
        count_diff(res, s, RV_FUZZ_FIXED, r->fuzz[2], r->fuzz_halt[2] ? fuzz_halt_text(r, 2, text, sizeof text) : NULL,
                   0, seed);
    }
}

/* Path p of the tree's kernel against the baseline's on the same state;
 * true when they differ. */
static bool cross_path(struct review_result *res, struct side_run *t, struct side_run *b, int p, bool slow_changed,
                       uint64_t seed)
{
    if (t->why[p] < 0 || b->why[p] < 0)
        return false;
    bool th = t->why[p] == HK_OUT_HALT, bh = b->why[p] == HK_OUT_HALT;
    struct review_kind key = {.check = RV_SLOW_VS_BASE + p};
    if (th || bh) {
        if (th && bh && !strcmp(t->text[p], b->text[p]))
            return false;
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s: %.*s", th ? "tree" : "baseline", (int)sizeof key.text - 12,
                 th ? t->text[p] : b->text[p]);
    } else {
        key.fields = rk_compare(&t->real[p], t->real_over[p], &b->real[p], b->real_over[p], false);
        if (!key.fields)
            return false;
    }
    res->t_changed[res->running][p]++;
    res->changed[p] += res->running == RV_T_FIRST;
    /* a fastpath that changed: where it stands against the tree's slowpath */
    if (p > 0 && !diverges(t, p))
        key.change = slow_changed ? RV_CH_FOLLOWS : RV_CH_AGREES;
    else if (p > 0 && !t->fuzz_halt[p] && !b->fuzz_halt[p] && (t->fuzz[p] & ~b->fuzz[p]) == 0 &&
             t->fuzz[p] != b->fuzz[p])
        key.change = RV_CH_NARROWED;
    kind_count(res, 0, &key, seed);
    return true;
}

static void one_state(struct engine *e, struct review_result *res, uint64_t seed)
{
    int sides = res->has_base ? 2 : 1, t = res->running;
    for (int s = 0; s < sides; s++) {
        struct side_run *r = &e->side[s];
        side_state(r, &e->in, t);
        uint64_t unfit = 0;
        for (int p = 0; p < NPATH; p++)
            unfit += r->why[p] < 0 && path_built(&r->k, t, p);
        res->side[s].t_unfit[t] += unfit;
        res->side[s].unfit += t == RV_T_FIRST ? unfit : 0;
        validate_side(res, r, s, seed);
        invariant_side(res, r, s, seed);
        fuzz_fields(r);
    }
    /* the model's cause: a property of the state, the same for both sides */
    unsigned cause = 0;
    bool need = (e->side[0].fuzz[1] && !e->side[0].fuzz_halt[1]) ||
                (sides > 1 && e->side[1].fuzz[1] && !e->side[1].fuzz_halt[1]);
    if (need)
        cause = classify_cause(&e->side[0].in, &e->ws);
    for (int s = 0; s < sides; s++)
        fuzz_side(res, &e->side[s], s, cause, seed);
    if (sides < 2)
        return;
    bool slow_changed = cross_path(res, &e->side[0], &e->side[1], 0, false, seed);
    for (int p = 1; p < NPATH; p++)
        cross_path(res, &e->side[0], &e->side[1], p, slow_changed, seed);
}

/* ---- a configuration ---- */

/* Build and open side s; 0, or the status (res->why says). */
static int open_side(const struct review_opts *o, struct review_result *res, struct engine *e, int s)
{
    struct review_side *side = &res->side[s];
    char why[512], err[600], name[96];
    review_config_name(&res->cfg, name, sizeof name);
    if (!o->quiet)
        fprintf(stderr, "irqsim review: %s: building the %s\n", name, s ? "baseline" : "tree");
    side->build_rc = review_build(o, side->tree, &res->cfg, side->build, sizeof side->build, why, sizeof why);
    if (side->build_rc) {
        snprintf(res->why, sizeof res->why, "the %s does not build (build-kernel.sh exit %d): %s",
                 s ? "baseline" : "tree", side->build_rc, why);
        return side->build_rc;
    }
    struct side_run *r = &e->side[s];
    if (rk_open(&r->k, side->build, err, sizeof err)) {
        snprintf(res->why, sizeof res->why, "the %s's build cannot be opened: %.500s", s ? "baseline" : "tree", err);
        return 1;
    }
    r->open = true;
    /* the model is the build's kernel (kernel.info) unless --kernel says */
    rk_model(&r->k, o->kernel);
    side->kernel = r->k.cfg.kernel;
    side->features = r->k.cfg.features;
    side->irq_fastpath = r->k.info.irq_fastpath;
    for (int t = 0; t < RV_TARGETS; t++)
        side->present[t] = info_has(&r->k.info, t);
    snprintf(side->commit, sizeof side->commit, "%s", r->k.commit);
    return 0;
}

static bool run_done(const struct review_opts *o, uint64_t i, double t0)
{
    if (stop_requested())
        return true;
    if (o->checks)
        return i >= o->checks;
    return (i & 255) == 0 && progress_now() - t0 >= o->seconds;
}

static void count_new(struct review_result *res)
{
    res->n_new = 0;
    for (int t = 0; t < RV_TARGETS; t++)
        res->n_new += res->lost[t]; /* one new finding: the fastpath itself */
    res->n_gone = 0;
    for (int i = 0; i < res->n_kinds; i++) {
        res->n_new += review_kind_new(res, &res->kinds[i]);
        res->n_gone += review_kind_gone(res, &res->kinds[i]);
    }
}

/* The states of target res->running. */
static void run_target(const struct review_opts *o, struct review_result *res, struct engine *e)
{
    int t = res->running;
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.target = review_target_of(t);
    double t0 = progress_now();
    struct progress pr;
    progress_init(&pr, !o->quiet, 1.0);
    char name[96];
    review_config_name(&res->cfg, name, sizeof name);
    uint64_t i = 0;
    for (; !run_done(o, i, t0); i++) {
        if (rk_gen_state(&e->side[0].k, &e->in, o->seed + i, &b)) {
            snprintf(res->why, sizeof res->why,
                     "the generator has no preset matching the build (board %s): no states run", e->side[0].k.board);
            break;
        }
        one_state(e, res, o->seed + i);
        if (progress_due(&pr)) {
            count_new(res);
            progress_print(&pr, "irqsim review: %s: %s target: %.0f s, %" PRIu64 " states, %d new, %d gone", name,
                           review_target_label(t), pr.last - t0, i + 1, res->n_new, res->n_gone);
        }
    }
    progress_end(&pr, false);
    res->t_states[t] = i;
    res->t_seconds[t] = progress_now() - t0;
    res->seconds += res->t_seconds[t];
    res->reviewed[t] = i > 0;
}

/* Each target the engine runs: the IRQ target always (its slowpath at
 * least), the others where a build has their fastpath. */
static void run_states(const struct review_opts *o, struct review_result *res, struct engine *e)
{
    for (int t = 0; t < RV_TARGETS && !stop_requested(); t++) {
        if (!review_target_of(t) || (t != RV_T_FIRST && !review_target_present(res, t)))
            continue;
        res->running = t;
        run_target(o, res, e);
    }
    res->states = res->t_states[RV_T_FIRST];
    res->ran = res->states > 0;
}

/* The tree does not build (open_side's 1): whether the baseline does,
 * built to know, its outcome said after the tree's (res->why). 1 when it
 * does (the tree's failure is new), else the baseline's status: 3 when it
 * cannot be built here, 2 (bad input) when it fails too. */
static int base_of_unbuilt(const struct review_opts *o, struct review_result *res, struct engine *e)
{
    char tree_why[sizeof res->why];
    memcpy(tree_why, res->why, sizeof tree_why);
    int b = open_side(o, res, e, 1);
    const char *said = b == 0   ? "the baseline builds"
                       : b == 3 ? "the baseline cannot be built here either"
                                : "the baseline does not build either: not new";
    snprintf(res->why, sizeof res->why, "%.*s; %s", (int)(sizeof res->why - 64), tree_why, said);
    return b == 0 ? 1 : b == 3 ? 3 : 2;
}

bool review_tree_unbuilt_new(const struct review_result *res)
{
    return res->side[0].build_rc == 1 && (!res->has_base || res->side[1].build_rc == 0);
}

int review_run(const struct review_opts *o, struct review_result *res)
{
    struct engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(res->why, sizeof res->why, "out of memory");
        return 2;
    }
    res->has_base = o->base != NULL;
    snprintf(res->side[0].tree, sizeof res->side[0].tree, "%s", o->tree);
    snprintf(res->side[1].tree, sizeof res->side[1].tree, "%s", o->base ? o->base : "");
    int rc = open_side(o, res, e, 0);
    if (rc == 1 && res->has_base)
        rc = base_of_unbuilt(o, res, e);
    if (!rc && res->has_base) {
        rc = open_side(o, res, e, 1);
        /* a baseline that does not build leaves nothing to compare with:
         * the tree's own run would call every known finding new */
        res->same_build = !rc && !strcmp(res->side[0].build, res->side[1].build);
        /* a tree whose option was renamed or dropped builds no fastpath:
         * every kind of the baseline's fastpath would count as gone */
        for (int t = 0; t < RV_TARGETS; t++)
            res->lost[t] = !rc && res->side[1].present[t] && !res->side[0].present[t];
        res->lost_fastpath = res->lost[RV_T_FIRST];
    }
    if (!rc)
        run_states(o, res, e);
    count_new(res);
    for (int s = 0; s < 2; s++)
        if (e->side[s].open)
            rk_close(&e->side[s].k);
    free(e);
    return rc;
}

/* ---- the review's states again, on another build (the change measure) ---- */

uint64_t review_replay_states(const struct review_opts *o, const struct review_result *res, const char *build,
                              const struct review_replay *hooks, char *why, size_t len)
{
    struct side_run *s = calloc(1, sizeof *s);
    struct kstate *in = malloc(sizeof *in);
    uint64_t n = 0;
    if (!s || !in) {
        snprintf(why, len, "out of memory");
        goto out;
    }
    if (rk_open(&s->k, build, why, len))
        goto out;
    s->open = true;
    rk_model(&s->k, o->kernel);
    if (hooks->opened(hooks->arg, &s->k)) {
        snprintf(why, len, "%s: its counters cannot be found (nm -S of hostkernel.so)", build);
        goto out;
    }
    for (int t = 0; t < RV_TARGETS; t++) {
        struct gen_bounds b;
        gen_bounds_default(&b);
        b.target = review_target_of(t);
        for (uint64_t i = 0; i < res->t_states[t] && !rk_gen_state(&s->k, in, o->seed + i, &b); i++, n++) {
            side_state(s, in, t);
            hooks->after(hooks->arg);
        }
    }
out:
    if (s && s->open)
        rk_close(&s->k);
    free(s);
    free(in);
    return n;
}

/* ---- reproducers ---- */

/* The order the report lists kinds in: what no known defect explains
 * first (so its reproducer is the first file), then the tree's paths
 * against the baseline's, the model against the kernel, the corrected
 * fastpath, the rest. */
int review_kind_rank(const struct review_result *res, const struct review_kind *k)
{
    (void)res;
    if ((k->check == RV_FUZZ && !k->known) || review_check_invariant(k->check))
        return 0;
    if (k->check >= RV_SLOW_VS_BASE)
        return 1;
    if (k->check <= RV_VAL_FIXED)
        return 2;
    return k->check == RV_FUZZ_FIXED ? 3 : 4;
}

static int write_reproducer(const struct review_opts *o, struct review_result *res, struct rk_kernel *k,
                            struct review_kind *rk, int n)
{
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.target = review_target_of(rk->target);
    struct kstate *in = malloc(sizeof *in);
    char what[300], cfg[96], cname[120];
    if (!in || rk_gen_state(k, in, rk->seed[0], &b)) {
        free(in);
        return 1;
    }
    /* the default target's names as they were; another's carry its name */
    char *path = out_join(o->out, "review-%s-d%d-c%d-%s%s-%02d-%s%sseed%" PRIu64 ".scen", res->cfg.board,
                          res->cfg.domains, res->cfg.cores, res->cfg.debug ? "debug" : "release",
                          res->cfg.hyp ? "-hyp" : "", n, rk->target == RV_T_FIRST ? "" : review_target_of(rk->target)->name,
                          rk->target == RV_T_FIRST ? "" : "-", rk->seed[0]);
    char *verdict = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&verdict, &len);
    if (mem) {
        fprintf(mem, "irqsim review: new on %s: %s: %s\ntree %s (build %s), seed %" PRIu64 "\n",
                review_config_name(&res->cfg, cfg, sizeof cfg), review_check_name(rk->target, rk->check, cname, sizeof cname),
                review_kind_text(rk, what, sizeof what), res->side[0].tree, res->side[0].build, rk->seed[0]);
        fclose(mem);
    }
    int bad = !path || !verdict || out_reproducer("irqsim review", path, verdict, in, NULL);
    if (!bad) {
        rk->reproducer = path;
        rk->size = shrink_size(in); /* the group's smallest reproducer (reviewgroup.c) */
    } else {
        free(path);
    }
    free(verdict);
    free(in);
    return bad;
}

int review_reproducers(const struct review_opts *o, struct review_result *res)
{
    if (!o->out || !res->ran)
        return 0;
    struct rk_kernel *k = calloc(1, sizeof *k);
    char err[600];
    if (!k || rk_open(k, res->side[0].build, err, sizeof err)) {
        free(k);
        return res->n_new;
    }
    if (k->cfg.kernel != res->side[0].kernel) /* --kernel: that version's row */
        cfg_set_kernel(&k->cfg, res->side[0].kernel);
    int failed = 0, n = 0;
    for (int rank = 0; rank < 5; rank++)
        for (int i = 0; i < res->n_kinds; i++) {
            struct review_kind *rk = &res->kinds[i];
            if (review_kind_rank(res, rk) == rank && review_kind_new(res, rk))
                failed += write_reproducer(o, res, k, rk, ++n);
        }
    rk_close(k);
    free(k);
    return failed;
}

void review_free(struct review_result *res)
{
    rk_change_cfg_free(&res->change.m);
    for (int i = 0; i < res->n_kinds; i++) {
        free(res->kinds[i].reproducer);
        res->kinds[i].reproducer = NULL;
    }
}

/* ---- words ---- */

bool review_kind_new(const struct review_result *res, const struct review_kind *k)
{
    if (!k->count[0])
        return false;
    if (k->check >= RV_SLOW_VS_BASE)
        return k->check == RV_SLOW_VS_BASE || k->change == RV_CH_DIVERGES;
    return res->has_base ? k->count[1] == 0 : !k->known;
}

bool review_kind_gone(const struct review_result *res, const struct review_kind *k)
{
    if (k->check >= RV_SLOW_VS_BASE)
        return k->check != RV_SLOW_VS_BASE && (k->change == RV_CH_AGREES || k->change == RV_CH_NARROWED);
    return res->has_base && k->count[1] && !k->count[0];
}

const char *review_check_name(int target, int check, char *buf, size_t len)
{
    /* each target's paths by its words (target.h) and its fastpath's name;
     * a corrected fastpath in kernel C is the driver's to have */
    const struct target *t = target >= 0 && target < RV_TARGETS ? review_target_of(target) : NULL;
    bool fixed = t && driver_of(target)->corrected_in_c;
    const char *slow = t ? t->words.slow_short : "", *fast = t ? t->fast_fn : "";
    switch (t ? check : -1) {
    case RV_VAL_SLOW: snprintf(buf, len, "model %s against the real slowpath", slow); break;
    case RV_VAL_FAST: snprintf(buf, len, "model of %s against the real %s", t->words.fast_label, fast); break;
    case RV_FUZZ: snprintf(buf, len, "real %s against the real slowpath", fast); break;
    case RV_INV_SLOW: snprintf(buf, len, "the real %s's outcome against the exit invariants", slow); break;
    case RV_INV_FAST: snprintf(buf, len, "the real %s's outcome against the exit invariants", fast); break;
    case RV_SLOW_VS_BASE: snprintf(buf, len, "the tree's %s against the baseline's", slow); break;
    case RV_FAST_VS_BASE: snprintf(buf, len, "the tree's %s against the baseline's", fast); break;
    case RV_VAL_FIXED:
    case RV_FUZZ_FIXED:
    case RV_INV_FIXED:
    case RV_FIXED_VS_BASE: {
        static const char *const corrected[] = {
            [RV_VAL_FIXED] = "model corrected fastpath against the kernel-C one",
            [RV_FUZZ_FIXED] = "kernel-C corrected fastpath against the real slowpath",
            [RV_INV_FIXED] = "the kernel-C corrected fastpath's outcome against the exit invariants",
            [RV_FIXED_VS_BASE] = "the corrected fastpath on the tree's kernel against the baseline's",
        };
        snprintf(buf, len, "%s", fixed ? corrected[check] : "?");
        break;
    }
    default: snprintf(buf, len, "?"); break;
    }
    return buf;
}

const char *review_kind_text(const struct review_kind *k, char *buf, size_t len)
{
    char f[200], cause[120], defs[60];
    if (k->halt)
        snprintf(f, sizeof f, "halt: %.190s", k->text);
    else
        diff_fields_text(k->fields, f, sizeof f);
    const struct target *tg = review_target_of(k->target);
    if (review_check_invariant(k->check)) {
        snprintf(buf, len, "invariant %s broken at exit [KERNEL INVARIANT BROKEN; it holds because: %s]",
                 inv_name((int)k->cause), inv_what((int)k->cause));
        return buf;
    }
    if (k->check == RV_FUZZ && !k->halt) {
        if (!k->cause)
            snprintf(buf, len, "%s [the model agrees here: unexplained]", f);
        else if (!cause_is_fixes(k->cause))
            snprintf(buf, len, "%s [no fix of the model removes it: unexplained]", f);
        else
            snprintf(buf, len, "%s [model cause %s: %s]", f, cause_text(tg, k->cause, cause, sizeof cause),
                     defects_text(tg, cause_defects(tg, k->cause), defs, sizeof defs));
    } else if (k->check > RV_SLOW_VS_BASE) {
        static const char *const ch[] = {"and it diverges from the tree's slowpath",
                                         "and it agrees with the tree's slowpath (fixed here)",
                                         "and it diverges from the tree's slowpath in fewer fields",
                                         "with the tree's slowpath, which it agrees with"};
        snprintf(buf, len, "%s, %s", f, ch[k->change]);
    } else {
        snprintf(buf, len, "%s%s", f, k->halt && k->known ? " [known finding]" : "");
    }
    return buf;
}
