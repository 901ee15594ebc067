/*
 * stop: SIGINT and SIGTERM as a request to stop a long run (fuzz, the
 * workload fuzzer, exhaust) at its next check, so that it still prints
 * its summary and writes its JSON and state file for the work done.
 * A signal ignored when the run starts (nohup, a background job of a
 * shell without job control) stays ignored.
 */
#ifndef IRQSIM_STOP_H
#define IRQSIM_STOP_H

/* The exit status of a run that did not check all it was asked to: it
 * checked nothing (a workload with no entry of its target, an empty
 * trace), or it stopped (--seconds, --stop-after) before the end of a bound
 * it states. Its summary says what was done; "no divergence" of a part is
 * not a pass of the whole. A divergence found is still 1. */
#define RUN_INCOMPLETE 5

/* Catch SIGINT and SIGTERM from now on. */
void stop_catch(void);
/* The signal that asked the run to stop, 0 when none did. */
int stop_requested(void);
/* "SIGINT" or "SIGTERM" for stop_requested()'s value. */
const char *stop_name(int sig);
/* The run's end, once its outputs are written: the signals back to their
 * defaults; returns rc. */
int stop_finish(int rc);
/* The process's end, once standard output is checked too (main): when a
 * signal stopped the run and rc says no more than agree (0), diverge (1)
 * or incomplete (5), the process ends by that signal (status 128 + its
 * number in a shell: 130, 143), so a shell loop or make stops as it would
 * have without the handler. Otherwise returns rc (2, 4 outrank). */
int stop_exit(int rc);

#endif
