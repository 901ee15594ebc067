/* faulthandler: model of the MCS fault delivery. Kernel lines are of
 * 1326364bc (master); base 43607edb6 differs only in the assertion form
 * of sendFaultIPC (its faulthandler.c:33-35) and in printing. */
#include "faulthandler.h"

#include "endpoint.h"
#include "sched.h"

/* sendFaultIPC (faulthandler.c:31-51): tcbFault = current_fault and, for
 * a cap fault, tcbLookupFailure = current_lookup_fault (c119df035; an MCS
 * tree before it leaves that field), then a blocking send without call
 * (sendIPC(true, false, ...)) of the cap's badge and rights, donating
 * when asked; a null cap sends nothing */
bool sendFaultIPC(struct kstate *ks, int t, struct ks_fault_msg f, int ep, bool can_donate)
{
    if (ep == KS_NONE)
        return false;
    ks->tcbs[t].fault = f.type;
    ks->tcbs[t].fault_lr = f.lr;
    if (f.type == FAULT_CapFault && cfg_has(&ks->cfg, KF_FAULT_LOOKUP_RECORDED))
        ks->tcbs[t].lookup_fault = f.lookup;
    const struct ipc_send s = {.blocking = true, .grant = true, .donate = can_donate};
    sendIPC(ks, &s, t, ep);
    return true;
}

/* handleNoFaultHandler (base faulthandler.c:143-171; master moved it):
 * after printing, setThreadState(tptr, Inactive) */
void handleNoFaultHandler(struct kstate *ks, int t)
{
    setThreadState(ks, t, TS_Inactive);
}

/* handleFault (faulthandler.c:15-22): can_donate is whether the thread has an SC */
void handleFault(struct kstate *ks, int t, struct ks_fault_msg f)
{
    if (!sendFaultIPC(ks, t, f, ks->tcbs[t].fault_ep, ks->tcbs[t].sc != KS_NONE))
        handleNoFaultHandler(ks, t);
}
