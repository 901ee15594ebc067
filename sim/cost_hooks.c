/* cost_hooks: the recorder and the counting helpers the model calls. */
#include "cost_hooks.h"

#include <string.h>

static const struct { const char *name, *what; } sections[] = {
#define COST_SEC_TEXT(id, name, what) {name, what},
    COST_SECTION_LIST(COST_SEC_TEXT)
#undef COST_SEC_TEXT
};

const char *cost_section_name(int s)
{
    return s >= 0 && s < SEC_COUNT ? sections[s].name : "?";
}

const char *cost_section_what(int s)
{
    return s >= 0 && s < SEC_COUNT ? sections[s].what : "?";
}

const char *cost_kind_name(int k)
{
    static const char *const kinds[] = {"R", "W", "B"};
    return k >= 0 && k < CK_COUNT ? kinds[k] : "?";
}

void cost_reset(struct cost_rec *r)
{
    memset(r, 0, sizeof *r);
    r->sec = SEC_ENTRY;
}

/* isRunnable (tsType: one branch on the switch), tcbSchedContext != NULL,
 * scRefillMax > 0, !tcbInReleaseQueue: each operand one read and one
 * branch, evaluated until one fails */
void cost_schedulable(const struct kstate *ks, int t)
{
    if (t < 0 || t >= ks->n_tcbs)
        return;
    const struct ks_tcb *x = &ks->tcbs[t];
    unsigned n = 1;
    if (x->state == TS_Running || x->state == TS_Restart) {
        n++;
        if (x->sc != KS_NONE) {
            n++;
            if (ks->scs[x->sc].refill_max > 0)
                n++;
        }
    }
    cost_add(ks->cost, n, 0, n);
}

/* refill_ready: scRefillHead, rTime, ksCurTime, one compare; then
 * refill_sufficient(sc, 0): rAmount (the head index is at hand), one
 * compare */
void cost_ready_sufficient(const struct kstate *ks, int sc)
{
    const struct ks_sc *s = &ks->scs[sc];
    bool ready = s->refills[s->head].time <= ks->cur_time;
    cost_add(ks->cost, 3 + ready, 0, 1 + ready);
}

/* getActiveIRQ (GICv3): test the kept active_irq; on the first call read
 * ICC_IAR1 and keep it; test it again */
void cost_active_irq(const struct kstate *ks)
{
    struct cost_rec *r = ks->cost;
    if (r->irq_latched) {
        cost_add(r, 2, 0, 2);
        return;
    }
    r->irq_latched = true;
    cost_add(r, 3, 1, 2);
}

void cost_fallback(const struct kstate *ks)
{
    struct cost_rec *r = ks->cost;
    if (r->fell_back)
        return;
    r->fell_back = true;
    r->at_fallback = r->c;
}
