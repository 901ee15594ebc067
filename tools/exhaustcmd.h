/*
 * exhaustcmd: `irqsim exhaust`, the bounded-exhaustive differential check.
 * Enumerates every state of check/exhaust.c's space within a bound, checks
 * each against the entry invariants (a state that fails is skipped and
 * counted by invariant), runs the differential check on the rest, and
 * reports divergences by defect and by class with a statement of the bound.
 * Resumable (--state FILE) and splittable (--shard K/N).
 */
#ifndef IRQSIM_EXHAUSTCMD_H
#define IRQSIM_EXHAUSTCMD_H

/* argv[0] is "exhaust"; returns 0 no divergence, 1 divergences, 2 bad input. */
int exhaust_main(int argc, char **argv);

#endif
