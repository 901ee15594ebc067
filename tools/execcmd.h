/*
 * execcmd: `irqsim exhaust --executions`, executions from boot of a small
 * system enumerated within a depth (check/executions.h), each run on the
 * workload simulator with every entry checked.
 */
#ifndef IRQSIM_EXECCMD_H
#define IRQSIM_EXECCMD_H

#include <stdbool.h>

/* Whether argv (argv[0] "exhaust") asks for --executions. */
bool exec_wanted(int argc, char **argv);
/* argv[0] is "exhaust"; 0 agree, 1 a divergence or a refused state, 2 bad input, 4 output failed. */
int exec_main(int argc, char **argv);

#endif
