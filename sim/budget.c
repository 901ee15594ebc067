/* budget: model of the MCS budget charge and the timeout fault it may raise. */
#include "budget.h"

#include "cost_hooks.h"
#include "endpoint.h"
#include "faulthandler.h"
#include "kassert.h"
#include "refill.h"
#include "sched.h"

/* checkBudget */
bool checkBudget(struct kstate *ks)
{
    KASSERT(ks, refill_ready(ks, ks->cur_sc), A_CHECKBUDGET_READY);
    COST(ks, 4, 0, 2); /* refill_sufficient(ksCurSC, ksConsumed) */
    if (refill_sufficient(ks, ks->cur_sc, ks->consumed)) {
        COST_IF(ks, ks->cfg.num_domains > 1, 1, 0, 1); /* isCurDomainExpired */
        return !isCurDomainExpired(ks);
    }
    chargeBudget(ks, ks->consumed, true);
    return false;
}

/* checkBudgetRestart */
bool checkBudgetRestart(struct kstate *ks)
{
    KASSERT(ks, isRunnable(ks, ks->cur_thread), A_CHECKBUDGET_RESTART);
    bool result = checkBudget(ks);
    if (!result && isRunnable(ks, ks->cur_thread))
        setThreadState(ks, ks->cur_thread, TS_Restart);
    return result;
}

/* chargeBudget */
void chargeBudget(struct kstate *ks, ticks_t consumed, bool can_timeout_fault)
{
    int sc = ks->cur_sc;
    COST(ks, 2, 0, 1); /* ksCurSC, ksIdleSC */
    if (sc != ks->idle_sc) {
        COST(ks, 1, 0, 1); /* scPeriod */
        if (isRoundRobin(ks, sc)) {
            KASSERT(ks, refill_size(&ks->scs[sc]) == MIN_REFILLS, A_CHARGE_RR_SIZE);
            COST(ks, 4, 2, 0); /* head and tail index and amount */
            refill_head(ks, sc)->amount += refill_tail(ks, sc)->amount;
            refill_tail(ks, sc)->amount = 0;
        } else {
            refill_budget_check(ks, consumed);
        }
        KASSERT(ks, refill_head(ks, sc)->amount >= ks->cfg.min_budget, A_CHARGE_MIN_BUDGET);
        COST(ks, 1, 1, 0); /* scConsumed += */
        ks->scs[sc].consumed += consumed;
    }
    COST(ks, 1, 1, 0); /* ksConsumed; ksCurThread */
    ks->consumed = 0;
    COST_SCHEDULABLE(ks, ks->cur_thread);
    if (isSchedulable(ks, ks->cur_thread)) {
        COST_W(ks, 1); /* ksReprogram */
        KASSERT(ks, ks->tcbs[ks->cur_thread].sc == sc, A_CHARGE_CUR_SC);
        endTimeslice(ks, can_timeout_fault);
        rescheduleRequired(ks);
        ks->reprogram = true;
    }
}

/* what sendFaultIPC keeps in the thread state of a timeout fault's sender
 * (handleTimeout, faulthandler.c:28, 40-45: no donation; the handler cap as
 * sim/faulthandler.h models it: badge 0, grant, not grant-reply, the cap
 * the real-kernel bridge gives a thread with a timeout handler,
 * real/glue/hk_bridge.c) */
static const struct ipc_send fault_send = {.blocking = true, .grant = true};

/* handleTimeout. A thread whose handler endpoint is not in the state (a
 * generated state: timeout_ep is KS_NONE) keeps the earlier abstraction:
 * blocked sending its fault on no endpoint. */
void handleTimeout(struct kstate *ks, int t)
{
    int e = ks->tcbs[t].timeout_ep;
    if (e != KS_NONE) {
        sendFaultIPC(ks, t, (struct ks_fault_msg){FAULT_Timeout, KS_NONE, LKF_NONE}, e, false);
        return;
    }
    ks->tcbs[t].fault = FAULT_Timeout;
    ks->tcbs[t].fault_lr = KS_NONE;
    ks->tcbs[t].blocking = KS_NONE;
    ipc_keep_send(&ks->tcbs[t], &fault_send); /* as sendIPC blocking it on the handler's endpoint */
    setThreadState(ks, t, TS_BlockedOnSend);
}

/* endTimeslice */
void endTimeslice(struct kstate *ks, bool can_timeout_fault)
{
    int cur = ks->cur_thread, sc = ks->cur_sc;
    /* ksCurThread, ksCurSC; can_timeout_fault, scPeriod, the handler cap's type */
    COST(ks, 2, 0, 1);
    COST_IF(ks, can_timeout_fault, 1 + !isRoundRobin(ks, sc), 0, 1 + !isRoundRobin(ks, sc));
    if (can_timeout_fault && !isRoundRobin(ks, sc) && ks->tcbs[cur].timeout_handler) {
        COST(ks, 1, 1, 0); /* current_fault from scBadge */
        handleTimeout(ks, cur);
    } else if (refill_ready(ks, sc) && refill_sufficient(ks, sc, 0)) {
        COST_READY_SUFF(ks, sc);
        KASSERT(ks, !ks->tcbs[cur].queued, A_ENDTS_NOT_QUEUED);
        tcbSchedAppend(ks, cur);
    } else {
        COST_READY_SUFF(ks, sc);
        postpone(ks, sc);
    }
}
