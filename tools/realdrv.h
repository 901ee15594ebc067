/*
 * realdrv: the real-kernel bridge's drivers, one per target (docs/layout.md,
 * "Adding a target"). Each target's entry reaches the kernel's own C its own
 * way (an IRQ through the interrupt glue, a seL4_Send through the syscall
 * glue), so each target has a driver in a file of its own (realirq.c,
 * realsignal.c) that runs validate, fuzz and check --real on it and runs
 * one path of one state for the review. tools/realcmd.c parses, opens the
 * build and calls the driver of the run's target; review.c calls run.
 * This header is what they share: the options and the run of a --real
 * command, the driver, the registration (REAL_DRIVERS: one line per
 * target), and the pieces every driver's run uses (realdrv.c).
 */
#ifndef IRQSIM_REALDRV_H
#define IRQSIM_REALDRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classify.h"
#include "defect.h"
#include "diff.h"
#include "kstate.h"
#include "progress.h"
#include "realinv.h"
#include "rk_load.h"
#include "situation.h"
#include "target.h"

#define REAL_MAX_FILES 256
#define REAL_MAX_CLASSES 128
#define REAL_MAX_KNOWN 8 /* known findings listed by kind; the rest are counted in real_run.known */

struct real_driver;

/* The options of validate, fuzz, check and bench --real (realcmd.c parses
 * them). */
struct real_opts {
    const char *cmd;
    const char *build;
    bool fixed;             /* fuzz: the corrected kernel-C fastpath, not the one built */
    const struct target *target; /* --target */
    bool target_set;        /* --target given */
    const struct real_driver *driver; /* the target's (real_driver_of) */
    int fastpath;           /* --fastpath as-built|fixed: its index */
    bool fastpath_set;      /* --fastpath given */
    bool seconds_set;
    double seconds;
    uint64_t checks;        /* 0: run for seconds */
    uint64_t seed;
    const char *json, *out;
    bool progress;
    bool show;              /* every state's differing fields (the drivers that print them) */
    bool verbose;           /* fuzz: each kind's fields as it is found (default: the summary) */
    int by;                 /* fuzz: --by defect (0) or class (1): the summary's kinds */
    int jobs;               /* --jobs: 1 (one kernel per process) */
    int kernel;             /* --kernel: enum ks_kernel the model runs, -1 not given (base; check: the file's) */
    bool slow_only;         /* validate's system-call pass (real_syscall_pass): the slowpath alone */
    const char *files[REAL_MAX_FILES];
    int n_files;
};

/* A kind of mismatch (validate) or divergence (fuzz). */
struct rclass {
    int path;               /* validate: the bridge's path (rk_load.h); fuzz: -1 */
    const char *path_name;  /* its name in the outputs (real_count: the driver's that counted it) */
    uint32_t fields;        /* DF_* bits */
    bool halt;              /* the real kernel failed an assertion */
    const char *note;       /* a driver's word on the kind beyond its fields, part of its key and
                               label ("finished-or-fell-back differs"); NULL: none */
    unsigned cause;         /* fuzz: the model's cause (classify.h), CLASS_NO_FIX, or 0: the model agrees */
    uint64_t count, first_seed;
    double first_s;
    char *reproducer;       /* written (allocated); NULL: none */
    char text[HK_TEXT_LEN + 32]; /* a failed assertion's text */
};

struct seen {
    uint32_t key;           /* DF_* fields, bit DF_COUNT: a halt */
    uint64_t n;
};

/* One run of a --real command: the build, the states, the kinds found and
 * the counts the summary and the JSON print. What only one driver counts
 * stays in that driver's own run (realsignal.c's exits). */
struct real_run {
    struct rk_kernel k;
    struct kstate in, a, b;
    struct classify_ws ws;
    struct rclass classes[REAL_MAX_CLASSES];
    int n_classes;
    uint64_t dropped, checks, diverged, halts, classified, known;
    const char *known_what[REAL_MAX_KNOWN]; /* the known findings among the halts (rk_known_halt), in order seen */
    uint64_t known_n[REAL_MAX_KNOWN];
    /* halts the model's kernel makes too: its own failed assertion on the
     * same state and path (rk_predicted_halt), by assertion */
    uint64_t predicted;
    int predicted_id[REAL_MAX_KNOWN];
    uint64_t predicted_n[REAL_MAX_KNOWN], predicted_seed[REAL_MAX_KNOWN];
    struct seen seen[REAL_MAX_CLASSES];
    int n_seen;
    uint64_t defect_hits[DEFECT_MAX];
    uint64_t field_hits[DF_COUNT]; /* fuzz: divergences (every one, not a sample) in which each field differs */
    uint64_t sits[SIT_COUNT];      /* the situations of the states generated (situation.h) */
    uint64_t generated;
    struct realinv inv;            /* the kernel's outcomes held to the exit invariants (realinv.h) */
    /* validate without --target: its system-call pass (real_syscall_pass),
     * whose mismatches and halts are in the totals above too */
    struct {
        bool ran;
        uint64_t checks, diverged, halts;
        double seconds;
    } sys;
    double t0;
    int write_errors; /* outputs that could not be written */
};

/* A state's paths as the review counts them: the slowpath, the fastpath
 * as built, the corrected fastpath (kernel C). */
enum { REAL_NPATH = 3 };

/* The real-kernel bridge of one target, found by the target's name. */
struct real_driver {
    const char *name; /* the target's */
    /* refuses a build that lacks what the command needs of it, after the
     * message (-1); NULL: its drivers check for themselves */
    int (*refused)(const struct real_opts *o, const struct real_run *r);
    int (*validate)(const struct real_opts *o, struct real_run *r);
    int (*fuzz)(const struct real_opts *o, struct real_run *r);
    /* a scenario of the target's entry, loaded in r->in on the build's
     * configuration */
    int (*check)(struct real_run *r, const char *path);
    /* bench --real; NULL: none (refused) */
    int (*bench)(const struct real_opts *o, struct real_run *r);
    bool corrected_in_c; /* a kernel-C corrected fastpath: --fastpath fixed */
    /* the bridge's paths (rk_load.h) of the slowpath, the fastpath as
     * built and the corrected fastpath, -1 none, and their names in the
     * outputs */
    int paths[REAL_NPATH];
    const char *path_names[REAL_NPATH];
    size_t fastpath_flag; /* offsetof(struct hk_info, ...): the build has the fastpath */
    /* bridge path `path` on in into out, as rk_run_x (the review's step):
     * the outcome, -1 when the state does not fit; in gets what making
     * the entry sets (a system call's registers) */
    int (*run)(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x);
    /* `kernel coverage`'s extra entries, made from a state of the first
     * target (in may change): 1 when it made and ran one, 0 when none fits;
     * NULL: none */
    int (*cover)(struct rk_kernel *k, struct kstate *in, uint64_t seed, struct kstate *out);
};

/* The registration: one line per target, each a driver defined in its
 * target's file (tools/real<target>.c), found by the target's name. */
#define REAL_DRIVERS(X) \
    X(realirq_driver)   \
    X(realsignal_driver) \
    X(realcall_driver)   \
    X(realrr_driver)

#define REAL_DRIVER_DECLARE(d) extern const struct real_driver d;
REAL_DRIVERS(REAL_DRIVER_DECLARE)
#undef REAL_DRIVER_DECLARE

/* The driver of target t; NULL: none. */
const struct real_driver *real_driver_of(const struct target *t);
/* Whether the build (its kernel.info) has d's fastpath. */
bool real_has_fastpath(const struct real_driver *d, const struct hk_info *info);
/* Whether a build (its kernel.info) runs d's path p (0 the slowpath, 1 the
 * fastpath as built, 2 the corrected one): a fastpath when built. */
bool real_path_built(const struct real_driver *d, const struct hk_info *info, int p);
/* The name of bridge path p in d's outputs; "-" for none (fuzz: -1). */
const char *real_path_name(const struct real_driver *d, int p);

/* validate --real of a system-call target (its driver's validate): the
 * model's slowpath and fastpath as written against the driver's two real
 * paths, on the target's generated states made the bridge's call */
int real_sys_validate(const struct real_opts *o, struct real_run *r);
/* validate --real without --target, after the interrupt entries: the
 * system calls whose slowpaths no interrupt entry runs, the slowpath alone
 * (no fastpath compared): real_pass_target's entries (every other one
 * redrawn by its gen_invocation: on the signal target a DomainSet_Set or
 * TCB_SetFlags) for --checks N or four shares of --seconds S, then each
 * other system-call target's with a driver (a SysCall, a SysReplyRecv) for
 * N/4 or one share, each one's reproducers in its own folder (syscalls,
 * syscalls-NAME): model against real kernel, the outcomes held to the exit
 * invariants, counted into r's totals. The command's exit status for them. */
int real_syscall_pass(const struct real_opts *o, struct real_run *r, uint64_t checks, double seconds);
/* The target of that pass: the first registered one whose generator draws
 * the invocations (target.h gen_invocation) and that has a driver; NULL
 * when none does (the pass then runs nothing). */
const struct target *real_pass_target(void);
/* fuzz --real of a system-call target: the real fastpath as built against
 * the real slowpath (the driver's paths 1 and 0), no model in the verdict */
int real_sys_fuzz(const struct real_opts *o, struct real_run *r);
/* check --real of a scenario of a system-call target: both real paths,
 * then the model's fastpath as written on the same state */
int real_sys_check(struct real_run *r, const char *path, const struct real_driver *d);
/* check --real's second verdict: the model's slowpath from r->in against
 * the real slowpath's outcome in r->a, as validate's passes compare them
 * (a reproducer of their mismatch says so again); printed, its DF_* bits
 * returned (r->b is the model's outcome after it) */
uint32_t real_check_model_slow(struct real_run *r);
/* the review's step of a system-call target whose states are at `entry` */
int real_sys_run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x, int entry);

/* ---- the pieces every driver's run uses ---- */

/* The kernel's outcome out of bridge path `path` from r->in (normalised by
 * real_compare) held to the exit invariants (realinv.h), admitting what
 * the target's fastpath as written leaves on the fastpath as built; model:
 * the model's outcome of the same path, or NULL. Whether it broke one. */
bool real_check_exit(const struct real_opts *o, struct real_run *r, const struct kstate *out, int path,
                     const struct kstate *model, uint64_t seed);
/* The kassert id of the model's own failed assertion that explains a real
 * halt (text) on the state in, the model's outcome of that path being
 * model; -1 when none does: the halt is a known finding (rk_known_halt,
 * said as such), or the state breaks an entry invariant (the generator's
 * fault, a mismatch), or the model failed no assertion there that would
 * halt (rk_predicted_halt). validate --real and review both ask this. */
int real_predicted_halt(const struct kstate *in, const struct kstate *model, const char *text);
/* A real halt on path `path` that the model's outcome of it (model)
 * explains by one of its own failed kernel assertions (rk_predicted_halt):
 * counted in r->predicted, the first of each assertion said with its seed.
 * Whether it was one; a halt that is not stays a mismatch. */
bool real_halt_predicted(const struct real_opts *o, struct real_run *r, const struct kstate *model,
                         const char *text, int path, uint64_t seed);
/* The summary's lines of those halts, one per assertion; nothing when none. */
void real_predicted_print(const struct real_run *r);
/* check --real: the kernel's outcomes of d's slowpath (r->a) and fastpath
 * as built (r->b), compared already, held to the exit invariants as the
 * build's kernel (a scenario may name another); their kernel versions
 * become the build's. */
void real_check_pair_exit(struct real_run *r, const struct real_driver *d);
/* check --real on a build without the driver's fastpath: the real
 * slowpath's outcome (r->a; w its enum hk_outcome or -1, x its extra)
 * against the model's (r->b, run by the caller unless w says halt or
 * misfit), held to the exit invariants; the verdict printed, the exit
 * status returned. what names the fastpath the build lacks. */
int real_check_slow_verdict(struct real_run *r, const char *path, int w, const struct rk_extra *x,
                            const struct real_driver *d, const char *what);
/* The same of the first n of them (1: r->a, d's slowpath, alone). */
void real_check_outcomes_exit(struct real_run *r, const struct real_driver *d, int n);
/* Both outcomes normalised as the differential check does; the fields that
 * differ (rk_compare). */
uint32_t real_compare(struct kstate *x, struct kstate *y, bool model_debug);
/* The prefix of the command's messages about its outputs. */
const char *real_who(const struct real_opts *o);
/* Count one mismatch or divergence; the first of a kind is printed with
 * its field differences (x against y, named xname and yname) and saved. */
void real_count(const struct real_opts *o, struct real_run *r, struct rclass *key, const struct kstate *x,
                const struct kstate *y, const char *xname, const char *yname);
/* Whether the run is over after i states (--checks, --seconds, a signal). */
bool real_done(const struct real_opts *o, const struct real_run *r, uint64_t i);
void real_progress(struct progress *pr, const struct real_opts *o, const struct real_run *r, uint64_t i);
/* The next generated state of the build in r->in; false when the
 * generator cannot make states for it (said, and the run stops). */
bool real_next_state(const struct real_opts *o, struct real_run *r, uint64_t seed);
/* A driver's `refused` for a build without its target's fastpath
 * (real_has_fastpath): -1 after saying so, else 0. */
int real_refused_unbuilt(const struct real_opts *o, const struct real_run *r);
/* The head of every --real loop: 1 when r->in holds state i, 0 when the
 * run is over (real_done), -1 when the generator cannot make states for
 * the build (said, and the progress line closed: the caller exits 2). */
int real_loop_next(const struct real_opts *o, struct real_run *r, struct progress *pr, uint64_t i);
/* After both real paths of check --real ran: the exit status when one
 * could not run (EXIT_USAGE) or the kernel halted (EXIT_DIVERGE, with the
 * halting side's text); -1 when both finished. */
int real_pair_done(struct real_run *r, const char *path, int ws, int wf, const struct rk_extra *xs,
                   const struct rk_extra *xf);
/* fuzz --real: one divergence of the real paths (key: its fields or
 * halt), counted by field, named by the model's cause (the first of each
 * field set, then a sample: real_classify_now) and counted by kind. */
void real_fuzz_divergence(const struct real_opts *o, struct real_run *r, struct rclass *key, const char *xname,
                          const char *yname);
/* fuzz --real's figures after its run line: the defects named, the
 * fields, the kinds. */
void real_fuzz_summary(const struct real_opts *o, const struct real_run *r);
/* A kind no known defect explains: the model agrees, no fix removes it,
 * or a halt that is no known finding. */
bool real_unexplained(const struct rclass *c);

/* Naming a divergence runs the model up to a dozen times, more than the
 * check itself: the first divergences of each field set are named, then
 * one in CLASSIFY_SAMPLE (the defect counts are over those). */
#define CLASSIFY_FIRST 16
#define CLASSIFY_SAMPLE 32
/* Whether to name the divergence of key (its fields, bit DF_COUNT a halt). */
bool real_classify_now(struct real_run *r, uint32_t key);
/* The fuzz summary's kinds: the unexplained first, then by count. */
void real_fuzz_kinds(const struct real_opts *o, const struct real_run *r);

#endif
