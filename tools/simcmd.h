/* simcmd: `irqsim sim`, the workload simulator's command (check/sim.h). */
#ifndef IRQSIM_SIMCMD_H
#define IRQSIM_SIMCMD_H

/* argv[0] is "sim". Exit 0 no divergence, 1 divergence or a reached
 * state the checker refused, 2 bad input or usage. */
int sim_main(int argc, char **argv);

#endif
