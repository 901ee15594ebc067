/*
 * wlfuzz: the workload fuzzer (`irqsim fuzz --mode workload`). Workload i
 * of a run is workload_from_bytes() of bytes drawn from (seed, i); each is
 * simulated on a slowpath kernel and a kernel with the fastpath under test
 * (check/sim.h). Every device interrupt of the slowpath kernel is a state
 * the unmodified kernel reached by kernel operations from boot; the
 * one-entry check runs there and each divergence is classified (exit and
 * cause, classify.h; defects, defect.h). Every kernel entry state of both
 * kernels goes through the invariant checker; a refused state, a failed
 * kernel assertion or a drift of the two kernels without a divergence is
 * a checker or model error (exit 2, the workload saved). New classes are
 * shrunk as workloads (threads, interrupts, SCs, program steps, arrivals,
 * horizon) keeping the class, and saved as workload files.
 */
#ifndef IRQSIM_WLFUZZ_H
#define IRQSIM_WLFUZZ_H

#include "classify.h"
#include "fuzzrun.h"
#include "workload.h"

/* 0 nothing found, 1 divergences, 2 checker or model errors or bad output */
int wlfuzz_run(const struct fuzz_opts *o);

/* The workload is well formed (prints and parses back to itself), its
 * setup succeeds, every entry state passes the checker, and the sweep
 * reaches class cl; *first (may be NULL) gets the first time. */
bool wl_reaches(const struct workload *w, int variant, const struct dclass *cl, ticks_t *first);

/* Shrink w keeping the class; returns the edits kept, -1 when w does not
 * reach cl. */
int wl_shrink(struct workload *w, int variant, const struct dclass *cl);

#endif
