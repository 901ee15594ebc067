/*
 * reviewchange: the change measure of `irqsim review` (reviewchange.h).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L
#include "reviewchange.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "covrun.h"
#include "out.h"
#include "progress.h"

static const char prog[] = "irqsim review";

/* ---- the coverage run, in a child ---- */

struct child {
    const struct review_opts *o;
    const struct review_result *res;
    const char *cov, *fns_path;
    struct covrun_fns fns;
    char why[600];
};

static int child_opened(void *arg, const struct rk_kernel *k)
{
    struct child *ch = arg;
    return covrun_fns_open(&ch->fns, k);
}

static void child_after(void *arg)
{
    covrun_fns_state(&((struct child *)arg)->fns);
}

static int child_main(void *arg, void *out)
{
    struct child *ch = arg;
    struct review_replay hooks = {child_opened, child_after, ch};
    uint64_t n = review_replay_states(ch->o, ch->res, ch->cov, &hooks, ch->why, sizeof ch->why);
    memcpy(out, &n, sizeof n);
    if (!n && ch->why[0])
        fprintf(stderr, "%s: %s\n", prog, ch->why);
    int rc = n && covrun_fns_write(&ch->fns, ch->fns_path) ? 1 : 0;
    covrun_fns_free(&ch->fns);
    return rc;
}

/* ---- reading the run ---- */

static int read_run(struct review_measure *m, const struct rk_change *c, const char *dir, const char *fns_path,
                    uint64_t states)
{
    char *json = covrun_gcov_json(m->cov, dir);
    if (!json) {
        snprintf(m->why, sizeof m->why, "gcov gave no JSON for the run (gcov -b -j -t in %.400s)", dir);
        return -1;
    }
    static struct cov_data d;
    char path[1200], root[1024], compiled[1024];
    covrun_info(m->cov, "source", root, sizeof root);
    covrun_info(m->cov, "compiled_source", compiled, sizeof compiled);
    int rc = rk_cov_read_gcov(&d, json, root, compiled, m->why, sizeof m->why);
    free(json);
    snprintf(path, sizeof path, "%s/host_all.ci", m->cov);
    FILE *ci = rc ? NULL : fopen(path, "r");
    if (!rc && !ci)
        rc = -1, snprintf(m->why, sizeof m->why, "%.400s: %s", path, strerror(errno));
    rc = rc ? rc : rk_cov_read_graph(&d, ci, covrun_roots, COVRUN_ROOTS, m->why, sizeof m->why);
    if (!rc)
        rk_cov_mark_entered(&d);
    if (ci)
        fclose(ci);
    struct rk_compiled p = {0};
    struct rk_fn_states s = {0};
    rc = rc ? rc : rk_compiled_read(&p, m->cov, root, m->why, sizeof m->why);
    if (!rc && covrun_fns_read(&s, fns_path))
        rc = -1, snprintf(m->why, sizeof m->why, "the run's states per function (%s) cannot be read", fns_path);
    rc = rc ? rc : rk_change_measure(&m->m, c, &p, &d, &s, states, m->why, sizeof m->why);
    m->measured = !rc;
    covrun_fn_states_free(&s);
    rk_compiled_free(&p);
    rk_cov_free(&d);
    return rc;
}

/* Side s's tree as a folder: as given, or (a tarball) where the build
 * unpacked it (kernel.info source=: a tarball's content has one folder
 * in the cache; a folder's source= is where the same content was first
 * built, which may be gone). */
static void tree_dir(const struct review_result *res, int s, char *out, size_t n)
{
    struct stat st;
    if (!stat(res->side[s].tree, &st) && S_ISDIR(st.st_mode))
        snprintf(out, n, "%s", res->side[s].tree);
    else
        covrun_info(res->side[s].build, "source", out, n);
}

/* The two trees' folders; the change of them. */
static int read_change(const struct review_result *res, struct rk_change *c, char *why, size_t len)
{
    char tree[1024], base[1024];
    tree_dir(res, 0, tree, sizeof tree);
    tree_dir(res, 1, base, sizeof base);
    if (!tree[0] || !base[0]) {
        snprintf(why, len, "a build's kernel.info names no source tree");
        return -1;
    }
    return rk_change_diff(c, tree, base, why, len);
}

void review_change_measure(const struct review_opts *o, struct review_result *res, struct rk_change *c)
{
    struct review_measure *m = &res->change;
    double t0 = progress_now();
    if (!res->has_base || !c || !res->ran) {
        m->none = res->ran && (!res->has_base || !c);
        if (!res->ran)
            snprintf(m->why, sizeof m->why, "no state ran");
        return;
    }
    if (!c->tree && read_change(res, c, m->why, sizeof m->why)) {
        rk_change_free(c); /* the next configuration tries again, never with half a change */
        return;
    }
    if (!rk_change_has_c(c)) {
        m->none = true;
        return;
    }
    char name[96];
    review_config_name(&res->cfg, name, sizeof name);
    if (!o->quiet)
        fprintf(stderr, "%s: %s: measuring the change: the tree's coverage build\n", prog, name);
    char tree[1024];
    tree_dir(res, 0, tree, sizeof tree);
    int rc = covrun_build(prog, res->side[0].build, tree, m->cov, sizeof m->cov);
    if (rc) {
        snprintf(m->why, sizeof m->why, "the tree's coverage build failed (build-kernel.sh --coverage exit %d)", rc);
        return;
    }
    char tmp[] = "/tmp/irqsim-review-cov.XXXXXX", dir[4096], fns_path[sizeof tmp + 16];
    if (!mkdtemp(tmp)) {
        snprintf(m->why, sizeof m->why, "cannot make a folder in /tmp: %s", strerror(errno));
        return;
    }
    snprintf(fns_path, sizeof fns_path, "%s/fn-states", tmp);
    uint64_t reviewed = 0;
    for (int t = 0; t < RV_TARGETS; t++)
        reviewed += res->t_states[t];
    if (!o->quiet)
        fprintf(stderr, "%s: %s: measuring the change: the review's %" PRIu64 " states on it\n", prog, name, reviewed);
    static struct child ch;
    memset(&ch, 0, sizeof ch);
    ch = (struct child){.o = o, .res = res, .cov = m->cov, .fns_path = fns_path};
    uint64_t states = 0;
    rc = covrun_fork(prog, tmp, child_main, &ch, &states, sizeof states);
    if (rc || !states)
        snprintf(m->why, sizeof m->why, "the run on the coverage build failed (exit %d, %" PRIu64 " states)", rc,
                 states);
    else if (!covrun_find_gcda(tmp, dir, sizeof dir, 0))
        snprintf(m->why, sizeof m->why, "the run wrote no counters (host_all.gcda) under %.400s", tmp);
    else
        read_run(m, c, dir, fns_path, states);
    covrun_rm_tree(tmp);
    m->seconds = progress_now() - t0;
}

/* ---- over every configuration ---- */

/* Line i of the change in each measured configuration (the same change,
 * the same order): its most telling kind over them, and the first
 * configuration with that kind in *at (its function is named there). */
static int line_best(const struct review_result *res, int n, int i, int *at)
{
    /* executed somewhere, else not executed where it is code, else
     * compiled without code somewhere (a line compiled nowhere else does
     * not make it unrun), then the kinds that are the same everywhere and
     * what no configuration compiles */
    static const int order[] = {RL_EXEC,     RL_UNEXEC,   RL_NOCODE,   RL_DIRECTIVE, RL_DELETED,
                                RL_DISABLED, RL_NOTBUILT, RL_EXCLUDED, RL_COMMENT};
    int best = RL_COMMENT, rank = (int)(sizeof order / sizeof order[0]);
    *at = -1;
    for (int k = 0; k < n; k++) {
        const struct rk_change_cfg *m = &res[k].change.m;
        if (!res[k].change.measured || i >= m->nlines)
            continue;
        *at = *at < 0 ? k : *at;
        for (int r = 0; r < rank; r++)
            if (order[r] == m->lines[i].kind) {
                rank = r;
                best = order[r];
                *at = k;
            }
    }
    return best;
}

/* a deletion is run when the function around it was entered somewhere */
static bool deletion_run(const struct review_result *res, int n, int i)
{
    for (int k = 0; k < n; k++) {
        const struct rk_change_cfg *m = &res[k].change.m;
        if (res[k].change.measured && i < m->nlines && m->lines[i].fn >= 0 && m->fns[m->lines[i].fn].calls > 0)
            return true;
    }
    return false;
}

static int first_measured(const struct review_result *res, int n)
{
    for (int k = 0; k < n; k++)
        if (res[k].change.measured)
            return k;
    return -1;
}

/* whether function name was entered in some configuration */
static bool fn_entered(const struct review_result *res, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        for (int f = 0; res[k].change.measured && f < res[k].change.m.nfns; f++)
            if (res[k].change.m.fns[f].calls > 0 && !strcmp(res[k].change.m.fns[f].name, name))
                return true;
    return false;
}

void review_change_total(const struct review_result *res, int n, struct review_change_total *t)
{
    memset(t, 0, sizeof *t);
    for (int k = 0; k < n; k++) {
        t->configs += res[k].change.measured;
        t->failed += !res[k].change.measured && !res[k].change.none && res[k].ran;
    }
    int k0 = first_measured(res, n);
    t->any = k0 >= 0 || t->failed;
    if (k0 < 0)
        return;
    const struct rk_change_cfg *m0 = &res[k0].change.m;
    t->other_files = m0->other_files;
    t->removed_files = m0->removed_files;
    for (int i = 0; i < m0->nlines; i++) {
        int at, kind = line_best(res, n, i, &at);
        if (kind == RL_DELETED) {
            t->deleted++;
            t->deleted_run += deletion_run(res, n, i);
            continue;
        }
        t->comment += kind == RL_COMMENT;
        t->directive += kind == RL_DIRECTIVE;
        t->nocode += kind == RL_NOCODE;
        bool code = kind != RL_COMMENT && kind != RL_DIRECTIVE && kind != RL_NOCODE;
        t->code += code;
        t->executed += kind == RL_EXEC;
    }
    /* the functions: every one some configuration lists */
    for (int k = 0; k < n; k++)
        for (int f = 0; res[k].change.measured && f < res[k].change.m.nfns; f++) {
            const char *name = res[k].change.m.fns[f].name;
            bool seen = false;
            for (int j = 0; j < k && !seen; j++)
                for (int g = 0; res[j].change.measured && g < res[j].change.m.nfns; g++)
                    seen |= !strcmp(res[j].change.m.fns[g].name, name);
            if (seen)
                continue;
            t->fns++;
            t->fns_entered += fn_entered(res, n, name);
        }
}

bool review_change_unrun(const struct review_change_total *t)
{
    return t->failed || t->executed < t->code || t->deleted_run < t->deleted || t->fns_entered < t->fns;
}

/* "`f()` src/x.c:12" of line i of configuration k */
static int name_line(char *buf, size_t len, const struct review_result *r, const struct rk_change *c, int i)
{
    const struct rk_change_cfg *m = &r->change.m;
    const struct rk_change_line *l = &m->lines[i];
    const struct rk_change_fn *fn = l->fn >= 0 ? &m->fns[l->fn] : NULL;
    return snprintf(buf, len, "%s%s%s%s:%d%s", fn ? "`" : "", fn ? fn->name : "", fn ? "()` " : "",
                    c->files[l->file].path, l->line, fn && !fn->on_path ? " (outside every path irqsim runs)" : "");
}

/* The function of line i in configuration k, NULL outside any */
static const struct rk_change_fn *line_fn(const struct review_result *res, int k, int i)
{
    const struct rk_change_cfg *m = &res[k].change.m;
    return m->lines[i].fn >= 0 ? &m->fns[m->lines[i].fn] : NULL;
}

/* Line i (of best kind kind, in configuration at) left unrun: code not
 * executed, a deletion or any change but a comment in a function never
 * entered, code never compiled. */
static bool line_unrun(const struct review_result *res, int n, int i, int kind, int at)
{
    const struct rk_change_fn *fn = line_fn(res, at, i);
    if (kind == RL_COMMENT)
        return false;
    if (fn && !fn_entered(res, n, fn->name))
        return true;
    if (kind == RL_DELETED)
        return !deletion_run(res, n, i);
    return kind != RL_EXEC && kind != RL_DIRECTIVE && kind != RL_NOCODE;
}

const char *review_change_text(const struct review_result *res, int n, const struct review_change_total *t,
                               const struct rk_change *c, int max, char *buf, size_t len)
{
    size_t pos = 0;
#define PUT(...) (pos += (size_t)snprintf(buf + (pos < len ? pos : len), pos < len ? len - pos : 0, __VA_ARGS__))
    buf[0] = 0;
    if (!t->any) {
        PUT("no kernel C changed");
        return buf;
    }
    int k0 = first_measured(res, n);
    if (t->failed) {
        const char *why = "";
        for (int k = 0; k < n && !why[0]; k++)
            if (!res[k].change.measured && !res[k].change.none)
                why = res[k].change.why;
        PUT("the change was not measured on %d configuration%s (%s)%s", t->failed, t->failed == 1 ? "" : "s", why,
            k0 >= 0 ? "; " : "");
    }
    if (k0 < 0)
        return buf;
    if (t->code)
        PUT("%d of %d changed line%s with code executed", t->executed, t->code, t->code == 1 ? "" : "s");
    else
        PUT("no changed line has code of its own");
    if (t->deleted)
        PUT(", %d of %d deletion%s in functions entered", t->deleted_run, t->deleted, t->deleted == 1 ? "" : "s");
    PUT(" (%d of %d changed function%s entered)", t->fns_entered, t->fns, t->fns == 1 ? "" : "s");
    int named = 0, more = 0, prev_kind = -1;
    const struct rk_change_fn *prev_fn = NULL;
    char last[800] = "";
    const struct rk_change_cfg *m0 = &res[k0].change.m;
    for (int i = 0; i < m0->nlines; i++) {
        int at, kind = line_best(res, n, i, &at);
        const struct rk_change_fn *fn = line_fn(res, at, i);
        bool same = i > 0 && kind == prev_kind && m0->lines[i - 1].file == m0->lines[i].file &&
                    (fn && prev_fn ? !strcmp(fn->name, prev_fn->name) : fn == prev_fn);
        prev_kind = kind;
        prev_fn = fn;
        /* one entry per run of lines of the same kind in the same function */
        if (!line_unrun(res, n, i, kind, at) || same)
            continue;
        if (named == max) {
            more++;
            continue;
        }
        char one[600];
        name_line(one, sizeof one, &res[at], c, i);
        bool never = fn && !fn_entered(res, n, fn->name), plain = kind == RL_UNEXEC || kind == RL_DELETED || kind == RL_NOCODE;
        char entry[800];
        snprintf(entry, sizeof entry, "%s%s%s%s", one, never ? " (never entered)" : "", plain ? "" : " ",
                 plain ? "" : rk_line_kind_name(kind));
        /* a line replaced in place is a deletion and an addition at one
         * place: one entry */
        if (!strcmp(entry, last))
            continue;
        snprintf(last, sizeof last, "%s", entry);
        PUT("%s%s", named++ ? "; " : "; not executed: ", entry);
    }
    if (more)
        PUT("; and %d more (the report lists them)", more);
    return buf;
#undef PUT
}

/* ---- one configuration in the report ---- */

void review_change_md(FILE *f, const struct review_result *res, const struct rk_change *c)
{
    const struct review_measure *x = &res->change;
    if (x->none || (!x->measured && !x->why[0]))
        return;
    if (!x->measured) {
        fprintf(f, "\nThe change was **not measured** here: %s.\n", x->why);
        return;
    }
    const struct rk_change_cfg *m = &x->m;
    fprintf(f, "\nThe change here (the review's %" PRIu64 " states on the tree's coverage build, %.0f s): "
               "%d of %d changed lines with code executed",
            m->states, x->seconds, m->executed, m->code);
    for (int k = RL_NOCODE; k < RL_KINDS; k++)
        if (m->by_kind[k])
            fprintf(f, ", %d %s", m->by_kind[k], rk_line_kind_name(k));
    fprintf(f, "%s%s.\n", m->other_files ? "; changed files that are not C, not measured: " : "",
            m->other_files ? "listed below" : "");
    if (m->nfns) {
        fprintf(f, "\n| function | file | changed lines with code | executed | entered on states | on a path irqsim runs |\n"
                   "|---|---|---|---|---|---|\n");
        for (int i = 0; i < m->nfns; i++) {
            const struct rk_change_fn *fn = &m->fns[i];
            fprintf(f, "| `%s` | %s:%d | %d%s | %d | %" PRIu64 " | %s |\n", fn->name, c->files[fn->file].path,
                    fn->start, fn->code, fn->deletions ? " (and deletions)" : "", fn->executed, fn->states,
                    fn->on_path ? "yes" : "**no**");
        }
    }
    int listed = 0;
    for (int i = 0; i < m->nlines; i++) {
        const struct rk_change_line *l = &m->lines[i];
        if (l->kind == RL_EXEC || l->kind == RL_COMMENT)
            continue;
        if (!listed++)
            fprintf(f, "\nChanged lines not executed here:\n\n");
        fprintf(f, "- %s:%d %s%s%s%s\n", c->files[l->file].path, l->line, rk_line_kind_name(l->kind),
                l->fn >= 0 ? " in `" : "", l->fn >= 0 ? m->fns[l->fn].name : "", l->fn >= 0 ? "()`" : "");
    }
    for (int i = 0, k = 0; i < c->nfiles; i++)
        if (!c->files[i].c_source)
            fprintf(f, "%s%s", k++ ? ", " : "\nChanged files that are not C (not measured): ", c->files[i].path);
    fprintf(f, "\n");
}

void review_change_json(struct out *o, const struct review_result *res, const struct rk_change *c)
{
    FILE *f = o->f;
    const struct review_measure *x = &res->change;
    fprintf(f, "{\"measured\": %s, \"none\": %s, \"why\": ", x->measured ? "true" : "false", x->none ? "true" : "false");
    out_string(o, x->why);
    fprintf(f, ", \"coverage_build\": ");
    out_string(o, x->cov);
    if (!x->measured) {
        fprintf(f, "}");
        return;
    }
    const struct rk_change_cfg *m = &x->m;
    fprintf(f, ", \"seconds\": %.1f, \"states\": %" PRIu64 ", \"code\": %d, \"executed\": %d, \"deleted\": %d, "
               "\"deleted_run\": %d, \"other_files\": %d, \"removed_files\": %d,\n    \"functions\": [",
            x->seconds, m->states, m->code, m->executed, m->deleted, m->deleted_run, m->other_files, m->removed_files);
    for (int i = 0; i < m->nfns; i++) {
        const struct rk_change_fn *fn = &m->fns[i];
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        out_string(o, fn->name);
        fprintf(f, ", \"file\": ");
        out_string(o, c->files[fn->file].path);
        fprintf(f, ", \"line\": %d, \"calls\": %lld, \"states\": %" PRIu64 ", \"on_path\": %s, \"code\": %d, "
                   "\"executed\": %d, \"deletions\": %d}",
                fn->start, fn->calls, fn->states, fn->on_path ? "true" : "false", fn->code, fn->executed,
                fn->deletions);
    }
    fprintf(f, "],\n    \"lines\": [");
    for (int i = 0; i < m->nlines; i++) {
        const struct rk_change_line *l = &m->lines[i];
        fprintf(f, "%s{\"file\": ", i ? ", " : "");
        out_string(o, c->files[l->file].path);
        fprintf(f, ", \"line\": %d, \"kind\": \"%s\", \"count\": %lld, \"function\": ", l->line,
                rk_line_kind_name(l->kind), l->count);
        if (l->fn >= 0)
            out_string(o, m->fns[l->fn].name);
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "]}");
}
