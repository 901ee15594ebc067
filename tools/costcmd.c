/* costcmd: `irqsim cost` prints the path cost tables. */
#include "costcmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "out.h"
#include "cost.h"
#include "invariant.h"
#include "irq_fast.h"

static const char cost_usage[] =
    "usage: irqsim cost [--board NAME] [--json FILE]\n"
    "  counts of kernel-object reads (R), writes (W) and branches (B) per path\n"
    "  and section, for the switch (irquser) and no-switch situations of PR #1227,\n"
    "  and the fastpath's overhead on states where it falls back to the slowpath\n"
    "  --board NAME  {boards} (default imx8mm)\n"
    "  --json FILE   also write every count as JSON\n";

/* A state the paths may run on: it passes the entry invariants. */
static int valid(const struct kstate *ks, const char *what)
{
    struct inv_report r;
    int n = kstate_check(ks, INV_AT_ENTRY, &r);
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
        fprintf(stderr, "irqsim cost: %s: invariant %s: %s\n", what, inv_name(r.items[i].id), r.items[i].msg);
    return n == 0;
}

static void json_counts(FILE *f, const struct cost_counts *c)
{
    fprintf(f, "{");
    for (int s = 0; s < SEC_COUNT; s++)
        fprintf(f, "%s\"%s\": [%u, %u, %u]", s ? ", " : "", cost_section_name(s), c->n[s][CK_R], c->n[s][CK_W],
                c->n[s][CK_B]);
    fprintf(f, ", \"total\": [%u, %u, %u]}", cost_total(c, CK_R), cost_total(c, CK_W), cost_total(c, CK_B));
}

static void json_path(FILE *f, const struct cost_result *r, int p, const char *indent)
{
    fprintf(f, "%s\"%s\": {\"exit\": \"%s\", \"counts\": ", indent, cost_path_name(p),
            p == CP_SLOW ? "-" : fp_exit_name(r->exit));
    json_counts(f, &r->rec.c);
    if (r->rec.fell_back) {
        fprintf(f, ", \"before_fallback\": ");
        json_counts(f, &r->rec.at_fallback);
    }
    fprintf(f, "}");
}

/* The situations' tables. */
static int situations(FILE *json, const char *board, struct kstate *in, struct kstate *out)
{
    static struct cost_result res[CS_COUNT][CP_COUNT];
    for (int s = 0; s < CS_COUNT; s++) {
        if (cost_situation_build(in, s, board) != 0 || !valid(in, cost_situation_name(s)))
            return -1;
        for (int p = 0; p < CP_COUNT; p++)
            cost_run(in, p, out, &res[s][p]);
        printf("\n%s: %s\n", cost_situation_name(s), cost_situation_what(s));
        cost_print_table(stdout, res[s]);
    }
    if (json) {
        fprintf(json, "  \"situations\": {");
        for (int s = 0; s < CS_COUNT; s++) {
            fprintf(json, "%s\n    \"%s\": {\n", s ? "," : "", cost_situation_name(s));
            for (int p = 0; p < CP_COUNT; p++) {
                json_path(json, &res[s][p], p, "      ");
                fprintf(json, "%s\n", p + 1 < CP_COUNT ? "," : "");
            }
            fprintf(json, "    }");
        }
        fprintf(json, "\n  },\n");
    }
    return 0;
}

static void print_rwb(const struct cost_counts *c)
{
    char cell[32];
    snprintf(cell, sizeof cell, "%u/%u/%u", cost_total(c, CK_R), cost_total(c, CK_W), cost_total(c, CK_B));
    printf(" %-12s", cell);
}

/* One fallback case for one fastpath: returns false when it did not fall back. */
static bool fallback_row(const struct cost_result *slow, const struct cost_result *fast)
{
    printf(" %-19s", fp_exit_name(fast->exit));
    if (!fast->rec.fell_back) {
        printf(" %-12s %-12s %s\n", "-", "-", "(finishes by itself: no fallback)");
        return false;
    }
    int32_t d[CK_COUNT];
    cost_diff(&fast->rec.c, &slow->rec.c, d);
    char over[48];
    snprintf(over, sizeof over, "%+d/%+d/%+d", d[CK_R], d[CK_W], d[CK_B]);
    print_rwb(&fast->rec.at_fallback);
    print_rwb(&fast->rec.c);
    uint32_t all = cost_all(&slow->rec.c);
    printf(" %-14s %+5.1f%%\n", over,
           all ? 100.0 * (double)(d[CK_R] + d[CK_W] + d[CK_B]) / (double)all : 0.0);
    return true;
}

static int fallbacks(FILE *json, const char *board, struct kstate *in, struct kstate *out)
{
    static struct cost_result res[CC_COUNT][CP_COUNT];
    bool ok[CC_COUNT];
    printf("\nfallback overhead: the fastpath's checks run, then the whole slowpath\n");
    printf("(R/W/B totals; overhead = fastpath total - slowpath alone, and its share of the slowpath's R+W+B)\n");
    printf("  %-15s %-9s %-12s %-7s %-19s %-12s %-12s %s\n", "case", "from", "slowpath", "variant", "exit",
           "checks", "fast total", "overhead");
    for (int c = 0; c < CC_COUNT; c++) {
        ok[c] = cost_case_build(in, c, board) == 0 && valid(in, cost_case_name(c));
        if (!ok[c]) {
            printf("  %-15s (no valid state could be built)\n", cost_case_name(c));
            continue;
        }
        for (int p = 0; p < CP_COUNT; p++)
            cost_run(in, p, out, &res[c][p]);
        for (int p = CP_PR1227; p < CP_COUNT; p++) {
            if (p == CP_PR1227) {
                printf("  %-15s %-9s", cost_case_name(c), cost_situation_name(cost_case_base(c)));
                print_rwb(&res[c][CP_SLOW].rec.c);
            } else {
                printf("  %-15s %-9s %-12s", "", "", "");
            }
            printf(" %-7s", cost_path_name(p));
            fallback_row(&res[c][CP_SLOW], &res[c][p]);
        }
    }
    printf("cases:\n");
    for (int c = 0; c < CC_COUNT; c++)
        printf("  %-15s %s\n", cost_case_name(c), cost_case_what(c));
    if (json) {
        fprintf(json, "  \"fallback_cases\": {");
        bool first = true;
        for (int c = 0; c < CC_COUNT; c++) {
            if (!ok[c])
                continue;
            fprintf(json, "%s\n    \"%s\": {\"from\": \"%s\",\n", first ? "" : ",", cost_case_name(c),
                    cost_situation_name(cost_case_base(c)));
            first = false;
            for (int p = 0; p < CP_COUNT; p++) {
                json_path(json, &res[c][p], p, "      ");
                fprintf(json, "%s\n", p + 1 < CP_COUNT ? "," : "");
            }
            fprintf(json, "    }");
        }
        fprintf(json, "\n  }\n");
    }
    return 0;
}

struct cost_opts {
    const char *board, *json;
};

static const struct cli_opt cost_table[] = {
    CLI_ROW(struct cost_opts, "--board", CLI_BOARD, board),
    CLI_ROW(struct cost_opts, "--json", CLI_STR, json),
};
static const struct cli_cmd cost_cmd = {"cost", cost_usage, NULL, cost_table, sizeof cost_table / sizeof cost_table[0],
                                        NULL};

int cost_main(int argc, char **argv)
{
    struct cost_opts o = {"imx8mm", NULL};
    int rc = cli_parse(&cost_cmd, &o, 2, argc, argv);
    if (rc)
        return rc == 1 ? EXIT_AGREE : rc;
    const char *board = o.board, *json_path_arg = o.json;
    struct kstate *in = calloc(1, sizeof *in), *out = calloc(1, sizeof *out);
    struct out *jout = NULL;
    if (!in || !out) {
        fprintf(stderr, "irqsim cost: out of memory\n");
        free(in);
        free(out);
        return EXIT_USAGE;
    }
    if (json_path_arg && !(jout = out_open("irqsim cost", json_path_arg))) {
        free(in);
        free(out);
        return EXIT_OUTPUT;
    }
    FILE *json = jout ? jout->f : NULL;
    printf("irqsim cost: board %s; kernel work each path does, counted in the model:\n", board);
    printf("R reads and W writes of kernel objects, node state, IRQ table, caps and GIC/timer registers;\n");
    printf("B conditional branches (docs/COST.md). Sections:\n");
    for (int s = 0; s < SEC_COUNT; s++)
        printf("  %-17s %s\n", cost_section_name(s), cost_section_what(s));
    if (json)
        fprintf(json, "{\n  \"board\": \"%s\",\n", board);
    rc = situations(json, board, in, out) == 0 && fallbacks(json, board, in, out) == 0 ? EXIT_AGREE : EXIT_USAGE;
    if (json && rc == 0) {
        fprintf(json, "}\n");
        if (out_close(jout) != 0)
            rc = EXIT_OUTPUT;
    } else if (json) {
        out_discard(jout); /* a half-done JSON is not kept */
    }
    free(in);
    free(out);
    return rc;
}
