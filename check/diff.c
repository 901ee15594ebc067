/* diff: differential check of the two interrupt paths. */
#include "diff.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "kassert.h"
#include "print.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "target.h"

static const struct { int group; const char *name; } fields[] = {
#define DF_TEXT(id, group, name) {group, name},
    DIFF_FIELD_LIST(DF_TEXT)
#undef DF_TEXT
};

static const char *const groups[] = {"scheduler", "budget", "notification", "interrupt", "checks"};

const char *diff_field_name(int f)
{
    return f >= 0 && f < DF_COUNT ? fields[f].name : "?";
}

int diff_field_group(int f)
{
    return f >= 0 && f < DF_COUNT ? fields[f].group : G_CHECK;
}

const char *diff_group_name(int g)
{
    return g >= 0 && g < G_COUNT ? groups[g] : "?";
}

const char *diff_fields_text(uint32_t mask, char *buf, size_t len)
{
    return ks_bits_text(mask, DF_COUNT, diff_field_name, buf, len);
}

/* The brief's normalisation: updateTimestamp at the entry clock for an
 * outcome that has not read it, then commitTime's charge of ksConsumed. */
bool diff_normalise(struct kstate *ks)
{
    uint8_t saved = ks->path;
    ks->path = PATH_NORM;
    if (ks->cur_time < ks->hw_clock)
        updateTimestamp(ks);
    bool payable = true;
    int sc = ks->cur_sc;
    if (ks->consumed > 0 && sc != ks->idle_sc && ks->scs[sc].refill_max > 0)
        payable = refill_sufficient(ks, sc, ks->consumed) && refill_ready(ks, sc);
    if (payable)
        commitTime(ks);
    ks->path = saved;
    return payable;
}

/* ---- field comparison ---- */

struct cmp {
    const struct kstate *a, *b; /* slow, fast */
    FILE *out;
    uint32_t mask;
};

__attribute__((format(printf, 3, 4))) static void differ(struct cmp *c, int field, const char *fmt, ...)
{
    c->mask |= 1u << field;
    if (!c->out)
        return;
    fprintf(c->out, "  %-12s ", groups[fields[field].group]);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->out, fmt, ap);
    va_end(ap);
    fputc('\n', c->out);
}

#define TA(i) ks_tcb_name(c->a, (i))
#define TB(i) ks_tcb_name(c->b, (i))

/* TTBR0's vspace: a thread's own, or the global user vspace */
static const char *vspace_name(const struct kstate *ks, int t)
{
    return t == KS_NONE ? "global" : ks_tcb_name(ks, t);
}

static void cmp_node(struct cmp *c)
{
    const struct kstate *a = c->a, *b = c->b;
    char x[KS_NAME_LEN + 4], y[KS_NAME_LEN + 4];
    if (a->cur_thread != b->cur_thread)
        differ(c, DF_CUR_THREAD, "next thread to run: slow %s, fast %s", TA(a->cur_thread), TB(b->cur_thread));
    if (a->sched_action != b->sched_action)
        differ(c, DF_SCHED_ACTION, "scheduler action left: slow %s, fast %s",
               ks_action_name(a, a->sched_action, x, sizeof x), ks_action_name(b, b->sched_action, y, sizeof y));
    if (a->cur_domain != b->cur_domain || a->dom_idx != b->dom_idx || a->domain_time != b->domain_time)
        differ(c, DF_DOMAIN, "domain: slow %u (time %" PRIu64 "), fast %u (time %" PRIu64 ")", a->cur_domain,
               a->domain_time, b->cur_domain, b->domain_time);
    if (a->cur_sc != b->cur_sc)
        differ(c, DF_CUR_SC, "current SC: slow %s, fast %s", ks_sc_name(a, a->cur_sc), ks_sc_name(b, b->cur_sc));
    if (a->consumed != b->consumed)
        differ(c, DF_CONSUMED, "ksConsumed: slow %" PRIu64 ", fast %" PRIu64, a->consumed, b->consumed);
    if (a->cur_time != b->cur_time)
        differ(c, DF_CUR_TIME, "ksCurTime: slow %" PRIu64 ", fast %" PRIu64, a->cur_time, b->cur_time);
    if (a->deadline != b->deadline)
        differ(c, DF_DEADLINE, "timer deadline: slow %" PRIu64 ", fast %" PRIu64, a->deadline, b->deadline);
    if (a->reprogram != b->reprogram)
        differ(c, DF_REPROGRAM, "ksReprogram left: slow %d, fast %d", a->reprogram, b->reprogram);
    for (int k = 0; k < KS_MAX_CORES; k++)
        if (a->release_head[k] != b->release_head[k])
            differ(c, DF_RELEASE_QUEUE, "core %d release queue head: slow %s, fast %s", k, TA(a->release_head[k]),
                   TB(b->release_head[k]));
    if (a->ipi_sent != b->ipi_sent || a->ipi_pending != b->ipi_pending)
        differ(c, DF_IPI, "reschedule IPIs sent: slow %#x, fast %#x", a->ipi_sent | a->ipi_pending,
               b->ipi_sent | b->ipi_pending);
    if (memcmp(a->l1, b->l1, sizeof a->l1) != 0 || memcmp(a->l2, b->l2, sizeof a->l2) != 0)
        differ(c, DF_READY_QUEUES, "ready-queue bitmaps differ");
    if (a->vspace != b->vspace)
        differ(c, DF_ADDRESS_SPACE, "address space installed (TTBR0): slow %s, fast %s", vspace_name(a, a->vspace),
               vspace_name(b, b->vspace));
}

static void cmp_tcb(struct cmp *c, int i)
{
    const struct ks_tcb *x = &c->a->tcbs[i], *y = &c->b->tcbs[i];
    if (x->state != y->state || x->fault != y->fault)
        differ(c, DF_THREAD_STATE, "thread %s: slow %s%s%s%s, fast %s%s%s%s", x->name, ks_ts_name(x->state),
               x->fault ? " +" : "", x->fault ? ks_fault_name(x->fault) : "", x->fault ? " fault" : "",
               ks_ts_name(y->state), y->fault ? " +" : "", y->fault ? ks_fault_name(y->fault) : "",
               y->fault ? " fault" : "");
    if (x->queued != y->queued || (x->queued && (x->sched_next != y->sched_next || x->sched_prev != y->sched_prev ||
                                                 x->affinity != y->affinity)))
        differ(c, DF_READY_QUEUES, "thread %s ready queue: slow %s (after %s), fast %s (after %s)", x->name,
               x->queued ? "queued" : "not queued", TA(x->sched_prev), y->queued ? "queued" : "not queued",
               TB(y->sched_prev));
    if (x->in_release != y->in_release ||
        (x->in_release && (x->sched_next != y->sched_next || x->sched_prev != y->sched_prev)))
        differ(c, DF_RELEASE_QUEUE, "thread %s release queue: slow %s, fast %s", x->name,
               x->in_release ? "in it" : "not in it", y->in_release ? "in it" : "not in it");
    /* the VMID a hyp build's setVMRoot gives the ASID of the vspace it
     * installs (getHWASID); the kernel holds none on other builds */
    if (c->a->cfg.hyp && x->vmid_ok != y->vmid_ok)
        differ(c, DF_ADDRESS_SPACE, "thread %s VMID: slow %s, fast %s", x->name, x->vmid_ok ? "valid" : "invalid",
               y->vmid_ok ? "valid" : "invalid");
    /* ksActiveFPUState of a core: migrateTCB releases a live FPU */
    if (x->fpu_live != y->fpu_live)
        differ(c, DF_FPU_OWNER, "thread %s FPU state: slow %s, fast %s", x->name,
               x->fpu_live ? "live (a core's FPU owner)" : "not live", y->fpu_live ? "live (a core's FPU owner)" : "not live");
    /* tcbFlags' seL4_TCBFlag_fpuDisabled (TCB_SetFlags) */
    if (x->fpu_disabled != y->fpu_disabled)
        differ(c, DF_FPU_OWNER, "thread %s fpuDisabled: slow %d, fast %d", x->name, x->fpu_disabled, y->fpu_disabled);
    /* tcbLookupFailure: a cap fault's lookup fault, sent with it */
    if (x->lookup_fault != y->lookup_fault)
        differ(c, DF_LOOKUP_FAULT, "thread %s tcbLookupFailure: slow %s, fast %s", x->name,
               ks_lookup_fault_name(x->lookup_fault), ks_lookup_fault_name(y->lookup_fault));
    if (x->badge_reg != y->badge_reg)
        differ(c, DF_BADGE_REG, "thread %s badge register: slow %#" PRIx64 ", fast %#" PRIx64, x->name, x->badge_reg,
               y->badge_reg);
    if (x->sc != y->sc || x->affinity != y->affinity)
        differ(c, DF_TCB_SC, "thread %s SC: slow %s (core %u), fast %s (core %u)", x->name, ks_sc_name(c->a, x->sc),
               x->affinity, ks_sc_name(c->b, y->sc), y->affinity);
    /* the kernel leaves a woken thread's blocking object stale; only a
     * blocked thread's is meaningful */
    if (isBlocked(c->a, i) && isBlocked(c->b, i) && x->blocking != y->blocking)
        differ(c, DF_BLOCKING, "thread %s blocked on: slow %d, fast %d", x->name, x->blocking, y->blocking);
    /* what a sender blocked on an endpoint left for its receiver */
    if (x->state == TS_BlockedOnSend && y->state == TS_BlockedOnSend &&
        (x->ipc_badge != y->ipc_badge || x->ipc_grant != y->ipc_grant || x->ipc_grant_reply != y->ipc_grant_reply ||
         x->ipc_call != y->ipc_call))
        differ(c, DF_BLOCKING, "thread %s send (badge, grant, grant reply, call): slow %#" PRIx64 " %d %d %d, fast %#" PRIx64
               " %d %d %d", x->name, x->ipc_badge, x->ipc_grant, x->ipc_grant_reply, x->ipc_call, y->ipc_badge,
               y->ipc_grant, y->ipc_grant_reply, y->ipc_call);
    /* on master a reference the kernel no longer reads is left stale
     * (reply_unlink, 4f4721706): it counts only where it means something
     * on both sides (the reply rule, reply_ref_live) */
    bool live = reply_ref_live(&c->a->cfg, x->state) || reply_ref_live(&c->b->cfg, y->state);
    if (live && x->reply != y->reply)
        differ(c, DF_BLOCKING, "thread %s reply object: slow %s, fast %s", x->name, ks_reply_name(c->a, x->reply),
               ks_reply_name(c->b, y->reply));
}

/* Refill queues compare as sequences from head to tail. */
static bool same_refills(const struct ks_sc *x, const struct ks_sc *y)
{
    if (x->refill_max != y->refill_max)
        return false;
    if (!x->refill_max)
        return true;
    if (refill_size(x) != refill_size(y))
        return false;
    unsigned i = x->head, j = y->head;
    for (unsigned n = refill_size(x); n; n--, i = refill_next(x, i), j = refill_next(y, j))
        if (x->refills[i].time != y->refills[j].time || x->refills[i].amount != y->refills[j].amount)
            return false;
    return true;
}

static void print_refills(FILE *out, const struct ks_sc *s)
{
    if (!s->refill_max) {
        fprintf(out, "(none)");
        return;
    }
    /* a queue the invariants refuse (INV_REFILLS) is printed as it is
     * rather than walked: its ring would run past the slots */
    if (s->refill_max > KS_MAX_REFILLS || s->head >= s->refill_max || s->tail >= s->refill_max) {
        fprintf(out, "(out of range: head %u tail %u max %u)", (unsigned)s->head, (unsigned)s->tail,
                (unsigned)s->refill_max);
        return;
    }
    unsigned i = s->head;
    for (unsigned n = refill_size(s); n; n--, i = refill_next(s, i))
        fprintf(out, "%s%" PRIu64 "+%" PRIu64, i == s->head ? "" : " ", s->refills[i].time, s->refills[i].amount);
}

static void cmp_sc(struct cmp *c, int i)
{
    const struct ks_sc *x = &c->a->scs[i], *y = &c->b->scs[i];
    if (!same_refills(x, y)) {
        c->mask |= 1u << DF_REFILLS;
        if (c->out) {
            fprintf(c->out, "  %-12s SC %s refills (time+amount): slow ", groups[G_BUDGET], x->name);
            print_refills(c->out, x);
            fprintf(c->out, "; fast ");
            print_refills(c->out, y);
            fputc('\n', c->out);
        }
    }
    if (x->consumed != y->consumed)
        differ(c, DF_SC_CONSUMED, "SC %s scConsumed: slow %" PRIu64 ", fast %" PRIu64, x->name, x->consumed,
               y->consumed);
    if (x->tcb != y->tcb)
        differ(c, DF_TCB_SC, "SC %s bound to: slow %s, fast %s", x->name, TA(x->tcb), TB(y->tcb));
    if (x->reply != y->reply)
        differ(c, DF_REPLY, "SC %s call stack head: slow %s, fast %s", x->name, ks_reply_name(c->a, x->reply),
               ks_reply_name(c->b, y->reply));
}

/* An IPC queue compares as the sequence of its threads. */
static bool same_queue(const struct kstate *a, int ha, const struct kstate *b, int hb)
{
    int n = 0;
    while (ha != KS_NONE && hb != KS_NONE && n++ <= a->n_tcbs) {
        if (ha != hb)
            return false;
        ha = a->tcbs[ha].ep_next;
        hb = b->tcbs[hb].ep_next;
    }
    return ha == hb;
}

static void cmp_ipc(struct cmp *c)
{
    const struct kstate *a = c->a, *b = c->b;
    for (int i = 0; i < a->n_ntfns; i++) {
        const struct ks_ntfn *x = &a->ntfns[i], *y = &b->ntfns[i];
        if (x->state != y->state || x->msg_id != y->msg_id)
            differ(c, DF_NTFN, "notification %s: slow %s badge %#" PRIx64 ", fast %s badge %#" PRIx64, x->name,
                   ks_ntfn_state_name(x->state), x->msg_id, ks_ntfn_state_name(y->state), y->msg_id);
        if (x->q_tail != y->q_tail || !same_queue(a, x->q_head, b, y->q_head))
            differ(c, DF_NTFN, "notification %s wait queue: slow head %s, fast head %s", x->name, TA(x->q_head),
                   TB(y->q_head));
        if (x->bound_tcb != y->bound_tcb || x->sc != y->sc)
            differ(c, DF_NTFN, "notification %s bindings differ", x->name);
    }
    for (int i = 0; i < a->n_eps; i++) {
        const struct ks_ep *x = &a->eps[i], *y = &b->eps[i];
        if (x->state != y->state || x->q_tail != y->q_tail || !same_queue(a, x->q_head, b, y->q_head))
            differ(c, DF_EP, "endpoint %s: slow %s head %s, fast %s head %s", x->name, ks_ep_state_name(x->state),
                   TA(x->q_head), ks_ep_state_name(y->state), TB(y->q_head));
    }
    for (int i = 0; i < a->n_replies; i++) {
        const struct ks_reply *x = &a->replies[i], *y = &b->replies[i];
        if (x->tcb != y->tcb)
            differ(c, DF_REPLY, "reply %s: slow %s, fast %s", x->name, TA(x->tcb), TB(y->tcb));
        if (x->prev != y->prev || x->next != y->next || x->sc_head != y->sc_head)
            differ(c, DF_REPLY, "reply %s call stack (prev, next or head of SC): slow %s %s %s, fast %s %s %s",
                   x->name, ks_reply_name(a, x->prev), ks_reply_name(a, x->next), ks_sc_name(a, x->sc_head),
                   ks_reply_name(b, y->prev), ks_reply_name(b, y->next), ks_sc_name(b, y->sc_head));
    }
}

/* Byte-equal object arrays hold nothing to report: most checks agree, and
 * this skips the field walk for them. Stale fields that differ only make
 * the walk run. */
#define SAME_ARRAY(a, b, arr, n) (memcmp((a)->arr, (b)->arr, (size_t)(n) * sizeof (a)->arr[0]) == 0)

/* an IRQ's state and its handler slot's cap, for i past the table what
 * ks_irq_touch fills in (Inactive, a null cap) */
static void irq_entry(const struct kstate *ks, int i, int *state, struct ks_irq_cap *cap)
{
    *state = i < ks->n_irqs ? ks->irq_state[i] : IRQ_Inactive;
    *cap = i < ks->n_irqs ? ks->irq_cap[i] : (struct ks_irq_cap){.type = CAP_Null, .ntfn = KS_NONE};
}

/* The IRQ table (each IRQ's state and handler cap) of a system call's
 * outcomes: IRQHandler_SetNotification and _Clear write the handler slot,
 * IRQControl_Get the state, _GetTrigger and _GetTriggerCore also the GIC's
 * trigger and target core of the IRQ (irq_cfg: reported as irq_handler,
 * the entry the invocation made; a field of its own would be the 32nd, and
 * the 32-bit masks of fields keep a bit above them for a halt). An
 * interrupt entry writes none of them (handleInterrupt and the IRQ
 * fastpath read the table only: interrupt.c:185-265 at 1326364bc), so its
 * outcomes are not walked. */
static void cmp_irq_table(struct cmp *c)
{
    const struct kstate *a = c->a, *b = c->b;
    int n = a->n_irqs > b->n_irqs ? a->n_irqs : b->n_irqs;
    if (a->sys.entry == ENTRY_IRQ || (a->n_irqs == b->n_irqs && SAME_ARRAY(a, b, irq_state, n) &&
                                      SAME_ARRAY(a, b, irq_cap, n) && SAME_ARRAY(a, b, irq_cfg, n)))
        return;
    for (int i = 0; i < n; i++) {
        int sa, sb;
        struct ks_irq_cap x, y;
        irq_entry(a, i, &sa, &x);
        irq_entry(b, i, &sb, &y);
        unsigned fa = i < a->n_irqs ? a->irq_cfg[i] : 0, fb = i < b->n_irqs ? b->irq_cfg[i] : 0;
        if (fa != fb)
            differ(c, DF_IRQ_HANDLER, "IRQ %d: slow %s-triggered, core %u; fast %s-triggered, core %u", i,
                   fa & KS_IRQ_EDGE ? "edge" : "level", ks_irq_core((uint8_t)fa), fb & KS_IRQ_EDGE ? "edge" : "level",
                   ks_irq_core((uint8_t)fb));
        bool ntfn = x.type == CAP_Notification;
        if (sa != sb || x.type != y.type || (ntfn && (x.ntfn != y.ntfn || x.badge != y.badge || x.can_send != y.can_send)))
            differ(c, DF_IRQ_HANDLER, "IRQ %d: slow %s, handler %s %s badge %" PRIu64 ", fast %s, handler %s %s badge %" PRIu64,
                   i, ks_irq_state_name(sa), ks_cap_type_name(x.type), ks_ntfn_name(a, x.ntfn), x.badge,
                   ks_irq_state_name(sb), ks_cap_type_name(y.type), ks_ntfn_name(b, y.ntfn), y.badge);
    }
}

static void cmp_irqs(struct cmp *c)
{
    const struct kstate *a = c->a, *b = c->b;
    cmp_irq_table(c);
    for (int k = 1; k < KS_MAX_CORES; k++) { /* another core's SGIs and PPIs */
        if (a->core_ppi_masked[k] != b->core_ppi_masked[k])
            differ(c, DF_IRQ_MASK, "core %d's PPIs masked: slow %#x, fast %#x", k, a->core_ppi_masked[k],
                   b->core_ppi_masked[k]);
        if (a->core_ppi_active[k] != b->core_ppi_active[k])
            differ(c, DF_IRQ_ACTIVE, "core %d's PPIs active: slow %#x, fast %#x (GIC active state)", k,
                   a->core_ppi_active[k], b->core_ppi_active[k]);
    }
    if (a->oor_irq != b->oor_irq || a->oor_masked != b->oor_masked)
        differ(c, DF_IRQ_MASK, "IRQ %d above maxIRQ: slow %s, fast %s", (int)(a->oor_irq > b->oor_irq ? a->oor_irq : b->oor_irq),
               a->oor_masked ? "masked" : "unmasked", b->oor_masked ? "masked" : "unmasked");
    if (a->oor_acks != b->oor_acks)
        differ(c, DF_IRQ_ACK, "IRQ above maxIRQ acks: slow %u, fast %u", a->oor_acks, b->oor_acks);
    if (a->oor_active != b->oor_active)
        differ(c, DF_IRQ_ACTIVE, "IRQ above maxIRQ: slow %s, fast %s", a->oor_active ? "active" : "inactive",
               b->oor_active ? "active" : "inactive");
    int n = a->n_irqs > b->n_irqs ? a->n_irqs : b->n_irqs;
    if (!c->out && a->n_irqs == b->n_irqs && SAME_ARRAY(a, b, irq_masked, n) && SAME_ARRAY(a, b, irq_acks, n) &&
        SAME_ARRAY(a, b, irq_active, n))
        return;
    for (int i = 0; i < n; i++) {
        bool ma = i < a->n_irqs && a->irq_masked[i], mb = i < b->n_irqs && b->irq_masked[i];
        int ka = i < a->n_irqs ? a->irq_acks[i] : 0, kb = i < b->n_irqs ? b->irq_acks[i] : 0;
        bool va = i < a->n_irqs && a->irq_active[i], vb = i < b->n_irqs && b->irq_active[i];
        if (ma != mb)
            differ(c, DF_IRQ_MASK, "IRQ %d: slow %s, fast %s", i, ma ? "masked" : "unmasked",
                   mb ? "masked" : "unmasked");
        if (ka != kb)
            differ(c, DF_IRQ_ACK, "IRQ %d acks: slow %d, fast %d", i, ka, kb);
        if (va != vb)
            differ(c, DF_IRQ_ACTIVE, "IRQ %d: slow %s, fast %s (GIC active state)", i, va ? "active" : "inactive",
                   vb ? "active" : "inactive");
    }
}

/* The hypervisor's VCPU state: each core's armHSCurVCPU and
 * armHSVCPUActive, each core's VGIC list registers (EISR and MISR follow
 * from them; another core's change by a remote VCPU_InjectIRQ), each VCPU's binding, masked VPPI and saved list registers; a
 * thread's binding and fault list register are cmp_tcb's threads' own */
static void cmp_vcpus(struct cmp *c)
{
    const struct kstate *a = c->a, *b = c->b;
    for (int k = 0; k < KS_MAX_CORES; k++) {
        int va = k ? a->core_vcpu[k] : a->cur_vcpu, vb = k ? b->core_vcpu[k] : b->cur_vcpu;
        bool xa = k ? a->core_vcpu_active[k] : a->vcpu_active, xb = k ? b->core_vcpu_active[k] : b->vcpu_active;
        if (va != vb || xa != xb)
            differ(c, DF_VCPU, "core %d's VCPU: slow %s%s, fast %s%s", k, ks_vcpu_name(a, va), xa ? " (active)" : "",
                   ks_vcpu_name(b, vb), xb ? " (active)" : "");
    }
    int n = a->vgic_num_lr < KS_VGIC_MAX_LRS ? a->vgic_num_lr : KS_VGIC_MAX_LRS;
    if (!SAME_ARRAY(a, b, vgic_lr, n))
        differ(c, DF_VCPU, "core 0's VGIC list registers differ");
    for (int k = 1; k < KS_MAX_CORES; k++)
        if (memcmp(a->core_vgic_lr[k], b->core_vgic_lr[k], (size_t)n) != 0)
            differ(c, DF_VCPU, "core %d's VGIC list registers differ", k);
    for (int v = 0; v < a->n_vcpus && v < b->n_vcpus; v++) {
        const struct ks_vcpu *x = &a->vcpus[v], *y = &b->vcpus[v];
        if (x->tcb != y->tcb || x->vppi_masked != y->vppi_masked || memcmp(x->lr, y->lr, (size_t)n) != 0)
            differ(c, DF_VCPU, "VCPU %s: slow thread %s%s, fast thread %s%s%s", x->name, TA(x->tcb),
                   x->vppi_masked ? " VPPI masked" : "", TB(y->tcb), y->vppi_masked ? " VPPI masked" : "",
                   memcmp(x->lr, y->lr, (size_t)n) ? "; list registers differ" : "");
    }
    for (int i = 0; i < a->n_tcbs && i < b->n_tcbs; i++) {
        const struct ks_tcb *x = &a->tcbs[i], *y = &b->tcbs[i];
        if (x->vcpu != y->vcpu || (x->fault == FAULT_VGICMaintenance && x->fault_lr != y->fault_lr))
            differ(c, DF_VCPU, "thread %s: slow VCPU %s (fault lr %d), fast VCPU %s (fault lr %d)", x->name,
                   ks_vcpu_name(a, x->vcpu), x->fault_lr, ks_vcpu_name(b, y->vcpu), y->fault_lr);
    }
}

uint32_t diff_compare(const struct kstate *slow, const struct kstate *fast, FILE *out)
{
    struct cmp c = {slow, fast, out, 0};
    cmp_node(&c);
    if (slow->cfg.hyp || fast->cfg.hyp)
        cmp_vcpus(&c);
    if (!out && SAME_ARRAY(slow, fast, tcbs, slow->n_tcbs) && SAME_ARRAY(slow, fast, scs, slow->n_scs) &&
        SAME_ARRAY(slow, fast, ntfns, slow->n_ntfns) && SAME_ARRAY(slow, fast, eps, slow->n_eps) &&
        SAME_ARRAY(slow, fast, replies, slow->n_replies)) {
        cmp_irqs(&c);
        return c.mask;
    }
    for (int i = 0; i < slow->n_tcbs; i++)
        cmp_tcb(&c, i);
    for (int i = 0; i < slow->n_scs; i++)
        cmp_sc(&c, i);
    cmp_ipc(&c);
    cmp_irqs(&c);
    return c.mask;
}

/* The normalisation reads the clock for an outcome that did not: sound on
 * one core, where the next entry of this core reads it before anything
 * charges the time. On SMP another core's remote stall charges this core's
 * ksConsumed with no clock read (ipiStallCoreCallback, irqPath branch:
 * commitTime, then the idle SC, src/smp/ipi.c:67-79): time not read at
 * this entry is then never charged to the current SC. */
bool diff_unread_clock_shows(const struct kstate *fast, ticks_t slow_cur_time)
{
    return fast->cfg.smp && fast->cur_time != slow_cur_time;
}

bool diff_kernel_own(const struct diff_verdict *v)
{
    uint32_t own = 1u << DF_INVARIANT | 1u << DF_ASSERT;
    return !v->agree && (v->fields & ~own) == 0 && (v->slow_inv || v->slow_asserts) && v->slow_inv == v->fast_inv &&
           v->slow_asserts == v->fast_asserts;
}

void diff_judge(struct kstate *slow, struct kstate *fast, bool check_invariants, struct diff_verdict *v)
{
    v->unread_clock = diff_unread_clock_shows(fast, slow->cur_time);
    v->slow_time = slow->cur_time;
    v->fast_time = fast->cur_time;
    v->slow_overrun = !diff_normalise(slow);
    v->fast_overrun = !diff_normalise(fast);
    /* Outcomes equal byte for byte (most fallbacks end so) differ in no
     * field and break the same invariants: the checker and the field walk
     * run once. ks_same covers every byte either of them reads. */
    bool same = ks_same(slow, fast);
    if (check_invariants) {
        struct inv_report r;
        v->slow_inv = (uint8_t)kstate_check(slow, INV_AT_EXIT, &r);
        v->fast_inv = same ? v->slow_inv : (uint8_t)kstate_check(fast, INV_AT_EXIT, &r);
    }
    v->slow_asserts = slow->n_asserts;
    v->fast_asserts = fast->n_asserts;
    v->fields = same ? 0 : diff_compare(slow, fast, NULL);
    if (v->slow_overrun != v->fast_overrun)
        v->fields |= 1u << DF_OVERRUN;
    if (v->slow_asserts != v->fast_asserts || v->slow_asserts)
        v->fields |= 1u << DF_ASSERT;
    if (v->slow_inv != v->fast_inv || v->slow_inv)
        v->fields |= 1u << DF_INVARIANT;
    if (v->unread_clock)
        v->fields |= 1u << DF_CUR_TIME;
    v->agree = v->fields == 0;
}

void diff_run(const struct kstate *in, int variant, bool check_invariants, struct diff_verdict *v,
              struct kstate *slow, struct kstate *fast)
{
    memset(v, 0, sizeof *v);
    const struct target *t = target_of(in);
    ks_copy(slow, in);
    ks_copy(fast, in);
    t->slow(slow);
    v->exit = target_fast(t, fast, variant);
    diff_judge(slow, fast, check_invariants, v);
}

static void report_asserts(FILE *out, const char *side, const struct kstate *ks)
{
    int kept = ks->n_asserts < KS_MAX_ASSERTS ? ks->n_asserts : KS_MAX_ASSERTS;
    for (int i = 0; i < kept; i++) {
        int id = ks->asserts[i].id;
        fprintf(out, "  %-12s %s: kernel assert in %s failed (%s) during the %s\n", groups[G_CHECK], side,
                kassert_fn(id), kassert_msg(id), ks_path_name(ks->asserts[i].path));
    }
}

static void report_invariants(FILE *out, const char *side, const struct kstate *ks)
{
    struct inv_report r;
    int n = kstate_check(ks, INV_AT_EXIT, &r);
    int kept = n < INV_MAX_ITEMS ? n : INV_MAX_ITEMS;
    for (int i = 0; i < kept; i++)
        fprintf(out, "  %-12s %s outcome breaks invariant %s: %s\n", groups[G_CHECK], side, inv_name(r.items[i].id),
                r.items[i].msg);
}

void diff_report(FILE *out, const struct diff_verdict *v, const struct kstate *slow, const struct kstate *fast)
{
    char buf[512];
    const struct target *t = target_of(slow);
    fprintf(out, "fastpath exit: %s (%s)%s\n", t->exit_name(v->exit), t->exit_what(v->exit),
            t->exit_is_fallback(v->exit) ? " -> slowpath" : "");
    if (v->agree) {
        fprintf(out, "verdict: AGREE\n");
        return;
    }
    fprintf(out, "verdict: DIVERGE in %s\n", diff_fields_text(v->fields, buf, sizeof buf));
    diff_compare(slow, fast, out);
    if (v->unread_clock)
        fprintf(out, "  %-12s clock read at entry: slow %" PRIu64 ", fast left it at %" PRIu64 " (on SMP another "
                     "core's remote stall charges ksConsumed without reading it)\n", groups[G_BUDGET], v->slow_time,
                v->fast_time);
    if (v->slow_overrun || v->fast_overrun)
        fprintf(out, "  %-12s pending consumed time the current SC cannot pay: slow %s, fast %s\n", groups[G_BUDGET],
                v->slow_overrun ? "yes" : "no", v->fast_overrun ? "yes" : "no");
    report_asserts(out, "slow", slow);
    report_asserts(out, "fast", fast);
    report_invariants(out, "slow", slow);
    report_invariants(out, "fast", fast);
}
