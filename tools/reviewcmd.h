/*
 * reviewcmd: `irqsim review --sel4 TREE [--baseline TREE|TARBALL] ...`,
 * a seL4 tree against a baseline over a configuration matrix
 * (docs/REVIEW.md); the options and the outputs over review.h's engine.
 */
#ifndef IRQSIM_REVIEWCMD_H
#define IRQSIM_REVIEWCMD_H

/* argv[1] is "review"; returns the exit status. */
int review_main(int argc, char **argv);

#endif
