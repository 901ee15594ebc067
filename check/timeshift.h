/*
 * timeshift: simulator states equal under a shift of time (issue 31).
 *
 * The kernel model and the simulator compare times with times: a state
 * whose every absolute time is moved by the same delta runs as the
 * unmoved one, moved by that delta, as long as nothing compares a time
 * with a constant that the move crosses (0, the horizon, MAX_RELEASE_TIME,
 * an arrival past the horizon). This module names the absolute times of
 * a state (ts_each_time), moves them (ts_shift) and writes a state as
 * relative to a clock (ts_ks_rel), so that the tree engine can recognise
 * a state met again later in time as the same one moved
 * (check/exectree.c: a periodic stretch of an execution is run once and
 * the rest moved forward; tests/test_exectree.c holds a step of the
 * moved state to be the step of the state, moved).
 *
 * What moves: the kernel's clocks (hw_clock, ksCurTime of each core), the
 * timer deadlines (but "never", UINT64_MAX), the refill times of the
 * refills in use of an SC that is not round-robin; the simulator's own
 * (each kernel's now, the last entry's start, the send time of a
 * reschedule IPI in flight, the arrival time of a pending interrupt, the
 * next arrival of an IRQ not yet taken that is due before the horizon,
 * a periodic IRQ's next arrival). What does not: durations (ksConsumed,
 * budgets, periods, refill amounts, a thread's time left), the refill
 * times of a round-robin SC (set when the SC was configured and never
 * moved: the model reads them only as "at or before now", true of both
 * states when they are not in the future: ts_ks_rel says when one is),
 * fields nothing reads (refills out of use, the send time of no IPI,
 * the arrival time of an IRQ not pending): left as they are by a move and
 * left out of the relative form.
 */
#ifndef IRQSIM_TIMESHIFT_H
#define IRQSIM_TIMESHIFT_H

#include <stdbool.h>
#include <stdint.h>

#include "kstate.h"
#include "sim.h"

/* Call fn(ctx, p) for each absolute time of ks that moves (p points into
 * ks); cores: the workload's (the other core's node state is in use on
 * two only). */
void ts_each_ks_time(struct kstate *ks, int cores, void (*fn)(void *ctx, ticks_t *p), void *ctx);

/* ks's moving times plus delta (mod 2^64; a negative delta is its two's
 * complement). */
void ts_ks_shift(struct kstate *ks, int cores, ticks_t delta);

/* dst: src relative to ref (its moving times minus ref, the refills out
 * of use zeroed; the deadlines that are "never" stay so, and *never says
 * which: bit 0 core 0's, bit 1 core 1's). False when src has a time the
 * move does not cover safely: a round-robin refill time after ref. */
bool ts_ks_rel(struct kstate *dst, const struct kstate *src, int cores, ticks_t ref, uint32_t *never);

/* The whole simulator state (both kernels, the workload's arrivals not
 * yet taken) plus delta: what sim_run would reach delta later from a
 * state delta earlier, where the state is far from the horizon. The
 * counts (entries, events) are not moved. */
void ts_sim_shift(struct sim *s, struct workload *w, ticks_t delta);

#endif
