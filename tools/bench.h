/*
 * bench: `irqsim bench`, the throughput benchmark. It measures, one thread,
 * the fuzzer's differential checks per second and each path's own time per
 * execution as the generated states grow along one axis at a time from the
 * default bounds. It prints figures and asserts nothing about time.
 */
#ifndef IRQSIM_BENCH_H
#define IRQSIM_BENCH_H

/* argv[1] is "bench"; returns the exit status (0, or 2 on bad usage). */
int bench_main(int argc, char **argv);

#endif
