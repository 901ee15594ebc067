/* reviewout: the report of `irqsim review`, Markdown and JSON (review.h). */
#include <inttypes.h>
#include <string.h>

#include "classify.h"
#include "config.h"
#include "defect.h"
#include "diff.h"
#include "mdtext.h"
#include "invariant.h"
#include "out.h"
#include "realdrv.h"
#include "review.h"
#include "reviewchange.h"
#include "reviewgroup.h"
#include "target.h"

const char *review_check_id(int check)
{
    static const char *const ids[RV_CHECK_COUNT] = {
        "validate-slow",  "validate-fast",        "validate-fixed",       "fuzz",
        "fuzz-fixed",     "invariants-slow",      "invariants-fast",      "invariants-fixed",
        "slowpath-vs-baseline", "fastpath-vs-baseline", "fixed-vs-baseline"};
    return check >= 0 && check < RV_CHECK_COUNT ? ids[check] : "?";
}

static int total(const struct review_result *res, int n, bool gone)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        t += gone ? res[i].n_gone : res[i].n_new;
    return t;
}

/* ---- Markdown ---- */

static void md_kind(FILE *f, const struct review_result *res, const struct review_kind *k)
{
    char text[400];
    char cname[120];
    fprintf(f, "- **%s**: ", review_check_name(k->target, k->check, cname, sizeof cname));
    md_paste(f, review_kind_text(k, text, sizeof text), MD_TEXT); /* a halt's text is the kernel's */
    fprintf(f, ": %" PRIu64 " state%s", k->count[0], k->count[0] == 1 ? "" : "s");
    if (res->has_base && k->check < RV_SLOW_VS_BASE)
        fprintf(f, " (baseline %" PRIu64 ")", k->count[1]);
    uint64_t seed = k->count[0] ? k->seed[0] : k->seed[1];
    fprintf(f, ", first at seed %" PRIu64, seed);
    if (k->reproducer) {
        fputs(", reproducer ", f);
        md_paste(f, k->reproducer, MD_CODE);
    }
    fprintf(f, "\n");
}

/* A PR comment stays readable: the first kinds of a list, then how many
 * more the JSON holds. */
#define MD_MAX_KINDS 20

/* The kinds new (gone false) or gone, in the report's order. */
static void md_kinds(FILE *f, const struct review_result *res, bool gone)
{
    int n = 0;
    for (int rank = 0; rank < REVIEW_RANKS; rank++)
        for (int i = 0; i < res->n_kinds; i++) {
            const struct review_kind *k = &res->kinds[i];
            if (review_kind_rank(res, k) == rank && (gone ? review_kind_gone(res, k) : review_kind_new(res, k)) &&
                n++ < MD_MAX_KINDS)
                md_kind(f, res, k);
        }
    if (n > MD_MAX_KINDS)
        fprintf(f, "- ... and %d more kinds, not listed here (every one is in the JSON, --json)\n", n - MD_MAX_KINDS);
}

/* A kinds list (new or gone) collapsed: the groups say what it is; the
 * combinations of fields are for the reader who opens it. */
static void md_kinds_details(FILE *f, const struct review_result *res, bool gone, int count)
{
    fprintf(f, "<details><summary>%s kinds (%d): each combination of fields%s</summary>\n\n", gone ? "Gone" : "New",
            count, gone ? "" : ", the unexplained first");
    md_kinds(f, res, gone);
    fputs("\n</details>\n", f);
}

/* The first screen keeps its length: the groups past these are counted
 * (each configuration's list below and the JSON have them all). */
#define MD_MAX_GROUPS 15

/* One group in a line: what differs, its states and kinds, where, and its
 * smallest reproducer with the command that replays it. res[0..n) are the
 * configurations the group's mask indexes. */
static void md_group(FILE *f, const struct review_opts *o, const struct review_result *res, int n,
                     const struct review_group *g, int num)
{
    char text[HK_TEXT_LEN + 300];
    fprintf(f, "%d. **", num);
    review_group_label(g, text, sizeof text);
    if (g->key.by == RG_HALT)
        md_paste(f, text, MD_TEXT); /* a halt's text is the kernel's */
    else
        fputs(text, f); /* irqsim's own words, as the kinds' check names */
    fprintf(f, "**: %" PRIu64 " state%s, %d kind%s", g->states, g->states == 1 ? "" : "s", g->kinds,
            g->kinds == 1 ? "" : "s");
    if (n > 1) {
        fputs(", ", f);
        md_paste(f, review_group_configs(g, res, n, text, sizeof text), MD_TEXT);
    }
    if (!g->repro.kind) {
        fputs(o->out ? "; no reproducer written\n" : "; reproducers: run again with `--out DIR`\n", f);
        return;
    }
    fprintf(f, "; smallest reproducer (size %d): ", g->repro.kind->size);
    md_paste(f, review_group_replay(g, text, sizeof text), MD_CODE);
    fputs(review_kind_replays(g->repro.kind) ? "\n"
                                             : " (check --real compares the tree's own paths: it shows the state, "
                                               "not this difference)\n",
          f);
}

/* The groups of res[0..n) (one configuration: n 1), at most max lines. */
static void md_groups(FILE *f, const struct review_opts *o, const struct review_result *res, int n, bool all, int max)
{
    struct review_group g[REVIEW_MAX_GROUPS];
    int left, count = all ? review_groups_all(res, n, g, REVIEW_MAX_GROUPS, &left)
                          : review_groups(res, 0, g, REVIEW_MAX_GROUPS, &left);
    for (int i = 0; i < count && i < max; i++)
        md_group(f, o, res, all ? n : 1, &g[i], i + 1);
    if (count > max)
        fprintf(f, "- ... and %d more groups (each configuration's below, every one in the JSON)\n", count - max);
    if (left)
        fprintf(f, "- %d new kinds past the first %d groups, not grouped (in the lists below)\n", left,
                REVIEW_MAX_GROUPS);
}

/* The first screen's other new findings: a target's fastpath the tree
 * lost, a tree that does not build where the baseline does. */
static void md_other_new(FILE *f, const struct review_result *res, int n)
{
    char name[96];
    for (int i = 0; i < n; i++) {
        for (int t = 0; t < RV_TARGETS; t++)
            if (res[i].lost[t])
                fprintf(f, "- **the tree lost the baseline's %s** on %s\n", review_target_of(t)->fast_fn,
                        review_config_name(&res[i].cfg, name, sizeof name));
        if (res[i].has_base && review_tree_unbuilt_new(&res[i]))
            fprintf(f, "- **the tree does not build** on %s (the baseline does: below)\n",
                    review_config_name(&res[i].cfg, name, sizeof name));
    }
}

/* States where a fastpath changed with the tree's slowpath and agrees with it. */
static uint64_t md_follows(const struct review_result *res)
{
    uint64_t n = 0;
    for (int i = 0; i < res->n_kinds; i++)
        n += res->kinds[i].change == RV_CH_FOLLOWS ? res->kinds[i].count[0] : 0;
    return n;
}

static void md_side(FILE *f, const char *who, const struct review_side *s)
{
    fprintf(f, "- %s: ", who);
    md_paste(f, s->build, MD_CODE);
    fputs(", commit ", f);
    md_paste(f, s->commit[0] ? s->commit : "?", MD_TEXT);
    char diff[2 * CFG_FEATURES_TEXT_LEN + 16];
    fprintf(f, ", model kernel %s", cfg_kernel_name(s->kernel));
    if (s->features) /* a tree between the versions: its own features */
        fprintf(f, " %s (the tree's own features)",
                cfg_features_diff(s->features, cfg_kernel_features(s->kernel), diff, sizeof diff));
    fprintf(f, "%s\n", s->irq_fastpath ? "" : ", **no IRQ fastpath** (only the slowpath checked)");
}

/* The side's own defects are the IRQ target's (review.c, fuzz_side: its
 * figures are also the side's, the JSON's first keys). */
static void md_defects(FILE *f, const struct review_result *res)
{
    const struct target *irq = review_target_of(RV_T_FIRST);
    fprintf(f, "- defects (states whose fastpath_irq divergence each explains, tree%s):",
            res->has_base ? " / baseline" : "");
    bool any = false;
    for (int d = 0; d < irq->n_defects; d++) {
        if (!res->side[0].defects[d] && !(res->has_base && res->side[1].defects[d]))
            continue;
        any = true;
        fprintf(f, " %s %" PRIu64, defect_info(irq, d)->id, res->side[0].defects[d]);
        if (res->has_base)
            fprintf(f, "/%" PRIu64, res->side[1].defects[d]);
    }
    fprintf(f, "%s\n", any ? "" : " none");
}

/* Each target: whether the builds have it and whether it was reviewed. */
static void md_targets(FILE *f, const struct review_result *res)
{
    fputs("- targets:", f);
    for (int t = 0; t < RV_TARGETS; t++) {
        const struct target *tg = review_target_of(t);
        bool tree = res->side[0].present[t], base = res->has_base && res->side[1].present[t];
        fprintf(f, "%s %s (`%s`): ", t ? ";" : "", review_target_label(t), tg->fast_fn);
        if (!tree && !base)
            fputs("absent", f);
        else if (res->has_base && tree != base)
            fprintf(f, "present in the %s's build only", tree ? "tree" : "baseline");
        else
            fputs("present", f);
        if (review_target_unreviewed(res, t))
            fputs(", **not reviewed**", f);
        else if (res->reviewed[t])
            fputs(tree || base ? ", reviewed" : ", reviewed (its slowpath)", f);
    }
    /* the targets irqsim models but cannot run on a tree: said, so that a
     * change to their fastpath is not taken as reviewed */
    const char *sep = "; not run on the trees (no real-kernel bridge):";
    for (int i = 0; target_at(i); i++) {
        if (real_driver_of(target_at(i)))
            continue;
        fprintf(f, "%s %s (`%s`)", sep, target_at(i)->name, target_at(i)->fast_fn);
        sep = ",";
    }
    fputc('\n', f);
}

/* A target other than the IRQ one (whose figures are the lines above):
 * its states, the fastpath against the slowpath, the model against the
 * kernel, the tree's paths against the baseline's. */
static void md_target_figures(FILE *f, const struct review_result *res, int t)
{
    const struct review_side *a = &res->side[0], *b = &res->side[1];
    const char *fast = review_target_of(t)->fast_fn;
    fprintf(f, "- %s target: %" PRIu64 " states in %.1f s; %s diverges from the slowpath on %" PRIu64,
            review_target_label(t), res->t_states[t], res->t_seconds[t], fast, a->t_diverged[t]);
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 ")", b->t_diverged[t]);
    fprintf(f, ", **%" PRIu64 " unexplained**", a->t_unexplained[t]);
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 ")", b->t_unexplained[t]);
    fputs("; defects (tree", f);
    fputs(res->has_base ? " / baseline):" : "):", f);
    const struct target *tg = review_target_of(t);
    for (int d = 0; d < tg->n_defects; d++)
        if (a->t_defects[t][d] || (res->has_base && b->t_defects[t][d])) {
            fprintf(f, " %s %" PRIu64, defect_info(tg, d)->id, a->t_defects[t][d]);
            if (res->has_base)
                fprintf(f, "/%" PRIu64, b->t_defects[t][d]);
        }
    fprintf(f, "; model against kernel: %" PRIu64 " mismatches", a->t_mismatches[t]);
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 "); the tree's slowpath differs from the baseline's on %" PRIu64
                   " states, %s on %" PRIu64,
                b->t_mismatches[t], res->t_changed[t][0], fast, res->t_changed[t][1]);
    if (a->t_unfit[t] || b->t_unfit[t])
        fprintf(f, "; path runs the build could not hold: tree %" PRIu64 ", baseline %" PRIu64, a->t_unfit[t],
                b->t_unfit[t]);
    fputc('\n', f);
}

static void md_config(FILE *f, const struct review_opts *o, const struct review_result *res)
{
    char name[96];
    fprintf(f, "\n### %s\n\n", review_config_name(&res->cfg, name, sizeof name));
    if (res->side[0].build[0])
        md_side(f, "tree", &res->side[0]);
    if (res->has_base && res->side[1].build[0])
        md_side(f, "baseline", &res->side[1]);
    if (res->same_build)
        fprintf(f, "- the tree and the baseline have the same content: one build\n");
    if (res->side[0].build[0])
        md_targets(f, res);
    if (res->why[0]) {
        fprintf(f, "- **not run%s**: ", res->ran ? " to the end" : "");
        md_paste(f, res->why, MD_TEXT);
        fputc('\n', f);
    }
    if (!res->ran)
        return;
    const struct review_side *t = &res->side[0], *b = &res->side[1];
    fprintf(f, "- %" PRIu64 " states in %.1f s; fastpath_irq diverges from the slowpath on %" PRIu64, res->states,
            res->t_seconds[RV_T_FIRST], t->diverged);
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 ")", b->diverged);
    fprintf(f, ", **%" PRIu64 " unexplained**", t->unexplained);
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 ")", b->unexplained);
    fprintf(f, "; model against kernel: %" PRIu64 " mismatches", t->mismatches);
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 ")", b->mismatches);
    fprintf(f, "; corrected fastpath diverges on %" PRIu64 "\n", t->diverged_fixed);
    if (res->has_base)
        fprintf(f, "- the tree's paths against the baseline's: slowpath differs on %" PRIu64 " states, fastpath_irq on %" PRIu64
                   ", corrected fastpath on %" PRIu64 "\n",
                res->changed[0], res->changed[1], res->changed[2]);
    if (t->unfit || (res->has_base && b->unfit))
        fprintf(f, "- path runs the build could not hold: tree %" PRIu64 ", baseline %" PRIu64 "\n", t->unfit, b->unfit);
    fprintf(f, "- the kernel's outcomes against the exit invariants: %" PRIu64 " held, %s%" PRIu64 " broke one%s",
            t->inv_checked, t->inv_broken ? "**" : "", t->inv_broken, t->inv_broken ? "**" : "");
    if (res->has_base)
        fprintf(f, " (baseline %" PRIu64 " of %" PRIu64 ")", b->inv_broken, b->inv_checked);
    if (t->inv_unfit || (res->has_base && b->inv_unfit))
        fprintf(f, "; not held, their state being no entry state of that side's kernel: tree %" PRIu64
                   ", baseline %" PRIu64, t->inv_unfit, res->has_base ? b->inv_unfit : 0);
    fputc('\n', f);
    md_defects(f, res);
    for (int g = RV_T_FIRST + 1; g < RV_TARGETS; g++)
        if (res->reviewed[g])
            md_target_figures(f, res, g);
    if (res->dropped)
        fprintf(f, "- **%" PRIu64 " states of kinds past the first %d not listed** (counted in the totals)\n",
                res->dropped, REVIEW_MAX_KINDS);
    fprintf(f, "\n**New (%d)**%s\n\n", res->n_new, res->n_new ? "" : ": none");
    for (int g = 0; g < RV_TARGETS; g++)
        if (res->lost[g])
            fprintf(f, "- **the tree lost the baseline's %s**: the baseline's build has it, the tree's has "
                       "not (its Kernel option renamed, dropped or off?); only the tree's slowpath was checked\n",
                    review_target_of(g)->fast_fn);
    md_groups(f, o, res, 1, false, REVIEW_MAX_GROUPS);
    int kinds = res->n_new;
    for (int g = 0; g < RV_TARGETS; g++)
        kinds -= res->lost[g];
    if (kinds > 0)
        md_kinds_details(f, res, false, kinds);
    if (res->n_gone) {
        bool lost = false;
        for (int g = 0; g < RV_TARGETS; g++)
            lost = lost || res->lost[g];
        fprintf(f, "\n**Gone%s (%d)**%s\n\n", lost ? "" : " or better", res->n_gone,
                lost ? ": the baseline's fastpath kinds are gone because the tree has no fastpath to "
                                     "run, not because it got better"
                                   : "");
        md_kinds_details(f, res, true, res->n_gone);
    }
    if (md_follows(res))
        fprintf(f, "\n(and %" PRIu64 " fastpath outcomes changed with the tree's slowpath, agreeing with it: neither new nor "
                   "gone)\n",
                md_follows(res));
}

/* The change measured, under the verdict (issue 30 item 2): "on N
 * states; M of K changed lines executed; not executed: ..." */
static void md_change_line(FILE *f, const struct review_opts *o, const struct review_result *res, int n)
{
    if (!o->base)
        return;
    struct review_change_total t;
    review_change_total(res, n, &t);
    uint64_t states = 0;
    for (int i = 0; i < n; i++)
        for (int g = 0; g < RV_TARGETS; g++)
            states += res[i].t_states[g];
    char text[2400];
    review_change_text(res, n, &t, o->change, 8, text, sizeof text);
    fprintf(f, "**The change** (%" PRIu64 " states over %d configuration%s): %s.%s\n\n", states, n,
            n == 1 ? "" : "s", text,
            review_change_unrun(&t) ? " **Part of the change never ran**: nothing new there means nothing." : "");
}

void review_markdown(FILE *f, const struct review_opts *o, const struct review_result *res, int n)
{
    int nn = total(res, n, false), ng = total(res, n, true);
    fprintf(f, "## irqsim review\n\n");
    fputs("Tree ", f);
    md_paste(f, o->tree, MD_CODE);
    fputs(" against ", f);
    if (o->base) {
        fputs("baseline ", f);
        md_paste(f, o->base, MD_CODE);
    } else {
        fputs("PR #1227's known defects (docs/FINDINGS.md)", f);
    }
    fprintf(f, ", %d configuration%s, ", n, n == 1 ? "" : "s");
    if (o->checks)
        fprintf(f, "%" PRIu64 " generated states each from seed %" PRIu64, o->checks, o->seed);
    else
        fprintf(f, "%.0f s of generated states each from seed %" PRIu64, o->seconds, o->seed);
    fprintf(f, "%s.\n\n", o->base ? " (the same states through both kernels)" : "");
    bool all = true;
    unsigned reviewed = 0, unreviewed = 0;
    for (int i = 0; i < n; i++) {
        all = all && res[i].ran && !res[i].why[0];
        reviewed |= review_reviewed(&res[i]);
        unreviewed |= review_unreviewed(&res[i]);
    }
    char verdict[300], u[160];
    if (nn)
        snprintf(verdict, sizeof verdict, "Something new%s%s", unreviewed ? "; " : "",
                 review_unreviewed_text(unreviewed, u, sizeof u));
    else
        review_nothing_new_text(reviewed, unreviewed, verdict, sizeof verdict);
    verdict[0] = (char)(verdict[0] == 'n' ? 'N' : verdict[0]);
    fprintf(f, "**%s**%s\n\n", verdict, all ? "" : " (not every configuration ran: below)");
    md_change_line(f, o, res, n);
    /* The first screen (issue 30 item 3): the verdict above, the change
     * measured (item 2) under it, then what is new grouped by what
     * behaves differently, one line each. */
    if (nn) {
        fprintf(f, "**What is new, by defect**: one line per group (its kinds, each a combination of fields, are in "
                   "each configuration's collapsed list below and in the JSON)\n\n");
        md_groups(f, o, res, n, true, MD_MAX_GROUPS);
        md_other_new(f, res, n);
        fputc('\n', f);
    }
    fprintf(f, "| configuration | states | new | gone | fastpath_irq diverges | unexplained | slowpath changed |\n");
    fprintf(f, "|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < n; i++) {
        char name[96];
        const struct review_result *r = &res[i];
        fprintf(f, "| %s | %" PRIu64 " | %d | %d | %" PRIu64, review_config_name(&r->cfg, name, sizeof name), r->states,
                r->n_new, r->n_gone, r->side[0].diverged);
        if (r->has_base)
            fprintf(f, " (%" PRIu64 ")", r->side[1].diverged);
        fprintf(f, " | %" PRIu64, r->side[0].unexplained);
        if (r->has_base)
            fprintf(f, " (%" PRIu64 ") | %" PRIu64 " |\n", r->side[1].unexplained, r->changed[0]);
        else
            fprintf(f, " | - |\n");
    }
    if (o->base)
        fprintf(f, "\n(baseline in parentheses)\n");
    for (int i = 0; i < n; i++) {
        md_config(f, o, &res[i]);
        if (o->change)
            review_change_md(f, &res[i], o->change);
    }
    fprintf(f, "\n%d new, %d gone or better.\n", nn, ng);
}

/* ---- JSON ---- */

/* A group: its key and line, states and kinds, the fields by frequency,
 * its smallest reproducer and the command that replays it; with the
 * configurations it is in when all (res[0..n) the matrix). */
static void js_group(struct out *out, const struct review_result *res, int n, const struct review_group *g, bool all)
{
    FILE *f = out->f;
    char text[HK_TEXT_LEN + 300];
    fputs("{\"key\": ", f);
    out_string(out, review_group_id(g, text, sizeof text));
    fputs(", \"label\": ", f);
    out_string(out, review_group_label(g, text, sizeof text));
    fprintf(f, ", \"states\": %" PRIu64 ", \"kinds\": %d, \"fields\": [", g->states, g->kinds);
    int order[DF_COUNT], nf = review_group_field_order(g, order);
    for (int i = 0; i < nf; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", diff_field_name(order[i]));
    fprintf(f, "], \"first_seed\": %" PRIu64, g->first_seed);
    if (all) {
        fputs(", \"configs\": [", f);
        char name[96];
        for (int i = 0, c = 0; i < n; i++)
            if (g->configs >> i & 1) {
                fprintf(f, "%s\"%s\"", c++ ? ", " : "", review_config_name(&res[i].cfg, name, sizeof name));
            }
        fputc(']', f);
    }
    fputs(", \"reproducer\": ", f);
    out_string(out, g->repro.kind ? g->repro.kind->reproducer : "");
    fprintf(f, ", \"size\": %d, \"replay\": ", g->repro.kind ? g->repro.kind->size : 0);
    out_string(out, review_group_replay(g, text, sizeof text));
    fprintf(f, ", \"replays\": %s}", g->repro.kind && review_kind_replays(g->repro.kind) ? "true" : "false");
}

/* The groups of res[0..n) (all: across them), as a JSON array. */
static void js_groups(struct out *out, const struct review_result *res, int n, bool all)
{
    struct review_group g[REVIEW_MAX_GROUPS];
    int left, count = all ? review_groups_all(res, n, g, REVIEW_MAX_GROUPS, &left)
                          : review_groups(res, 0, g, REVIEW_MAX_GROUPS, &left);
    fputc('[', out->f);
    for (int i = 0; i < count; i++) {
        fprintf(out->f, "%s\n    ", i ? "," : "");
        js_group(out, res, n, &g[i], all);
    }
    fprintf(out->f, "], \"groups_left\": %d", left);
}

static void js_kind(struct out *out, const struct review_result *res, const struct review_kind *k)
{
    FILE *f = out->f;
    char fields[200], cause[120], defs[60];
    fprintf(f, "{\"target\": \"%s\", \"check\": \"%s\", \"fields\": \"%s\", \"halt\": %s, \"text\": ", review_target_of(k->target)->name,
            review_check_id(k->check), diff_fields_text(k->fields, fields, sizeof fields), k->halt ? "true" : "false");
    out_string(out, k->text);
    /* an invariant kind's cause is the invariant broken, not a fix set */
    unsigned fixes = review_check_invariant(k->check) ? 0 : k->cause;
    fprintf(f, ", \"model_cause\": \"%s\", \"defects\": \"%s\", \"known\": %s",
            fixes ? cause_text(review_target_of(k->target), fixes, cause, sizeof cause) : "none",
            defects_text(review_target_of(k->target), cause_defects(review_target_of(k->target), fixes), defs,
                         sizeof defs),
            k->known ? "true" : "false");
    if (review_check_invariant(k->check))
        fprintf(f, ", \"invariant\": \"%s\"", inv_name((int)k->cause));
    if (k->check > RV_SLOW_VS_BASE) {
        static const char *const ch[] = {"diverges", "agrees", "narrowed", "follows-slowpath"};
        fprintf(f, ", \"change\": \"%s\"", ch[k->change]);
    }
    fprintf(f, ", \"new\": %s, \"gone\": %s, \"tree\": %" PRIu64 ", \"baseline\": %" PRIu64 ", \"seed\": %" PRIu64
               ", \"baseline_seed\": %" PRIu64 ", \"reproducer\": ",
            review_kind_new(res, k) ? "true" : "false", review_kind_gone(res, k) ? "true" : "false", k->count[0],
            k->count[1], k->seed[0], k->seed[1]);
    out_string(out, k->reproducer ? k->reproducer : "");
    fputc('}', f);
}

/* A side's figures; its own defects are the IRQ target's (md_defects). */
static void js_side(struct out *out, const struct review_side *s)
{
    const struct target *irq = review_target_of(RV_T_FIRST);
    FILE *f = out->f;
    fprintf(f, "{\"tree\": ");
    out_string(out, s->tree);
    fprintf(f, ", \"build\": ");
    out_string(out, s->build);
    fprintf(f, ", \"build_status\": %d, \"commit\": ", s->build_rc);
    out_string(out, s->commit);
    /* the features the model ran with: the tree's own, or its version's */
    char feats[CFG_FEATURES_TEXT_LEN];
    ks_features mask = s->features ? s->features : cfg_kernel_features(s->kernel);
    fprintf(f, ", \"model_features\": \"%s\"", cfg_features_text(mask, feats, sizeof feats));
    fprintf(f, ", \"model_kernel\": \"%s\", \"irq_fastpath\": %s, \"mismatches\": %" PRIu64 ", \"diverged\": %" PRIu64
               ", \"diverged_fixed\": %" PRIu64 ", \"unexplained\": %" PRIu64 ", \"halts\": %" PRIu64
               ", \"known_halts\": %" PRIu64 ", \"unfit\": %" PRIu64 ", \"invariants\": {\"checked\": %" PRIu64
               ", \"broken\": %" PRIu64 ", \"unfit\": %" PRIu64 "}, \"defects\": {",
            cfg_kernel_name(s->kernel), s->irq_fastpath ? "true" : "false", s->mismatches, s->diverged,
            s->diverged_fixed, s->unexplained, s->halts, s->known_halts, s->unfit, s->inv_checked, s->inv_broken,
            s->inv_unfit);
    const char *sep = "";
    for (int d = 0; d < irq->n_defects; d++)
        if (s->defects[d]) {
            fprintf(f, "%s\"%s\": %" PRIu64, sep, defect_info(irq, d)->id, s->defects[d]);
            sep = ", ";
        }
    fprintf(f, "}}");
}

static void js_config(struct out *out, const struct review_result *res, const struct rk_change *c)
{
    FILE *f = out->f;
    char name[96];
    fprintf(f, "  {\"config\": \"%s\", \"board\": ", review_config_name(&res->cfg, name, sizeof name));
    out_string(out, res->cfg.board);
    fprintf(f, ", \"domains\": %d, \"cores\": %d, \"debug\": %s, \"hyp\": %s, \"ran\": %s, \"why\": ",
            res->cfg.domains, res->cfg.cores, res->cfg.debug ? "true" : "false", res->cfg.hyp ? "true" : "false",
            res->ran ? "true" : "false");
    out_string(out, res->why);
    fprintf(f, ", \"states\": %" PRIu64 ", \"seconds\": %.2f, \"new\": %d, \"gone\": %d, \"same_build\": %s, "
               "\"lost_fastpath\": %s,\n   \"tree\": ",
            res->states, res->seconds, res->n_new, res->n_gone, res->same_build ? "true" : "false",
            res->lost_fastpath ? "true" : "false");
    js_side(out, &res->side[0]);
    fprintf(f, ",\n   \"not_bridged\": [");
    const char *sep = "";
    for (int i = 0; target_at(i); i++)
        if (!real_driver_of(target_at(i))) {
            fprintf(f, "%s\"%s\"", sep, target_at(i)->name);
            sep = ", ";
        }
    fprintf(f, "],\n   \"targets\": [");
    for (int t = 0; t < RV_TARGETS; t++)
        fprintf(f, "%s{\"name\": \"%s\", \"fastpath\": \"%s\", \"present\": %s, \"baseline_present\": %s, "
                   "\"reviewed\": %s, \"lost\": %s, \"states\": %" PRIu64 ", \"seconds\": %.2f, \"diverged\": [%" PRIu64 ", %" PRIu64
                   "], \"unexplained\": [%" PRIu64 ", %" PRIu64 "], \"mismatches\": [%" PRIu64 ", %" PRIu64 "], \"changed\": {\"slowpath\": %" PRIu64
                   ", \"fastpath\": %" PRIu64 "}}",
                t ? ", " : "", review_target_of(t)->name, review_target_of(t)->fast_fn,
                res->side[0].present[t] ? "true" : "false",
                !res->has_base ? "null" : res->side[1].present[t] ? "true" : "false",
                res->reviewed[t] ? "true" : "false", res->lost[t] ? "true" : "false", res->t_states[t], res->t_seconds[t],
                res->side[0].t_diverged[t], res->side[1].t_diverged[t], res->side[0].t_unexplained[t],
                res->side[1].t_unexplained[t], res->side[0].t_mismatches[t],
                res->side[1].t_mismatches[t], res->t_changed[t][0], res->t_changed[t][1]);
    fprintf(f, "],\n   \"change\": ");
    if (c)
        review_change_json(out, res, c);
    else
        fprintf(f, "null");
    fprintf(f, ",\n   \"baseline\": ");
    if (res->has_base)
        js_side(out, &res->side[1]);
    else
        fprintf(f, "null");
    fprintf(f, ",\n   \"changed\": {\"slowpath\": %" PRIu64 ", \"fastpath\": %" PRIu64 ", \"corrected\": %" PRIu64
               "}, \"kinds_dropped\": %" PRIu64 ",\n   \"groups\": ",
            res->changed[0], res->changed[1], res->changed[2], res->dropped);
    js_groups(out, res, 1, false);
    fprintf(f, ",\n   \"kinds\": [");
    int n = 0;
    for (int rank = 0; rank < REVIEW_RANKS; rank++)
        for (int i = 0; i < res->n_kinds; i++)
            if (review_kind_rank(res, &res->kinds[i]) == rank) {
                fprintf(f, "%s\n    ", n++ ? "," : "");
                js_kind(out, res, &res->kinds[i]);
            }
    fprintf(f, "]}");
}

void review_json(struct out *out, const struct review_opts *o, const struct review_result *res, int n)
{
    FILE *f = out->f;
    fprintf(f, "{\"command\": \"review\", \"tree\": ");
    out_string(out, o->tree);
    fprintf(f, ", \"baseline\": ");
    if (o->base)
        out_string(out, o->base);
    else
        fprintf(f, "null");
    fprintf(f, ", \"seed\": %" PRIu64 ", \"checks\": %" PRIu64 ", \"seconds\": %.2f, \"new\": %d, \"gone\": %d,\n",
            o->seed, o->checks, o->checks ? 0.0 : o->seconds, total(res, n, false), total(res, n, true));
    struct review_change_total t;
    review_change_total(res, n, &t);
    fprintf(f, " \"change\": {\"measured_configs\": %d, \"failed_configs\": %d, \"code\": %d, \"executed\": %d, "
               "\"deleted\": %d, \"deleted_run\": %d, \"functions\": %d, \"functions_entered\": %d, "
               "\"comment\": %d, \"directive\": %d, \"no_code\": %d, \"other_files\": %d, \"unrun\": %s},\n",
            t.configs, t.failed, t.code, t.executed, t.deleted, t.deleted_run, t.fns, t.fns_entered, t.comment,
            t.directive, t.nocode, t.other_files, review_change_unrun(&t) ? "true" : "false");
    fprintf(f, " \"configs\": [\n");
    for (int i = 0; i < n; i++) {
        js_config(out, &res[i], o->change);
        fprintf(f, "%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, " ],\n \"groups\": ");
    js_groups(out, res, n, true);
    fprintf(f, "}\n");
}
