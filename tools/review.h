/*
 * review: a seL4 developer's tree against a baseline (docs/REVIEW.md),
 * the engine under `irqsim review`. For each configuration of a matrix
 * (board, domains, cores, debug or release) both trees are built
 * (real/build-kernel.sh, cached) and opened, and every generated state of
 * the tree's build goes, in lockstep, through both kernels: the model
 * against each real path (validate --real), each real fastpath (as built,
 * kernel-C corrected) against its own slowpath (fuzz --real), and each
 * real path of the tree against the same path of the baseline. What the
 * tree shows and the baseline does not is new; the reverse is gone.
 * Without a baseline, new is what PR #1227's known defects do not explain.
 * The report writers (Markdown, JSON) are in reviewout.c.
 */
#ifndef IRQSIM_REVIEW_H
#define IRQSIM_REVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "defect.h"
#include "hostkernel.h"
#include "rk_change.h"

struct out;
struct rk_kernel;
struct target;

#define REVIEW_MAX_CONFIGS 16
#define REVIEW_MAX_KINDS 512
#define REVIEW_MAX_DEFINES 16

/* One configuration of the matrix, as build-kernel.sh takes it. */
struct review_config {
    char board[32];
    int domains, cores;
    bool debug;
    bool hyp;                 /* KernelArmHypervisorSupport (the VMIDs real: docs/REAL-KERNEL.md) */
};

/* What is compared on a state. */
enum review_check {
    RV_VAL_SLOW,     /* the model's slowpath against the real one */
    RV_VAL_FAST,     /* the model of PR #1227 against the real fastpath_irq */
    RV_VAL_FIXED,    /* the model's corrected fastpath against the kernel-C one */
    RV_FUZZ,         /* the real fastpath_irq against the real slowpath */
    RV_FUZZ_FIXED,   /* the kernel-C corrected fastpath against the real slowpath */
    RV_INV_SLOW,     /* the real slowpath's outcome against the exit invariants (cause: the invariant) */
    RV_INV_FAST,     /* the real fastpath's, admitting what the fastpath as written leaves */
    RV_INV_FIXED,    /* the kernel-C corrected fastpath's */
    RV_SLOW_VS_BASE, /* the tree's slowpath against the baseline's */
    RV_FAST_VS_BASE, /* the tree's fastpath_irq against the baseline's */
    RV_FIXED_VS_BASE, /* the corrected fastpath on the tree's kernel against it on the baseline's */
    RV_CHECK_COUNT
};

/* The targets a build may have, in the report's order: the registered
 * targets (check/target.h) that have a real-kernel driver (realdrv.h),
 * review_target_of(t). Each has a fastpath the kernel builds or not
 * (kernel.info); a target a build has that the review does not run is
 * said, never passed over: its "nothing new" would be the silent verdict
 * of issue 30. The first is the default target, whose figures are also a
 * side's own (the JSON's first keys); RV_TARGETS is their number, one
 * more for each target registered with a driver (test_reviewgroup holds
 * it to the registry). */
enum review_target {
    RV_T_FIRST,      /* the default target (PR #1227's fastpath_irq) */
    RV_TARGETS = 4
};

/* A *_VS_BASE change: where the tree's fastpath now stands against its
 * own slowpath. */
enum review_change {
    RV_CH_DIVERGES, /* it diverges from the tree's slowpath (or the slowpath changed) */
    RV_CH_AGREES,   /* it agrees with the tree's slowpath, which did not change: fixed there */
    RV_CH_NARROWED, /* it diverges in fewer fields than the baseline's did */
    RV_CH_FOLLOWS   /* it changed with the tree's slowpath and agrees with it */
};

/* A kind: the same target, check, fields, halt, cause and change. */
struct review_kind {
    int target;               /* enum review_target whose states showed it */
    int check;                /* enum review_check (the target's paths: fastpath_signal for RV_FUZZ there) */
    uint32_t fields;          /* DF_* bits */
    bool halt;                /* a real path halted (a failed kernel assertion) */
    bool known;               /* a known finding (a known halt; a divergence a defect explains) */
    unsigned cause;           /* RV_FUZZ: the model's cause (0: the model agrees; CLASS_NO_FIX); RV_INV_*:
                                 the invariant broken (invariant.h) */
    int change;               /* *_VS_BASE: enum review_change */
    uint64_t count[2];        /* states: [0] the tree, [1] the baseline */
    uint64_t seed[2];         /* the first state's seed on each */
    char text[HK_TEXT_LEN];   /* a halt's text */
    char *reproducer;         /* written (allocated), NULL: none */
    int size;                 /* its state's shrink_size (objects, refills, IRQs in use); 0: none written */
};

/* One side (the tree or the baseline) of one configuration. */
struct review_side {
    char tree[1024];          /* as given */
    char build[1024];         /* the build folder, "" when it did not build */
    int build_rc;             /* build-kernel.sh's exit status */
    char commit[48];
    int kernel;               /* enum ks_kernel the model runs for it (kernel.info, unless --kernel) */
    ks_features features;      /* the tree's own features where they are no version's (ks_config features) */
    bool irq_fastpath;        /* the build has fastpath_irq */
    bool present[RV_TARGETS]; /* the build has each target's fastpath (kernel.info) */
    uint64_t mismatches;      /* validate: states where the model and the kernel differ (known halts apart) */
    uint64_t diverged;        /* fuzz: states where fastpath_irq diverges from the slowpath */
    uint64_t diverged_fixed;  /* the corrected fastpath from the slowpath */
    uint64_t unexplained;     /* of diverged: no known defect explains it (the model agrees, no fix
                                 removes it, or an unknown halt) */
    uint64_t halts, known_halts, unfit;
    uint64_t defects[DEFECT_MAX]; /* states whose divergence the model's cause puts on each defect */
    /* per target (the IRQ target's are also in the fields above) */
    uint64_t t_mismatches[RV_TARGETS], t_diverged[RV_TARGETS], t_unfit[RV_TARGETS], t_unexplained[RV_TARGETS];
    /* the kernel's outcomes held to the exit invariants (tools/realinv.h),
     * and those that broke one, over the targets */
    uint64_t inv_checked, inv_broken;
    uint64_t inv_unfit;       /* outcomes not held: their state is no entry state of this side's kernel */
    uint64_t t_defects[RV_TARGETS][DEFECT_MAX]; /* the target's defects, its n_defects of them */
};

/* The change measured on one configuration (issue 30 item 2,
 * reviewchange.c): what the review's states executed of the kernel C the
 * tree changes, on the tree's coverage build. */
struct review_measure {
    bool measured;              /* m holds this configuration's measure */
    bool none;                  /* no baseline, or the trees' C is the same: nothing to measure */
    char why[600];              /* not measured and not none: why */
    char cov[1024];             /* the coverage build */
    double seconds;             /* the coverage build and run */
    struct rk_change_cfg m;
};

/* One configuration's run. */
struct review_result {
    struct review_config cfg;
    struct review_side side[2]; /* [0] the tree, [1] the baseline */
    bool has_base, same_build;
    bool lost_fastpath;         /* the baseline's build has fastpath_irq, the tree's has not: new (its
                                   fastpath kinds are gone because nothing ran, not better) */
    bool ran;                   /* both built and opened: the states ran */
    bool reviewed[RV_TARGETS];  /* the target's states ran through both kernels */
    bool lost[RV_TARGETS];      /* the baseline's build has the target's fastpath, the tree's has not */
    uint64_t t_states[RV_TARGETS];     /* states of each target's entry */
    double t_seconds[RV_TARGETS];      /* their time (seconds is the sum) */
    uint64_t t_changed[RV_TARGETS][3]; /* states where the tree's slowpath, fastpath, corrected fastpath differ
                                          from the baseline's (as changed[]) */
    int running;                /* enum review_target whose states run now (the engine's) */
    char why[600];              /* when not: why */
    uint64_t states;
    double seconds;
    uint64_t changed[3];        /* states where the tree's slowpath, fastpath, corrected fastpath differ */
    struct review_kind kinds[REVIEW_MAX_KINDS];
    int n_kinds;
    uint64_t dropped;           /* states of kinds past REVIEW_MAX_KINDS: in the totals, not listed */
    int n_new, n_gone;
    struct review_measure change;
};

/* How the builds are made and the states run. */
struct review_opts {
    const char *tree, *base;    /* base NULL: against the known defects */
    const char *cache, *pyfdt;  /* NULL: build-kernel.sh's defaults */
    const char *defines[REVIEW_MAX_DEFINES]; /* -D NAME=VALUE for the kernel's configure */
    int n_defines;
    uint64_t checks;            /* states per configuration; 0: for seconds */
    double seconds;
    uint64_t seed;
    int kernel;                 /* --kernel: the model's kernel for both, -1 each build's own */
    const char *out;            /* reproducers of what is new go here; NULL: none written */
    bool quiet;                 /* no progress on stderr */
    struct rk_change *change;   /* the trees' change (reviewchange.c), read at the first configuration; NULL:
                                   not measured */
};

/* "BOARD[:debug|:release][:dN][:cN],..." into cfgs; the number read, or
 * -1 with the reason in why. */
int review_parse_configs(const char *list, struct review_config *cfgs, int max, char *why, size_t len);
/* "imx8mm-evk, release, 1 core, 1 domain" */
const char *review_config_name(const struct review_config *c, char *buf, size_t len);
extern const char review_default_configs[];

/* Build (or find in the cache) tree for c; 0 with the folder in dir, else
 * build-kernel.sh's exit status (1 failed, 2 bad input, 3 cannot build
 * here), its last error line in why. */
int review_build(const struct review_opts *o, const char *tree, const struct review_config *c, char *dir,
                 size_t dirlen, char *why, size_t whylen);

/* Build both sides of res->cfg and run the states; res is filled (new and
 * gone counted). 0, or 2 when a build of the tree could not be made for a
 * reason of input (res->why), 3 when it cannot be built here. */
int review_run(const struct review_opts *o, struct review_result *res);
/* The tree of res does not build (its own code fails, build-kernel.sh's
 * 1) and that is new: without a baseline, or where the baseline built
 * (review_run builds it to know; a baseline that fails too leaves the
 * configuration unjudged, not new). */
bool review_tree_unbuilt_new(const struct review_result *res);
/* The hooks of review_replay_states: opened once the build is loaded
 * (0, or not 0 to stop), after each state. */
struct review_replay {
    int (*opened)(void *arg, const struct rk_kernel *k);
    void (*after)(void *arg);
    void *arg;
};
/* res's states (each target's, as many as ran, the same seeds) through
 * the real paths of another build of the tree's configuration (its
 * coverage build), as the review ran them. The number run; 0 with why
 * when the build cannot be opened. */
uint64_t review_replay_states(const struct review_opts *o, const struct review_result *res, const char *build,
                              const struct review_replay *hooks, char *why, size_t len);
/* Write the reproducers of res's new kinds into o->out. The number not written. */
int review_reproducers(const struct review_opts *o, struct review_result *res);
void review_free(struct review_result *res);

/* A target's descriptor (check/target.h); whether either side's build of
 * res has it; whether one of them has it and the review did not run it. */
const struct target *review_target_of(int t);
bool review_target_present(const struct review_result *res, int t);
bool review_target_unreviewed(const struct review_result *res, int t);
/* The targets of res some build has and the review did not run: a mask
 * of 1 << enum review_target, 0 when every target present was reviewed. */
unsigned review_unreviewed(const struct review_result *res);
/* The targets of res that ran, as the same mask. */
unsigned review_reviewed(const struct review_result *res);
/* "IRQ", "signal": a target in the report's sentences. */
const char *review_target_label(int t);
/* "the signal target was not reviewed" for mask's targets ("" for 0). */
const char *review_unreviewed_text(unsigned mask, char *buf, size_t len);
/* The verdict when nothing is new: "nothing new", or "nothing new on the
 * IRQ target; the signal target was not reviewed" (issue 30: never a bare
 * "nothing new" over a target that did not run). */
const char *review_nothing_new_text(unsigned reviewed, unsigned unreviewed, char *buf, size_t len);

/* Whether a kind is new or gone against the baseline (or the known defects). */
bool review_kind_new(const struct review_result *res, const struct review_kind *k);
bool review_kind_gone(const struct review_result *res, const struct review_kind *k);
/* The order the report lists kinds in (0 first): unexplained divergences
 * of the real fastpath, the tree against the baseline, the model against
 * the kernel, the corrected fastpath, the rest. */
int review_kind_rank(const struct review_result *res, const struct review_kind *k);
#define REVIEW_RANKS 5
/* "real fastpath_irq against the real slowpath", a check's name on a
 * target's states; and its short id for the JSON ("fuzz") */
const char *review_check_id(int check);
const char *review_check_name(int target, int check, char *buf, size_t len);
/* Whether check is one of the exit invariants' (RV_INV_*). */
static inline bool review_check_invariant(int check)
{
    return check >= RV_INV_SLOW && check <= RV_INV_FIXED;
}
/* One line for a kind: "current_thread+refills [model cause entry_budget: F1]" */
const char *review_kind_text(const struct review_kind *k, char *buf, size_t len);

/* The report: Markdown (fit for a PR comment) and JSON, over n results. */
void review_markdown(FILE *f, const struct review_opts *o, const struct review_result *res, int n);
void review_json(struct out *out, const struct review_opts *o, const struct review_result *res, int n);

#endif
