/*
 * schedcontrol: the SchedControl invocation (kernel
 * src/object/schedcontrol.c): configuring a scheduling context's budget,
 * period, refills, core and flags.
 */
#ifndef IRQSIM_SCHEDCONTROL_H
#define IRQSIM_SCHEDCONTROL_H

#include "kstate.h"

int decodeSchedControl_ConfigureFlags(struct kstate *ks, int sc, int core, ticks_t budget, ticks_t period,
                                      unsigned extra_refills, uint64_t badge, unsigned flags);

#endif
