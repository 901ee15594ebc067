/*
 * target_signal_entry: the signal target's entry, a SysSend by the current
 * thread (struct ks_sysin): its scenario line, the rule its inputs keep,
 * and the generator's draw of them.
 */
#include "target_signal.h"

#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "scenfield.h"

static const struct scen_field sig_fields[] = {
    SF_ENUM(struct ks_sysin, "cap", cap, SCAP_COUNT, ks_sys_cap_name),
    SF_REF(struct ks_sysin, "ntfn", ntfn, SCEN_NTFN),
    SF_NUM(struct ks_sysin, "badge", badge, UINT64_MAX),
    SF_NUM(struct ks_sysin, "extra_caps", extra_caps, KS_MAX_EXTRA_CAPS),
    SF_NUM(struct ks_sysin, "extra_bad", extra_bad, (1u << KS_MAX_EXTRA_CAPS) - 1),
};

/* A notification cap (with or without Send) names its notification
 * (capNtfnPtr); a null cap and a failed lookup name none. The message's
 * unresolvable extra caps are among the extraCaps it names, at most
 * seL4_MsgMaxExtraCaps. The shrinker may delete the notification named. */
static const char *sig_misfit(const struct kstate *ks, char *buf, size_t len)
{
    const struct ks_sysin *s = &ks->sys;
    bool ntfn_cap = s->cap == SCAP_NTFN || s->cap == SCAP_NTFN_NO_SEND;
    if (s->cap >= SCAP_COUNT)
        snprintf(buf, len, "cap kind %u out of range", s->cap);
    else if (ntfn_cap && s->ntfn == KS_NONE)
        snprintf(buf, len, "cap=%s needs ntfn=", ks_sys_cap_name(s->cap));
    else if (ntfn_cap && (s->ntfn < 0 || s->ntfn >= ks->n_ntfns))
        snprintf(buf, len, "cap=%s names notification %d of %u", ks_sys_cap_name(s->cap), s->ntfn, ks->n_ntfns);
    else if (!ntfn_cap && s->ntfn != KS_NONE)
        snprintf(buf, len, "cap=%s names no notification (ntfn= is for cap=ntfn|ntfn_no_send)",
                 ks_sys_cap_name(s->cap));
    else if (s->extra_caps > KS_MAX_EXTRA_CAPS || (s->extra_bad >> s->extra_caps) != 0)
        snprintf(buf, len, "extra_bad=%#x names extra caps beyond extra_caps=%u (at most %d)", s->extra_bad,
                 s->extra_caps, KS_MAX_EXTRA_CAPS);
    else
        return NULL;
    return buf;
}

const struct target_line sig_line = {
    .keyword = "send",
    .required = "cap",
    .fields = sig_fields,
    .n_fields = (int)SF_COUNT(sig_fields),
    .misfit = sig_misfit,
};

enum sys_kind { SK_NTFN, SK_NO_SEND, SK_LOOKUP_FAIL, SK_NULL, SK_EXTRA_BAD, SK_EXTRA_OK };

/* The SysSend's inputs, the cap the cptr resolves to drawn as
 * real/rk_sig.c draws it, in sixteenths: a notification cap 10, without
 * the send right 1, a lookup failure 1, an empty slot 1, a message naming
 * 1-3 extra caps of which some do not resolve 2, all resolve 1. Endpoint
 * caps are not drawn (not modelled, kstate.h). The notification is the
 * active IRQ's when its handler cap is one, else any. No IRQ is taken. */
static void sig_draw_send(struct kstate *ks, struct gen_src *src)
{
    static const uint8_t kinds[16] = {SK_NTFN, SK_NTFN, SK_NTFN,       SK_NTFN,      SK_NTFN,      SK_NTFN,
                                      SK_NTFN, SK_NTFN, SK_NTFN,       SK_NTFN,      SK_NO_SEND,   SK_LOOKUP_FAIL,
                                      SK_NULL, SK_EXTRA_BAD, SK_EXTRA_BAD, SK_EXTRA_OK};
    struct ks_sysin *s = &ks->sys;
    memset(s, 0, sizeof *s);
    int kind = kinds[gen_pick(src, 16)];
    int irq = ks->active_irq;
    if (irq >= 0 && irq < ks->n_irqs && ks->irq_cap[irq].type == CAP_Notification) {
        s->ntfn = ks->irq_cap[irq].ntfn;
        s->badge = ks->irq_cap[irq].badge;
    } else {
        s->ntfn = (int8_t)gen_pick(src, ks->n_ntfns);
        s->badge = gen_pick(src, 256);
    }
    ks->active_irq = KS_IRQ_INVALID; /* a system call: no IRQ is taken */
    switch (kind) {
    case SK_NO_SEND: s->cap = SCAP_NTFN_NO_SEND; break;
    case SK_LOOKUP_FAIL: s->cap = SCAP_LOOKUP_FAIL; break;
    case SK_NULL: s->cap = SCAP_NULL; break;
    case SK_EXTRA_BAD:
        s->extra_caps = (uint8_t)(1 + gen_pick(src, KS_MAX_EXTRA_CAPS));
        s->extra_bad = (uint8_t)(1 + gen_pick(src, (1u << s->extra_caps) - 1));
        break;
    case SK_EXTRA_OK: s->extra_caps = (uint8_t)(1 + gen_pick(src, KS_MAX_EXTRA_CAPS)); break;
    default: break;
    }
    if (s->cap == SCAP_LOOKUP_FAIL || s->cap == SCAP_NULL) {
        s->ntfn = KS_NONE;
        s->badge = 0;
    }
}

/* about one state in six has the idle thread current: drawn anew */
int sig_gen_entry(struct kstate *ks, struct gen_src *src)
{
    if (gen_syscall_unfit(ks))
        return -1;
    sig_draw_send(ks, src);
    ks->sys.entry = ENTRY_SIGNAL;
    return 0;
}
