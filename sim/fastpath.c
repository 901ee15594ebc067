/* fastpath: model of what the system-call fastpaths share. */
#include "fastpath.h"

#include <string.h>

#include "refill.h"
#include "sched.h"
#include "vcpuswitch.h"

bool fp_domain_expired(const struct kstate *ks, bool entry_clock)
{
    ticks_t left = ks->domain_time;
    if (entry_clock) {
        ticks_t unread = ks->hw_clock - ks->cur_time;
        left = unread + ks->cfg.min_budget >= left ? 0 : left - unread;
    }
    return ks->cfg.num_domains > 1 && left == 0;
}

const char *fp_text_name(const struct fp_text *t, int n, int i)
{
    return i >= 0 && i < n ? t[i].name : "?";
}

const char *fp_text_what(const struct fp_text *t, int n, int i)
{
    return i >= 0 && i < n ? t[i].what : "?";
}

bool fp_text_fallback(const struct fp_text *t, int n, int i)
{
    return i >= 0 && i < n && t[i].fallback;
}

static const char *const merged_variants[] = {"merged", "fixed"};
#define N_MERGED_VARIANTS ((int)(sizeof merged_variants / sizeof merged_variants[0]))

const char *fp_merged_variant_name(int v)
{
    return v >= 0 && v < N_MERGED_VARIANTS ? merged_variants[v] : "?";
}

int fp_merged_variant_parse(const char *s)
{
    for (int v = 0; v < N_MERGED_VARIANTS; v++)
        if (strcmp(s, merged_variants[v]) == 0)
            return v;
    return -1;
}

bool fp_fix_on(struct fp_run *f, unsigned bit)
{
    f->tested |= bit;
    return (f->on & bit) != 0;
}

int fp_entry_checks(struct kstate *ks, struct fp_run *f, const struct fp_entry *e)
{
    if (fp_fix_on(f, e->time))
        updateTimestamp(ks);
    if (fp_fix_on(f, e->budget) && !refill_sufficient(ks, ks->cur_sc, ks->consumed))
        return e->exit_budget;
    if (fp_fix_on(f, e->domain) && fp_domain_expired(ks, true))
        return e->exit_domain;
    int rh = ks->release_head[CUR_CORE];
    if (fp_fix_on(f, e->release) && rh != KS_NONE && refill_ready(ks, ks->tcbs[rh].sc))
        return e->exit_release;
    return e->none;
}

int fp_finish(struct kstate *ks, struct fp_run *f, unsigned ipi_bit, unsigned reprogram_bit, int exit)
{
    if (ks->ipi_pending && fp_fix_on(f, ipi_bit))
        doMaskReschedule(ks);
    if (!ks->reprogram || !fp_fix_on(f, reprogram_bit))
        return exit;
    commitTime(ks);
    setNextInterrupt(ks);
    ks->reprogram = false;
    return exit;
}

void thread_state_set_tsType_np(struct ks_tcb *t, int ts)
{
    t->state = (uint8_t)ts;
    t->blocking = KS_NONE;
}

void thread_state_set_replyObject_np(struct ks_tcb *t, int r)
{
    t->reply = (int8_t)r;
    t->ipc_grant = t->ipc_grant_reply = t->ipc_call = false;
    t->queued = t->in_release = false;
}

void switchToThread_fp(struct kstate *ks, int t)
{
    if (ks->cfg.hyp) /* mode/fastpath/fastpath.h:35-37 */
        vcpu_switch(ks, ks->tcbs[t].vcpu);
    ks->vspace = (int8_t)t;
    lazyFPURestore(ks, t);
    ks->cur_thread = (int8_t)t;
}
