/*
 * simcmd: irqsim sim [--target irq|signal] [--fastpath pr1227|merged|fixed] [--horizon T] [--svg FILE]
 * [--json FILE] WORKLOAD. Runs a workload on a slowpath kernel and a
 * fastpath kernel side by side and reports what the first divergence
 * became.
 */
#include "simcmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irq_fast.h"
#include "out.h"
#include "scenario.h"
#include "print.h"
#include "sim.h"
#include "target.h"

#define EXIT_USAGE 2

static const char usage[] =
    "usage: irqsim sim [--target irq|signal] [--fastpath pr1227|merged|fixed] [--kernel base|master] [--horizon TICKS]\n"
    "                  [--svg FILE [--from T --span T]] [--json FILE] [--state FILE] [--expect CLASS] WORKLOAD\n"
    "  --target        irq (default): interrupts take PR #1227's fastpath (pr1227|fixed) on the fastpath kernel;\n"
    "                  signal: its SysSends on a notification take master's fastpath_signal (merged|fixed);\n"
    "                  without it, the workload's target line decides (irq without one)\n"
    "  --state FILE    the entry state of the first divergence, as a scenario file (irqsim check reads it)\n"
    "  runs WORKLOAD (docs/workload-format.md) on a slowpath kernel and a fastpath kernel side by side\n"
    "  --from, --span  the picture's time window in ticks (default: around the first divergence)\n"
    "  --expect CLASS  (EXIT/CAUSE, as irqsim fuzz names classes) exit 0 when the sweep reaches it\n"
    "  exit: 0 no divergence, 1 divergence (or a reached state the checker refused; with --expect:\n"
    "  the class not reached), 2 bad input\n";

struct sim_opts {
    const struct target *target; /* NULL: the workload's */
    int variant;
    const char *variant_name; /* --fastpath as given, resolved for the target */
    int kernel; /* enum ks_kernel; -1: the workload's */
    unsigned long long horizon, from, span;
    const char *svg, *json, *file, *expect, *state;
};

static int ticks_opt(const char *name, const char *v, unsigned long long lo, unsigned long long *out)
{
    char *end;
    errno = 0;
    *out = strtoull(v, &end, 10);
    if (errno || *end || end == v || *v == '-' || *out < lo || *out > (1ull << 40)) {
        fprintf(stderr, "irqsim sim: %s: expected ticks from %llu to 2^40, got '%s'\n%s", name, lo, v, usage);
        return EXIT_USAGE;
    }
    return 0;
}

static int opt_error(const char *what, const char *arg)
{
    fprintf(stderr, "irqsim sim: %s '%s'\n%s", what, arg, usage);
    return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct sim_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 1;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->file)
                return opt_error("one workload file only, got also", a);
            o->file = a;
            continue;
        }
        if (!has_val)
            return opt_error("missing value for", a);
        const char *v = argv[++i];
        if (strcmp(a, "--fastpath") == 0) {
            o->variant_name = v;
        } else if (strcmp(a, "--target") == 0) {
            o->target = target_by_name(v);
            if (!o->target)
                return opt_error("--target: expected irq or signal, got", v);
        } else if (strcmp(a, "--kernel") == 0) {
            o->kernel = cfg_kernel_parse(v);
            if (o->kernel < 0)
                return opt_error("--kernel: expected base or master, got", v);
        } else if (strcmp(a, "--horizon") == 0) {
            if (ticks_opt(a, v, 1, &o->horizon))
                return EXIT_USAGE;
        } else if (strcmp(a, "--from") == 0) {
            if (ticks_opt(a, v, 0, &o->from))
                return EXIT_USAGE;
        } else if (strcmp(a, "--span") == 0) {
            if (ticks_opt(a, v, 1, &o->span))
                return EXIT_USAGE;
        } else if (strcmp(a, "--expect") == 0) {
            o->expect = v;
        } else if (strcmp(a, "--svg") == 0) {
            o->svg = v;
        } else if (strcmp(a, "--json") == 0) {
            o->json = v;
        } else if (strcmp(a, "--state") == 0) {
            o->state = v;
        } else {
            return opt_error("unknown option", a);
        }
    }
    if (!o->file)
        return opt_error("missing the workload file", "");
    if (o->from && !o->span)
        return opt_error("--from needs --span", "");
    return 0;
}

/* --fastpath for the target run: --target's, else the workload's target line */
static int resolve_variant(struct sim_opts *o, const struct target *t)
{
    if (o->variant_name && (o->variant = t->variant_parse(o->variant_name)) < 0) {
        fprintf(stderr, "irqsim sim: --fastpath: the %s target's fastpaths are %s, got '%s'%s\n%s", t->name,
                t->variants, o->variant_name, !o->target ? " (the workload's target, irq without a target line)" : "", usage);
        return EXIT_USAGE;
    }
    return 0;
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
        return rc == 1 ? 0 : rc;
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
    int out = 0;
    if (o.svg && write_svg(o.svg, &s))
        out = OUT_FAILED;
    if (o.json && write_json(o.json, &s))
        out = OUT_FAILED;
    if (o.state && write_state(o.state, &s))
        out = OUT_FAILED;
    bool bad = s.diverged || !sim_all_admitted(&s);
    if (o.expect) { /* the sweep reached the class, every state admitted */
        char name[200];
        bool hit = false;
        for (uint32_t i = 0; i < s.n_found; i++)
            hit |= strcmp(dclass_name(&s.found[i].cl, name, sizeof name), o.expect) == 0;
        printf("expected class %s: %s\n", o.expect, hit ? "reached" : "NOT reached");
        bad = !hit || !sim_all_admitted(&s);
    }
    sim_free(&s);
    return out ? out : bad;
}
