/* reportreal: real-kernel and review JSON as Markdown (reportreal.h). */
#include "reportreal.h"

#include <stdbool.h>
#include <string.h>

#include "defect.h"
#include "mdtext.h"
#include "target.h"

/* Kinds listed per list; the rest are counted. */
#define RR_MAX_KINDS 20

static bool jbool(const struct jval_doc *jd, const struct jval *o, const char *key)
{
    const struct jval *v = jval_get(jd, o, key);
    return v && v->type == JV_BOOL && v->u;
}

/* The members a report needs, each of its type; names the first missing. */
static bool need(const struct jval_doc *jd, const char *path, const struct jval *o, const char *what,
                 const char *const *keys, const int *types, int n)
{
    for (int i = 0; i < n; i++) {
        const struct jval *v = jval_get(jd, o, keys[i]);
        bool ok = v && (v->type == types[i] || (types[i] == JV_REAL && v->type == JV_INT));
        if (!ok) {
            fprintf(stderr, "%s: %s: no \"%s\"%s: not the JSON of %s\n", path, what, keys[i],
                    v ? " (of another type)" : "", what);
            return false;
        }
    }
    return true;
}

/* ---- fuzz --real, validate --real ---- */

/* what no known defect explains (fuzz: the JSON's "unexplained"; every
 * model mismatch of validate) */
static bool real_unexplained(const struct jval_doc *jd, const struct jval *k, bool fuzz)
{
    return !fuzz || jbool(jd, k, "unexplained");
}

static void real_kind(FILE *out, const struct jval_doc *jd, const struct jval *k, bool unexplained)
{
    const char *p = jval_str(jd, k, "path", "-");
    fprintf(out, "- %s", unexplained ? "**unexplained** " : "");
    if (strcmp(p, "-")) {
        md_paste(out, p, MD_CODE);
        fputc(' ', out);
    }
    if (jbool(jd, k, "halt")) {
        fputs("halt: ", out);
        md_paste(out, jval_str(jd, k, "text", ""), MD_TEXT);
    } else {
        md_paste(out, jval_str(jd, k, "fields", "?"), MD_TEXT);
    }
    const char *c = jval_str(jd, k, "model_cause", "none");
    if (strcmp(c, "none")) {
        fputs(" [model cause ", out);
        md_paste(out, c, MD_CODE);
        fputc(']', out);
    }
    fprintf(out, ": %.0f states, first at seed %.0f", jval_num(jd, k, "count", 0), jval_num(jd, k, "seed", 0));
    const char *r = jval_str(jd, k, "reproducer", "");
    if (r[0]) {
        fputs(", reproducer ", out);
        md_paste(out, r, MD_CODE);
    }
    fputc('\n', out);
}

int report_real_run(FILE *out, const struct jval_doc *jd, const char *path, const struct jval *run)
{
    static const char *const keys[] = {"command", "build", "board", "checks", "seconds", "diverged", "defects", "kinds"};
    static const int types[] = {JV_STRING, JV_STRING, JV_STRING, JV_REAL, JV_REAL, JV_REAL, JV_OBJECT, JV_ARRAY};
    if (!need(jd, path, run, "`irqsim fuzz|validate --real --json`", keys, types, 8))
        return -1;
    bool fuzz = !strcmp(jval_str(jd, run, "command", ""), "fuzz");
    const struct jval *kinds = jval_get(jd, run, "kinds");
    fprintf(out, "## irqsim: %s on the real kernel\n\n", fuzz ? "fastpath_irq against the slowpath" : "the model");
    fprintf(out, "`irqsim %s --real` ran **%.0f** generated states in %.0f s on the host build ", fuzz ? "fuzz" : "validate",
            jval_num(jd, run, "checks", 0), jval_num(jd, run, "seconds", 0));
    md_paste(out, jval_str(jd, run, "build", ""), MD_CODE);
    fputs(" (board ", out);
    md_paste(out, jval_str(jd, run, "board", "?"), MD_TEXT);
    fputs(", commit ", out);
    md_paste(out, jval_str(jd, run, "commit", "?"), MD_CODE);
    fprintf(out, "): %s **%.0f** states; %.0f real-kernel halts, %.0f of them known findings.\n\n",
            fuzz ? "the kernel's own fastpath diverged from its own slowpath (no model in the verdict) on"
                 : "the model and the kernel differed on",
            jval_num(jd, run, "diverged", 0), jval_num(jd, run, "halts", 0), jval_num(jd, run, "known_halts", 0));
    /* validate without --target: its system-call pass, in the figures above */
    const struct jval *sys = jval_get(jd, run, "syscalls");
    if (sys && sys->type == JV_OBJECT)
        fprintf(out, "Of them, %.0f were system calls through the syscall slowpath alone (validate's system-call "
                     "pass, after the interrupt entries); %.0f of the differences are theirs.\n\n",
                jval_num(jd, sys, "checks", 0), jval_num(jd, sys, "diverged", 0));
    const struct jval *defects = jval_get(jd, run, "defects");
    /* The --real JSON names no target: its defects are the default
     * target's, as a JSON without "target" means it (target.h, is_default),
     * and the only one whose real fuzz names them (realcmd.c, fuzz_one). */
    const struct target *t = target_default();
    if (defects->len) {
        fprintf(out, "| defect | what | divergences named |\n|---|---|---:|\n");
        for (const struct jval *d = jval_first(jd, defects); d; d = jval_next(jd, d)) {
            int i = d->key ? defect_index(t, d->key) : -1;
            const struct defect_info *di = i >= 0 ? defect_info(t, i) : NULL;
            fprintf(out, "| %s | ", di ? di->id : "?");
            md_paste(out, di ? di->title : d->key, MD_TEXT);
            fprintf(out, " | %.0f |\n", d->real);
        }
        fprintf(out, "\n(the model's cause of each divergence named: %.0f of %.0f, docs/FINDINGS.md)\n\n",
                jval_num(jd, run, "named", 0), jval_num(jd, run, "diverged", 0));
    }
    int n = 0, total = (int)kinds->len;
    for (int pass = 0; pass < 2; pass++)
        for (const struct jval *k = jval_first(jd, kinds); k; k = jval_next(jd, k))
            if (k->type == JV_OBJECT && real_unexplained(jd, k, fuzz) == (pass == 0) && n++ < RR_MAX_KINDS) {
                if (n == 1)
                    fprintf(out, "### Kinds (what no known defect explains first)\n\n");
                real_kind(out, jd, k, fuzz && pass == 0);
            }
    if (total > RR_MAX_KINDS)
        fprintf(out, "- ... and %d more kinds in the JSON\n", total - RR_MAX_KINDS);
    if (jval_num(jd, run, "kinds_dropped", 0) > 0)
        fprintf(out, "\n%.0f states of kinds past the run's cap are counted above and not listed.\n",
                jval_num(jd, run, "kinds_dropped", 0));
    return 0;
}

/* ---- review ---- */

static void review_kind(FILE *out, const struct jval_doc *jd, const struct jval *k, bool has_base)
{
    fputs("- ", out);
    md_paste(out, jval_str(jd, k, "check", "?"), MD_CODE);
    fputc(' ', out);
    if (jbool(jd, k, "halt")) {
        fputs("halt: ", out);
        md_paste(out, jval_str(jd, k, "text", ""), MD_TEXT);
    } else {
        md_paste(out, jval_str(jd, k, "fields", "?"), MD_TEXT);
    }
    const char *c = jval_str(jd, k, "model_cause", "none");
    if (strcmp(c, "none")) {
        fputs(" [model cause ", out);
        md_paste(out, c, MD_CODE);
        fputs(": ", out);
        md_paste(out, jval_str(jd, k, "defects", "?"), MD_TEXT);
        fputc(']', out);
    }
    const char *ch = jval_str(jd, k, "change", NULL);
    if (ch) {
        fputs(" (", out);
        md_paste(out, ch, MD_TEXT);
        fputc(')', out);
    }
    fprintf(out, ": %.0f states", jval_num(jd, k, "tree", 0));
    if (has_base && !strstr(jval_str(jd, k, "check", ""), "vs-baseline"))
        fprintf(out, " (baseline %.0f)", jval_num(jd, k, "baseline", 0));
    const char *r = jval_str(jd, k, "reproducer", "");
    if (r[0]) {
        fputs(", reproducer ", out);
        md_paste(out, r, MD_CODE);
    }
    fputc('\n', out);
}

static void review_list(FILE *out, const struct jval_doc *jd, const struct jval *cfg, const char *which, bool has_base)
{
    const struct jval *kinds = jval_get(jd, cfg, "kinds");
    int n = 0;
    for (const struct jval *k = jval_first(jd, kinds); k; k = jval_next(jd, k))
        if (k->type == JV_OBJECT && jbool(jd, k, which) && n++ < RR_MAX_KINDS)
            review_kind(out, jd, k, has_base);
    if (n > RR_MAX_KINDS)
        fprintf(out, "- ... and %d more in the JSON\n", n - RR_MAX_KINDS);
    if (!n)
        fprintf(out, "- none\n");
}

/* A target of a configuration some build has and the review did not run
 * (issue 30; JSON written before targets has none). */
static bool review_target_skipped(const struct jval_doc *jd, const struct jval *t)
{
    return (jbool(jd, t, "present") || jbool(jd, t, "baseline_present")) && !jbool(jd, t, "reviewed");
}

/* A target's figure on the tree: the first of its [tree, baseline] pair, 0 when none. */
static double review_tree_count(const struct jval_doc *jd, const struct jval *t, const char *key)
{
    const struct jval *a = jval_get(jd, t, key);
    const struct jval *v = a && a->type == JV_ARRAY ? jval_at(jd, a, 0) : NULL;
    return v && (v->type == JV_INT || v->type == JV_REAL) ? v->real : 0;
}

/* "irq present, reviewed; signal present, **not reviewed**" */
static void review_targets(FILE *out, const struct jval_doc *jd, const struct jval *cfg)
{
    const struct jval *ts = jval_get(jd, cfg, "targets");
    if (!ts || ts->type != JV_ARRAY)
        return;
    fputs("Targets:", out);
    const char *sep = " ";
    for (const struct jval *t = jval_first(jd, ts); t; t = jval_next(jd, t), sep = "; ") {
        fputs(sep, out);
        md_paste(out, jval_str(jd, t, "name", "?"), MD_TEXT);
        fprintf(out, " %s, %s", jbool(jd, t, "present") || jbool(jd, t, "baseline_present") ? "present" : "absent",
                review_target_skipped(jd, t) ? "**not reviewed**" : jbool(jd, t, "reviewed") ? "reviewed" : "-");
        if (jbool(jd, t, "reviewed") && jval_get(jd, t, "diverged"))
            fprintf(out, " (%.0f states, its fastpath diverges on %.0f, %.0f unexplained)", jval_num(jd, t, "states", 0),
                    review_tree_count(jd, t, "diverged"), review_tree_count(jd, t, "unexplained"));
    }
    fputs(".\n\n", out);
}

/* The names of the targets not reviewed on any configuration, "signal"
 * (and "a, b"), into buf; their number. */
static int review_skipped_names(const struct jval_doc *jd, const struct jval *configs, char *buf, size_t len)
{
    int n = 0;
    buf[0] = 0;
    for (const struct jval *c = jval_first(jd, configs); c; c = jval_next(jd, c)) {
        const struct jval *ts = jval_get(jd, c, "targets");
        for (const struct jval *t = ts && ts->type == JV_ARRAY ? jval_first(jd, ts) : NULL; t; t = jval_next(jd, t)) {
            const char *name = jval_str(jd, t, "name", "?");
            if (!review_target_skipped(jd, t) || strstr(buf, name))
                continue;
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%s", n++ ? ", " : "", name);
        }
    }
    return n;
}

static void review_config(FILE *out, const struct jval_doc *jd, const struct jval *cfg, bool has_base)
{
    fprintf(out, "\n### ");
    md_paste(out, jval_str(jd, cfg, "config", "?"), MD_TEXT);
    fprintf(out, "\n\n");
    if (!jbool(jd, cfg, "ran")) {
        fputs("Not run: ", out);
        md_paste(out, jval_str(jd, cfg, "why", "?"), MD_TEXT);
        fputs("\n", out);
        return;
    }
    review_targets(out, jd, cfg);
    const struct jval *t = jval_get(jd, cfg, "tree"), *b = jval_get(jd, cfg, "baseline");
    fprintf(out, "%.0f states: fastpath_irq diverges on %.0f, %.0f unexplained", jval_num(jd, cfg, "states", 0),
            jval_num(jd, t, "diverged", 0), jval_num(jd, t, "unexplained", 0));
    if (has_base)
        fprintf(out, " (baseline %.0f, %.0f)", jval_num(jd, b, "diverged", 0), jval_num(jd, b, "unexplained", 0));
    fprintf(out, ".\n\n**New (%.0f)**\n\n", jval_num(jd, cfg, "new", 0));
    review_list(out, jd, cfg, "new", has_base);
    if (jval_num(jd, cfg, "gone", 0) > 0) {
        fprintf(out, "\n**Gone or better (%.0f)**\n\n", jval_num(jd, cfg, "gone", 0));
        review_list(out, jd, cfg, "gone", has_base);
    }
}

/* The change measured (issue 30 item 2): its figures, and never a bare
 * "nothing new" over changed code that did not run. */
static void review_change(FILE *out, const struct jval_doc *jd, const struct jval *ch)
{
    if (!ch || ch->type != JV_OBJECT || jval_num(jd, ch, "measured_configs", 0) + jval_num(jd, ch, "failed_configs", 0) == 0)
        return;
    fprintf(out, "\nThe change: %.0f of %.0f changed lines with code executed, %.0f of %.0f changed functions entered",
            jval_num(jd, ch, "executed", 0), jval_num(jd, ch, "code", 0), jval_num(jd, ch, "functions_entered", 0),
            jval_num(jd, ch, "functions", 0));
    if (jval_num(jd, ch, "failed_configs", 0) > 0)
        fprintf(out, "; not measured on %.0f configuration(s)", jval_num(jd, ch, "failed_configs", 0));
    fprintf(out, "%s.\n", jbool(jd, ch, "unrun") ? "; **part of the change never ran**" : "");
}

/* What is new, by defect group (issue 30 item 3), as the review's first
 * screen: one line each, its states, configurations and replay command. */
static void review_groups(FILE *out, const struct jval_doc *jd, const struct jval *gs)
{
    if (!gs || gs->type != JV_ARRAY || !gs->len)
        return;
    fprintf(out, "\n**What is new, by defect**\n\n");
    int i = 0;
    for (const struct jval *g = jval_first(jd, gs); g; g = jval_next(jd, g)) {
        if (g->type != JV_OBJECT)
            continue;
        fprintf(out, "%d. **", ++i);
        md_paste(out, jval_str(jd, g, "label", "?"), MD_TEXT);
        fprintf(out, "**: %.0f states, %.0f kinds", jval_num(jd, g, "states", 0), jval_num(jd, g, "kinds", 0));
        const char *replay = jval_str(jd, g, "replay", "");
        if (replay[0]) {
            fputs("; replay: ", out);
            md_paste(out, replay, MD_CODE);
        }
        fputc('\n', out);
    }
}

int report_review(FILE *out, const struct jval_doc *jd, const char *path, const struct jval *run)
{
    static const char *const keys[] = {"tree", "new", "gone", "configs"};
    static const int types[] = {JV_STRING, JV_REAL, JV_REAL, JV_ARRAY};
    if (!need(jd, path, run, "`irqsim review --json`", keys, types, 4))
        return -1;
    const struct jval *configs = jval_get(jd, run, "configs");
    for (const struct jval *c = jval_first(jd, configs); c; c = jval_next(jd, c)) {
        static const char *const ck[] = {"config", "ran", "kinds", "tree"};
        static const int ct[] = {JV_STRING, JV_BOOL, JV_ARRAY, JV_OBJECT};
        if (c->type != JV_OBJECT || !need(jd, path, c, "a configuration of `irqsim review --json`", ck, ct, 4))
            return -1;
    }
    const char *base = jval_str(jd, run, "baseline", NULL);
    fprintf(out, "## irqsim review\n\nTree ");
    md_paste(out, jval_str(jd, run, "tree", ""), MD_CODE);
    fprintf(out, " against %s", base ? "baseline " : "PR #1227's known defects (docs/FINDINGS.md)");
    if (base)
        md_paste(out, base, MD_CODE);
    double nn = jval_num(jd, run, "new", 0), ng = jval_num(jd, run, "gone", 0);
    char skipped[200];
    int ns = review_skipped_names(jd, configs, skipped, sizeof skipped);
    fprintf(out, ", %u configuration%s, seed %.0f: **%s", configs->len, configs->len == 1 ? "" : "s",
            jval_num(jd, run, "seed", 0), nn > 0 ? "something new" : ns ? "nothing new on the targets reviewed" : "nothing new");
    if (ns) /* never a bare "nothing new" over a target that did not run */
        fprintf(out, "; not reviewed: %s target%s", skipped, ns > 1 ? "s" : "");
    fprintf(out, "** (%.0f new, %.0f gone or better).\n", nn, ng);
    review_change(out, jd, jval_get(jd, run, "change"));
    review_groups(out, jd, jval_get(jd, run, "groups"));
    for (const struct jval *c = jval_first(jd, configs); c; c = jval_next(jd, c))
        review_config(out, jd, c, base != NULL);
    return 0;
}
