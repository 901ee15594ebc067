/*
 * realcmd: the commands of the real-kernel mode (docs/REAL-KERNEL.md):
 *   irqsim kernel build ...          build a host kernel from a seL4 tree
 *   irqsim validate --real BUILD     the model against the real kernel
 *   irqsim fuzz --real BUILD         real fastpath against real slowpath
 *   irqsim check --real BUILD FILE   the same verdict for scenario files
 */
#ifndef IRQSIM_REALCMD_H
#define IRQSIM_REALCMD_H

#include <stdbool.h>

/* True when argv (a command line of irqsim) is one of these commands. */
bool realcmd_wants(int argc, char **argv);
/* argv[1] is the command; returns the exit status. */
int realcmd_main(int argc, char **argv);

#endif
