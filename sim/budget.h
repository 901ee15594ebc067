/*
 * budget: the MCS budget charge at kernel entry and what it may raise
 * (kernel src/kernel/thread.c, src/kernel/faulthandler.c): checkBudget,
 * checkBudgetRestart, chargeBudget, endTimeslice, and the timeout fault
 * handleTimeout sends. Apart from sched because the timeout fault reaches
 * the endpoints (sendIPC), which sit above the scheduler.
 */
#ifndef IRQSIM_BUDGET_H
#define IRQSIM_BUDGET_H

#include "kstate.h"

bool checkBudget(struct kstate *ks);
bool checkBudgetRestart(struct kstate *ks);
void chargeBudget(struct kstate *ks, ticks_t consumed, bool can_timeout_fault);
void endTimeslice(struct kstate *ks, bool can_timeout_fault);
void handleTimeout(struct kstate *ks, int t);

#endif
