/*
 * fuzzrun: the standalone differential fuzzer behind `irqsim fuzz`. Worker
 * threads generate states from seeds, run the differential check, count
 * fastpath exits, and classify every divergence; the main thread prints
 * progress, then shrinks and saves each class's first state, prints the
 * summary and writes the JSON. With a budget (max_checks) every figure
 * but the times is the same at any number of jobs.
 */
#ifndef IRQSIM_FUZZRUN_H
#define IRQSIM_FUZZRUN_H

#include <stdint.h>

#include "gen.h"

#define FUZZ_DEFAULT_CLOCKS 1

struct fuzz_opts {
    int variant;           /* FP_PR1227 or FP_FIXED */
    double seconds;        /* run time when max_checks is 0 */
    /* a deterministic budget: exactly checks 0..max_checks-1 (check i is
     * entry clock i % clocks of the state of seed + i / clocks), whatever
     * the number of jobs; no time limit. 0: run for seconds */
    uint64_t max_checks;
    bool by_class;         /* summary lists classes instead of defects */
    /* entry clocks checked per generated state: the first is gen_state's,
     * the others gen_reclock's (each has gen_state's distribution) */
    int clocks;
    uint64_t seed;
    int jobs;
    const char *out_dir;   /* reproducers; NULL: none written */
    const char *json;      /* summary as JSON; NULL: none */
    bool progress;         /* a progress line each second on stderr (progress.h) */
    /* the invariant checker runs on one generated state and its two
     * outcomes in every check_every checks (1: all), and after the run on
     * each class's first state */
    int check_every;
    uint64_t count;        /* states, for `irqsim ratio` */
    bool workload_mode;    /* --mode workload: wlfuzz.h (max_checks counts workloads) */
    int cores;             /* cores the workloads use (workload mode) */
    bool signal_fastpath;  /* every workload builds KernelSignalFastpath beside (workload mode, IRQ target) */
    struct gen_bounds bounds;
};

/* Returns 0 when no divergence was found, 1 when some were, 2 on errors
 * (including a generated state that breaks an invariant), OUT_FAILED when
 * an output could not be written. SIGINT and SIGTERM stop the run at the
 * next check: the summary and the JSON say so, and then the process ends
 * by that signal (stop.h). */
int fuzz_run(const struct fuzz_opts *o);

/* A scenario reproducer: the differential verdict on ks under the title,
 * as comments, then ks (out_reproducer). 0, or -1 with the message printed. */
int fuzz_write_scenario(const char *path, const struct kstate *ks, int variant, const char *title);

#endif
