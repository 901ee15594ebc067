/*
 * rk_cov: branch coverage of the real kernel, from gcov's JSON, gcc's
 * call graph and the argued file (rk_cov.h). A small JSON reader for
 * gcov's document is here too: irqsim has no other JSON input.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L
#include "rk_cov.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON: a tree of values, enough for gcov's document ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jv {
    int t;
    double num;
    char *str;
    int n;
    struct jv *kids;
    char **keys;
};
struct jp {
    const char *s;
    bool bad;
};

static void jv_free(struct jv *v)
{
    for (int i = 0; i < v->n; i++) {
        jv_free(&v->kids[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->kids);
    free(v->keys);
    free(v->str);
}

static void jp_ws(struct jp *p)
{
    while (*p->s && isspace((unsigned char)*p->s))
        p->s++;
}

static char *jp_string(struct jp *p)
{
    if (*p->s != '"') {
        p->bad = true;
        return NULL;
    }
    p->s++;
    size_t cap = 32, n = 0;
    char *o = malloc(cap);
    while (o && *p->s && *p->s != '"') {
        char c = *p->s++;
        if (c == '\\') {
            c = *p->s++;
            if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
            else if (c == 'u') { /* not in gcov's paths and names: kept as '?' */
                for (int i = 0; i < 4 && *p->s; i++)
                    p->s++;
                c = '?';
            } else if (!c) {
                break;
            }
        }
        if (n + 2 > cap) {
            char *g = realloc(o, cap *= 2);
            if (!g) {
                free(o);
                o = NULL;
                break;
            }
            o = g;
        }
        o[n++] = c;
    }
    if (!o || *p->s != '"') {
        free(o);
        p->bad = true;
        return NULL;
    }
    p->s++;
    o[n] = 0;
    return o;
}

static void jp_value(struct jp *p, struct jv *v, int depth);

static void jp_add(struct jp *p, struct jv *v, char *key, int depth)
{
    struct jv *k = realloc(v->kids, (size_t)(v->n + 1) * sizeof *k);
    if (!k) {
        free(key);
        p->bad = true;
        return;
    }
    v->kids = k;
    if (v->t == J_OBJ) {
        char **ks = realloc(v->keys, (size_t)(v->n + 1) * sizeof *ks);
        if (!ks) {
            free(key);
            p->bad = true;
            return;
        }
        v->keys = ks;
        v->keys[v->n] = key;
    }
    memset(&v->kids[v->n], 0, sizeof v->kids[v->n]);
    jp_value(p, &v->kids[v->n++], depth + 1);
}

static void jp_compound(struct jp *p, struct jv *v, int depth)
{
    char close = *p->s == '{' ? '}' : ']';
    v->t = close == '}' ? J_OBJ : J_ARR;
    p->s++;
    jp_ws(p);
    if (*p->s == close) {
        p->s++;
        return;
    }
    while (!p->bad) {
        jp_ws(p);
        char *key = NULL;
        if (v->t == J_OBJ) {
            key = jp_string(p);
            jp_ws(p);
            if (!key || *p->s != ':') {
                free(key);
                p->bad = true;
                return;
            }
            p->s++;
        }
        jp_add(p, v, key, depth);
        jp_ws(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == close) {
            p->s++;
            return;
        }
        p->bad = true;
    }
}

static void jp_value(struct jp *p, struct jv *v, int depth)
{
    jp_ws(p);
    if (depth > 64) {
        p->bad = true;
        return;
    }
    if (*p->s == '{' || *p->s == '[') {
        jp_compound(p, v, depth);
    } else if (*p->s == '"') {
        v->t = J_STR;
        v->str = jp_string(p);
    } else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
        v->t = J_BOOL;
        v->num = *p->s == 't';
        p->s += *p->s == 't' ? 4 : 5;
    } else if (!strncmp(p->s, "null", 4)) {
        p->s += 4;
    } else {
        char *e;
        v->t = J_NUM;
        v->num = strtod(p->s, &e);
        if (e == p->s)
            p->bad = true;
        p->s = e;
    }
}

static const struct jv *jv_get(const struct jv *o, const char *key, int t)
{
    if (!o || o->t != J_OBJ)
        return NULL;
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], key))
            return o->kids[i].t == t ? &o->kids[i] : NULL;
    return NULL;
}

/* ---- gcov's document ---- */

int rk_cov_say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

static bool in_tree(const char *root, const char *path)
{
    return !strncmp(path, root, strlen(root));
}

static int add_file(struct cov_data *d, const char *path)
{
    for (int i = 0; i < d->nfiles; i++)
        if (!strcmp(d->files[i], path))
            return i;
    char **f = realloc(d->files, (size_t)(d->nfiles + 1) * sizeof *f);
    if (!f)
        return -1;
    d->files = f;
    d->files[d->nfiles] = strdup(path);
    return d->files[d->nfiles] ? d->nfiles++ : -1;
}

/* A line with code and its count (several entries of one line, one per
 * function gcov lists it under, are added up). */
static int add_count(struct cov_data *d, int fi, int line, const struct jv *count)
{
    long long n = count ? (long long)count->num : 0;
    if (d->ncounts && d->counts[d->ncounts - 1].file == fi && d->counts[d->ncounts - 1].line == line) {
        d->counts[d->ncounts - 1].count += n;
        return 0;
    }
    /* doubled at each power of two: tens of thousands of lines */
    if (d->ncounts == 0 || (d->ncounts >= 64 && (d->ncounts & (d->ncounts - 1)) == 0)) {
        struct cov_count *g = realloc(d->counts, (size_t)(d->ncounts ? 2 * d->ncounts : 64) * sizeof *g);
        if (!g)
            return -1;
        d->counts = g;
    }
    d->counts[d->ncounts++] = (struct cov_count){fi, line, n};
    return 0;
}

static int read_file_entry(struct cov_data *d, const struct jv *fe, char *why, size_t len)
{
    const struct jv *name = jv_get(fe, "file", J_STR), *fns = jv_get(fe, "functions", J_ARR),
                    *lines = jv_get(fe, "lines", J_ARR);
    if (!name || !fns || !lines)
        return rk_cov_say(why, len, "gcov's JSON: a file without file, functions or lines");
    /* a file of the tree where the build compiled it: the same file of
     * the tree as given now */
    char path[4096];
    size_t cl = d->compiled ? strlen(d->compiled) : 0;
    if (cl && !strncmp(name->str, d->compiled, cl))
        snprintf(path, sizeof path, "%s%s", d->root, name->str + cl);
    else
        snprintf(path, sizeof path, "%s", name->str);
    int fi = add_file(d, path);
    if (fi < 0)
        return rk_cov_say(why, len, "out of memory");
    for (int i = 0; i < fns->n; i++) {
        const struct jv *fn = &fns->kids[i], *nm = jv_get(fn, "name", J_STR), *s = jv_get(fn, "start_line", J_NUM),
                        *e = jv_get(fn, "end_line", J_NUM), *c = jv_get(fn, "execution_count", J_NUM);
        if (!nm || !s || !e || !c)
            return rk_cov_say(why, len, "gcov's JSON: a function of %s without name, lines or count", path);
        struct cov_fn *g = realloc(d->fns, (size_t)(d->nfns + 1) * sizeof *g);
        if (!g)
            return rk_cov_say(why, len, "out of memory");
        d->fns = g;
        d->fns[d->nfns++] = (struct cov_fn){.name = strdup(nm->str), .file = fi, .start = (int)s->num,
                                            .end = (int)e->num, .calls = (long long)c->num,
                                            .kernel = in_tree(d->root, path) && !strstr(path, "/kbuild/")};
    }
    for (int i = 0; i < lines->n; i++) {
        const struct jv *ln = &lines->kids[i], *no = jv_get(ln, "line_number", J_NUM),
                        *br = jv_get(ln, "branches", J_ARR);
        if (!no || !br)
            return rk_cov_say(why, len, "gcov's JSON: a line of %s without line_number or branches", path);
        if (add_count(d, fi, (int)no->num, jv_get(ln, "count", J_NUM)))
            return rk_cov_say(why, len, "out of memory");
        if (!br->n)
            continue;
        struct cov_line *g = realloc(d->lines, (size_t)(d->nlines + 1) * sizeof *g);
        if (!g)
            return rk_cov_say(why, len, "out of memory");
        d->lines = g;
        struct cov_line *l = &d->lines[d->nlines++];
        *l = (struct cov_line){.file = fi, .line = (int)no->num, .narcs = br->n, .arcs = calloc((size_t)br->n, 8)};
        if (!l->arcs)
            return rk_cov_say(why, len, "out of memory");
        for (int a = 0; a < br->n; a++) {
            const struct jv *c = jv_get(&br->kids[a], "count", J_NUM);
            l->arcs[a] = c ? (long long)c->num : 0;
        }
    }
    return 0;
}

/* dir with a trailing / (malloc'd), NULL for NULL or "" */
static char *with_slash(const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    char *s = n ? malloc(n + 2) : NULL;
    if (s)
        snprintf(s, n + 2, "%s%s", dir, dir[n - 1] == '/' ? "" : "/");
    return s;
}

int rk_cov_read_gcov(struct cov_data *d, const char *json, const char *root, const char *compiled, char *why,
                     size_t len)
{
    d->root = with_slash(root[0] ? root : "/");
    d->compiled = with_slash(compiled);
    if (!d->root || (compiled && compiled[0] && !d->compiled))
        return rk_cov_say(why, len, "out of memory");
    struct jp p = {json, false};
    struct jv doc = {0};
    jp_value(&p, &doc, 0);
    jp_ws(&p);
    int rc = 0;
    const struct jv *files = jv_get(&doc, "files", J_ARR);
    if (p.bad || *p.s || !files)
        rc = rk_cov_say(why, len, "gcov's output is not its JSON document (near byte %ld)", (long)(p.s - json));
    for (int i = 0; !rc && i < files->n; i++)
        rc = read_file_entry(d, &files->kids[i], why, len);
    jv_free(&doc);
    return rc;
}

int rk_cov_find(const struct cov_data *d, const char *name)
{
    for (int i = 0; i < d->nfns; i++)
        if (!strcmp(d->fns[i].name, name))
            return i;
    return -1;
}

/* ---- the call graph (gcc -fcallgraph-info: VCG) ---- */

/* The function a node title names: "UNIT.c:NAME", or NAME for one the
 * unit only declares */
static int graph_fn(const struct cov_data *d, const char *title)
{
    const char *c = strrchr(title, ':');
    char name[512];
    snprintf(name, sizeof name, "%s", c ? c + 1 : title);
    /* gcc's clones (NAME.constprop.0, NAME.isra.0, NAME.part.0) are the
     * function gcov counts as NAME: a C name has no dot */
    name[strcspn(name, ".")] = 0;
    return rk_cov_find(d, name);
}

/* the quoted value after key in line, into out */
static bool vcg_field(const char *line, const char *key, char *out, size_t n)
{
    const char *k = strstr(line, key);
    if (!k)
        return false;
    k += strlen(key);
    const char *e = strchr(k, '"');
    if (!e || (size_t)(e - k) >= n)
        return false;
    memcpy(out, k, (size_t)(e - k));
    out[e - k] = 0;
    return true;
}

static int add_callee(struct cov_fn *f, int to)
{
    for (int i = 0; i < f->ncallees; i++)
        if (f->callees[i] == to)
            return 0;
    int *g = realloc(f->callees, (size_t)(f->ncallees + 1) * sizeof *g);
    if (!g)
        return -1;
    f->callees = g;
    f->callees[f->ncallees++] = to;
    return 0;
}

static void mark(struct cov_data *d, int f)
{
    if (f < 0 || !d->fns[f].kernel || d->fns[f].on_path)
        return;
    d->fns[f].on_path = true;
    for (int i = 0; i < d->fns[f].ncallees; i++)
        mark(d, d->fns[f].callees[i]);
}

int rk_cov_read_graph(struct cov_data *d, FILE *ci, const char *const *roots, int nroots, char *why, size_t len)
{
    char line[4096], from[1024], to[1024];
    int edges = 0;
    while (fgets(line, sizeof line, ci)) {
        if (strncmp(line, "edge:", 5))
            continue;
        if (!vcg_field(line, "sourcename: \"", from, sizeof from) || !vcg_field(line, "targetname: \"", to, sizeof to))
            return rk_cov_say(why, len, "the call graph (host_all.ci): an edge without its two ends");
        int a = graph_fn(d, from), b = graph_fn(d, to);
        edges++;
        if (a >= 0 && b >= 0 && add_callee(&d->fns[a], b))
            return rk_cov_say(why, len, "out of memory");
    }
    if (!edges)
        return rk_cov_say(why, len, "the call graph (host_all.ci) has no edges: not a coverage build's?");
    for (int i = 0; i < nroots; i++)
        mark(d, rk_cov_find(d, roots[i]));
    return 0;
}

/* ---- kernel lines: identified by a hash, never by their text ---- */

void rk_cov_mark_entered(struct cov_data *d)
{
    for (int i = 0; i < d->nfns; i++)
        if (d->fns[i].calls > 0) {
            d->fns[i].on_path = false; /* mark() stops at a marked function: walk its callees again */
            mark(d, i);
        }
}

uint32_t rk_cov_line_hash(const char *line)
{
    uint32_t h = 2166136261u;
    for (; *line; line++)
        if (!isspace((unsigned char)*line))
            h = (h ^ (unsigned char)*line) * 16777619u;
    return h;
}

uint32_t rk_cov_tree_hash(const struct cov_data *d, const char *file, int n)
{
    char path[4096], line[4096];
    snprintf(path, sizeof path, "%s%s", d->root, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    uint32_t h = 0;
    for (int i = 1; fgets(line, sizeof line, f); i += strchr(line, '\n') != NULL)
        if (i == n) {
            h = rk_cov_line_hash(line);
            break;
        }
    fclose(f);
    return h;
}

/* ---- the argued file ---- */

/* a kernel line named in the argument: a word "X.c:N" or "X.h:N" */
static bool cites_line(const char *s)
{
    for (const char *p = s; (p = strstr(p, ":")); p++)
        if (p - s >= 2 && (p[-1] == 'c' || p[-1] == 'h' || p[-1] == 'S') && p[-2] == '.' && isdigit((unsigned char)p[1]))
            return true;
    return false;
}

static int argued_line(struct cov_data *d, char *ln, const char *path, int no, char *why, size_t len)
{
    char *colon = strstr(ln, " : ");
    if (!colon)
        return rk_cov_say(why, len, "%s:%d: expected FUNCTION FILE:LINE HASH ARC [when COND] : ARGUMENT", path, no);
    *colon = 0;
    char *arg = colon + 3;
    while (isspace((unsigned char)*arg))
        arg++;
    arg[strcspn(arg, "\n")] = 0;
    char fn[128], where[512], cond[64] = "", when[16] = "";
    unsigned hash;
    int arc, n = sscanf(ln, "%127s %511s %x %d %15s %63s", fn, where, &hash, &arc, when, cond);
    if (n != 4 && !(n == 6 && !strcmp(when, "when")))
        return rk_cov_say(why, len, "%s:%d: expected FUNCTION FILE:LINE HASH ARC [when COND] : ARGUMENT", path, no);
    char *c = strrchr(where, ':');
    int line = c ? atoi(c + 1) : 0;
    if (!c || line <= 0 || arc < 0)
        return rk_cov_say(why, len, "%s:%d: '%s': expected FILE:LINE with LINE > 0, and an arc >= 0", path, no, where);
    *c = 0;
    if (!*arg || !cites_line(arg))
        return rk_cov_say(why, len, "%s:%d: the argument names no kernel line (FILE.c:N or FILE.h:N): an unreachable branch "
                   "needs the line that makes it so", path, no);
    if (*cond && !strchr(cond, '='))
        return rk_cov_say(why, len,
                          "%s:%d: when %s: expected domains=N, cores=N, mode=debug|release, gic=2|3, hyp=0|1 or "
                          "feature=NAME (kernel.info model_features)",
                          path, no, cond);
    struct cov_argued *g = realloc(d->argued, (size_t)(d->nargued + 1) * sizeof *g);
    if (!g)
        return rk_cov_say(why, len, "out of memory");
    d->argued = g;
    struct cov_argued *a = &d->argued[d->nargued++];
    *a = (struct cov_argued){.fn = strdup(fn), .file = strdup(where), .why = strdup(arg), .line = line, .arc = arc,
                             .src_line = no, .hash = hash};
    snprintf(a->when, sizeof a->when, "%s", cond);
    return a->fn && a->file && a->why ? 0 : rk_cov_say(why, len, "out of memory");
}

int rk_cov_read_argued(struct cov_data *d, FILE *f, const char *path, char *why, size_t len)
{
    char ln[4096];
    for (int no = 1; fgets(ln, sizeof ln, f); no++) {
        if (!strchr(ln, '\n') && !feof(f))
            return rk_cov_say(why, len, "%s:%d: line longer than %zu bytes", path, no, sizeof ln - 1);
        char *s = ln;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        if (argued_line(d, s, path, no, why, len))
            return -1;
    }
    return 0;
}

static int line_of(const struct cov_data *d, int file, int line)
{
    for (int i = 0; i < d->nlines; i++)
        if (d->lines[i].file == file && d->lines[i].line == line)
            return i;
    return -1;
}

/* the line of fn whose hash is h: the pinned one, else the only one in
 * the function's range; 0 when none or several */
static int match_line(const struct cov_data *d, const struct cov_fn *f, const struct cov_argued *a)
{
    if (rk_cov_tree_hash(d, a->file, a->line) == a->hash)
        return a->line;
    int found = 0;
    for (int n = f->start; n <= f->end; n++)
        if (rk_cov_tree_hash(d, a->file, n) == a->hash) {
            if (found)
                return 0;
            found = n;
        }
    return found;
}

/* every KEY=VALUE of when (comma-separated) is a word of cfg */
static bool when_holds(const char *when, const char *cfg)
{
    char pad[1600], tok[80];
    snprintf(pad, sizeof pad, " %s ", cfg);
    for (const char *w = when; *w;) {
        size_t n = strcspn(w, ",");
        snprintf(tok, sizeof tok, " %.*s ", (int)n, w);
        if (!strstr(pad, tok))
            return false;
        w += n + (w[n] == ',');
    }
    return true;
}

void rk_cov_apply(struct cov_data *d, const char *cfg)
{
    for (int i = 0; i < d->nargued; i++) {
        struct cov_argued *a = &d->argued[i];
        a->at_line = 0;
        a->stale = false;
        a->applies = when_holds(a->when, cfg);
        int f = rk_cov_find(d, a->fn);
        if (f < 0 || strcmp(d->files[d->fns[f].file] + strlen(d->root), a->file) ||
            strncmp(d->files[d->fns[f].file], d->root, strlen(d->root)))
            continue;
        int n = match_line(d, &d->fns[f], a);
        int l = n ? line_of(d, d->fns[f].file, n) : -1;
        if (l < 0 || a->arc >= d->lines[l].narcs)
            continue;
        a->at_line = n;
        a->stale = a->applies && d->lines[l].arcs[a->arc] > 0;
    }
}

static bool argued(const struct cov_data *d, const struct cov_fn *f, int line, int arc)
{
    for (int i = 0; i < d->nargued; i++) {
        const struct cov_argued *a = &d->argued[i];
        if (a->applies && a->at_line == line && a->arc == arc && !strcmp(a->fn, f->name))
            return true;
    }
    return false;
}

struct cov_fn_sum rk_cov_sum(const struct cov_data *d, int fn, FILE *out)
{
    struct cov_fn_sum s = {0};
    const struct cov_fn *f = &d->fns[fn];
    const char *rel = d->files[f->file] + (in_tree(d->root, d->files[f->file]) ? strlen(d->root) : 0);
    for (int i = 0; i < d->nlines; i++) {
        const struct cov_line *l = &d->lines[i];
        if (l->file != f->file || l->line < f->start || l->line > f->end)
            continue;
        for (int a = 0; a < l->narcs; a++) {
            s.branches++;
            if (l->arcs[a] > 0)
                s.reached++;
            else if (argued(d, f, l->line, a))
                s.argued++;
            else {
                s.unreached++;
                if (out)
                    fprintf(out, "  unreached: %s %s:%d %08x %d  (arc %d of %d on the line)\n", f->name, rel, l->line,
                            rk_cov_tree_hash(d, rel, l->line), a, a, l->narcs);
            }
        }
    }
    return s;
}

void rk_cov_free(struct cov_data *d)
{
    for (int i = 0; i < d->nfiles; i++)
        free(d->files[i]);
    for (int i = 0; i < d->nlines; i++)
        free(d->lines[i].arcs);
    for (int i = 0; i < d->nfns; i++) {
        free(d->fns[i].name);
        free(d->fns[i].callees);
    }
    for (int i = 0; i < d->nargued; i++) {
        free(d->argued[i].fn);
        free(d->argued[i].file);
        free(d->argued[i].why);
    }
    free(d->files);
    free(d->lines);
    free(d->counts);
    free(d->fns);
    free(d->argued);
    free(d->root);
    free(d->compiled);
    memset(d, 0, sizeof *d);
}
