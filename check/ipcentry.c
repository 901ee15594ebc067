/* ipcentry: the IPC targets' shared entry rules. */
#include "ipcentry.h"

#include <stdio.h>

#include "syscall.h"

/* An endpoint cap names its endpoint (capEPPtr), a notification cap its
 * notification; a null cap and a failed lookup name neither; rights are an
 * endpoint cap's. The message's unresolvable extra caps are among those it
 * names. */
const char *ipc_cptr_misfit(const struct kstate *ks, char *buf, size_t len)
{
    const struct ks_sysin *s = &ks->sys;
    bool ep_cap = s->cap == SCAP_EP, ntfn_cap = s->cap == SCAP_NTFN || s->cap == SCAP_NTFN_NO_SEND;
    if (s->cap >= SCAP_COUNT)
        snprintf(buf, len, "cap kind %u out of range", s->cap);
    else if (ep_cap != (s->ep != KS_NONE))
        snprintf(buf, len, "cap=%s %s", ks_sys_cap_name(s->cap), ep_cap ? "needs ep=" : "names no endpoint");
    else if (ep_cap && s->ep >= ks->n_eps)
        snprintf(buf, len, "cap=ep names endpoint %d of %u", s->ep, ks->n_eps);
    else if (ntfn_cap != (s->ntfn != KS_NONE))
        snprintf(buf, len, "cap=%s %s", ks_sys_cap_name(s->cap), ntfn_cap ? "needs ntfn=" : "names no notification");
    else if (ntfn_cap && s->ntfn >= ks->n_ntfns)
        snprintf(buf, len, "cap=%s names notification %d of %u", ks_sys_cap_name(s->cap), s->ntfn, ks->n_ntfns);
    else if (!ep_cap && s->rights != 0)
        snprintf(buf, len, "rights= is for cap=ep");
    else if ((s->extra_bad >> s->extra_caps) != 0)
        snprintf(buf, len, "extra_bad=%#x names extra caps beyond extra_caps=%u", s->extra_bad, s->extra_caps);
    else
        return NULL;
    return buf;
}

void ipc_set_inputs(struct kstate *ks, int entry, const struct ks_call *c)
{
    bool ntfn_cap = c->cap == SCAP_NTFN || c->cap == SCAP_NTFN_NO_SEND;
    bool rr = entry == ENTRY_REPLY_RECV;
    ks_sysin_clear(&ks->sys);
    struct ks_sysin *s = &ks->sys;
    s->entry = (uint8_t)entry;
    s->cap = c->cap;
    s->ep = (int8_t)(c->cap == SCAP_EP ? c->ep : KS_NONE);
    s->ntfn = (int8_t)(ntfn_cap ? c->ntfn : KS_NONE);
    s->rights = c->rights;
    s->extra_caps = c->extra_caps;
    s->extra_bad = c->extra_bad;
    s->badge = rr ? 0 : c->badge;
    s->reply_cap = rr ? c->reply_cap : RCAP_REPLY;
    s->reply = (int8_t)(rr && c->reply_cap == RCAP_REPLY ? c->reply : KS_NONE);
}
