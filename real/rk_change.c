/*
 * rk_change: the change of a tree against a baseline and what a run
 * executed of it (rk_change.h).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L
#include "rk_change.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *with_slash(const char *dir)
{
    size_t n = strlen(dir);
    char *s = malloc(n + 2);
    if (s)
        snprintf(s, n + 2, "%s%s", dir, n && dir[n - 1] == '/' ? "" : "/");
    return s;
}

static bool is_c_source(const char *path)
{
    size_t n = strlen(path);
    return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

/* ---- reading the diff ---- */

static struct rk_change_file *add_file(struct rk_change *c, const char *path)
{
    struct rk_change_file *f = realloc(c->files, (size_t)(c->nfiles + 1) * sizeof *f);
    if (!f)
        return NULL;
    c->files = f;
    f = &c->files[c->nfiles];
    *f = (struct rk_change_file){.path = strdup(path), .c_source = is_c_source(path)};
    if (!f->path)
        return NULL;
    c->nfiles++;
    return f;
}

/* "-a[,b]" or "+c[,d]": the start and the count (1 when omitted) */
static const char *range(const char *s, char sign, int *start, int *count)
{
    if (*s != sign)
        return NULL;
    char *end;
    long a = strtol(s + 1, &end, 10), b = 1;
    if (end == s + 1 || a < 0 || a > 1 << 30)
        return NULL;
    if (*end == ',') {
        const char *p = end + 1;
        b = strtol(p, &end, 10);
        if (end == p || b < 0 || b > 1 << 30)
            return NULL;
    }
    *start = (int)a;
    *count = (int)b;
    return end;
}

static int add_hunk(struct rk_change_file *f, const char *line)
{
    struct rk_hunk h;
    const char *p = range(line + 3, '-', &h.old_start, &h.old_count);
    p = p && *p == ' ' ? range(p + 1, '+', &h.new_start, &h.new_count) : NULL;
    if (!p)
        return 1;
    struct rk_hunk *g = realloc(f->hunks, (size_t)(f->nhunks + 1) * sizeof *g);
    if (!g)
        return -1;
    f->hunks = g;
    f->hunks[f->nhunks++] = h;
    return 0;
}

/* "+++ PATH\tTIME": the file, relative to root */
static struct rk_change_file *file_header(struct rk_change *c, char *line)
{
    char *path = line + 4;
    path[strcspn(path, "\t\n")] = 0;
    size_t rl = strlen(c->tree);
    if (!strncmp(path, c->tree, rl))
        path += rl;
    struct rk_change_file *f = add_file(c, path);
    if (!f)
        return NULL;
    char full[4096];
    snprintf(full, sizeof full, "%s%s", c->base, f->path);
    f->added = access(full, F_OK) != 0;
    snprintf(full, sizeof full, "%s%s", c->tree, f->path);
    f->removed = access(full, F_OK) != 0;
    return f;
}

int rk_change_read(struct rk_change *c, FILE *diff, const char *tree, const char *base, char *why, size_t len)
{
    memset(c, 0, sizeof *c);
    c->tree = with_slash(tree);
    c->base = with_slash(base);
    if (!c->tree || !c->base)
        return rk_cov_say(why, len, "out of memory");
    char *line = NULL;
    size_t cap = 0;
    struct rk_change_file *f = NULL;
    int rc = 0, no = 0;
    while (!rc && getline(&line, &cap, diff) > 0) {
        no++;
        if (!strncmp(line, "+++ ", 4)) {
            f = file_header(c, line);
            rc = f ? 0 : rk_cov_say(why, len, "out of memory");
        } else if (!strncmp(line, "@@ ", 3)) {
            int r = f ? add_hunk(f, line) : 1;
            rc = r < 0 ? rk_cov_say(why, len, "out of memory")
                 : r  ? rk_cov_say(why, len, "diff's output, line %d: a hunk header irqsim cannot read", no)
                      : 0;
        } else if (!strncmp(line, "Binary files ", 13) && strstr(line, " differ")) {
            /* a binary file: listed as a changed file that is not C */
            char *p = line + 13, *and = strstr(p, " and ");
            if (and) {
                p = and + 5;
                p[strcspn(p, "\n")] = 0;
                char *d = strstr(p, " differ");
                if (d)
                    *d = 0;
                rc = file_header(c, p - 4) ? 0 : rk_cov_say(why, len, "out of memory");
                f = NULL;
            }
        }
    }
    free(line);
    return rc;
}

int rk_change_diff(struct rk_change *c, const char *tree, const char *base, char *why, size_t len)
{
    if (strchr(tree, '\'') || strchr(base, '\''))
        return rk_cov_say(why, len, "a tree path with a ' in it is not supported");
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "LC_ALL=C diff -rN -U0 -x .git '%s' '%s'", base, tree);
    if (n < 0 || (size_t)n >= sizeof cmd)
        return rk_cov_say(why, len, "the trees' paths are too long");
    FILE *p = popen(cmd, "r");
    if (!p)
        return rk_cov_say(why, len, "cannot run diff: %s", strerror(errno));
    int rc = rk_change_read(c, p, tree, base, why, len);
    int st = pclose(p);
    /* diff: 0 the same, 1 different, 2 trouble */
    if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st) > 1))
        rc = rk_cov_say(why, len, "diff -rN of %s and %s failed (exit %d)", base, tree, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return rc;
}

bool rk_change_has_c(const struct rk_change *c)
{
    for (int i = 0; i < c->nfiles; i++)
        if (c->files[i].c_source)
            return true;
    return false;
}

void rk_change_free(struct rk_change *c)
{
    for (int i = 0; i < c->nfiles; i++) {
        free(c->files[i].path);
        free(c->files[i].hunks);
    }
    free(c->files);
    free(c->tree);
    free(c->base);
    memset(c, 0, sizeof *c);
}

/* ---- a file's lines as the preprocessor and the compiler see them ---- */

enum { LX_CODE = 1, LX_DIRECTIVE = 2, LX_OPENER = 4 }; /* OPENER: #if, #ifdef, #ifndef, #elif, #else */

/* The flags of each line (index 1..n) of path; NULL when unreadable. */
static unsigned char *lex_file(const char *path, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    unsigned char *fl = NULL;
    int cap = 0;
    *n = 0;
    bool comment = false, cont = false;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t got;
    while ((got = getline(&line, &lcap, f)) >= 0) {
        if (*n + 2 > cap) {
            unsigned char *g = realloc(fl, (size_t)(cap = cap ? 2 * cap : 1024));
            if (!g)
                break;
            fl = g;
        }
        bool code = false, directive = cont;
        char first = 0;
        for (ssize_t i = 0; i < got; i++) {
            char ch = line[i];
            if (comment) {
                if (ch == '*' && line[i + 1] == '/')
                    comment = false, i++;
                continue;
            }
            if (ch == '/' && line[i + 1] == '*') {
                comment = true, i++;
                continue;
            }
            if (ch == '/' && line[i + 1] == '/')
                break;
            if (isspace((unsigned char)ch))
                continue;
            if (!first)
                first = ch;
            code = true;
            if (ch == '"' || ch == '\'') /* a literal: a comment marker in it is not one */
                for (i++; i < got && line[i] != ch; i++)
                    i += line[i] == '\\';
        }
        if (!cont && first == '#')
            directive = true;
        unsigned char v = (unsigned char)((code ? LX_CODE : 0) | (directive ? LX_DIRECTIVE : 0));
        if (!cont && first == '#') {
            const char *k = strchr(line, '#') + 1;
            k += strspn(k, " \t");
            if (!strncmp(k, "if", 2) || !strncmp(k, "elif", 4) || !strncmp(k, "else", 4))
                v |= LX_OPENER;
        }
        fl[++*n] = v;
        size_t e = (size_t)got;
        while (e && isspace((unsigned char)line[e - 1]))
            e--;
        cont = directive && e && line[e - 1] == '\\';
    }
    free(line);
    fclose(f);
    if (!fl)
        fl = calloc(2, 1);
    return fl;
}

/* A copy of s at the end of the list; 0, or -1 out of memory */
static int push_name(char ***list, int *n, const char *s)
{
    char **g = realloc(*list, (size_t)(*n + 1) * sizeof *g);
    if (!g)
        return -1;
    *list = g;
    if (!(g[*n] = strdup(s)))
        return -1;
    (*n)++;
    return 0;
}

int rk_compiled_read(struct rk_compiled *p, const char *build, const char *root, char *why, size_t len)
{
    memset(p, 0, sizeof *p);
    char path[4096];
    snprintf(path, sizeof path, "%s/compiled-lines.txt", build);
    FILE *f = fopen(path, "r");
    if (!f)
        return rk_cov_say(why, len, "%s: %s (a coverage build made before issue 30 item 2? rebuild it)", path,
                   strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, no = 0;
    while (!rc && getline(&line, &cap, f) > 0) {
        no++;
        char *tab = strchr(line, '\t');
        int a, b;
        if (!tab || sscanf(tab + 1, "%d-%d", &a, &b) != 2 || a < 1 || b < a) {
            rc = rk_cov_say(why, len, "%s:%d: not FILE<TAB>FIRST-LAST", path, no);
            break;
        }
        *tab = 0;
        int fi = p->nnames - 1;
        if (fi < 0 || strcmp(p->names[fi], line)) {
            for (fi = 0; fi < p->nnames && strcmp(p->names[fi], line); fi++)
                ;
            if (fi == p->nnames && push_name(&p->names, &p->nnames, line)) {
                rc = rk_cov_say(why, len, "out of memory");
                break;
            }
        }
        struct rk_crange *r = realloc(p->r, (size_t)(p->n + 1) * sizeof *r);
        if (!r) {
            rc = rk_cov_say(why, len, "out of memory");
            break;
        }
        p->r = r;
        p->r[p->n++] = (struct rk_crange){fi, a, b};
    }
    fclose(f);
    /* the files build-kernel.sh replaced: "/" "* excluded PATH: ..." */
    snprintf(path, sizeof path, "%s/host_all.c", build);
    f = rc ? NULL : fopen(path, "r");
    size_t rl = strlen(root);
    while (f && getline(&line, &cap, f) > 0) {
        char *x = strstr(line, "excluded ");
        if (!x || strncmp(line, "/* excluded ", 12))
            continue;
        x += 9;
        x[strcspn(x, ":")] = 0;
        if (!strncmp(x, root, rl))
            x += rl;
        x += *x == '/';
        if (push_name(&p->excluded, &p->nexcluded, x)) {
            rc = rk_cov_say(why, len, "out of memory");
            break;
        }
    }
    if (f)
        fclose(f);
    free(line);
    return rc;
}

void rk_compiled_free(struct rk_compiled *p)
{
    for (int i = 0; i < p->nnames; i++)
        free(p->names[i]);
    for (int i = 0; i < p->nexcluded; i++)
        free(p->excluded[i]);
    free(p->names);
    free(p->excluded);
    free(p->r);
    memset(p, 0, sizeof *p);
}

static int compiled_file(const struct rk_compiled *p, const char *path)
{
    for (int i = 0; i < p->nnames; i++)
        if (!strcmp(p->names[i], path))
            return i;
    return -1;
}

static bool compiled_line(const struct rk_compiled *p, int fi, int line)
{
    for (int i = 0; i < p->n; i++)
        if (p->r[i].file == fi && p->r[i].first <= line && line <= p->r[i].last)
            return true;
    return false;
}

static bool excluded_file(const struct rk_compiled *p, const char *path)
{
    for (int i = 0; i < p->nexcluded; i++)
        if (!strcmp(p->excluded[i], path))
            return true;
    return false;
}

uint64_t rk_fn_states_of(const struct rk_fn_states *s, const char *name)
{
    for (int i = 0; s && i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return s->states[i];
    return 0;
}

/* ---- one configuration ---- */

/* What measure() works on for one file. */
struct mfile {
    int index;               /* in the change */
    const char *path;
    int cfile;               /* in the compiled ranges, -1 none */
    int gfile;               /* in gcov's files, -1 none */
    unsigned char *lex;      /* the tree's lines */
    int nlex;
};

/* gcov's count of (gfile, line): -1 no code there */
static long long gcov_count(const struct cov_data *d, int gfile, int line)
{
    for (int i = 0; gfile >= 0 && i < d->ncounts; i++)
        if (d->counts[i].file == gfile && d->counts[i].line == line)
            return d->counts[i].count;
    return -1;
}

/* A compiled line's kind from gcov */
static int code_kind(const struct cov_data *d, const struct mfile *f, int line, long long *count)
{
    long long n = gcov_count(d, f->gfile, line);
    *count = n > 0 ? n : 0;
    return n < 0 ? RL_NOCODE : n > 0 ? RL_EXEC : RL_UNEXEC;
}

/* A line the preprocessor kept no token of, with tokens in the source:
 * the tail of a compiled line (a macro's arguments over several lines
 * come out on its first line) or inside a #if left out. Up the file:
 * a compiled line first is the former, a #if/#elif/#else the latter. */
static int dropped_kind(const struct cov_data *d, const struct rk_compiled *p, const struct mfile *f, int line,
                        long long *count)
{
    for (int l = line - 1; l >= 1; l--) {
        if (compiled_line(p, f->cfile, l))
            return code_kind(d, f, l, count);
        if (f->lex[l] & LX_OPENER)
            return RL_DISABLED;
    }
    return RL_DISABLED;
}

static int line_kind(const struct cov_data *d, const struct rk_compiled *p, const struct mfile *f, int line,
                     long long *count)
{
    *count = 0;
    unsigned char lx = line <= f->nlex ? f->lex[line] : 0;
    if (!(lx & LX_CODE))
        return RL_COMMENT;
    if (lx & LX_DIRECTIVE)
        return RL_DIRECTIVE;
    if (excluded_file(p, f->path))
        return RL_EXCLUDED;
    if (f->cfile < 0)
        return RL_NOTBUILT;
    if (compiled_line(p, f->cfile, line))
        return code_kind(d, f, line, count);
    return dropped_kind(d, p, f, line, count);
}

/* The kernel function of gcov whose definition holds the file's line */
static int gcov_fn(const struct cov_data *d, int gfile, int line)
{
    for (int i = 0; gfile >= 0 && i < d->nfns; i++)
        if (d->fns[i].file == gfile && d->fns[i].kernel && d->fns[i].start <= line && line <= d->fns[i].end)
            return i;
    return -1;
}

static int fn_of(struct rk_change_cfg *m, const struct cov_data *d, const struct rk_fn_states *s,
                 const struct mfile *f, int line)
{
    int g = gcov_fn(d, f->gfile, line);
    if (g < 0)
        return -1;
    for (int i = 0; i < m->nfns; i++)
        if (!strcmp(m->fns[i].name, d->fns[g].name))
            return i;
    struct rk_change_fn *x = realloc(m->fns, (size_t)(m->nfns + 1) * sizeof *x);
    if (!x)
        return -2;
    m->fns = x;
    const struct cov_fn *c = &d->fns[g];
    m->fns[m->nfns] = (struct rk_change_fn){.name = strdup(c->name), .file = f->index, .start = c->start,
                                            .end = c->end, .calls = c->calls,
                                            .states = rk_fn_states_of(s, c->name), .on_path = c->on_path};
    return m->fns[m->nfns].name ? m->nfns++ : -2;
}

static int add_line(struct rk_change_cfg *m, const struct rk_change_line *l)
{
    if ((m->nlines & (m->nlines - 1)) == 0 && (m->nlines == 0 || m->nlines >= 16)) {
        struct rk_change_line *g = realloc(m->lines, (size_t)(m->nlines ? 2 * m->nlines : 16) * sizeof *g);
        if (!g)
            return -1;
        m->lines = g;
    }
    m->lines[m->nlines++] = *l;
    m->by_kind[l->kind]++;
    return 0;
}

/* Whether lines first..first+n-1 of the baseline's file hold any token */
static bool deleted_code(const struct rk_change *c, const struct rk_change_file *cf, int first, int n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s", c->base, cf->path);
    int nl = 0;
    unsigned char *lx = lex_file(path, &nl);
    bool code = !lx; /* unreadable: assume code, never hide it */
    for (int l = first; lx && l < first + n && l <= nl; l++)
        code |= (lx[l] & LX_CODE) != 0;
    free(lx);
    return code;
}

static int measure_file(struct rk_change_cfg *m, const struct rk_change *c, const struct mfile *f,
                        const struct rk_compiled *p, const struct cov_data *d, const struct rk_fn_states *s)
{
    const struct rk_change_file *cf = &c->files[f->index];
    for (int h = 0; h < cf->nhunks; h++) {
        const struct rk_hunk *k = &cf->hunks[h];
        bool code = false;
        for (int l = k->new_start; l < k->new_start + k->new_count; l++) {
            struct rk_change_line x = {.file = f->index, .line = l};
            x.kind = line_kind(d, p, f, l, &x.count);
            /* code, or what would be where this configuration compiled it */
            code |= x.kind == RL_EXEC || x.kind == RL_UNEXEC || x.kind == RL_DISABLED || x.kind == RL_NOTBUILT ||
                    x.kind == RL_EXCLUDED;
            /* a comment changes no function */
            x.fn = x.kind == RL_COMMENT ? -1 : fn_of(m, d, s, f, l);
            if (x.fn < -1 || add_line(m, &x))
                return -1;
        }
        /* lines replaced by lines without code (`f(x);` made `(void)x;`)
         * took code away: a deletion, as when nothing replaced them */
        if (k->new_count && (code || !k->old_count))
            continue;
        /* a deletion: in the function around the lines on either side */
        struct rk_change_line x = {.file = f->index, .line = k->new_start, .kind = RL_DELETED};
        if (!deleted_code(c, cf, k->old_start, k->old_count)) {
            if (k->new_count)
                continue; /* comments replaced: the new lines said it */
            x.kind = RL_COMMENT;
        }
        x.fn = x.kind == RL_COMMENT ? -1 : fn_of(m, d, s, f, k->new_start + 1);
        if (x.fn == -1 && x.kind != RL_COMMENT)
            x.fn = fn_of(m, d, s, f, k->new_start);
        if (x.fn < -1 || add_line(m, &x))
            return -1;
    }
    return 0;
}

static void tally(struct rk_change_cfg *m)
{
    for (int i = 0; i < m->nlines; i++) {
        const struct rk_change_line *l = &m->lines[i];
        struct rk_change_fn *fn = l->fn >= 0 ? &m->fns[l->fn] : NULL;
        bool code = l->kind == RL_EXEC || l->kind == RL_UNEXEC;
        m->code += code;
        m->executed += l->kind == RL_EXEC;
        m->deleted += l->kind == RL_DELETED;
        m->deleted_run += l->kind == RL_DELETED && fn && fn->calls > 0;
        if (fn) {
            fn->code += code;
            fn->executed += l->kind == RL_EXEC;
            fn->deletions += l->kind == RL_DELETED;
        }
    }
}

int rk_change_measure(struct rk_change_cfg *m, const struct rk_change *c, const struct rk_compiled *p,
                      const struct cov_data *d, const struct rk_fn_states *s, uint64_t states, char *why, size_t len)
{
    memset(m, 0, sizeof *m);
    m->states = states;
    for (int i = 0; i < c->nfiles; i++) {
        const struct rk_change_file *cf = &c->files[i];
        if (!cf->c_source || cf->removed) {
            m->other_files += !cf->c_source;
            m->removed_files += cf->c_source;
            continue;
        }
        struct mfile f = {.index = i, .path = cf->path, .cfile = compiled_file(p, cf->path), .gfile = -1};
        /* gcov names files under the root they were compiled in (d->root:
         * a cached coverage build's may be another folder, same content) */
        char full[4096];
        size_t rl = d->root ? strlen(d->root) : 0;
        for (int g = 0; g < d->nfiles; g++)
            if (rl && !strncmp(d->files[g], d->root, rl) && !strcmp(d->files[g] + rl, cf->path))
                f.gfile = g;
        snprintf(full, sizeof full, "%s%s", c->tree, cf->path);
        f.lex = lex_file(full, &f.nlex);
        if (!f.lex)
            return rk_cov_say(why, len, "%s: %s", full, strerror(errno));
        int rc = measure_file(m, c, &f, p, d, s);
        free(f.lex);
        if (rc)
            return rk_cov_say(why, len, "out of memory");
    }
    tally(m);
    return 0;
}

void rk_change_cfg_free(struct rk_change_cfg *m)
{
    for (int i = 0; i < m->nfns; i++)
        free(m->fns[i].name);
    free(m->fns);
    free(m->lines);
    memset(m, 0, sizeof *m);
}

const char *rk_line_kind_name(int kind)
{
    static const char *const names[RL_KINDS] = {
        [RL_EXEC] = "executed",
        [RL_UNEXEC] = "not executed",
        [RL_NOCODE] = "no code of its own",
        [RL_COMMENT] = "comment",
        [RL_DIRECTIVE] = "preprocessor line",
        [RL_DISABLED] = "in a disabled #if",
        [RL_NOTBUILT] = "file not built here",
        [RL_EXCLUDED] = "file replaced by irqsim's glue",
        [RL_DELETED] = "deleted code",
    };
    return kind >= 0 && kind < RL_KINDS ? names[kind] : "?";
}
