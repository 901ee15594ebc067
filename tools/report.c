/* report: `irqsim report`, a fuzz run as a Markdown review comment. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "defect.h"
#include "infile.h"
#include "jval.h"
#include "mdtext.h"
#include "out.h"
#include "reportreal.h"
#include "scenario.h"
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
    "  (also the JSON of `irqsim fuzz --real`, `validate --real` and `irqsim review`:\n"
    "  their kinds, the unexplained first, and defects; docs/REVIEW.md)\n"
    "  turns the JSON summary of `irqsim fuzz --json RUN.json` into a Markdown review\n"
    "  comment: each defect ({defects:irq} of the IRQ target, {defects:signal} of the signal target, as the\n"
    "  JSON's \"target\" says) with its state, what each path does, the consequence,\n"
    "  and its smallest reproducer inline (read from the file the run saved with --out;\n"
    "  a path is tried as written, then relative to the JSON file's directory)\n";

/* Limits of what report reads (docs/inputs.md, "Fuzz run JSON"). A fuzz
 * run's JSON holds at most 256 classes and a few defects: some 100 KB and
 * a few thousand values; paths and names are short. */
#define REPORT_JSON_MAX (4u << 20)
#define REPORT_JSON_VALUES (1u << 18)
#define REPORT_JSON_STRING 4096u

/* The reproducer's path: as written, else (a relative path that does not
 * exist as written) beside the JSON file. */
static int reproducer_path(const char *json_path, const char *path, char *used, size_t used_len)
{
    size_t n = (size_t)snprintf(used, used_len, "%s", path);
    const char *slash = strrchr(json_path, '/');
    struct stat st;
    if (path[0] == '/' || !slash || lstat(path, &st) == 0 || errno != ENOENT)
        return n < used_len ? 0 : -1;
    n = (size_t)snprintf(used, used_len, "%.*s/%s", (int)(slash - json_path), json_path, path);
    return n < used_len ? 0 : -1;
}

/* The reproducer's text, read only when it is what the run wrote: a
 * regular file of at most SCEN_MAX_FILE bytes that parses as a scenario
 * file at the JSON's target's entry. Anything else (/etc/passwd,
 * /proc/self/environ, /dev/zero, a FIFO) is refused without printing a
 * byte of it. */
static char *read_reproducer(const struct report_ctx *c, const char *id, const char *path, char *used,
                             size_t used_len)
{
    char why[160] = "";
    size_t len = 0;
    char *text = NULL;
    if (reproducer_path(c->json_path, path, used, used_len) != 0)
        snprintf(why, sizeof why, "path too long");
    else
        text = infile_read(used, SCEN_MAX_FILE, 0, &len, why, sizeof why);
    if (text && memchr(text, 0, len))
        snprintf(why, sizeof why, "holds a NUL byte: not a scenario file");
    else if (text) {
        struct scen_error err;
        struct kstate *ks = malloc(sizeof *ks);
        if (!ks)
            snprintf(why, sizeof why, "out of memory");
        else if (scenario_parse(text, len, used, ks, &err) != 0)
            /* the line only: the parser's message may quote the file */
            snprintf(why, sizeof why, "not a scenario file (line %d does not parse)", err.line);
        else if (ks->sys.entry != c->t->entry)
            snprintf(why, sizeof why, "a scenario of another entry than target %s's", c->t->name);
        free(ks);
    }
    if (!why[0])
        return text;
    fprintf(stderr, "%s: reproducer of %s: %s: %s\n", c->json_path, id, used, why);
    free(text);
    return NULL;
}

/* The code fence around a reproducer: three backticks, or one more than
 * the longest run of backticks in it (a scenario comment may hold some),
 * so nothing in the file ends the block early. */
#define REPORT_FENCE "````````````````````````````````"
static int fence_len(const char *text)
{
    int longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    int n = longest < 3 ? 3 : longest + 1;
    return n < (int)sizeof REPORT_FENCE - 1 ? n : (int)sizeof REPORT_FENCE - 1;
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
                       enum md_ctx ctx)
{
    int i = 0;
    for (const struct jval *v = arr && arr->type == JV_ARRAY ? jval_first(jd, arr) : NULL; v; v = jval_next(jd, v))
        if (v->type == JV_STRING) {
            fputs(i++ ? sep : "", out);
            md_paste(out, v->str, ctx);
        }
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
    print_list(out, jd, jval_get(jd, d, "exits"), ", ", MD_CODE);
    fprintf(out, "; differing fields: ");
    print_list(out, jd, jval_get(jd, d, "fields"), ", ", MD_TEXT);
    fprintf(out, ".\nClasses (exit/cause): ");
    print_list(out, jd, classes, ", ", MD_CODE);
    fprintf(out, ".\n\n");
    const char *repro = jval_str(jd, d, "reproducer", "");
    const char *cls = jval_str(jd, d, "reproducer_class", "?");
    if (!*repro) {
        fprintf(out, "Reproducer: not shrunk (the run had no `--out`); `irqsim gen %s--seed %.0f` prints the "
                     "state of class ",
                c->w->fuzz_args, jval_num(jd, d, "seed", 0));
        md_paste(out, cls, MD_CODE);
        fputs(" with the run's bounds.\n\n", out);
        return 0;
    }
    char used[4200];
    char *text = read_reproducer(c, id, repro, used, sizeof used);
    if (!text)
        return -1;
    const char *base = strrchr(repro, '/');
    fputs("<details><summary>Smallest reproducer: class <code>", out);
    md_paste(out, cls, MD_TEXT);
    fprintf(out, "</code>, size %.0f (<code>", jval_num(jd, d, "reproducer_size", 0));
    md_paste(out, base ? base + 1 : repro, MD_TEXT);
    fputs("</code>)</summary>\n\n", out);
    int fence = fence_len(text);
    fprintf(out, "%.*s\n%s%s%.*s\n\n</details>\n\n", fence, REPORT_FENCE, text,
            text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n", fence, REPORT_FENCE);
    free(text);
    return 0;
}

/* A member of the run's JSON and the type `irqsim fuzz --json` writes it with. */
struct report_field {
    const char *key;
    int type; /* enum jval_type; JV_INT: a non-negative number */
};

static const struct report_field report_fields[] = {
    {"fastpath", JV_STRING}, {"seconds", JV_INT}, {"jobs", JV_INT},   {"seed", JV_INT},
    {"checks", JV_INT},      {"exits", JV_OBJECT}, {"defects", JV_ARRAY}, {"classes", JV_ARRAY},
};

static bool report_field_ok(const struct jval *v, int type)
{
    if (type != JV_INT)
        return v->type == type;
    return (v->type == JV_INT && !v->neg) || (v->type == JV_REAL && v->real >= 0);
}

/* The JSON of a fuzz run (state mode), not of `exhaust`, `fuzz --mode
 * workload` or anything else: the members that make it one, each of its
 * type, and each defect and class an object. Names what is missing. */
static bool report_is_fuzz_run(const struct jval_doc *jd, const char *json_path, const struct jval *run)
{
    if (run->type != JV_OBJECT) {
        fprintf(stderr, "%s:1: not a JSON object: not the JSON of `irqsim fuzz --json`\n", json_path);
        return false;
    }
    const char *mode = jval_str(jd, run, "mode", NULL);
    if (jval_get(jd, run, "mode")) {
        fprintf(stderr, "%s: \"mode\": \"%.32s\": the JSON of `irqsim fuzz --mode %.32s`, not of `irqsim fuzz` on "
                        "generated states\n", json_path, mode ? mode : "?", mode ? mode : "?");
        return false;
    }
    char missing[200] = "";
    size_t n = 0;
    for (size_t i = 0; i < sizeof report_fields / sizeof report_fields[0]; i++) {
        const struct jval *v = jval_get(jd, run, report_fields[i].key);
        if (v && report_field_ok(v, report_fields[i].type))
            continue;
        n += (size_t)snprintf(missing + n, sizeof missing - n, "%s\"%s\"%s", n ? ", " : "", report_fields[i].key,
                              v ? " (of another type)" : "");
        if (n >= sizeof missing)
            break;
    }
    if (missing[0]) {
        fprintf(stderr, "%s: no %s: not the JSON of `irqsim fuzz --json` (or of a version before the defect "
                        "report)\n", json_path, missing);
        return false;
    }
    const char *arrays[] = {"defects", "classes"};
    for (int a = 0; a < 2; a++) {
        uint32_t i = 0;
        for (const struct jval *v = jval_first(jd, jval_get(jd, run, arrays[a])); v; v = jval_next(jd, v), i++)
            if (v->type != JV_OBJECT || (a == 0 && !jval_str(jd, v, "id", NULL))) {
                fprintf(stderr, "%s: \"%s\"[%u] is not %s\n", json_path, arrays[a], i,
                        a == 0 ? "an object with a string \"id\"" : "an object");
                return false;
            }
    }
    return true;
}

/* A character that would end a code span or start markup in the review
 * (a backtick, an HTML bracket or entity) or break its lines; 0 for none. */
static int markdown_unsafe(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '`' || *p == '<' || *p == '>' || *p == '&' || *p < 0x20 || *p == 0x7f)
            return *p;
    return 0;
}

/* Every string of the run, names and paths the review pastes among them,
 * must paste as it is: irqsim fuzz writes none that does not (names are
 * letters, digits, _, +, /; a path with such a character is refused rather
 * than written into the comment half-quoted). */
static bool strings_safe_at(const struct jval_doc *jd, const char *json_path, const struct jval *v, char *where,
                            size_t at, size_t len)
{
    if (v->type == JV_STRING && markdown_unsafe(v->str)) {
        fprintf(stderr, "%s: %s: the string holds character %#x, which would break the Markdown review (a "
                        "backtick, <, >, & or a control character)\n",
                json_path, at ? where : "the document", markdown_unsafe(v->str));
        return false;
    }
    uint32_t i = 0;
    for (const struct jval *c = jval_first(jd, v); c; c = jval_next(jd, c), i++) {
        int n = v->type == JV_ARRAY ? snprintf(where + at, len - at, "[%u]", i)
                                    : snprintf(where + at, len - at, "%s%s", at ? "." : "", c->key ? c->key : "?");
        size_t next = n < 0 || (size_t)n >= len - at ? at : at + (size_t)n;
        if (!strings_safe_at(jd, json_path, c, where, next, len))
            return false;
        where[at] = 0;
    }
    return true;
}

static bool report_strings_safe(const struct jval_doc *jd, const char *json_path, const struct jval *v)
{
    char where[256] = "";
    return strings_safe_at(jd, json_path, v, where, 0, sizeof where);
}

static int report(FILE *out, const struct jval_doc *jd, const char *json_path, const struct jval *run)
{
    /* the real-kernel runs and review name their command; a model fuzz
     * run's JSON has no "command" */
    const char *cmd = run->type == JV_OBJECT ? jval_str(jd, run, "command", NULL) : NULL;
    if (cmd && !strcmp(cmd, "review"))
        return report_review(out, jd, json_path, run);
    if (cmd && (!strcmp(cmd, "fuzz") || !strcmp(cmd, "validate")))
        return report_real_run(out, jd, json_path, run);
    const struct target *t = report_target(jd, json_path, run);
    if (!t)
        return -1;
    struct report_ctx ctx = {jd, json_path, jval_get(jd, run, "target") != NULL, t, &t->words};
    const struct target_words *w = ctx.w;
    if (!report_is_fuzz_run(jd, json_path, run) || !report_strings_safe(jd, json_path, run))
        return -1;
    const struct jval *defects = jval_get(jd, run, "defects");
    const struct jval *classes = jval_get(jd, run, "classes");
    const char *variant = jval_str(jd, run, "fastpath", "?");
    double checks = jval_num(jd, run, "checks", 0), secs = jval_num(jd, run, "seconds", 0);
    double jobs = jval_num(jd, run, "jobs", 1), seed = jval_num(jd, run, "seed", 0);
    fprintf(out, "## irqsim: %s (", w->subject);
    md_paste(out, variant, MD_CODE);
    fputs(") against the slowpath\n\n", out);
    fprintf(out, "irqsim runs %s and the slowpath (`%s`) "
                 "of a model of the aarch64 MCS kernel from one generated kernel state, %s and one entry "
                 "clock, and compares the outcomes field by field after normalising lazy time accounting.\n\n",
            w->fast_intro, t->slowpath, w->event);
    fputs(w->preface, out);
    char line[REPORT_JSON_STRING + 64];
    snprintf(line, sizeof line, "irqsim fuzz %s--fastpath %s", w->fuzz_args, variant);
    md_paste(out, line, MD_CODE);
    fprintf(out, " checked **%.0f** generated states in %.0f s (%.0f %s, seed %.0f): ", checks, secs, jobs,
            plural(jobs, "job", "jobs"), seed);
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
        char name[REPORT_JSON_STRING + 16];
        snprintf(name, sizeof name, "%s/unexplained", jval_str(jd, c, "exit", "?"));
        fputs("- ", out);
        md_paste(out, name, MD_CODE);
        fprintf(out, ": %.0f states, seed %.0f, reproducer ", jval_num(jd, c, "count", 0), jval_num(jd, c, "seed", 0));
        md_paste(out, jval_str(jd, c, "reproducer", "-"), MD_CODE);
        fputs("; fields: ", out);
        print_list(out, jd, jval_get(jd, c, "fields"), ", ", MD_TEXT);
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
        return rc == 1 ? EXIT_AGREE : rc;
    if (!o.in)
        return cli_error(&report_cmd, "no JSON file given");
    const char *in = o.in, *out_path = o.out;
    if (out_not_input("irqsim report", &out_path, 1, &in, 1))
        return 2;
    size_t text_len = 0;
    char why[160];
    char *text = infile_read(in, REPORT_JSON_MAX, INFILE_ANY, &text_len, why, sizeof why);
    if (!text) {
        fprintf(stderr, "irqsim report: %s: %s\n", in, why);
        return EXIT_USAGE;
    }
    char err[200];
    struct jval_doc jd;
    jval_doc_init(&jd);
    jd.max_values = REPORT_JSON_VALUES;
    jd.max_string = REPORT_JSON_STRING;
    const struct jval *run = jval_parse(&jd, text, text_len, err, sizeof err);
    free(text);
    if (!run) {
        fprintf(stderr, "%s:%zu: not valid JSON: column %zu: %s\n", in, jd.err_line, jd.err_col, jd.err_what);
        jval_doc_free(&jd);
        return EXIT_USAGE;
    }
    char *body = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&body, &len);
    rc = mem && report(mem, &jd, in, run) == 0 ? EXIT_AGREE : EXIT_USAGE;
    if (mem)
        fclose(mem);
    jval_doc_free(&jd);
    if (rc == 0) {
        if (!out_path)
            fwrite(body, 1, len, stdout);
        else if (out_text("irqsim report", out_path, body) != 0)
            rc = EXIT_OUTPUT;
    }
    free(body);
    return rc;
}
