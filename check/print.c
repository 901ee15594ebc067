/* print: the scenario writer. Field names and defaults are those of
 * scenario.c; keep the two in step (the round-trip test checks it). */
#include "print.h"

#include <inttypes.h>
#include <string.h>

#include "sched.h"
#include "scenfield.h"
#include "target.h"
#include "vspace.h"

const char *ks_action_name(const struct kstate *ks, int action, char *buf, size_t len)
{
    if (action == KS_SA_RESUME)
        return "resume";
    if (action == KS_SA_CHOOSE)
        return "choose";
    snprintf(buf, len, "%s", ks_tcb_name(ks, action));
    return buf;
}

int scen_vspace_default(const struct kstate *ks)
{
    int t = ks->cur_thread;
    return t >= 0 && t < ks->n_tcbs ? vspace_after_switch(ks, t) : KS_NONE;
}

static void opt_obj(FILE *out, const char *key, int v, const char *name)
{
    if (v != KS_NONE)
        fprintf(out, " %s=%s", key, name);
}

static void opt_u64(FILE *out, const char *key, uint64_t v)
{
    if (v)
        fprintf(out, " %s=%" PRIu64, key, v);
}

static void opt_flag(FILE *out, const char *key, bool v, bool dflt)
{
    if (v != dflt)
        fprintf(out, " %s=%d", key, v ? 1 : 0);
}

/* the rest of another core's node state, where it differs from ks_init's */
static void print_core_node(FILE *out, const struct kstate *ks, int k)
{
    char buf[KS_NAME_LEN + 8];
    opt_obj(out, "cur_sc", ks->core_sc[k], ks_sc_name(ks, ks->core_sc[k]));
    opt_obj(out, "idle_sc", ks->core_idle_sc[k], ks_sc_name(ks, ks->core_idle_sc[k]));
    opt_obj(out, "vspace", ks->core_vspace[k], ks_tcb_name(ks, ks->core_vspace[k]));
    opt_u64(out, "time", ks->core_time[k]);
    opt_u64(out, "consumed", ks->core_consumed[k]);
    if (ks->core_deadline[k] != UINT64_MAX)
        fprintf(out, " deadline=%" PRIu64, ks->core_deadline[k]);
    if (ks->core_action[k] != KS_SA_RESUME)
        fprintf(out, " action=%s", ks_action_name(ks, ks->core_action[k], buf, sizeof buf));
    if (ks->core_ipi_pending[k])
        fprintf(out, " ipi_pending=%u", ks->core_ipi_pending[k]);
    if (ks->core_ppi_masked[k])
        fprintf(out, " ppi_masked=%#x", ks->core_ppi_masked[k]);
    if (ks->core_ppi_active[k])
        fprintf(out, " ppi_active=%#x", ks->core_ppi_active[k]);
}

static void print_config(FILE *out, const struct kstate *ks)
{
    const struct ks_config *c = &ks->cfg;
    fprintf(out, "board %s\n", c->board);
    fprintf(out,
            "config timer_hz=%" PRIu64 " wcet_us=%u wcet_scale=%u precision_us=%u overhead_ticks=%u"
            " domains=%u max_irq=%u gic=%u smp=%d fpu=%d hyp=%d",
            c->timer_hz, c->wcet_us, c->wcet_scale, c->precision_us, c->overhead_ticks, c->num_domains,
            c->max_irq, c->gic_version, c->smp, c->fpu, c->hyp);
    if (!cfg_kernel_is_default(c->kernel)) /* base, the default, is left out: older files stay as they were */
        fprintf(out, " kernel=%s", cfg_kernel_name(c->kernel));
    if (c->signal_fastpath) /* off by default in the kernel: left out, older files stay as they were */
        fprintf(out, " signal_fastpath=1");
    char feats[CFG_FEATURES_TEXT_LEN];
    if (c->features) /* a tree between the versions: its own features */
        fprintf(out, " features=%s", cfg_features_text(c->features, feats, sizeof feats));
    fprintf(out, "\n");
    fprintf(out, "# MIN_BUDGET=%" PRIu64 " ticks, timer precision=%" PRIu64 " ticks\n", c->min_budget,
            c->precision);
}

/* The schedule in base's form (ms) when every entry is whole ms, as every
 * base schedule is; else in master's (ticks) */
static void print_domain(FILE *out, const struct kstate *ks)
{
    ticks_t tpm = cfg_us_to_ticks(&ks->cfg, 1000);
    bool ms = tpm > 0;
    for (int i = 0; i < ks->dom_len; i++)
        ms = ms && dschedule_duration(ks->dom_sched[i]) % tpm == 0;
    fprintf(out, "domain cur=%u time=%" PRIu64 " idx=%u", ks->cur_domain, ks->domain_time, ks->dom_idx);
    if (ks->dom_start)
        fprintf(out, " start=%u", ks->dom_start);
    fprintf(out, " %s=", ms ? "schedule" : "schedule_ticks");
    for (int i = 0; i < ks->dom_len; i++) {
        ticks_t d = dschedule_duration(ks->dom_sched[i]);
        fprintf(out, "%s%u:%" PRIu64, i ? "," : "", dschedule_domain(ks->dom_sched[i]), ms ? d / tpm : d);
    }
    fprintf(out, "\n");
}

/* The name of object i of a reference field's kind */
static const char *ref_name(const struct kstate *ks, int kind, int i)
{
    switch (kind) {
    case SCEN_TCB: return ks_tcb_name(ks, i);
    case SCEN_SC: return ks_sc_name(ks, i);
    case SCEN_NTFN: return ks_ntfn_name(ks, i);
    case SCEN_EP: return ks_ep_name(ks, i);
    case SCEN_VCPU: return ks_vcpu_name(ks, i);
    default: return ks_reply_name(ks, i);
    }
}

/* One field of a target's line: the required one always, the others where
 * they are not 0 or a null reference (what the reader assumes then). */
static void print_field(FILE *out, const struct kstate *ks, const void *base, const struct scen_field *f, bool required)
{
    int64_t v = scen_field_get(base, f);
    if (f->kind == SFK_REF)
        opt_obj(out, f->key, (int)v, ref_name(ks, (int)f->max, (int)v));
    else if (f->kind == SFK_ENUM && (required || v))
        fprintf(out, " %s=%s", f->key, f->names((int)v));
    else if (required)
        fprintf(out, " %s=%" PRIu64, f->key, (uint64_t)v);
    else
        opt_u64(out, f->key, (uint64_t)v);
}

/* A system-call entry: its target's line (struct target_line), the line
 * that makes a state one */
static void print_syscall(FILE *out, const struct kstate *ks)
{
    const struct target_line *l = target_of(ks)->line;
    if (!l)
        return;
    fprintf(out, "syscall %s", l->keyword);
    for (int i = 0; i < l->n_fields; i++)
        print_field(out, ks, &ks->sys, &l->fields[i], strcmp(l->fields[i].key, l->required) == 0);
    fprintf(out, "\n");
}

/* The fastpath under check, where the state's entry kind has several: the
 * first registered is the entry's own and needs no line. */
static void print_target(FILE *out, const struct kstate *ks)
{
    if (ks->sys.target)
        fprintf(out, "target %s\n", target_of(ks)->name);
}

static void print_node(FILE *out, const struct kstate *ks)
{
    char buf[KS_NAME_LEN + 4];
    fprintf(out, "clock %" PRIu64 "\n", ks->hw_clock);
    if (ks->active_irq == KS_IRQ_INVALID)
        fprintf(out, "irq none\n");
    else
        fprintf(out, "irq %d\n", (int)ks->active_irq);
    fprintf(out, "node cur=%s cur_sc=%s idle=%s idle_sc=%s action=%s time=%" PRIu64, ks_tcb_name(ks, ks->cur_thread),
            ks_sc_name(ks, ks->cur_sc), ks_tcb_name(ks, ks->idle_thread), ks_sc_name(ks, ks->idle_sc),
            ks_action_name(ks, ks->sched_action, buf, sizeof buf), ks->cur_time);
    opt_u64(out, "consumed", ks->consumed);
    fprintf(out, " deadline=%" PRIu64, ks->deadline);
    opt_flag(out, "reprogram", ks->reprogram, false);
    if (ks->vspace != scen_vspace_default(ks))
        fprintf(out, " vspace=%s", ks_tcb_name(ks, ks->vspace));
    fprintf(out, "\n");
    print_domain(out, ks);
    for (int k = 0; k < KS_MAX_CORES; k++) {
        bool other = k > 0 && (ks->core_cur[k] != KS_NONE || ks->core_idle[k] != KS_NONE ||
                               ks->core_reprogram[k] || ks->core_sc[k] != KS_NONE || ks->core_ipi_pending[k] ||
                               ks->core_ppi_masked[k] || ks->core_ppi_active[k]);
        if (ks->release_head[k] == KS_NONE && !other)
            continue;
        fprintf(out, "core %d", k);
        if (k > 0) {
            opt_obj(out, "cur", ks->core_cur[k], ks_tcb_name(ks, ks->core_cur[k]));
            opt_obj(out, "idle", ks->core_idle[k], ks_tcb_name(ks, ks->core_idle[k]));
            opt_flag(out, "reprogram", ks->core_reprogram[k], false);
            print_core_node(out, ks, k);
        }
        opt_obj(out, "release_head", ks->release_head[k], ks_tcb_name(ks, ks->release_head[k]));
        fprintf(out, "\n");
    }
    if (ks->ipi_pending || ks->ipi_sent)
        fprintf(out, "ipi pending=%u sent=%u\n", ks->ipi_pending, ks->ipi_sent);
    if (ks->oor_irq != KS_IRQ_INVALID)
        fprintf(out, "irq_oor irq=%d masked=%d acks=%u%s\n", (int)ks->oor_irq, ks->oor_masked, ks->oor_acks,
                ks->oor_active ? " active=1" : "");
    print_syscall(out, ks);
    print_target(out, ks);
}

static void print_tcb(FILE *out, const struct kstate *ks, int i)
{
    const struct ks_tcb *t = &ks->tcbs[i];
    fprintf(out, "tcb %s state=%s prio=%u", t->name, ks_ts_name(t->state), t->prio);
    if (t->domain)
        fprintf(out, " dom=%u", t->domain);
    if (t->affinity)
        fprintf(out, " core=%u", t->affinity);
    opt_obj(out, "sc", t->sc, ks_sc_name(ks, t->sc));
    opt_obj(out, "bound", t->bound_ntfn, ks_ntfn_name(ks, t->bound_ntfn));
    /* a thread not blocked on an endpoint or notification keeps the stale
     * blockingObject setThreadState left (it changes only the type), of
     * either kind: written by index, as stale:N */
    if (t->blocking != KS_NONE && t->state == TS_BlockedOnNotification)
        fprintf(out, " blocking=%s", ks_ntfn_name(ks, t->blocking));
    else if (t->blocking != KS_NONE && (t->state == TS_BlockedOnSend || t->state == TS_BlockedOnReceive))
        fprintf(out, " blocking=%s", ks_ep_name(ks, t->blocking));
    else if (t->blocking != KS_NONE)
        fprintf(out, " blocking=stale:%d", t->blocking);
    opt_obj(out, "reply", t->reply, ks_reply_name(ks, t->reply));
    opt_flag(out, "queued", t->queued, false);
    opt_flag(out, "in_release", t->in_release, false);
    opt_obj(out, "sched_next", t->sched_next, ks_tcb_name(ks, t->sched_next));
    opt_obj(out, "sched_prev", t->sched_prev, ks_tcb_name(ks, t->sched_prev));
    opt_obj(out, "ep_next", t->ep_next, ks_tcb_name(ks, t->ep_next));
    opt_obj(out, "ep_prev", t->ep_prev, ks_tcb_name(ks, t->ep_prev));
    if (t->fault)
        fprintf(out, " fault=%s", ks_fault_name(t->fault));
    if (t->lookup_fault)
        fprintf(out, " lookup_fault=%s", ks_lookup_fault_name(t->lookup_fault));
    opt_flag(out, "timeout_handler", t->timeout_handler, false);
    opt_obj(out, "timeout_ep", t->timeout_ep, ks_ep_name(ks, t->timeout_ep));
    opt_flag(out, "vtable", t->vtable_ok, true);
    opt_flag(out, "asid", t->asid_ok, true);
    opt_flag(out, "vmid", t->vmid_ok, true);
    opt_flag(out, "fpu_live", t->fpu_live, false);
    opt_flag(out, "fpu_disabled", t->fpu_disabled, false);
    opt_u64(out, "badge", t->badge_reg);
    opt_u64(out, "ipc_badge", t->ipc_badge);
    opt_flag(out, "ipc_grant", t->ipc_grant, false);
    opt_flag(out, "ipc_grant_reply", t->ipc_grant_reply, false);
    opt_flag(out, "ipc_call", t->ipc_call, false);
    opt_obj(out, "vcpu", t->vcpu, ks_vcpu_name(ks, t->vcpu));
    opt_obj(out, "fault_ep", t->fault_ep, ks_ep_name(ks, t->fault_ep));
    if (t->fault_lr != KS_NONE)
        fprintf(out, " fault_lr=%d", t->fault_lr);
    fprintf(out, "\n");
}

/* lr=... up to the last list register that is not 0; nothing when all are */
static void print_lrs(FILE *out, const uint8_t *lr)
{
    int last = -1;
    for (int i = 0; i < KS_VGIC_MAX_LRS; i++)
        if (lr[i])
            last = i;
    for (int i = 0; i <= last; i++)
        fprintf(out, "%s%u", i ? "," : " lr=", lr[i]);
}

/* The VCPUs and, where it is not ks_init's, the VGIC line: states without
 * VCPUs print as before */
static void print_vcpus(FILE *out, const struct kstate *ks)
{
    for (int i = 0; i < ks->n_vcpus; i++) {
        const struct ks_vcpu *v = &ks->vcpus[i];
        fprintf(out, "vcpu %s", v->name);
        opt_obj(out, "tcb", v->tcb, ks_tcb_name(ks, v->tcb));
        opt_flag(out, "vppi_masked", v->vppi_masked, false);
        print_lrs(out, v->lr);
        fprintf(out, "\n");
    }
    static const uint8_t no_lrs[KS_VGIC_MAX_LRS];
    if (ks->cur_vcpu == KS_NONE && !ks->vcpu_active && ks->vgic_num_lr == 4 && !ks->vgic_eisr &&
        !ks->vgic_misr_eoi && memcmp(ks->vgic_lr, no_lrs, sizeof no_lrs) == 0)
        return;
    fprintf(out, "vgic");
    opt_obj(out, "cur", ks->cur_vcpu, ks_vcpu_name(ks, ks->cur_vcpu));
    opt_flag(out, "active", ks->vcpu_active, false);
    fprintf(out, " num_lr=%u", ks->vgic_num_lr);
    if (ks->vgic_eisr)
        fprintf(out, " eisr=%#" PRIx64, ks->vgic_eisr);
    opt_flag(out, "misr_eoi", ks->vgic_misr_eoi, false);
    print_lrs(out, ks->vgic_lr);
    fprintf(out, "\n");
}

/* another core's VCPU and VGIC, where they are not ks_init's */
static void print_vgic_cores(FILE *out, const struct kstate *ks)
{
    static const uint8_t no_lrs[KS_VGIC_MAX_LRS];
    for (int k = 1; k < KS_MAX_CORES; k++) {
        if (ks->core_vcpu[k] == KS_NONE && !ks->core_vcpu_active[k] && !ks->core_vgic_eisr[k] &&
            !ks->core_vgic_misr_eoi[k] && !ks->core_vtimer_masked[k] &&
            memcmp(ks->core_vgic_lr[k], no_lrs, sizeof no_lrs) == 0)
            continue;
        fprintf(out, "vgic_core %d", k);
        opt_obj(out, "cur", ks->core_vcpu[k], ks_vcpu_name(ks, ks->core_vcpu[k]));
        opt_flag(out, "active", ks->core_vcpu_active[k], false);
        if (ks->core_vgic_eisr[k])
            fprintf(out, " eisr=%#" PRIx64, ks->core_vgic_eisr[k]);
        opt_flag(out, "misr_eoi", ks->core_vgic_misr_eoi[k], false);
        opt_flag(out, "vtimer_masked", ks->core_vtimer_masked[k], false);
        print_lrs(out, ks->core_vgic_lr[k]);
        fprintf(out, "\n");
    }
}

static void print_sc(FILE *out, const struct kstate *ks, int i)
{
    const struct ks_sc *s = &ks->scs[i];
    fprintf(out, "sc %s period=%" PRIu64 " budget=%" PRIu64 " max=%u head=%u tail=%u", s->name, s->period,
            s->budget, s->refill_max, s->head, s->tail);
    opt_flag(out, "sporadic", s->sporadic, false);
    if (s->core)
        fprintf(out, " core=%u", s->core);
    opt_obj(out, "tcb", s->tcb, ks_tcb_name(ks, s->tcb));
    opt_obj(out, "ntfn", s->ntfn, ks_ntfn_name(ks, s->ntfn));
    opt_obj(out, "reply", s->reply, ks_reply_name(ks, s->reply));
    opt_u64(out, "consumed", s->consumed);
    opt_u64(out, "badge", s->badge);
    /* every slot, so that stale slots outside head..tail round-trip too */
    int last = -1;
    for (int r = 0; r < KS_MAX_REFILLS; r++)
        if (s->refills[r].time || s->refills[r].amount)
            last = r;
    if (s->refill_max > 0 && last < s->refill_max - 1)
        last = s->refill_max - 1;
    if (last >= 0) {
        fprintf(out, " refills=");
        for (int r = 0; r <= last; r++)
            fprintf(out, "%s%" PRIu64 ":%" PRIu64, r ? "," : "", s->refills[r].time, s->refills[r].amount);
    }
    fprintf(out, "\n");
}

static void print_ntfn(FILE *out, const struct kstate *ks, int i)
{
    const struct ks_ntfn *n = &ks->ntfns[i];
    fprintf(out, "ntfn %s state=%s", n->name, ks_ntfn_state_name(n->state));
    opt_u64(out, "msg", n->msg_id);
    opt_obj(out, "head", n->q_head, ks_tcb_name(ks, n->q_head));
    opt_obj(out, "tail", n->q_tail, ks_tcb_name(ks, n->q_tail));
    opt_obj(out, "bound", n->bound_tcb, ks_tcb_name(ks, n->bound_tcb));
    opt_obj(out, "sc", n->sc, ks_sc_name(ks, n->sc));
    fprintf(out, "\n");
}

static void print_irqs(FILE *out, const struct kstate *ks)
{
    fprintf(out, "irqs %u\n", ks->n_irqs);
    for (int i = 0; i < ks->n_irqs; i++) {
        const struct ks_irq_cap *c = &ks->irq_cap[i];
        if (ks->irq_state[i] == IRQ_Inactive && !ks->irq_masked[i] && !ks->irq_acks[i] && !ks->irq_active[i] &&
            !ks->irq_cfg[i] && c->type == CAP_Null && !c->can_send && c->ntfn == KS_NONE && !c->badge)
            continue;
        fprintf(out, "irqent %d state=%s", i, ks_irq_state_name(ks->irq_state[i]));
        if (c->type != CAP_Null)
            fprintf(out, " cap=%s", ks_cap_type_name(c->type));
        opt_obj(out, "ntfn", c->ntfn, ks_ntfn_name(ks, c->ntfn));
        opt_u64(out, "badge", c->badge);
        opt_flag(out, "send", c->can_send, false);
        opt_flag(out, "masked", ks->irq_masked[i], false);
        if (ks->irq_acks[i])
            fprintf(out, " acks=%u", ks->irq_acks[i]);
        opt_flag(out, "active", ks->irq_active[i], false);
        opt_flag(out, "edge", ks->irq_cfg[i] & KS_IRQ_EDGE, false);
        if (ks_irq_core(ks->irq_cfg[i]))
            fprintf(out, " core=%u", ks_irq_core(ks->irq_cfg[i]));
        fprintf(out, "\n");
    }
}

/* Bitmaps are derived from the queues when a file leaves them out; they
 * are printed only where they disagree, so such a state round-trips. */
static void print_bitmaps(FILE *out, const struct kstate *ks)
{
    uint64_t l1[KS_MAX_CORES][KS_MAX_DOMAINS] = {{0}};
    uint64_t l2[KS_MAX_CORES][KS_MAX_DOMAINS][KS_L2_SIZE] = {{{0}}};
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (!t->queued || t->affinity >= KS_MAX_CORES || t->domain >= KS_MAX_DOMAINS)
            continue;
        unsigned l1i = t->prio >> 6;
        l1[t->affinity][t->domain] |= 1ull << l1i;
        l2[t->affinity][t->domain][KS_L2_SIZE - 1 - l1i] |= 1ull << (t->prio & 63);
    }
    for (int k = 0; k < KS_MAX_CORES; k++)
        for (int d = 0; d < KS_MAX_DOMAINS; d++) {
            bool same = ks->l1[k][d] == l1[k][d];
            for (int w = 0; w < KS_L2_SIZE; w++)
                same = same && ks->l2[k][d][w] == l2[k][d][w];
            if (same)
                continue;
            fprintf(out, "bitmap core=%d dom=%d l1=%#" PRIx64 " l2=", k, d, ks->l1[k][d]);
            for (int w = 0; w < KS_L2_SIZE; w++)
                fprintf(out, "%s%#" PRIx64, w ? "," : "", ks->l2[k][d][w]);
            fprintf(out, "\n");
        }
}

static void print_asserts(FILE *out, const struct kstate *ks)
{
    int kept = ks->n_asserts < KS_MAX_ASSERTS ? ks->n_asserts : KS_MAX_ASSERTS;
    for (int i = 0; i < kept; i++)
        fprintf(out, "assert %u path=%s\n", ks->asserts[i].id, ks_path_name(ks->asserts[i].path));
    if (ks->n_asserts > kept)
        fprintf(out, "# %d further assertion failures not kept\n", ks->n_asserts - kept);
}

void ks_print(FILE *out, const struct kstate *ks)
{
    fprintf(out, "# irqsim scenario\n");
    print_config(out, ks);
    print_node(out, ks);
    for (int i = 0; i < ks->n_tcbs; i++)
        print_tcb(out, ks, i);
    for (int i = 0; i < ks->n_scs; i++)
        print_sc(out, ks, i);
    for (int i = 0; i < ks->n_ntfns; i++)
        print_ntfn(out, ks, i);
    for (int i = 0; i < ks->n_eps; i++) {
        const struct ks_ep *e = &ks->eps[i];
        fprintf(out, "ep %s state=%s", e->name, ks_ep_state_name(e->state));
        opt_obj(out, "head", e->q_head, ks_tcb_name(ks, e->q_head));
        opt_obj(out, "tail", e->q_tail, ks_tcb_name(ks, e->q_tail));
        fprintf(out, "\n");
    }
    for (int i = 0; i < ks->n_replies; i++) {
        fprintf(out, "reply %s", ks->replies[i].name);
        const struct ks_reply *r = &ks->replies[i];
        opt_obj(out, "tcb", r->tcb, ks_tcb_name(ks, r->tcb));
        opt_obj(out, "prev", r->prev, ks_reply_name(ks, r->prev));
        opt_obj(out, "next", r->next, ks_reply_name(ks, r->next));
        opt_obj(out, "sc_head", r->sc_head, ks_sc_name(ks, r->sc_head));
        fprintf(out, "\n");
    }
    print_vcpus(out, ks);
    print_vgic_cores(out, ks);
    print_irqs(out, ks);
    print_bitmaps(out, ks);
    print_asserts(out, ks);
}
