/*
 * simcmd: irqsim sim [--target irq|signal|call|reply_recv] [--fastpath pr1227|merged|fixed] [--horizon T] [--svg FILE]
 * [--json FILE] WORKLOAD. Runs a workload on a slowpath kernel and a
 * fastpath kernel side by side and reports what the first divergence
 * became.
 */
#include "simcmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "irq_fast.h"
#include "out.h"
#include "scenario.h"
#include "print.h"
#include "sim.h"
#include "stop.h"
#include "target.h"


static const char usage[] =
    "usage: irqsim sim [--target irq|signal|call|reply_recv] [--fastpath pr1227|merged|fixed] [--kernel base|master] [--horizon TICKS]\n"
    "                  [--svg FILE [--from T --span T]] [--json FILE] [--state FILE] [--expect CLASS] WORKLOAD\n"
    "  --target        irq (default): interrupts take PR #1227's fastpath (pr1227|fixed) on the fastpath kernel;\n"
    "                  signal: its SysSends on a notification take master's fastpath_signal (merged|fixed);\n"
    "                  call, reply_recv: its seL4_Calls, seL4_ReplyRecvs take master's fastpath_call,\n"
    "                  fastpath_reply_recv (merged|fixed; kernel master);\n"
    "                  without it, the workload's target line decides (irq without one)\n"
    "  --state FILE    the entry state of the first divergence, as a scenario file (irqsim check reads it)\n"
    "  runs WORKLOAD (docs/workload-format.md) on a slowpath kernel and a fastpath kernel side by side\n"
    "  --from, --span  the picture's time window in ticks (default: around the first divergence)\n"
    "  --expect CLASS  (EXIT/CAUSE, as irqsim fuzz names classes) exit 0 when the sweep reaches it\n"
    "  exit: 0 no divergence, 1 divergence (or a reached state the checker refused; with --expect:\n"
    "  the class not reached), 2 bad input, 4 an output could not be written, 5 nothing checked (no\n"
    "  entry of the target in the run: no device interrupt, or no SysSend on a notification)\n";

struct sim_opts {
    const struct target *target; /* NULL: the workload's */
    int variant;
    const char *variant_name; /* --fastpath as given, resolved for the target */
    int kernel; /* enum ks_kernel; -1: the workload's */
    uint64_t horizon, from, span;
    const char *svg, *json, *file, *expect, *state;
};

/* the one workload file */
static int sim_file(void *opts, const char *arg, char *why, size_t len)
{
    struct sim_opts *o = opts;
    if (o->file) {
        snprintf(why, len, "one workload file only, got also '%s'", arg);
        return -1;
    }
    o->file = arg;
    return 0;
}

#define TICKS_MAX 1099511627776.0 /* 2^40 */
static const struct cli_opt sim_table[] = {
    CLI_ROW(struct sim_opts, "--fastpath", CLI_STR, variant_name),
    CLI_ROW(struct sim_opts, "--target", CLI_TARGET, target),
    CLI_ROW(struct sim_opts, "--kernel", CLI_KERNEL, kernel),
    CLI_NUM(struct sim_opts, "--horizon", CLI_U64, horizon, 1, TICKS_MAX),
    CLI_NUM(struct sim_opts, "--from", CLI_U64, from, 0, TICKS_MAX),
    CLI_NUM(struct sim_opts, "--span", CLI_U64, span, 1, TICKS_MAX),
    CLI_ROW(struct sim_opts, "--expect", CLI_STR, expect),
    CLI_ROW(struct sim_opts, "--svg", CLI_STR, svg),
    CLI_ROW(struct sim_opts, "--json", CLI_STR, json),
    CLI_ROW(struct sim_opts, "--state", CLI_STR, state),
};
static const struct cli_cmd sim_cmd = {"sim", usage, NULL, sim_table, sizeof sim_table / sizeof sim_table[0], sim_file};

static int parse_args(int argc, char **argv, struct sim_opts *o)
{
    int rc = cli_parse(&sim_cmd, o, 1, argc, argv);
    if (rc)
        return rc;
    if (!o->file)
        return cli_error(&sim_cmd, "missing the workload file");
    if (o->from && !o->span)
        return cli_error(&sim_cmd, "--from needs --span");
    return 0;
}

/* --fastpath for the target run: --target's, else the workload's target line */
static int resolve_variant(struct sim_opts *o, const struct target *t)
{
    return cli_variant("sim", t, o->variant_name,
                       !o->target ? " (the workload's target, irq without a target line)" : "", &o->variant);
}

static int write_svg(const char *path, const struct sim *s)
{
    struct out *out = out_open("irqsim sim", path);
    if (!out)
        return -1;
    sim_svg(out->f, s);
    return out_close(out);
}

static int write_json(const char *path, const struct sim *s)
{
    struct out *out = out_open("irqsim sim", path);
    if (!out)
        return -1;
    if (sim_json(out->f, s) != 0)
        out->why = "a thread name is not UTF-8: JSON cannot hold it";
    return out_close(out);
}

static int write_state(const char *path, const struct sim *s)
{
    if (!s->div_state) {
        fprintf(stderr, "irqsim sim: no divergence: %s not written\n", path);
        return 0;
    }
    return out_reproducer("irqsim sim", path, "the entry state of the first divergence of irqsim sim\n",
                          s->div_state, NULL);
}

int sim_main(int argc, char **argv)
{
    struct sim_opts o = {.target = NULL, .variant = FP_PR1227, .kernel = -1};
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc == 1 ? EXIT_AGREE : rc;
    if (out_not_input("irqsim sim", (const char *const[]){o.svg, o.json, o.state}, 3, &o.file, 1))
        return EXIT_USAGE;
    static struct workload w;
    struct scen_error err;
    if (workload_load(o.file, &w, &err) != 0) {
        scen_error_print(stderr, &err);
        return EXIT_USAGE;
    }
    if (o.horizon)
        w.horizon = o.horizon;
    if (o.kernel >= 0) /* else the file's kernel line, base without one */
        w.kernel = (uint8_t)o.kernel;
    if (o.target) /* else the file's target line, irq without one */
        w.target = o.target;
    if (resolve_variant(&o, w.target) != 0)
        return EXIT_USAGE;
    static struct sim s;
    if (sim_init(&s, &w, o.variant) != 0) {
        fprintf(stderr, "%s: %s\n", o.file, s.setup_error);
        return EXIT_USAGE;
    }
    s.svg_from = o.from;
    s.svg_span = o.span;
    sim_run(&s);
    printf("== %s\n", o.file);
    sim_report(stdout, &s);
    int out = EXIT_AGREE;
    if (o.svg && write_svg(o.svg, &s))
        out = EXIT_OUTPUT;
    if (o.json && write_json(o.json, &s))
        out = EXIT_OUTPUT;
    if (o.state && write_state(o.state, &s))
        out = EXIT_OUTPUT;
    bool bad = s.diverged || !sim_all_admitted(&s);
    if (o.expect) { /* the sweep reached the class, every state admitted */
        char name[200];
        bool hit = false;
        for (uint32_t i = 0; i < s.n_found; i++)
            hit |= strcmp(dclass_name(&s.found[i].cl, name, sizeof name), o.expect) == 0;
        printf("expected class %s: %s\n", o.expect, hit ? "reached" : "NOT reached");
        bad = !hit || !sim_all_admitted(&s);
    }
    /* nothing checked, or a run stopped before the horizon, is no pass
     * (sim_report said so) */
    rc = out ? out : bad ? EXIT_DIVERGE : sim_checked_none(&s) || sim_cut(&s) ? EXIT_INCOMPLETE : EXIT_AGREE;
    sim_free(&s);
    return rc;
}
