/*
 * fastpath: what the modelled system-call fastpaths share
 * (include/fastpath/fastpath.h is the kernel's): the entry work they skip
 * and their corrected variants do, in one definition each.
 */
#ifndef IRQSIM_FASTPATH_H
#define IRQSIM_FASTPATH_H

#include "kstate.h"

/* isCurDomainExpired() (thread.h:118-122) on ksDomainTime as it is, or,
 * with entry_clock, as updateTimestamp would leave it at the entry clock
 * (src/kernel/thread.c: the time since ksCurTime plus MIN_BUDGET reaching
 * it makes it 0) */
bool fp_domain_expired(const struct kstate *ks, bool entry_clock);

#endif
