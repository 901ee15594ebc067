/*
 * kcovcmd: `irqsim kernel coverage BUILD`: the real kernel's branches on
 * the interrupt and signal paths, reached by generated states or argued
 * unreachable (docs/KERNEL-COVERAGE.md).
 */
#ifndef IRQSIM_KCOVCMD_H
#define IRQSIM_KCOVCMD_H

/* argv[1] is "kernel", argv[2] "coverage"; returns the exit status. */
int kcovcmd_main(int argc, char **argv);

#endif
