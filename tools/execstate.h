/*
 * execstate: the state file of `irqsim exhaust --executions --state FILE`
 * (docs/inputs.md, "Executions state files"): the position in the shard,
 * every total of the run and the set of distinct entry-state hashes, so
 * that a stopped run resumed from it ends with a straight run's figures.
 * Written through a temporary (out.h); read back only once every part of
 * it is checked against the run resuming it.
 */
#ifndef IRQSIM_EXECSTATE_H
#define IRQSIM_EXECSTATE_H

#include "executions.h"

/* r's position and totals into path. 0, or -1 (message printed). */
int execstate_save(const char *path, const struct exec_opts *o, const struct exec_result *r, double elapsed);
/* path into r (as exec_begin left it) and *elapsed: 1 resumed, 0 no such
 * file yet (a new run), -1 refused with "FILE:LINE: problem" printed. */
int execstate_load(const char *path, const struct exec_opts *o, struct exec_result *r, double *elapsed);

#endif
