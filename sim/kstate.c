/* kstate: construction, copying and naming of a kernel state. */
#include "kstate.h"

#include <stdio.h>
#include <string.h>

#include "kassert.h"

static const struct { const char *fn, *msg; } kassert_text[] = {
#define KASSERT_TEXT(id, fn, msg) {fn, msg},
    KASSERT_LIST(KASSERT_TEXT)
#undef KASSERT_TEXT
};

const char *kassert_fn(int id)
{
    return id >= 0 && id < A_COUNT ? kassert_text[id].fn : "?";
}

const char *kassert_msg(int id)
{
    return id >= 0 && id < A_COUNT ? kassert_text[id].msg : "?";
}

bool ks_check(struct kstate *ks, bool cond, int id)
{
    if (cond)
        return true;
    if (ks->n_asserts < KS_MAX_ASSERTS) {
        ks->asserts[ks->n_asserts].id = (uint16_t)id;
        ks->asserts[ks->n_asserts].path = ks->path;
    }
    if (ks->n_asserts < UINT8_MAX)
        ks->n_asserts++;
    return false;
}

/* prefix (of n characters, PREFIX) + decimal index, without printf or
 * strlen: the generator names thousands of objects a second */
#define PREFIX(s) s, sizeof s - 1
static void set_name(char *dst, const char *name, const char *prefix, size_t n, int i)
{
    if (name && *name) { /* snprintf(dst, KS_NAME_LEN, "%s", name), without printf */
        size_t k = 0;
        for (; k < KS_NAME_LEN - 1 && name[k]; k++)
            dst[k] = name[k];
        dst[k] = 0;
        return;
    }
    memcpy(dst, prefix, n);
    if (i >= 10)
        dst[n++] = (char)('0' + i / 10);
    dst[n++] = (char)('0' + i % 10);
    dst[n] = 0;
}

int ks_add_tcb(struct kstate *ks, const char *name)
{
    if (ks->n_tcbs >= KS_MAX_TCBS)
        return KS_NONE;
    int i = ks->n_tcbs++;
    struct ks_tcb *t = &ks->tcbs[i];
    memset(t, 0, sizeof *t);
    set_name(t->name, name, PREFIX("t"), i);
    t->blocking = t->reply = t->sc = t->bound_ntfn = t->timeout_ep = KS_NONE;
    t->vcpu = t->fault_ep = t->fault_lr = KS_NONE;
    t->sched_next = t->sched_prev = t->ep_next = t->ep_prev = KS_NONE;
    t->vtable_ok = t->asid_ok = t->vmid_ok = true;
    return i;
}

int ks_add_sc(struct kstate *ks, const char *name)
{
    if (ks->n_scs >= KS_MAX_SCS)
        return KS_NONE;
    int i = ks->n_scs++;
    struct ks_sc *s = &ks->scs[i];
    memset(s, 0, sizeof *s);
    set_name(s->name, name, PREFIX("sc"), i);
    s->tcb = s->ntfn = s->reply = KS_NONE;
    return i;
}

int ks_add_ntfn(struct kstate *ks, const char *name)
{
    if (ks->n_ntfns >= KS_MAX_NTFNS)
        return KS_NONE;
    int i = ks->n_ntfns++;
    struct ks_ntfn *n = &ks->ntfns[i];
    memset(n, 0, sizeof *n);
    set_name(n->name, name, PREFIX("ntfn"), i);
    n->q_head = n->q_tail = n->bound_tcb = n->sc = KS_NONE;
    return i;
}

int ks_add_ep(struct kstate *ks, const char *name)
{
    if (ks->n_eps >= KS_MAX_EPS)
        return KS_NONE;
    int i = ks->n_eps++;
    struct ks_ep *e = &ks->eps[i];
    memset(e, 0, sizeof *e);
    set_name(e->name, name, PREFIX("ep"), i);
    e->q_head = e->q_tail = KS_NONE;
    return i;
}

int ks_add_reply(struct kstate *ks, const char *name)
{
    if (ks->n_replies >= KS_MAX_REPLIES)
        return KS_NONE;
    int i = ks->n_replies++;
    struct ks_reply *r = &ks->replies[i];
    memset(r, 0, sizeof *r);
    set_name(r->name, name, PREFIX("reply"), i);
    r->tcb = r->prev = r->next = r->sc_head = KS_NONE;
    return i;
}

int ks_add_vcpu(struct kstate *ks, const char *name)
{
    if (ks->n_vcpus >= KS_MAX_VCPUS)
        return KS_NONE;
    int i = ks->n_vcpus++;
    struct ks_vcpu *v = &ks->vcpus[i];
    memset(v, 0, sizeof *v);
    set_name(v->name, name, PREFIX("vcpu"), i);
    v->tcb = KS_NONE;
    return i;
}

void ks_irq_touch(struct kstate *ks, int irq)
{
    if (irq < ks->n_irqs || irq >= KS_MAX_IRQS)
        return;
    size_t from = ks->n_irqs, n = (size_t)irq + 1 - from;
    memset(&ks->irq_state[from], 0, n * sizeof ks->irq_state[0]);
    memset(&ks->irq_masked[from], 0, n * sizeof ks->irq_masked[0]);
    memset(&ks->irq_acks[from], 0, n * sizeof ks->irq_acks[0]);
    memset(&ks->irq_cfg[from], 0, n * sizeof ks->irq_cfg[0]);
    memset(&ks->irq_active[from], 0, n * sizeof ks->irq_active[0]);
    memset(&ks->irq_cap[from], 0, n * sizeof ks->irq_cap[0]);
    for (size_t i = from; i <= (size_t)irq; i++)
        ks->irq_cap[i].ntfn = KS_NONE;
    ks->n_irqs = (uint16_t)(irq + 1);
}

bool ks_is_idle(const struct kstate *ks, int t)
{
    for (int k = 1; k < KS_MAX_CORES; k++)
        if (t == ks->core_idle[k])
            return true;
    return t == ks->idle_thread;
}

void ks_sysin_clear(struct ks_sysin *s)
{
    memset(s, 0, sizeof *s);
    s->ep = s->reply = s->tcb = s->vcpu = KS_NONE;
}

/* The idle thread (priority 0, IdleThreadState) and the idle SC, as the
 * kernel configures them at boot; the boot time slice does not matter to
 * the interrupt path because the idle SC is never charged. */
int ks_init(struct kstate *ks, const char *board)
{
    memset(ks, 0, offsetof(struct kstate, tcbs));
    ks->n_irqs = 0;
    ks->path = PATH_NONE;
    ks->n_asserts = 0;
    memset(ks->asserts, 0, sizeof ks->asserts);
    if (cfg_preset(&ks->cfg, board) != 0)
        return -1;
    ks->cur_thread = ks->cur_sc = ks->idle_thread = ks->idle_sc = ks->vspace = KS_NONE;
    ks->sched_action = KS_SA_RESUME;
    ks->active_irq = ks->oor_irq = KS_IRQ_INVALID;
    ks_sysin_clear(&ks->sys);
    ks->sys.ntfn = KS_NONE;
    ks->deadline = UINT64_MAX;
    for (int c = 0; c < KS_MAX_CORES; c++) {
        ks->core_cur[c] = ks->core_idle[c] = ks->release_head[c] = KS_NONE;
        ks->core_sc[c] = ks->core_idle_sc[c] = ks->core_vspace[c] = KS_NONE;
        ks->core_action[c] = KS_SA_RESUME;
        ks->core_deadline[c] = UINT64_MAX;
    }
    /* vcpu_boot_init on every core (init_cpu, arm/kernel/boot.c:193-195;
     * vcpu.c:26-28): no VCPU loaded or active */
    ks->cur_vcpu = KS_NONE;
    for (int c = 0; c < KS_MAX_CORES; c++)
        ks->core_vcpu[c] = KS_NONE;
    /* GIC-400's four list registers, as on every GICv2 board modelled */
    ks->vgic_num_lr = 4;
    ks->dom_len = 1;
    ks->dom_sched[0] = dschedule_make(0, cfg_us_to_ticks(&ks->cfg, 10 * 1000));
    ks->domain_time = dschedule_duration(ks->dom_sched[0]);

    int idle = ks_add_tcb(ks, "idle");
    int isc = ks_add_sc(ks, "idle_sc");
    struct ks_tcb *t = &ks->tcbs[idle];
    t->state = TS_IdleThreadState;
    t->sc = (int8_t)isc;
    struct ks_sc *s = &ks->scs[isc];
    s->tcb = (int8_t)idle;
    s->refill_max = 2;
    s->head = 0;
    s->tail = 1;
    s->refills[0].amount = s->budget = cfg_us_to_ticks(&ks->cfg, 5000);
    ks->idle_thread = ks->cur_thread = (int8_t)idle;
    ks->idle_sc = ks->cur_sc = (int8_t)isc;
    return 0;
}

/* Copies the header and only the used prefix of each object array: the
 * fuzzer copies a state twice per check, and most of the capacity is empty.
 * A copy does not count into the original's cost recorder: two runs from
 * one state (diff_run) would mix their counts in it. */
void ks_copy(struct kstate *dst, const struct kstate *src)
{
    /* the header and the threads right after it, in one go */
    memcpy(dst, src, offsetof(struct kstate, tcbs) + src->n_tcbs * sizeof src->tcbs[0]);
    dst->cost = NULL;
    memcpy(dst->scs, src->scs, src->n_scs * sizeof src->scs[0]);
    memcpy(dst->ntfns, src->ntfns, src->n_ntfns * sizeof src->ntfns[0]);
    memcpy(dst->eps, src->eps, src->n_eps * sizeof src->eps[0]);
    memcpy(dst->replies, src->replies, src->n_replies * sizeof src->replies[0]);
    dst->n_irqs = src->n_irqs;
    memcpy(dst->irq_state, src->irq_state, src->n_irqs * sizeof src->irq_state[0]);
    memcpy(dst->irq_masked, src->irq_masked, src->n_irqs * sizeof src->irq_masked[0]);
    memcpy(dst->irq_acks, src->irq_acks, src->n_irqs * sizeof src->irq_acks[0]);
    memcpy(dst->irq_cfg, src->irq_cfg, src->n_irqs * sizeof src->irq_cfg[0]);
    memcpy(dst->irq_active, src->irq_active, src->n_irqs * sizeof src->irq_active[0]);
    memcpy(dst->irq_cap, src->irq_cap, src->n_irqs * sizeof src->irq_cap[0]);
    dst->path = src->path;
    dst->n_asserts = src->n_asserts;
    memcpy(dst->asserts, src->asserts, sizeof src->asserts);
}

#define NAME_TABLE(fn, type, ...)                              \
    const char *fn(int i)                                      \
    {                                                          \
        static const char *const names[] = {__VA_ARGS__};      \
        if (i < 0 || (size_t)i >= sizeof names / sizeof names[0]) \
            return "?";                                        \
        return names[i];                                       \
    }

NAME_TABLE(ks_ts_name, enum ks_ts, "Inactive", "Running", "Restart", "BlockedOnReceive",
           "BlockedOnSend", "BlockedOnReply", "BlockedOnNotification", "IdleThreadState")
NAME_TABLE(ks_ntfn_state_name, enum ks_ntfn_state, "Idle", "Waiting", "Active")
NAME_TABLE(ks_ep_state_name, enum ks_ep_state, "Idle", "Send", "Recv")
NAME_TABLE(ks_irq_state_name, enum ks_irq_state, "Inactive", "Signal", "Timer", "IPI", "Reserved")
NAME_TABLE(ks_cap_type_name, enum ks_cap_type, "null", "notification", "endpoint")
NAME_TABLE(ks_fault_name, enum ks_fault, "none", "timeout", "cap", "vppi", "vgic")
NAME_TABLE(ks_lookup_fault_name, enum ks_lookup_fault, "none", "missing", "resolve", "stale")
NAME_TABLE(ks_path_name, enum ks_path, "-", "slowpath", "fastpath", "normalisation")
NAME_TABLE(ks_entry_name, enum ks_entry, "irq", "signal", "call", "reply_recv")
NAME_TABLE(ks_sys_cap_name, enum ks_sys_cap, "ntfn", "ntfn_no_send", "null", "lookup_fail", "ep", "domain", "tcb", "vcpu",
           "irq_ack", "irq_set", "irq_clear", "irq_control")
NAME_TABLE(ks_sys_cap_invocation, enum ks_sys_cap, "sendSignal", "", "", "", "sendIPC", "DomainSet_Set", "TCB_SetFlags",
           "VCPU_InjectIRQ", "IRQHandler_Ack", "IRQHandler_SetNotification", "IRQHandler_Clear",
           "IRQControl_Get, _GetTrigger[Core]")
NAME_TABLE(ks_irq_dest_name, enum ks_irq_dest, "empty", "bad", "full")
NAME_TABLE(ks_irq_method_name, enum ks_irq_method, "get", "trigger", "trigger_core")
NAME_TABLE(ks_reply_cap_name, enum ks_reply_cap, "reply", "null", "lookup_fail")

#define OBJ_NAME(fn, arr, count)                                 \
    const char *fn(const struct kstate *ks, int i)               \
    {                                                            \
        if (i == KS_NONE)                                        \
            return "-";                                          \
        if (i < 0 || i >= ks->count)                             \
            return "?";                                          \
        return ks->arr[i].name;                                  \
    }

OBJ_NAME(ks_tcb_name, tcbs, n_tcbs)
OBJ_NAME(ks_sc_name, scs, n_scs)
OBJ_NAME(ks_ntfn_name, ntfns, n_ntfns)
OBJ_NAME(ks_ep_name, eps, n_eps)
OBJ_NAME(ks_reply_name, replies, n_replies)
OBJ_NAME(ks_vcpu_name, vcpus, n_vcpus)

bool ks_same(const struct kstate *a, const struct kstate *b)
{
    /* skip deadline_writes and the cost recorder after it */
    size_t dw = offsetof(struct kstate, deadline_writes);
    size_t after = offsetof(struct kstate, cost) + sizeof a->cost;
    if (memcmp(a, b, dw) != 0 ||
        memcmp((const char *)a + after, (const char *)b + after, offsetof(struct kstate, tcbs) - after) != 0)
        return false;
    if (a->n_irqs != b->n_irqs || a->n_asserts != b->n_asserts)
        return false;
#define SAME(arr, n) (memcmp(a->arr, b->arr, (size_t)(n) * sizeof a->arr[0]) == 0)
    return SAME(tcbs, a->n_tcbs) && SAME(scs, a->n_scs) && SAME(ntfns, a->n_ntfns) && SAME(eps, a->n_eps) &&
           SAME(replies, a->n_replies) && SAME(irq_state, a->n_irqs) && SAME(irq_masked, a->n_irqs) &&
           SAME(irq_acks, a->n_irqs) && SAME(irq_cfg, a->n_irqs) && SAME(irq_active, a->n_irqs) &&
           SAME(irq_cap, a->n_irqs) && SAME(asserts, KS_MAX_ASSERTS);
#undef SAME
}

/* ---- deleting objects (the shrinker's tool) ---- */

static void fix_ref8(int8_t *ref, int i)
{
    if (*ref == i)
        *ref = KS_NONE;
    else if (*ref > i)
        (*ref)--;
}

/* a scheduler action naming a deleted thread falls back to ChooseNewThread */
static void fix_action(int16_t *action, int i)
{
    if (*action == i)
        *action = KS_SA_CHOOSE;
    else if (*action > i)
        (*action)--;
}

static bool tcb_blocks_on_ntfn(const struct ks_tcb *t)
{
    return t->state == TS_BlockedOnNotification;
}

static void remap_tcb(struct kstate *ks, int i)
{
    for (int k = 0; k < ks->n_tcbs; k++) {
        struct ks_tcb *t = &ks->tcbs[k];
        fix_ref8(&t->sched_next, i);
        fix_ref8(&t->sched_prev, i);
        fix_ref8(&t->ep_next, i);
        fix_ref8(&t->ep_prev, i);
    }
    for (int k = 0; k < ks->n_scs; k++)
        fix_ref8(&ks->scs[k].tcb, i);
    for (int k = 0; k < ks->n_vcpus; k++)
        fix_ref8(&ks->vcpus[k].tcb, i);
    for (int k = 0; k < ks->n_ntfns; k++) {
        fix_ref8(&ks->ntfns[k].q_head, i);
        fix_ref8(&ks->ntfns[k].q_tail, i);
        fix_ref8(&ks->ntfns[k].bound_tcb, i);
    }
    for (int k = 0; k < ks->n_eps; k++) {
        fix_ref8(&ks->eps[k].q_head, i);
        fix_ref8(&ks->eps[k].q_tail, i);
    }
    for (int k = 0; k < ks->n_replies; k++)
        fix_ref8(&ks->replies[k].tcb, i);
    fix_ref8(&ks->cur_thread, i);
    fix_ref8(&ks->idle_thread, i);
    fix_ref8(&ks->vspace, i);
    for (int c = 0; c < KS_MAX_CORES; c++) {
        fix_ref8(&ks->release_head[c], i);
        fix_ref8(&ks->core_cur[c], i);
        fix_ref8(&ks->core_idle[c], i);
        fix_ref8(&ks->core_vspace[c], i);
        fix_action(&ks->core_action[c], i);
    }
    fix_action(&ks->sched_action, i);
}

static void remap_sc(struct kstate *ks, int i)
{
    for (int k = 0; k < ks->n_tcbs; k++)
        fix_ref8(&ks->tcbs[k].sc, i);
    for (int k = 0; k < ks->n_ntfns; k++)
        fix_ref8(&ks->ntfns[k].sc, i);
    fix_ref8(&ks->cur_sc, i);
    fix_ref8(&ks->idle_sc, i);
    for (int c = 0; c < KS_MAX_CORES; c++) {
        fix_ref8(&ks->core_sc[c], i);
        fix_ref8(&ks->core_idle_sc[c], i);
    }
    for (int k = 0; k < ks->n_replies; k++)
        fix_ref8(&ks->replies[k].sc_head, i);
}

static void remap_ntfn(struct kstate *ks, int i)
{
    for (int k = 0; k < ks->n_tcbs; k++) {
        fix_ref8(&ks->tcbs[k].bound_ntfn, i);
        if (tcb_blocks_on_ntfn(&ks->tcbs[k]))
            fix_ref8(&ks->tcbs[k].blocking, i);
    }
    for (int k = 0; k < ks->n_scs; k++)
        fix_ref8(&ks->scs[k].ntfn, i);
    for (int k = 0; k < ks->n_irqs; k++)
        fix_ref8(&ks->irq_cap[k].ntfn, i);
    fix_ref8(&ks->sys.ntfn, i);
}

static void remap_ep(struct kstate *ks, int i)
{
    for (int k = 0; k < ks->n_tcbs; k++) {
        if (!tcb_blocks_on_ntfn(&ks->tcbs[k]))
            fix_ref8(&ks->tcbs[k].blocking, i);
        fix_ref8(&ks->tcbs[k].timeout_ep, i);
        fix_ref8(&ks->tcbs[k].fault_ep, i);
    }
    fix_ref8(&ks->sys.ep, i);
}

static void remap_reply(struct kstate *ks, int i)
{
    for (int k = 0; k < ks->n_tcbs; k++)
        fix_ref8(&ks->tcbs[k].reply, i);
    for (int k = 0; k < ks->n_scs; k++)
        fix_ref8(&ks->scs[k].reply, i);
    for (int k = 0; k < ks->n_replies; k++) {
        fix_ref8(&ks->replies[k].prev, i);
        fix_ref8(&ks->replies[k].next, i);
    }
    fix_ref8(&ks->sys.reply, i);
}

/* a VCPU deleted while loaded leaves the core as vcpu_invalidate_active
 * does (vcpu.c:261-268 at 1326364bc): none current, none active. On
 * another core the shrinker does the same, though the kernel would not:
 * vcpu_finalise's dissociateVCPUTCB compares the deleting core's
 * armHSCurVCPU only (vcpu.c:285-290, 313), so the other core's pointer
 * would dangle, which a state of indices cannot hold */
static void remap_vcpu(struct kstate *ks, int i)
{
    for (int k = 0; k < ks->n_tcbs; k++)
        fix_ref8(&ks->tcbs[k].vcpu, i);
    if (ks->cur_vcpu == i)
        ks->vcpu_active = false;
    fix_ref8(&ks->cur_vcpu, i);
    for (int c = 1; c < KS_MAX_CORES; c++) {
        if (ks->core_vcpu[c] == i)
            ks->core_vcpu_active[c] = false;
        fix_ref8(&ks->core_vcpu[c], i);
    }
}

#define DROP(arr, count, i)                                                              \
    do {                                                                                 \
        memmove(&ks->arr[i], &ks->arr[(i) + 1], (size_t)(ks->count - (i)-1) * sizeof ks->arr[0]); \
        ks->count--;                                                                     \
    } while (0)

void ks_remove(struct kstate *ks, enum ks_kind kind, int i)
{
    switch (kind) {
    case KIND_TCB:
        remap_tcb(ks, i);
        DROP(tcbs, n_tcbs, i);
        return;
    case KIND_SC:
        remap_sc(ks, i);
        DROP(scs, n_scs, i);
        return;
    case KIND_NTFN:
        remap_ntfn(ks, i);
        DROP(ntfns, n_ntfns, i);
        return;
    case KIND_EP:
        remap_ep(ks, i);
        DROP(eps, n_eps, i);
        return;
    case KIND_REPLY:
        remap_reply(ks, i);
        DROP(replies, n_replies, i);
        return;
    case KIND_VCPU:
        remap_vcpu(ks, i);
        DROP(vcpus, n_vcpus, i);
        memset(&ks->vcpus[ks->n_vcpus], 0, sizeof ks->vcpus[0]); /* the header is compared whole */
        return;
    }
}

const char *ks_bits_text(uint32_t mask, int count, const char *(*name)(int), char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int bit = 0; bit < count; bit++) {
        if (!(mask & (1u << bit)))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", name(bit));
        if ((size_t)n >= len - used) /* truncated (an error, negative, too) */
            break;
        used += (size_t)n;
    }
    if (!used)
        snprintf(buf, len, "none");
    return buf;
}
