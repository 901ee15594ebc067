/* report: `irqsim report`, a fuzz run as a Markdown review comment. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "defect.h"
#include "jval.h"
#include "out.h"
#include "target.h"

/* One report: the JSON, its file, and the target it names. */
struct report_ctx {
    const struct jval_doc *jd;
    const char *json_path;
    bool target_named; /* the JSON has "target" (an IRQ run's does not) */
    const struct target *t;
    const struct target_words *w; /* t's */
};

static const char report_usage[] =
    "usage: irqsim report [-o FILE] RUN.json\n"
    "  turns the JSON summary of `irqsim fuzz --json RUN.json` into a Markdown review\n"
    "  comment: each defect (F1-F9 of the IRQ target, S1-S9 of the signal target, as the\n"
    "  JSON's \"target\" says) with its state, what each path does, the consequence,\n"
    "  and its smallest reproducer inline (read from the file the run saved with --out;\n"
    "  a path is tried as written, then relative to the JSON file's directory)\n";

static char *read_all(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (buf) {
        buf[len] = 0;
        if (len_out)
            *len_out = len;
    }
    return buf;
}

/* The reproducer's text: the path as written, else beside the JSON file. */
static char *read_reproducer(const char *json_path, const char *path, char *used, size_t used_len)
{
    snprintf(used, used_len, "%s", path);
    char *text = read_all(path, NULL);
    const char *slash = strrchr(json_path, '/');
    if (text || !slash || path[0] == '/')
        return text;
    snprintf(used, used_len, "%.*s/%s", (int)(slash - json_path), json_path, path);
    return read_all(used, NULL);
}

/* Names the target an id does belong to, so a JSON edited or stitched
 * from two runs says what is wrong rather than just "unknown". */
static void report_bad_id(const struct report_ctx *c, const char *id)
{
    const struct target *e;
    for (int i = 0; (e = target_at(i)) != NULL; i++)
        if (e != c->t && defect_index(e, id) >= 0) {
            fprintf(stderr, "%s: defect id '%s' in \"defects\" is a defect of target %s, but the JSON's target is "
                            "%s%s\n", c->json_path, id, e->name, c->t->name,
                    c->target_named ? "" : " (no \"target\" field means irq)");
            return;
        }
    fprintf(stderr, "%s: unknown defect id '%s' in \"defects\" (target %s)\n", c->json_path, id, c->t->name);
}

/* The JSON's target: absent for a run of the default target (whose JSON
 * predates the field and must not change), its name for another. */
static const struct target *report_target(const struct jval_doc *jd, const char *json_path,
                                          const struct jval *run)
{
    const struct jval *v = jval_get(jd, run, "target");
    char names[64];
    target_names(names, sizeof names, "\"");
    if (!v)
        return target_default();
    if (v->type != JV_STRING) {
        fprintf(stderr, "%s: \"target\" is not a string (expected %s)\n", json_path, names);
        return NULL;
    }
    const struct target *t = target_by_name(v->str);
    if (!t)
        fprintf(stderr, "%s: unknown target '%s' in \"target\" (expected %s)\n", json_path, v->str, names);
    return t;
}

static void print_list(FILE *out, const struct jval_doc *jd, const struct jval *arr, const char *sep,
                       const char *quote)
{
    int i = 0;
    for (const struct jval *v = arr && arr->type == JV_ARRAY ? jval_first(jd, arr) : NULL; v; v = jval_next(jd, v))
        if (v->type == JV_STRING)
            fprintf(out, "%s%s%s%s", i++ ? sep : "", quote, v->str, quote);
}

static const char *plural(double n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}


/* What each fix of a defect does, from the fix table of the model. */
static void print_fix(FILE *out, const struct report_ctx *c, const struct defect_info *di)
{
    unsigned bits = cause_of_text(c->t, di->fixes);
    fprintf(out, "**Fix** (in `%s--fastpath fixed`):", c->w->fuzz_args);
    for (int b = 0, n = 0; b < c->t->fixes; b++)
        if (bits & (1u << b))
            fprintf(out, "%s `%s`: %s", n++ ? ";" : "", c->t->fix_name(b), c->t->fix_what(b));
    fprintf(out, ".\n\n");
}

static int report_defect(FILE *out, const struct report_ctx *c, const struct jval *d)
{
    const struct jval_doc *jd = c->jd;
    const char *json_path = c->json_path;
    const char *id = jval_str(jd, d, "id", "?");
    int k = defect_index(c->t, id);
    if (k < 0) {
        report_bad_id(c, id);
        return -1;
    }
    const struct defect_info *di = defect_info(c->t, k);
    double count = jval_num(jd, d, "count", 0), first = jval_num(jd, d, "first_seconds", 0);
    const struct jval *classes = jval_get(jd, d, "classes");
    int n_classes = classes && classes->type == JV_ARRAY ? (int)classes->len : 0;
    fprintf(out, "### %s. %s\n\n", di->id, di->title);
    fprintf(out, "**State.** %s\n\n", di->state);
    fprintf(out, "**Slowpath.** %s\n\n", di->slow);
    fprintf(out, "**Fastpath (%s).** %s\n\n", c->w->fast_label, di->fast);
    fprintf(out, "**Consequence.** %s\n\n", di->consequence);
    if (di->verdict)
        fprintf(out, "**Trade-off or defect.** %s\n\n", di->verdict);
    print_fix(out, c, di);
    fprintf(out, "**Seen.** %.0f %s in %d %s, first after %.2f s; fastpath exits: ", count,
            plural(count, "divergent state", "divergent states"), n_classes,
            n_classes == 1 ? "class" : "classes", first);
    print_list(out, jd, jval_get(jd, d, "exits"), ", ", "`");
    fprintf(out, "; differing fields: ");
    print_list(out, jd, jval_get(jd, d, "fields"), ", ", "");
    fprintf(out, ".\nClasses (exit/cause): ");
    print_list(out, jd, classes, ", ", "`");
    fprintf(out, ".\n\n");
    const char *repro = jval_str(jd, d, "reproducer", "");
    const char *cls = jval_str(jd, d, "reproducer_class", "?");
    if (!*repro) {
        fprintf(out, "Reproducer: not shrunk (the run had no `--out`); `irqsim gen %s--seed %.0f` prints the "
                     "state of class `%s` with the run's bounds.\n\n",
                c->w->fuzz_args, jval_num(jd, d, "seed", 0), cls);
        return 0;
    }
    char used[1024];
    char *text = read_reproducer(json_path, repro, used, sizeof used);
    if (!text) {
        fprintf(stderr, "%s: reproducer of %s: cannot read %s: %s\n", json_path, id, repro, strerror(errno));
        return -1;
    }
    const char *base = strrchr(repro, '/');
    fprintf(out, "<details><summary>Smallest reproducer: class <code>%s</code>, size %.0f "
                 "(<code>%s</code>)</summary>\n\n",
            cls, jval_num(jd, d, "reproducer_size", 0), base ? base + 1 : repro);
    fprintf(out, "```\n%s%s```\n\n</details>\n\n", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
    free(text);
    return 0;
}

static int report(FILE *out, const struct jval_doc *jd, const char *json_path, const struct jval *run)
{
    const struct target *t = report_target(jd, json_path, run);
    if (!t)
        return -1;
    struct report_ctx ctx = {jd, json_path, jval_get(jd, run, "target") != NULL, t, &t->words};
    const struct target_words *w = ctx.w;
    const struct jval *defects = jval_get(jd, run, "defects");
    const struct jval *classes = jval_get(jd, run, "classes");
    if (!defects || defects->type != JV_ARRAY || !classes || classes->type != JV_ARRAY) {
        fprintf(stderr, "%s: no \"defects\" and \"classes\" arrays: not the JSON of `irqsim fuzz --json` "
                        "(or of a version before the defect report)\n",
                json_path);
        return -1;
    }
    const char *variant = jval_str(jd, run, "fastpath", "?");
    double checks = jval_num(jd, run, "checks", 0), secs = jval_num(jd, run, "seconds", 0);
    double jobs = jval_num(jd, run, "jobs", 1), seed = jval_num(jd, run, "seed", 0);
    fprintf(out, "## irqsim: %s (`%s`) against the slowpath\n\n", w->subject, variant);
    fprintf(out, "irqsim runs %s and the slowpath (`%s`) "
                 "of a model of the aarch64 MCS kernel from one generated kernel state, %s and one entry "
                 "clock, and compares the outcomes field by field after normalising lazy time accounting.\n\n",
            w->fast_intro, t->slowpath, w->event);
    fputs(w->preface, out);
    fprintf(out, "`irqsim fuzz %s--fastpath %s` checked **%.0f** generated states in %.0f s (%.0f %s, seed "
                 "%.0f): ",
            w->fuzz_args, variant, checks, secs, jobs, plural(jobs, "job", "jobs"), seed);
    if ((int)classes->len == 0) {
        fprintf(out, "the fastpath agreed with the slowpath on every one.\n");
        return 0;
    }
    fprintf(out, "the fastpath diverged in %d %s (exit and cause), which come from **%d %s**. A defect is a "
                 "fix of the corrected fastpath whose absence is needed to explain a divergence; each class's "
                 "cause is the smallest set of fixes that makes its state agree.\n\n",
            (int)classes->len, (int)classes->len == 1 ? "class" : "classes", (int)defects->len,
            (int)defects->len == 1 ? "defect" : "defects");
    fprintf(out, "Each reproducer below is a scenario file: `irqsim check FILE` prints the verdict field by "
                 "field, `irqsim run --path slow|fast FILE` each path's outcome. Its header comments are that "
                 "verdict.\n\n");
    for (const struct jval *d = jval_first(jd, defects); d; d = jval_next(jd, d))
        if (report_defect(out, &ctx, d) != 0)
            return -1;
    int unexplained = 0;
    for (const struct jval *c = jval_first(jd, classes); c; c = jval_next(jd, c)) {
        if (strcmp(jval_str(jd, c, "cause", ""), "unexplained") != 0)
            continue;
        if (!unexplained++)
            fprintf(out, "### Divergences no fix explains\n\n");
        fprintf(out, "- `%s/unexplained`: %.0f states, seed %.0f, reproducer `%s`; fields: ", jval_str(jd, c, "exit", "?"),
                jval_num(jd, c, "count", 0), jval_num(jd, c, "seed", 0), jval_str(jd, c, "reproducer", "-"));
        print_list(out, jd, jval_get(jd, c, "fields"), ", ", "");
        fprintf(out, "\n");
    }
    return 0;
}

struct report_opts {
    const char *in, *out;
};

static int report_json_arg(void *opts, const char *arg, char *why, size_t len)
{
    struct report_opts *o = opts;
    if (o->in) {
        snprintf(why, len, "one JSON file only (got '%s' and '%s')", o->in, arg);
        return -1;
    }
    o->in = arg;
    return 0;
}

static const struct cli_opt report_table[] = {
    CLI_ROW(struct report_opts, "-o", CLI_STR, out),
};
static const struct cli_cmd report_cmd = {"report", report_usage, NULL, report_table, 1, report_json_arg};

int report_main(int argc, char **argv)
{
    struct report_opts o = {NULL, NULL};
    int rc = cli_parse(&report_cmd, &o, 2, argc, argv);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (!o.in)
        return cli_error(&report_cmd, "no JSON file given");
    const char *in = o.in, *out_path = o.out;
    size_t text_len = 0;
    char *text = read_all(in, &text_len);
    if (!text) {
        fprintf(stderr, "irqsim report: cannot read %s: %s\n", in, strerror(errno));
        return 2;
    }
    char err[200];
    struct jval_doc jd;
    jval_doc_init(&jd);
    const struct jval *run = jval_parse(&jd, text, text_len, err, sizeof err);
    free(text);
    if (!run) {
        fprintf(stderr, "%s: not valid JSON: %s\n", in, err);
        jval_doc_free(&jd);
        return 2;
    }
    char *body = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&body, &len);
    rc = mem && report(mem, &jd, in, run) == 0 ? 0 : 2;
    if (mem)
        fclose(mem);
    jval_doc_free(&jd);
    if (rc == 0) {
        if (!out_path)
            fwrite(body, 1, len, stdout);
        else if (out_text("irqsim report", out_path, body) != 0)
            rc = OUT_FAILED;
    }
    free(body);
    return rc;
}
