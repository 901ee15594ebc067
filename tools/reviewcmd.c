/* reviewcmd: the review command (reviewcmd.h). */
#define _POSIX_C_SOURCE 200809L
#include "reviewcmd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "out.h"
#include "review.h"
#include "reviewchange.h"
#include "reviewgroup.h"
#include "stop.h"
#include "target.h"

static const char usage[] =
    "usage: irqsim review --sel4 TREE [--baseline TREE|TARBALL] [--configs LIST] [--checks N | --seconds N]\n"
    "                     [--seed S] [--kernel base|master] [-o REPORT.md] [--json FILE] [--out DIR]\n"
    "                     [--cache DIR] [--pyfdt DIR|TARBALL] [-D NAME=VALUE]... [--quiet]\n"
    "\n"
    "Builds TREE (a seL4 checkout or tarball; `irqsim kernel build`, cached) and the baseline for each\n"
    "configuration and runs the same generated states through both: the model against each real path\n"
    "(validate --real), the real fastpath_irq and the kernel-C corrected fastpath against the real\n"
    "slowpath (fuzz --real), and each of the tree's paths against the baseline's; the same on\n"
    "seL4_Send states for a build with fastpath_signal (--target signal). Reports, per\n"
    "configuration, what is new against the baseline (kinds, defects, unexplained divergences, changed\n"
    "outcomes) and what is gone, as Markdown (stdout, or -o) and JSON. Without --baseline, new is what\n"
    "PR #1227's known defects (docs/FINDINGS.md) do not explain. docs/REVIEW.md.\n"
    "\n"
    "  --sel4 TREE          the tree under review (a directory or a .tar.gz)\n"
    "  --baseline TREE      what it is judged against (e.g. the PR head, or master)\n"
    "  --configs LIST       configurations, comma-separated, each BOARD[:debug|:release][:dN][:cN][:hyp]\n"
    "                       (domains 1-16, cores 1-2; default release, 1 domain, 1 core); default\n"
    "                       imx8mm-evk:release,imx8mm-evk:debug:d16,imx8mm-evk:debug:c2,odroidc4:release\n"
    "  --checks N           states per configuration (default 200000), the same for both trees\n"
    "  --seconds N          instead: run each configuration for N seconds (both trees see the same states)\n"
    "  --seed S             the first state's seed (default 1)\n"
    "  --kernel K           the kernel the model mirrors for both (default: each build's own, kernel.info)\n"
    "  -o REPORT.md         the Markdown report there (default stdout)\n"
    "  --json FILE          the report as JSON (irqsim report reads it)\n"
    "  --out DIR            a reproducer scenario for each new kind, the unexplained ones first\n"
    "  --cache, --pyfdt, -D  passed to the kernel builds (irqsim kernel --help)\n"
    "  --quiet              no progress on stderr\n"
    "\n"
    "Exit status: 0 nothing new, 1 something new (or the tree does not build where the baseline did,\n"
    "or lost the baseline's fastpath_irq or fastpath_signal), 2 bad input (an option, a tree, a board,\n"
    "a baseline that does not build), 3 the kernel cannot be built here (a missing tool or Python\n"
    "module), 4 an output could not be written, 5 incomplete: a configuration ran no state, or a build\n"
    "has a target the review did not run (each target is named, present or absent, in the report),\n"
    "6 nothing new, but part of the change never ran: a changed kernel line with code no state executed,\n"
    "a changed function no state entered, a change no configuration compiles, or a change not measured\n"
    "(the tree's coverage build runs the same states: docs/REVIEW.md, \"The change, measured\").\n";

struct review_cmd {
    struct review_opts r;
    const char *configs, *md, *json;
    bool seconds_set;
};

static int add_define(void *opts, const char *v, char *why, size_t len)
{
    struct review_cmd *o = opts;
    const char *eq = strchr(v, '=');
    if (!eq || eq == v || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != (size_t)(eq - v)) {
        snprintf(why, len, "expected NAME=VALUE (a CMake cache variable of the kernel)");
        return -1;
    }
    if (o->r.n_defines == REVIEW_MAX_DEFINES) {
        snprintf(why, len, "at most %d", REVIEW_MAX_DEFINES);
        return -1;
    }
    o->r.defines[o->r.n_defines++] = v;
    return 0;
}

#define O struct review_cmd
static const struct cli_opt table[] = {
    CLI_ROW(O, "--sel4", CLI_STR, r.tree),
    CLI_ROW(O, "--baseline", CLI_STR, r.base),
    CLI_ROW(O, "--configs", CLI_STR, configs),
    CLI_NUM(O, "--checks", CLI_U64, r.checks, 1, 1e15),
    {"--seconds", CLI_REAL, offsetof(O, r.seconds), 0.01, 1e7, NULL, NULL, offsetof(O, seconds_set)},
    CLI_NUM(O, "--seed", CLI_U64, r.seed, 0, 1.8e19),
    CLI_ROW(O, "--kernel", CLI_KERNEL, r.kernel),
    CLI_ROW(O, "-o", CLI_STR, md),
    CLI_ROW(O, "--json", CLI_STR, json),
    CLI_ROW(O, "--out", CLI_STR, r.out),
    CLI_ROW(O, "--cache", CLI_STR, r.cache),
    CLI_ROW(O, "--pyfdt", CLI_STR, r.pyfdt),
    {"-D", CLI_FN, 0, 0, 0, NULL, add_define, 0},
    CLI_ROW(O, "--quiet", CLI_SET, r.quiet),
};
#undef O

static int parse(int argc, char **argv, struct review_cmd *o, struct review_config *cfgs, int *n)
{
    memset(o, 0, sizeof *o);
    o->r.seed = 1;
    o->r.kernel = -1;
    struct cli_cmd c = {"review", usage, "irqsim review --help", table, sizeof table / sizeof table[0], NULL};
    int rc = cli_parse(&c, o, 2, argc, argv);
    if (rc)
        return rc == 1 ? -1 : rc;
    if (!o->r.tree)
        return cli_error(&c, "needs --sel4 TREE (a seL4 checkout or tarball)");
    if (o->r.checks && o->seconds_set)
        return cli_error(&c, "--checks and --seconds exclude each other");
    if (!o->r.checks && !o->seconds_set)
        o->r.checks = 200000;
    char why[300];
    *n = review_parse_configs(o->configs ? o->configs : review_default_configs, cfgs, REVIEW_MAX_CONFIGS, why,
                              sizeof why);
    if (*n < 0)
        return cli_error(&c, "--configs: %s", why);
    for (const char *p[] = {o->r.tree, o->r.base}, **q = p; q < p + 2; q++)
        if (*q && access(*q, R_OK))
            return cli_error(&c, "%s: no such tree or tarball", *q);
    if (out_not_input("irqsim review", (const char *const[]){o->md, o->json}, 2,
                      (const char *const[]){o->r.tree, o->r.base, o->r.pyfdt}, 3))
        return 2;
    return 0;
}

/* The status of one configuration: EXIT_USAGE or EXIT_CANNOT_BUILD when
 * it could not be judged (rc: review_run's, build-kernel.sh's statuses). */
static int config_status(const struct review_result *res, int rc)
{
    if (rc == EXIT_DIVERGE && review_tree_unbuilt_new(res))
        return EXIT_DIVERGE; /* the tree does not build: new (n_new says so) */
    if (rc)
        return rc == EXIT_CANNOT_BUILD ? EXIT_CANNOT_BUILD : EXIT_USAGE;
    if (res->n_new)
        return EXIT_DIVERGE; /* lost_fastpath among them */
    if (!res->ran)
        return EXIT_INCOMPLETE; /* no state ran: nothing checked is no pass */
    /* a target the build has and the review did not run: nothing new on
     * the others is no pass for it (issue 30) */
    return review_unreviewed(res) ? EXIT_INCOMPLETE : EXIT_AGREE;
}

/* On stderr, the one place a script shows: each configuration where a
 * target some build has was not reviewed. The number of them. */
static int say_unreviewed(const struct review_result *res, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        unsigned m = review_unreviewed(&res[i]);
        if (!m || !res[i].ran)
            continue;
        char name[96], text[300];
        if (res[i].n_new)
            review_unreviewed_text(m, text, sizeof text);
        else
            review_nothing_new_text(review_reviewed(&res[i]), m, text, sizeof text);
        fprintf(stderr, "irqsim review: %s: %s (a build has it; review does not run it yet)\n",
                review_config_name(&res[i].cfg, name, sizeof name), text);
        count++;
    }
    return count;
}

/* The summary's first lines (with -o; without, the report on standard
 * output leads with them): what is new, one line per group, with the
 * command that replays its smallest reproducer. */
static void say_groups(const struct review_opts *o, const struct review_result *res, int n)
{
    struct review_group g[REVIEW_MAX_GROUPS];
    int left, count = review_groups_all(res, n, g, REVIEW_MAX_GROUPS, &left);
    if (!count)
        return;
    printf("irqsim review: what is new, by defect (%d group%s; each one's kinds are in the report):\n", count,
           count == 1 ? "" : "s");
    for (int i = 0; i < count; i++) {
        char label[HK_TEXT_LEN + 300], where[300], replay[2200];
        printf("  %d. %s: %" PRIu64 " state%s, %d kind%s", i + 1, review_group_label(&g[i], label, sizeof label),
               g[i].states, g[i].states == 1 ? "" : "s", g[i].kinds, g[i].kinds == 1 ? "" : "s");
        if (n > 1)
            printf(", %s", review_group_configs(&g[i], res, n, where, sizeof where));
        if (g[i].repro.kind)
            printf("; replay: %s\n", review_group_replay(&g[i], replay, sizeof replay));
        else
            printf("; %s\n", o->out ? "no reproducer written" : "reproducers: run again with --out DIR");
    }
    if (left)
        printf("  (%d new kinds past %d groups, not grouped)\n", left, REVIEW_MAX_GROUPS);
}

static int write_outputs(const struct review_cmd *o, struct review_result *res, int n)
{
    int bad = 0;
    char *md = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&md, &len);
    if (!mem)
        return 1;
    review_markdown(mem, &o->r, res, n);
    fclose(mem);
    if (o->md)
        bad += out_text("irqsim review", o->md, md) != 0;
    else
        fputs(md, stdout);
    free(md);
    if (o->json) {
        struct out *out = out_open("irqsim review", o->json);
        if (out)
            review_json(out, &o->r, res, n);
        bad += !out || out_close(out) != 0;
    }
    return bad;
}

int review_main(int argc, char **argv)
{
    struct review_cmd o;
    struct review_config cfgs[REVIEW_MAX_CONFIGS];
    int n = 0;
    int rc = parse(argc, argv, &o, cfgs, &n);
    if (rc)
        return rc < 0 ? EXIT_AGREE : rc;
    if (o.r.out && out_dir("irqsim review", o.r.out))
        return EXIT_OUTPUT;
    struct review_result *res = calloc((size_t)n, sizeof *res);
    if (!res)
        return EXIT_USAGE;
    stop_catch();
    static struct rk_change change;
    o.r.change = &change;
    int status = EXIT_AGREE, bad = 0, done = 0;
    for (int i = 0; i < n && !stop_requested(); i++, done++) {
        res[i].cfg = cfgs[i];
        int c = config_status(&res[i], review_run(&o.r, &res[i]));
        if (c != EXIT_CANNOT_BUILD && c != EXIT_USAGE)
            review_change_measure(&o.r, &res[i], &change);
        bad += review_reproducers(&o.r, &res[i]);
        if (c == EXIT_DIVERGE && review_tree_unbuilt_new(&res[i]))
            res[i].n_new = 1;
        status = c > status ? c : status;
    }
    bad += write_outputs(&o, res, done);
    int nn = 0, ng = 0, lost = 0;
    for (int i = 0; i < done; i++)
        nn += res[i].n_new, ng += res[i].n_gone;
    for (int t = 0; t < RV_TARGETS; t++) {
        int lt = 0;
        for (int i = 0; i < done; i++)
            lt += res[i].lost[t];
        if (lt) /* on stderr too: the one line a script shows of a failed review */
            fprintf(stderr, "irqsim review: the tree lost the baseline's %s on %d of %d configuration%s: "
                            "only its slowpath was checked there\n",
                    review_target_of(t)->fast_fn, lt, done, done == 1 ? "" : "s");
        lost += lt;
    }
    int unreviewed = say_unreviewed(res, done);
    /* nothing new over changed code no state ran is no pass (issue 30) */
    struct review_change_total ct;
    review_change_total(res, done, &ct);
    if (ct.any) {
        char text[1200];
        review_change_text(res, done, &ct, &change, 4, text, sizeof text);
        fprintf(stderr, "irqsim review: the change: %s\n", text);
    }
    if (status == EXIT_AGREE && review_change_unrun(&ct))
        status = EXIT_UNRUN;
    if (o.md)
        say_groups(&o.r, res, done);
    if (o.md)
        printf("irqsim review: %d new, %d gone%s over %d configuration%s%s (report: %s)\n", nn, ng,
               lost ? " (the baseline's fastpath kinds: the tree has no fastpath)" : " or better", done,
               done == 1 ? "" : "s",
               unreviewed                    ? "; a target of the build was not reviewed"
               : review_change_unrun(&ct)    ? "; part of the change never ran"
                                             : "",
               o.md);
    if (stop_requested())
        fprintf(stderr, "irqsim review: interrupted by %s after %d of %d configurations\n", stop_name(stop_requested()),
                done, n);
    for (int i = 0; i < n; i++)
        review_free(&res[i]);
    free(res);
    rk_change_free(&change);
    if (bad && status < EXIT_USAGE)
        status = EXIT_OUTPUT;
    return stop_finish(status);
}
