/*
 * domain: the domain schedule (kernel include/object/domain.h and
 * src/object/domain.c on master, 27a52ddd4 Runtime Domain Schedules):
 * an entry packs the domain into the top 8 bits and the duration in
 * ticks below; 0 is an end marker, where nextDomain wraps to
 * ksDomScheduleStart. Base's schedule (src/config/default_domain.c: a
 * domain and a length in ms, wrapping to entry 0) is held in the same
 * form, its lengths converted with usToTicks as base's nextDomain does.
 * The two DomainSet invocations that set a schedule at run time exist on
 * master only; DomainSet_Set (a thread's domain) on both, with what each
 * tree's prepareSetDomain releases first.
 */
#ifndef IRQSIM_DOMAIN_H
#define IRQSIM_DOMAIN_H

#include "kstate.h"

/* decodeDomainScheduleConfigure (master); returns enum ks_syserr */
int decodeDomainScheduleConfigure(struct kstate *ks, unsigned index, unsigned domain, ticks_t duration);
/* decodeDomainSetSet: DomainSet_Set of thread t to domain dom, with the
 * message's length and extra caps (extra cap 0 the thread cap); returns
 * enum ks_syserr */
int decodeDomainSetSet(struct kstate *ks, int t, unsigned dom, unsigned length, unsigned extra_caps);
/* decodeDomainScheduleSetStart (master); returns enum ks_syserr */
int decodeDomainScheduleSetStart(struct kstate *ks, unsigned index);

#endif
