/*
 * costcmd: `irqsim cost`, the path cost model. For the two seL4Bench
 * situations it prints, per section, the reads, writes and branches the
 * slowpath and both fastpaths perform, and for states built to make the
 * fastpath fall back, what its checks add to the slowpath's work.
 */
#ifndef IRQSIM_COSTCMD_H
#define IRQSIM_COSTCMD_H

/* argv[1] is "cost"; returns the exit status (0, or 2 on bad usage). */
int cost_main(int argc, char **argv);

#endif
