/*
 * hk_bridge: struct hk_state <-> real kernel objects and globals.
 * Appended to the kernel's translation unit after hk_glue.c; uses the
 * kernel's own types and generated accessors. Objects live in static
 * pools, each aligned to its size (the kernel's pointer fields drop low
 * bits and TCB_PTR_CTE_PTR masks a TCB pointer down to its block), so a
 * pointer maps back to its index by arithmetic. The idle thread and idle
 * SC of each core are the kernel's own ksIdleThreadTCB/ksIdleThreadSC.
 * Own code; no kernel source.
 * SPDX-License-Identifier: BSD-2-Clause
 */

#define HK_SC_BYTES 1024u
static char hk_tcb_pool[HK_MAX_TCBS][BIT(seL4_TCBBits)] ALIGN(BIT(seL4_TCBBits));
static char hk_sc_pool[HK_MAX_SCS][HK_SC_BYTES] ALIGN(HK_SC_BYTES);
static notification_t hk_ntfn_pool[HK_MAX_NTFNS] ALIGN(BIT(seL4_NotificationBits));
/* the last endpoint is not part of the state: timeout handler caps and
 * endpoint caps in IRQ slots point at it */
static endpoint_t hk_ep_pool[HK_MAX_EPS + 1] ALIGN(BIT(seL4_EndpointBits));
#define HK_HIDDEN_EP (&hk_ep_pool[HK_MAX_EPS])
static reply_t hk_reply_pool[HK_MAX_REPLIES] ALIGN(BIT(seL4_ReplyBits));
static vspace_root_t hk_vspace_pool[HK_MAX_TCBS][BIT(seL4_VSpaceIndexBits)] ALIGN(BIT(seL4_VSpaceBits));
/* the vspaces that took a thread's ASID after its pool was deleted (see
 * hk_load_tcb's asid_ok) */
static vspace_root_t hk_vspace_reused[HK_MAX_TCBS][BIT(seL4_VSpaceIndexBits)] ALIGN(BIT(seL4_VSpaceBits));
static asid_pool_t hk_asid_pool ALIGN(BIT(seL4_ASIDPoolBits));

static const char *hk_err = "";
static signed char hk_idle_of_core[CONFIG_MAX_NUM_NODES];
static signed char hk_idle_sc_index;
static word_t hk_n_tcbs, hk_n_scs, hk_n_irqs;

/* What the last load used of the kernel's tables, so that the next load
 * resets only that rather than whole tables (a 16-domain build's ready
 * queues are 64 KiB). The ready queues a state can reach are those of its
 * threads' (core, domain, priority): the kernel queues a thread only at
 * its own. The IRQ entries it can reach are the ones the load wrote (a
 * state or a cap other than the null one) and the IRQ the GIC delivers;
 * every other entry stays IRQInactive with a null cap, as it starts. */
static bool_t hk_loaded;                   /* a load has run: the lists below hold */
static struct {
    unsigned short core, index;
} hk_rq_used[HK_MAX_TCBS];
static word_t hk_n_rq_used;
static unsigned short hk_irq_used[HK_MAX_IRQS + 2]; /* the table's, the delivered IRQ, the system call's */
static word_t hk_n_irq_used;
/* the slot each handler slot's cap was copied from (cteInsert's srcSlot,
 * invokeIRQHandler_SetIRQHandler, src/object/interrupt.c): a user's copy of
 * the same cap, the slot's MDB parent, so that the cap in the handler slot
 * is not the object's last (isFinalCapability, src/object/cnode.c) and
 * IRQHandler_Clear or _SetNotification deleting it finalises nothing, as
 * the model has it (sim/irqhandler.c) */
static cte_t hk_irq_origin[HK_MAX_IRQS];

HK_API const char *hk_error(void)
{
    return hk_err;
}

/* ---- index <-> pointer ---- */

#ifdef HK_TCB_FLAGS
/* whether state thread i is a core's idle thread (its tcbFlags are
 * configureIdleThread's, not the state's) */
static bool_t hk_is_idle(int i)
{
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        if (hk_idle_of_core[c] == i)
            return true;
    return false;
}
#endif

static tcb_t *hk_tcb(int i)
{
    if (i < 0)
        return NULL;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        if (hk_idle_of_core[c] == i)
            return TCB_PTR(&ksIdleThreadTCB[c][0] + TCB_OFFSET);
    return TCB_PTR(&hk_tcb_pool[i][0] + TCB_OFFSET);
}

static int hk_tcb_index(const tcb_t *t)
{
    if (!t)
        return HK_NONE;
    word_t a = (word_t)t;
    if (a >= (word_t)hk_tcb_pool && a < (word_t)hk_tcb_pool + sizeof hk_tcb_pool)
        return (int)((a - (word_t)hk_tcb_pool) >> seL4_TCBBits);
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        if (t == TCB_PTR(&ksIdleThreadTCB[c][0] + TCB_OFFSET))
            return hk_idle_of_core[c];
    return -2; /* not an object of the state */
}

static sched_context_t *hk_sc(int i)
{
    if (i < 0)
        return NULL;
    if (i == hk_idle_sc_index)
        return SC_PTR(&ksIdleThreadSC[0][0]);
    return SC_PTR(&hk_sc_pool[i][0]);
}

static int hk_sc_index(const sched_context_t *s)
{
    word_t a = (word_t)s;
    if (!s)
        return HK_NONE;
    if (a >= (word_t)hk_sc_pool && a < (word_t)hk_sc_pool + sizeof hk_sc_pool)
        return (int)((a - (word_t)hk_sc_pool) / HK_SC_BYTES);
    if (s == SC_PTR(&ksIdleThreadSC[0][0]))
        return hk_idle_sc_index;
    return HK_NONE; /* another core's idle SC: not in the state */
}

static notification_t *hk_ntfn(int i)
{
    return i < 0 ? NULL : &hk_ntfn_pool[i];
}

static int hk_ntfn_index(word_t p)
{
    return p ? (int)((notification_t *)p - hk_ntfn_pool) : HK_NONE;
}

static int hk_ep_index(word_t p)
{
    if (!p || (endpoint_t *)p == HK_HIDDEN_EP)
        return HK_NONE;
    return (int)((endpoint_t *)p - hk_ep_pool);
}

static int hk_reply_index(word_t p)
{
    return p ? (int)((reply_t *)p - hk_reply_pool) : HK_NONE;
}

/* ---- load ---- */

static int hk_fail(const char *why)
{
    hk_err = why;
    return -1;
}

static int hk_check(const struct hk_state *s)
{
    if (s->n_tcbs > HK_MAX_TCBS || s->n_scs > HK_MAX_SCS || s->n_ntfns > HK_MAX_NTFNS ||
        s->n_eps > HK_MAX_EPS || s->n_replies > HK_MAX_REPLIES || s->n_irqs > HK_MAX_IRQS)
        return hk_fail("more objects than the bridge holds");
    if (s->dom_len == 0 || s->dom_len > HK_MAX_DOM_SCHED)
        return hk_fail("domain schedule length out of range");
    for (int i = 0; i < s->n_tcbs; i++) {
        const struct hk_tcb *t = &s->tcbs[i];
        if (t->domain >= CONFIG_NUM_DOMAINS)
            return hk_fail("a thread's domain is beyond CONFIG_NUM_DOMAINS");
        if (t->prio >= CONFIG_NUM_PRIORITIES)
            return hk_fail("a thread's priority is beyond CONFIG_NUM_PRIORITIES");
        if (t->affinity >= CONFIG_MAX_NUM_NODES)
            return hk_fail("a thread's core is beyond the build's cores");
    }
    for (int i = 0; i < s->n_scs; i++) {
        word_t room = (i == s->idle_sc ? BIT(seL4_MinSchedContextBits) : HK_SC_BYTES) - sizeof(sched_context_t);
        if (s->scs[i].refill_max > room / sizeof(refill_t) || s->scs[i].refill_max > HK_MAX_REFILLS)
            return hk_fail("an SC has more refills than its object holds");
    }
    for (int i = 0; i < s->n_irqs; i++) {
        word_t w;
        /* most of a table is Inactive (0): skip it a word at a time */
        if (i % sizeof(word_t) == 0 && i + (int)sizeof(word_t) <= s->n_irqs) {
            __builtin_memcpy(&w, &s->irq_state[i], sizeof w);
            if (!w) {
                i += sizeof(word_t) - 1;
                continue;
            }
        }
        if (s->irq_state[i] == HK_IRQ_Inactive)
            continue;
#ifndef ENABLE_SMP_SUPPORT
        if (s->irq_state[i] == HK_IRQ_IPI)
            return hk_fail("IRQ state IPI exists only on SMP builds");
#endif
        if (i > (int)maxIRQ)
            return hk_fail("an IRQ above maxIRQ has a state");
    }
    if (s->idle_thread < 0 || s->idle_sc < 0)
        return hk_fail("no idle thread or idle SC");
#ifdef ENABLE_SMP_SUPPORT
    if (s->core_idle[1] < 0)
        return hk_fail("an SMP build needs core 1's idle thread");
#endif
    return 0;
}

static word_t hk_irq_state_k(int st)
{
    switch (st) {
    case HK_IRQ_Signal: return IRQSignal;
    case HK_IRQ_Timer: return IRQTimer;
#ifdef ENABLE_SMP_SUPPORT
    case HK_IRQ_IPI: return IRQIPI;
#endif
    case HK_IRQ_Reserved: return IRQReserved;
    default: return IRQInactive;
    }
}

static int hk_irq_state_h(word_t st)
{
    switch (st) {
    case IRQSignal: return HK_IRQ_Signal;
    case IRQTimer: return HK_IRQ_Timer;
#ifdef ENABLE_SMP_SUPPORT
    case IRQIPI: return HK_IRQ_IPI;
#endif
    case IRQReserved: return HK_IRQ_Reserved;
    default: return HK_IRQ_Inactive;
    }
}

/* hk_vcpu.c, appended after this file: the hypervisor's faults, VCPUs and VGIC */
static seL4_Fault_t hk_fault_hyp_k(const struct hk_tcb *x);
static void hk_fault_hyp_h(struct hk_tcb *x, seL4_Fault_t f);
static int hk_load_vcpus(const struct hk_state *s);
static void hk_save_vcpus(struct hk_state *s);
static cap_t hk_vcpu_cap_k(const struct hk_irq_cap *c);

/* What hk_load leaves in current_lookup_fault: a depth mismatch, which no
 * lookup of the bridge's CSpace makes (one CNode level resolves all 64
 * bits), so a cap fault stored with a lookup fault its path did not set
 * (lookupReply before 5d371316f) reads back as HK_LKF_Stale */
static lookup_fault_t hk_stale_lookup_fault(void)
{
    return lookup_fault_depth_mismatch_new(1, 1);
}

/* tcbFault of the model's fault (HK_FAULT_*): the timeout fault's data
 * (the SC's badge) and the cap fault's (address, receive phase) are not
 * state the paths compare */
static seL4_Fault_t hk_fault_k(const struct hk_tcb *x)
{
    switch (x->fault) {
    case HK_FAULT_None: return seL4_Fault_NullFault_new();
    case HK_FAULT_Timeout: return seL4_Fault_Timeout_new(0);
    case HK_FAULT_CapFault: return seL4_Fault_CapFault_new(0, 0);
    default: return hk_fault_hyp_k(x);
    }
}

/* tcbLookupFailure of the model's (HK_LKF_*): the guard mismatch a cptr
 * past the CNode gives (guard 0 of 60 bits, all 64 bits left), the
 * missing capability of handleRecv and lookupReply, hk_load's stale value */
static lookup_fault_t hk_lookup_k(unsigned char x)
{
    switch (x) {
    case HK_LKF_Missing: return lookup_fault_missing_capability_new(0);
    case HK_LKF_Resolve: return lookup_fault_guard_mismatch_new(0, wordBits, wordBits - 4);
    case HK_LKF_Stale: return hk_stale_lookup_fault();
    default: return lookup_fault_invalid_root_new();
    }
}

static unsigned char hk_lookup_h(lookup_fault_t f)
{
    switch (lookup_fault_get_lufType(f)) {
    case lookup_fault_invalid_root: return HK_LKF_None;
    case lookup_fault_missing_capability:
        return lookup_fault_missing_capability_get_bitsLeft(f) == 0 ? HK_LKF_Missing : HK_LKF_Stale;
    case lookup_fault_guard_mismatch: return HK_LKF_Resolve;
    default: return HK_LKF_Stale;
    }
}

static unsigned char hk_fault_h(word_t type)
{
    switch (type) {
    case seL4_Fault_Timeout: return HK_FAULT_Timeout;
    case seL4_Fault_CapFault: return HK_FAULT_CapFault;
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
    case seL4_Fault_VPPIEvent: return HK_FAULT_VPPIEvent;
    case seL4_Fault_VGICMaintenance: return HK_FAULT_VGICMaintenance;
#endif
    default: return HK_FAULT_None;
    }
}

static cap_t hk_irq_cap_k(const struct hk_irq_cap *c)
{
    switch (c->type) {
    case HK_CAP_Notification:
        return cap_notification_cap_new(c->badge, 1, c->can_send, (word_t)hk_ntfn(c->ntfn));
    case HK_CAP_Endpoint: /* a state endpoint, or the hidden one */
        return cap_endpoint_cap_new(c->badge, c->can_grant_reply, c->can_grant, c->can_send, c->can_recv,
                                    c->ep1 ? (word_t)&hk_ep_pool[c->ep1 - 1] : (word_t)HK_HIDDEN_EP);
    case HK_CAP_Reply:
        return cap_reply_cap_new((word_t)&hk_reply_pool[c->reply], c->can_grant);
    case HK_CAP_Domain:
        return cap_domain_cap_new();
    case HK_CAP_Thread:
        return cap_thread_cap_new(TCB_REF(hk_tcb(c->reply)));
    case HK_CAP_VCPU:
        return hk_vcpu_cap_k(c);
    case HK_CAP_IRQAck:
    case HK_CAP_IRQSet:
    case HK_CAP_IRQClear: { /* capIRQ as invokeIRQControl or _GetTriggerCore makes it (src/object/interrupt.c) */
        irq_t irq = CORE_IRQ_TO_IRQT(c->reply > 0 ? (word_t)c->reply : 0, c->badge); /* named irq: IRQT_TO_IDX refers to
                                                                                        it before d3d4cc602 */
        return cap_irq_handler_cap_new(IRQT_TO_IDX(irq));
    }
    case HK_CAP_IRQControl:
        return cap_irq_control_cap_new();
    case HK_CAP_CNode: /* the caller's CNode as its CTable holds it (hk_load_syscall) */
        return cap_cnode_cap_new(HK_CSPACE_BITS, wordBits - HK_CSPACE_BITS, 0, (word_t)hk_cnode);
    default:
        return cap_null_cap_new();
    }
}

/* thread state, links and caps of TCB i (tcb_t and its CNode slots) */
/* What a thread's ASID maps when asid_ok is false, two kernel states the
 * model folds into one (both paths agree on them: fastpath_irq and
 * fastpath_signal go to the slowpath on either, fastpath.c:1059-1062;
 * setVMRoot takes the global vspace on either, vspace.c:751-754):
 * nothing, or, for an odd thread with a vspace cap, another vspace. The
 * kernel reaches the second when the last cap to the thread's ASID pool
 * is deleted (objecttype.c:139, deleteASIDPool, vspace.c:1056-1073: the
 * table entry goes, the thread's cap keeps its mapped ASID), a new pool
 * takes the free table entry (vspace.c:1684) and its first free ASID, the
 * same, goes to a new vspace (vspace.c:1773-1785). */
static vspace_root_t *hk_asid_target(const struct hk_tcb *x, int i)
{
    if (x->asid_ok)
        return hk_vspace_pool[i];
    return x->vtable_ok && (i & 1) ? hk_vspace_reused[i] : NULL;
}

#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
/* Hypervisor builds tag an address space with a VMID, not the ASID: the
 * ASID's map entry stores it and whether it is valid (getHWASID,
 * vspace.c:857-871), and armKSHWASIDTable maps each VMID in use back to
 * its ASID (storeHWASID :811-825; findFreeHWASID :827-855 takes the first
 * VMID from armKSNextASID whose entry is asidInvalid). Thread i's VMID,
 * when vmid_ok, is HK_VMID(i): never its ASID (i + 1), so a path that
 * tagged TTBR with the ASID shows (hk_fill_extra). armKSNextASID starts
 * at HK_VMID(0), so a fresh VMID is found past the ones in use. */
#define HK_VMID(i) ((hw_asid_t)(0x80u + (word_t)(i)))
_Static_assert(HK_MAX_TCBS <= 0x80, "every thread has a VMID of its own, none 0");
#endif

/* the ASID map entry of thread i's ASID when it maps a vspace */
static asid_map_t hk_asid_map_vspace(vspace_root_t *to, const struct hk_tcb *x, int i)
{
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
    if (x->vmid_ok) {
        armKSHWASIDTable[HK_VMID(i)] = (asid_t)i + 1;
        return asid_map_asid_map_vspace_new((word_t)to, HK_VMID(i), 1);
    }
    return asid_map_asid_map_vspace_new((word_t)to, 0, 0);
#else
    (void)x;
    (void)i;
    return asid_map_asid_map_vspace_new((word_t)to);
#endif
}

static void hk_load_tcb(const struct hk_state *s, int i)
{
    const struct hk_tcb *x = &s->tcbs[i];
    tcb_t *t = hk_tcb(i);
    cte_t *slots = TCB_PTR_CTE_PTR(t, 0);
    memzero(slots, tcbArchCNodeEntries * sizeof(cte_t));
    memzero(t, sizeof(tcb_t));
    thread_state_t *ts = &t->tcbState;
    thread_state_ptr_set_tsType(ts, x->state);
    word_t blocking = 0;
    if (x->state == HK_TS_BlockedOnNotification)
        blocking = (word_t)hk_ntfn(x->blocking);
    else if (x->state == HK_TS_BlockedOnSend || x->state == HK_TS_BlockedOnReceive)
        blocking = x->blocking >= 0 ? (word_t)&hk_ep_pool[x->blocking] : (word_t)HK_HIDDEN_EP;
    thread_state_ptr_set_blockingObject(ts, blocking);
    thread_state_ptr_set_replyObject(ts, x->reply >= 0 ? (word_t)&hk_reply_pool[x->reply] : 0);
    thread_state_ptr_set_tcbQueued(ts, x->queued);
    thread_state_ptr_set_tcbInReleaseQueue(ts, x->in_release);
    thread_state_ptr_set_blockingIPCBadge(ts, x->ipc_badge);
    thread_state_ptr_set_blockingIPCCanGrant(ts, x->ipc_grant);
    thread_state_ptr_set_blockingIPCCanGrantReply(ts, x->ipc_grant_reply);
    thread_state_ptr_set_blockingIPCIsCall(ts, x->ipc_call);
    t->tcbPriority = x->prio;
    t->tcbMCP = x->prio;
#ifdef HK_TCB_FLAGS
    t->tcbFlags = x->fpu_disabled ? seL4_TCBFlag_fpuDisabled : 0; /* the idle threads' below (hk_load) */
#endif
    t->tcbDomain = x->domain;
#ifdef ENABLE_SMP_SUPPORT
    t->tcbAffinity = x->affinity;
#endif
    t->tcbSchedContext = hk_sc(x->sc);
    t->tcbBoundNotification = hk_ntfn(x->bound_ntfn);
    t->tcbSchedNext = hk_tcb(x->sched_next);
    t->tcbSchedPrev = hk_tcb(x->sched_prev);
    /* on master (771c9e43c) the endpoint links are the scheduler links
     * (tcbEPNext is tcbSchedNext): write them only for a thread in an IPC
     * queue, or they would overwrite its ready/release links with nothing */
    if (x->ep_next >= 0 || x->ep_prev >= 0) {
        t->tcbEPNext = hk_tcb(x->ep_next);
        t->tcbEPPrev = hk_tcb(x->ep_prev);
    }
    t->tcbFault = hk_fault_k(x);
    t->tcbLookupFailure = hk_lookup_k(x->lookup_fault);
    /* the fault handler: an endpoint cap with the rights validFaultHandler
     * asks (send, and grant or grant-reply; faulthandler.c) */
    if (x->fault_ep >= 0)
        slots[tcbFaultHandler].cap = cap_endpoint_cap_new(0, 0, 1, 1, 0, (word_t)&hk_ep_pool[x->fault_ep]);
    setRegister(t, badgeRegister, x->badge_reg);
    if (x->timeout_handler)
        slots[tcbTimeoutHandler].cap = cap_endpoint_cap_new(0, 0, 1, 1, 0, (word_t)HK_HIDDEN_EP);
    /* vtable_ok: a mapped vspace cap (else a null cap); asid_ok: the ASID
     * map points at that vspace. ASID = index + 1. */
    asid_t asid = (asid_t)i + 1;
    if (x->vtable_ok)
        slots[tcbVTable].cap = cap_vspace_cap_new(asid, (word_t)hk_vspace_pool[i], 1);
    vspace_root_t *to = hk_asid_target(x, i);
    hk_asid_pool.array[asid] = to ? hk_asid_map_vspace(to, x, i) : asid_map_asid_map_none_new();
}

_Static_assert(sizeof(refill_t) == 2 * sizeof(ticks_t), "a refill is its two words");

static void hk_load_sc(const struct hk_state *s, int i)
{
    const struct hk_sc *x = &s->scs[i];
    sched_context_t *sc = hk_sc(i);
    /* the refills below refill_max are written whole below (a refill is
     * its two words): only the SC's fields need zeroing first */
    memzero(sc, sizeof(sched_context_t));
    sc->scPeriod = x->period;
    sc->scConsumed = x->consumed;
    sc->scCore = x->core;
    sc->scTcb = hk_tcb(x->tcb);
    sc->scNotification = hk_ntfn(x->ntfn);
    sc->scReply = x->reply >= 0 ? &hk_reply_pool[x->reply] : NULL;
    sc->scBadge = x->badge;
    sc->scRefillMax = x->refill_max;
    sc->scRefillHead = x->head;
    sc->scRefillTail = x->tail;
    sc->scSporadic = x->sporadic;
    for (word_t r = 0; r < x->refill_max; r++) {
        refill_index(sc, r)->rTime = x->r_time[r];
        refill_index(sc, r)->rAmount = x->r_amount[r];
    }
}

static void hk_load_ipc(const struct hk_state *s)
{
    for (int i = 0; i < s->n_ntfns; i++) {
        const struct hk_ntfn *x = &s->ntfns[i];
        notification_t *n = &hk_ntfn_pool[i];
        memzero(n, sizeof *n);
        notification_ptr_set_state(n, x->state);
        notification_ptr_set_ntfnQueue_head(n, (word_t)hk_tcb(x->q_head));
        notification_ptr_set_ntfnQueue_tail(n, (word_t)hk_tcb(x->q_tail));
        notification_ptr_set_ntfnBoundTCB(n, (word_t)hk_tcb(x->bound_tcb));
        notification_ptr_set_ntfnSchedContext(n, (word_t)hk_sc(x->sc));
        notification_ptr_set_ntfnMsgIdentifier(n, x->msg_id);
    }
    for (int i = 0; i <= HK_MAX_EPS; i++)
        memzero(&hk_ep_pool[i], sizeof(endpoint_t));
    for (int i = 0; i < s->n_eps; i++) {
        endpoint_t *e = &hk_ep_pool[i];
        endpoint_ptr_set_state(e, s->eps[i].state);
        endpoint_ptr_set_epQueue_head(e, (word_t)hk_tcb(s->eps[i].q_head));
        endpoint_ptr_set_epQueue_tail(e, (word_t)hk_tcb(s->eps[i].q_tail));
    }
    /* a thread with a timeout fault waits on the hidden endpoint */
    tcb_t *prev = NULL;
    for (int i = 0; i < s->n_tcbs; i++) {
        const struct hk_tcb *x = &s->tcbs[i];
        if (x->state != HK_TS_BlockedOnSend || x->blocking >= 0)
            continue;
        tcb_t *t = hk_tcb(i);
        t->tcbEPPrev = prev;
        t->tcbEPNext = NULL;
        if (prev)
            prev->tcbEPNext = t;
        else
            endpoint_ptr_set_epQueue_head(HK_HIDDEN_EP, (word_t)t);
        endpoint_ptr_set_epQueue_tail(HK_HIDDEN_EP, (word_t)t);
        endpoint_ptr_set_state(HK_HIDDEN_EP, EPState_Send);
        prev = t;
    }
    for (int i = 0; i < s->n_replies; i++) {
        const struct hk_reply *x = &s->replies[i];
        reply_t *r = &hk_reply_pool[i];
        memzero(r, sizeof(reply_t));
        r->replyTCB = hk_tcb(x->tcb);
        r->replyPrev = call_stack_new(x->prev >= 0 ? REPLY_REF(&hk_reply_pool[x->prev]) : 0, false);
        if (x->sc_head >= 0)
            r->replyNext = call_stack_new(SC_REF(hk_sc(x->sc_head)), true);
        else
            r->replyNext = call_stack_new(x->next >= 0 ? REPLY_REF(&hk_reply_pool[x->next]) : 0, false);
    }
}

/* The release queue of core c from its head: a head pointer, or on master
 * (686bba4d2) a tcb_queue_t whose end is the last thread of the links. */
static void hk_load_release(word_t c, tcb_t *head)
{
#ifdef HK_RELEASE_QUEUE
    NODE_STATE_ON_CORE(ksReleaseQueue, c).head = head;
    NODE_STATE_ON_CORE(ksReleaseQueue, c).end = NULL;
    for (tcb_t *r = head; r; r = r->tcbSchedNext)
        NODE_STATE_ON_CORE(ksReleaseQueue, c).end = r;
#else
    NODE_STATE_ON_CORE(ksReleaseHead, c) = head;
#endif
}

static tcb_t *hk_release_head(word_t c)
{
#ifdef HK_RELEASE_QUEUE
    return NODE_STATE_ON_CORE(ksReleaseQueue, c).head;
#else
    return NODE_STATE_ON_CORE(ksReleaseHead, c);
#endif
}

/* ready queues: heads and ends found from the links, as the model keeps them */
static void hk_load_queues(const struct hk_state *s)
{
    for (int i = 0; i < s->n_tcbs; i++) {
        const struct hk_tcb *x = &s->tcbs[i];
        hk_rq_used[hk_n_rq_used].core = x->affinity;
        hk_rq_used[hk_n_rq_used].index = (unsigned short)ready_queues_index(x->domain, x->prio);
        hk_n_rq_used++;
    }
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
        for (word_t d = 0; d < CONFIG_NUM_DOMAINS; d++) {
            NODE_STATE_ON_CORE(ksReadyQueuesL1Bitmap, c)[d] = s->l1[c][d];
            for (word_t w = 0; w < L2_BITMAP_SIZE && w < HK_L2_SIZE; w++)
                NODE_STATE_ON_CORE(ksReadyQueuesL2Bitmap, c)[d][w] = s->l2[c][d][w];
        }
        hk_load_release(c, hk_tcb(s->release_head[c]));
    }
    for (int i = 0; i < s->n_tcbs; i++) {
        const struct hk_tcb *x = &s->tcbs[i];
        if (!x->queued)
            continue;
        tcb_queue_t *q = &NODE_STATE_ON_CORE(ksReadyQueues, x->affinity)[ready_queues_index(x->domain, x->prio)];
        if (x->sched_prev < 0)
            q->head = hk_tcb(i);
        if (x->sched_next < 0)
            q->end = hk_tcb(i);
    }
}

/* Entries with IRQ state Inactive (0) and a null cap (type 0) are what
 * the reset leaves: only the others are written, and noted. */
static void hk_load_irqs(const struct hk_state *s)
{
    int n = s->n_irqs <= (int)maxIRQ ? s->n_irqs : (int)maxIRQ + 1;
    for (int i = 0; i < n; i++) {
        if (!(s->irq_state[i] | s->irq_cap[i].type | s->irq_cfg[i]))
            continue;
        irq_t irq = CORE_IRQ_TO_IRQT(0, i); /* named irq: IRQT_TO_IDX refers to it */
        hk_gic_cfg_set((word_t)i, s->irq_cfg[i]);
        intStateIRQTable[IRQT_TO_IDX(irq)] = hk_irq_state_k(s->irq_state[i]);
        cte_t *slot = &intStateIRQNode[IRQT_TO_IDX(irq)];
        slot->cap = hk_irq_cap_k(&s->irq_cap[i]);
        if (cap_get_capType(slot->cap) != cap_null_cap) {
            hk_irq_origin[i].cap = slot->cap;
            hk_irq_origin[i].cteMDBNode = mdb_node_new((word_t)slot, 0, 0, 0);
            slot->cteMDBNode = mdb_node_new(0, 0, 0, (word_t)&hk_irq_origin[i]);
        }
        hk_irq_used[hk_n_irq_used++] = (unsigned short)i;
    }
    hk_entry_iar = s->active_irq < 0 ? IRQ_NONE : (word_t)s->active_irq;
    /* the GIC's active state: the table's IRQs, and an out-of-range one */
    __builtin_memset(hk_irq_active, 0, sizeof hk_irq_active);
    __builtin_memcpy(hk_irq_active, s->irq_active, (word_t)n);
    if (s->oor_irq >= 0 && s->oor_irq < HK_MAX_IRQS)
        hk_irq_active[s->oor_irq] = s->oor_active;
    for (word_t c = 1; c < CONFIG_MAX_NUM_NODES && c < HK_MAX_CORES; c++)
        hk_ppi_active[c] = s->core_ppi_active[c];
    /* the delivered IRQ is noted too: the entry may write its entry */
    if (s->active_irq >= 0 && s->active_irq <= (int)maxIRQ)
        hk_irq_used[hk_n_irq_used++] = (unsigned short)s->active_irq;
}

static void hk_reset_irq(word_t i)
{
    hk_gic_cfg_set(i, 0);
    irq_t irq = CORE_IRQ_TO_IRQT(0, i);
    intStateIRQTable[IRQT_TO_IDX(irq)] = IRQInactive;
    memzero(&intStateIRQNode[IRQT_TO_IDX(irq)], sizeof(cte_t)); /* the cap and its MDB links */
    memzero(&hk_irq_origin[i], sizeof(cte_t));
}

/* Undo what the previous load (and the entries run on it) could have
 * written to the kernel's tables; the first load resets them whole. Runs
 * before the new state's objects are written: the thread indices below
 * are the previous state's. */
static int hk_reset_tables(void)
{
    if (!hk_loaded) {
        for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
            memzero(NODE_STATE_ON_CORE(ksReadyQueues, c), sizeof(NODE_STATE_ON_CORE(ksReadyQueues, c)));
        for (word_t i = 0; i < INT_STATE_ARRAY_SIZE; i++) {
            intStateIRQTable[i] = IRQInactive;
            memzero(&intStateIRQNode[i], sizeof(cte_t));
        }
        memzero(hk_irq_origin, sizeof(hk_irq_origin));
        hk_loaded = true;
        hk_n_rq_used = hk_n_irq_used = 0;
        return 0;
    }
    /* the queues at each thread's (core, domain, priority) as loaded and
     * as the thread has them now */
    for (word_t k = 0; k < hk_n_rq_used; k++) {
        tcb_queue_t *q = &NODE_STATE_ON_CORE(ksReadyQueues, hk_rq_used[k].core)[hk_rq_used[k].index];
        q->head = q->end = NULL;
    }
    for (word_t i = 0; i < hk_n_tcbs; i++) {
        const tcb_t *t = hk_tcb((int)i);
        word_t core = SMP_TERNARY(t->tcbAffinity, 0);
        if (core >= CONFIG_MAX_NUM_NODES || t->tcbDomain >= CONFIG_NUM_DOMAINS ||
            t->tcbPriority >= CONFIG_NUM_PRIORITIES) { /* not the kernel's: reset it all */
            hk_loaded = false;
            return hk_reset_tables();
        }
        tcb_queue_t *q = &NODE_STATE_ON_CORE(ksReadyQueues, core)[ready_queues_index(t->tcbDomain, t->tcbPriority)];
        q->head = q->end = NULL;
    }
    hk_n_rq_used = 0;
    for (word_t k = 0; k < hk_n_irq_used; k++)
        hk_reset_irq(hk_irq_used[k]);
    hk_n_irq_used = 0;
#ifdef HK_BRIDGE_PARANOID
    /* a check of the above: every entry is back at its initial value */
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        for (word_t i = 0; i < ARRAY_SIZE(NODE_STATE_ON_CORE(ksReadyQueues, c)); i++)
            if (NODE_STATE_ON_CORE(ksReadyQueues, c)[i].head || NODE_STATE_ON_CORE(ksReadyQueues, c)[i].end)
                return hk_fail("HK_BRIDGE_PARANOID: a ready queue outlived the reset");
    for (word_t i = 0; i < INT_STATE_ARRAY_SIZE; i++)
        if (intStateIRQTable[i] != IRQInactive || cap_get_capType(intStateIRQNode[i].cap) != cap_null_cap ||
            intStateIRQNode[i].cap.words[0] || intStateIRQNode[i].cap.words[1])
            return hk_fail("HK_BRIDGE_PARANOID: an IRQ entry outlived the reset");
#endif
    return 0;
}

#ifdef CONFIG_HAVE_FPU
/* the core's FPU owner: ksActiveFPUState (an FPU state) before master,
 * ksCurFPUOwner (a TCB) on master; the base's restore count and enable
 * cache start at their boot values */
static void hk_set_fpu_owner(word_t c, tcb_t *t)
{
#ifdef HK_FPU_OWNER
    NODE_STATE_ON_CORE(ksCurFPUOwner, c) = t;
#else
    NODE_STATE_ON_CORE(ksActiveFPUState, c) = t ? &t->tcbArch.tcbContext.fpuState : NULL;
    NODE_STATE_ON_CORE(ksFPURestoresSinceSwitch, c) = 0;
    isFPUEnabledCached[c] = false;
#endif
}
#endif

/* The domain schedule: before master, (domain, length in ms) entries in
 * hk_domain.c's writable array and a length; on master (27a52ddd4) the
 * kernel's own array of dschedule_t (domain and duration in ticks, a zero
 * entry ends it, nextDomain wraps to ksDomScheduleStart). */
static void hk_load_dom_schedule(const struct hk_state *s)
{
#ifdef HK_DSCHED_RUNTIME
    for (int i = 0; i <= s->dom_len && i < CONFIG_NUM_DOMAIN_SCHEDULES; i++)
        ksDomSchedule[i] = i < s->dom_len ? dschedule_make(s->dom_domain[i], s->dom_ticks[i]) : 0;
    ksDomScheduleStart = s->dom_start;
#else
    /* defined writable in hk_domain.c, and written there */
    void hk_dom_schedule_set(word_t i, word_t domain, word_t length);
    void hk_dom_schedule_set_length(word_t n);
    for (int i = 0; i < s->dom_len; i++)
        hk_dom_schedule_set((word_t)i, s->dom_domain[i], s->dom_length_ms[i]);
    hk_dom_schedule_set_length(s->dom_len);
#endif
}

static void hk_load_node(const struct hk_state *s)
{
    NODE_STATE(ksCurThread) = hk_tcb(s->cur_thread);
    NODE_STATE(ksCurSC) = hk_sc(s->cur_sc);
    NODE_STATE(ksIdleThread) = hk_tcb(s->idle_thread);
    NODE_STATE(ksIdleSC) = hk_sc(s->idle_sc);
    NODE_STATE(ksSchedulerAction) = s->sched_action == HK_SA_RESUME   ? SchedulerAction_ResumeCurrentThread
                                    : s->sched_action == HK_SA_CHOOSE ? SchedulerAction_ChooseNewThread
                                                                      : hk_tcb(s->sched_action);
    NODE_STATE(ksReprogram) = s->reprogram;
    NODE_STATE(ksCurTime) = s->cur_time;
    NODE_STATE(ksConsumed) = s->consumed;
    hk_now = s->hw_clock;
    hk_cval = s->deadline;
    ksCurDomain = s->cur_domain;
    ksDomainTime = s->domain_time;
    ksDomScheduleIdx = s->dom_idx;
    hk_load_dom_schedule(s);
#ifdef ENABLE_SMP_SUPPORT
    for (word_t c = 1; c < CONFIG_MAX_NUM_NODES; c++) {
        NODE_STATE_ON_CORE(ksIdleThread, c) = hk_tcb(s->core_idle[c]);
        NODE_STATE_ON_CORE(ksCurThread, c) = hk_tcb(s->core_cur[c]);
        NODE_STATE_ON_CORE(ksReprogram, c) = s->core_reprogram[c];
        NODE_STATE_ON_CORE(ksSchedulerAction, c) = SchedulerAction_ResumeCurrentThread;
        sched_context_t *isc = SC_PTR(&ksIdleThreadSC[c][0]);
        NODE_STATE_ON_CORE(ksIdleSC, c) = isc;
        NODE_STATE_ON_CORE(ksCurSC, c) = NODE_STATE_ON_CORE(ksCurThread, c)->tcbSchedContext
                                             ? NODE_STATE_ON_CORE(ksCurThread, c)->tcbSchedContext : isc;
    }
    ARCH_NODE_STATE(ipiReschedulePending) = s->ipi_pending;
    clh_lock_init();
#endif
#ifdef CONFIG_HAVE_FPU
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        hk_set_fpu_owner(c, NULL);
    /* nativeThreadUsingFPU: the core's FPU state is the thread's */
    for (int i = 0; i < s->n_tcbs; i++)
        if (s->tcbs[i].fpu_live)
            hk_set_fpu_owner(s->tcbs[i].affinity, hk_tcb(i));
#ifdef HK_FPU_OWNER
    /* configureIdleThread (master src/kernel/thread.c) marks the idle
     * threads fpuDisabled: switching to one disables the FPU and keeps
     * the owner (lazyFPURestore); the load zeroed their flags */
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        if (hk_idle_of_core[c] >= 0)
            hk_tcb(hk_idle_of_core[c])->tcbFlags = seL4_TCBFlag_fpuDisabled;
#endif
#endif
#ifdef CONFIG_DEBUG_BUILD
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        NODE_STATE_ON_CORE(ksDebugTCBs, c) = NULL;
    /* debug builds keep every TCB (the idle threads too) on their core's list */
    for (int i = 0; i < s->n_tcbs; i++)
        tcbDebugAppend(hk_tcb(i));
#endif
}

HK_API int hk_load(const struct hk_state *s)
{
    if (hk_check(s) != 0)
        return -1;
    hk_err = "";
    if (hk_reset_tables() != 0) /* before the indices below change */
        return -1;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        hk_idle_of_core[c] = HK_NONE;
    hk_idle_of_core[0] = s->idle_thread;
#ifdef ENABLE_SMP_SUPPORT
    hk_idle_of_core[1] = s->core_idle[1];
#endif
    hk_idle_sc_index = s->idle_sc;
    current_lookup_fault = hk_stale_lookup_fault();
    hk_n_tcbs = s->n_tcbs;
    hk_n_scs = s->n_scs;
    hk_n_irqs = s->n_irqs;
    armKSASIDTable[0] = &hk_asid_pool;
    hk_asid_pool.array[0] = asid_map_asid_map_none_new();
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
    /* no VMID in use but those hk_load_tcb stores; no VCPU (the state has
     * none: vcpu_switch(NULL) then does nothing, vcpu.c) */
    for (word_t v = 0; v < ARRAY_SIZE(armKSHWASIDTable); v++)
        armKSHWASIDTable[v] = asidInvalid;
    armKSNextASID = HK_VMID(0);
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
        ARCH_NODE_STATE_ON_CORE(armHSCurVCPU, c) = NULL;
        ARCH_NODE_STATE_ON_CORE(armHSVCPUActive, c) = false;
    }
#endif
    for (int i = 0; i < s->n_tcbs; i++)
        hk_load_tcb(s, i);
    for (int i = 0; i < s->n_scs; i++)
        hk_load_sc(s, i);
    hk_load_ipc(s);
    hk_load_queues(s);
    hk_load_irqs(s);
    hk_load_node(s);
    hk_load_syscall(s, hk_irq_cap_k);
    if (hk_sys_irq >= 0) { /* the call may write its entry: noted, read back and reset */
        hk_irq_used[hk_n_irq_used++] = (unsigned short)hk_sys_irq;
        hk_gic_cfg_set((word_t)hk_sys_irq, hk_sys_irq < s->n_irqs ? s->irq_cfg[hk_sys_irq] : 0);
    }
    if (hk_load_vcpus(s) != 0)
        return -1;
#ifdef ENABLE_SMP_SUPPORT
    /* core 1's idle thread carries its own idle SC, which the state does not hold */
    for (word_t c = 1; c < CONFIG_MAX_NUM_NODES; c++)
        if (!NODE_STATE_ON_CORE(ksIdleThread, c)->tcbSchedContext)
            NODE_STATE_ON_CORE(ksIdleThread, c)->tcbSchedContext = NODE_STATE_ON_CORE(ksIdleSC, c);
#endif
    return 0;
}

/* ---- save ---- */

#ifdef CONFIG_HAVE_FPU
/* The core whose FPU holds t's state, or -1 (one owner per core:
 * nativeThreadUsingFPU looks only at the thread's affinity core). Before
 * master the owner is ksActiveFPUState, an FPU state; on master
 * (1bd0e3b78) ksCurFPUOwner, a TCB. */
static int hk_fpu_owner_core(tcb_t *t)
{
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
#ifdef HK_FPU_OWNER
        if (NODE_STATE_ON_CORE(ksCurFPUOwner, c) == t)
#else
        if (NODE_STATE_ON_CORE(ksActiveFPUState, c) == &t->tcbArch.tcbContext.fpuState)
#endif
            return (int)c;
    }
    return -1;
}
#endif

static void hk_save_tcb(struct hk_state *s, int i)
{
    struct hk_tcb *x = &s->tcbs[i];
    tcb_t *t = hk_tcb(i);
    thread_state_t *ts = &t->tcbState;
    x->state = (unsigned char)thread_state_ptr_get_tsType(ts);
    word_t b = thread_state_ptr_get_blockingObject(ts);
    /* the kernel leaves a woken thread's blocking object stale; it maps
     * back as the object it names */
    if ((notification_t *)b >= hk_ntfn_pool && (notification_t *)b < hk_ntfn_pool + HK_MAX_NTFNS)
        x->blocking = (signed char)hk_ntfn_index(b);
    else
        x->blocking = (signed char)hk_ep_index(b);
    x->reply = (signed char)hk_reply_index(thread_state_get_replyObject(*ts));
    x->queued = (unsigned char)thread_state_get_tcbQueued(*ts);
    x->in_release = (unsigned char)thread_state_get_tcbInReleaseQueue(*ts);
    x->prio = (unsigned char)t->tcbPriority;
    x->domain = (unsigned char)t->tcbDomain;
    x->affinity = (unsigned char)SMP_TERNARY(t->tcbAffinity, 0);
    x->sc = (signed char)hk_sc_index(t->tcbSchedContext);
    x->bound_ntfn = (signed char)hk_ntfn_index((word_t)t->tcbBoundNotification);
    x->sched_next = (signed char)hk_tcb_index(t->tcbSchedNext);
    x->sched_prev = (signed char)hk_tcb_index(t->tcbSchedPrev);
    x->ep_next = (signed char)hk_tcb_index(t->tcbEPNext);
    x->ep_prev = (signed char)hk_tcb_index(t->tcbEPPrev);
#ifdef tcbEPNext
    /* one link pair (master): it is the IPC queue's while the thread
     * waits in one, the ready or release queue's otherwise */
    if (x->state == HK_TS_BlockedOnSend || x->state == HK_TS_BlockedOnReceive ||
        x->state == HK_TS_BlockedOnNotification)
        x->sched_next = x->sched_prev = HK_NONE;
    else
        x->ep_next = x->ep_prev = HK_NONE;
#endif
    x->fault = hk_fault_h(seL4_Fault_get_seL4_FaultType(t->tcbFault));
    hk_fault_hyp_h(x, t->tcbFault);
    x->lookup_fault = hk_lookup_h(t->tcbLookupFailure);
    if (x->state == HK_TS_BlockedOnSend && b == (word_t)HK_HIDDEN_EP)
        x->ep_next = x->ep_prev = HK_NONE; /* the hidden endpoint's queue is not state */
    x->badge_reg = getRegister(t, badgeRegister);
    x->ipc_badge = thread_state_ptr_get_blockingIPCBadge(ts);
    x->ipc_grant = (unsigned char)thread_state_ptr_get_blockingIPCCanGrant(ts);
    x->ipc_grant_reply = (unsigned char)thread_state_ptr_get_blockingIPCCanGrantReply(ts);
    x->ipc_call = (unsigned char)thread_state_ptr_get_blockingIPCIsCall(ts);
    cte_t *slots = TCB_PTR_CTE_PTR(t, 0);
    x->timeout_handler = cap_get_capType(slots[tcbTimeoutHandler].cap) == cap_endpoint_cap;
    cap_t fh = slots[tcbFaultHandler].cap;
    x->fault_ep = (signed char)(cap_get_capType(fh) == cap_endpoint_cap ? hk_ep_index(cap_endpoint_cap_get_capEPPtr(fh))
                                                                         : HK_NONE);
    cap_t vt = slots[tcbVTable].cap;
    x->vtable_ok = isValidVTableRoot_fp(vt);
    if (x->vtable_ok) {
        asid_map_t m = findMapForASID(cap_vspace_cap_get_capVSMappedASID(vt));
        x->asid_ok = asid_map_get_type(m) == asid_map_asid_map_vspace &&
                     asid_map_asid_map_vspace_get_vspace_root(m) == cap_vspace_cap_get_capVSBasePtr(vt);
    } else {
        asid_map_t m = findMapForASID((asid_t)i + 1);
        x->asid_ok = asid_map_get_type(m) == asid_map_asid_map_vspace;
    }
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
    /* the thread's ASID's stored VMID; an ASID that maps no vspace holds
     * none (vmid_ok is left as it was, as on other builds) */
    asid_map_t vm = findMapForASID((asid_t)i + 1);
    if (asid_map_get_type(vm) == asid_map_asid_map_vspace)
        x->vmid_ok = (unsigned char)asid_map_asid_map_vspace_get_stored_vmid_valid(vm);
#endif
#ifdef CONFIG_HAVE_FPU
    /* live on any core: a stale owner on the thread's old core (moved
     * without migrateTCB's release) must show, not only its affinity's */
    x->fpu_live = hk_fpu_owner_core(t) >= 0;
#else
    x->fpu_live = 0;
#endif
#ifdef HK_TCB_FLAGS
    x->fpu_disabled = !hk_is_idle(i) && (t->tcbFlags & seL4_TCBFlag_fpuDisabled) != 0;
#else
    x->fpu_disabled = 0;
#endif
}

static void hk_save_sc(struct hk_state *s, int i)
{
    struct hk_sc *x = &s->scs[i];
    sched_context_t *sc = hk_sc(i);
    x->period = sc->scPeriod;
    x->consumed = sc->scConsumed;
    x->core = (unsigned char)sc->scCore;
    x->tcb = (signed char)hk_tcb_index(sc->scTcb);
    x->ntfn = (signed char)hk_ntfn_index((word_t)sc->scNotification);
    x->reply = (signed char)hk_reply_index((word_t)sc->scReply);
    x->badge = sc->scBadge;
    x->refill_max = (unsigned char)sc->scRefillMax;
    x->head = (unsigned char)sc->scRefillHead;
    x->tail = (unsigned char)sc->scRefillTail;
    x->sporadic = (unsigned char)sc->scSporadic;
    for (word_t r = 0; r < sc->scRefillMax && r < HK_MAX_REFILLS; r++) {
        x->r_time[r] = refill_index(sc, r)->rTime;
        x->r_amount[r] = refill_index(sc, r)->rAmount;
    }
}

static void hk_save_ipc(struct hk_state *s)
{
    for (int i = 0; i < s->n_ntfns; i++) {
        struct hk_ntfn *x = &s->ntfns[i];
        notification_t *n = &hk_ntfn_pool[i];
        x->state = (unsigned char)notification_ptr_get_state(n);
        x->q_head = (signed char)hk_tcb_index(TCB_PTR(notification_ptr_get_ntfnQueue_head(n)));
        x->q_tail = (signed char)hk_tcb_index(TCB_PTR(notification_ptr_get_ntfnQueue_tail(n)));
        x->bound_tcb = (signed char)hk_tcb_index(TCB_PTR(notification_ptr_get_ntfnBoundTCB(n)));
        x->sc = (signed char)hk_sc_index(SC_PTR(notification_ptr_get_ntfnSchedContext(n)));
        x->msg_id = notification_ptr_get_ntfnMsgIdentifier(n);
    }
    for (int i = 0; i < s->n_eps; i++) {
        endpoint_t *e = &hk_ep_pool[i];
        s->eps[i].state = (unsigned char)endpoint_ptr_get_state(e);
        s->eps[i].q_head = (signed char)hk_tcb_index(TCB_PTR(endpoint_ptr_get_epQueue_head(e)));
        s->eps[i].q_tail = (signed char)hk_tcb_index(TCB_PTR(endpoint_ptr_get_epQueue_tail(e)));
    }
    for (int i = 0; i < s->n_replies; i++) {
        const reply_t *r = &hk_reply_pool[i];
        struct hk_reply *x = &s->replies[i];
        word_t next = call_stack_get_callStackPtr(r->replyNext);
        bool_t head = call_stack_get_isHead(r->replyNext);
        x->tcb = (signed char)hk_tcb_index(r->replyTCB);
        x->prev = (signed char)hk_reply_index(call_stack_get_callStackPtr(r->replyPrev));
        x->next = (signed char)(head ? HK_NONE : hk_reply_index(next));
        x->sc_head = (signed char)(head ? hk_sc_index(SC_PTR(next)) : HK_NONE);
    }
}

static int hk_action_index(tcb_t *a)
{
    if (a == SchedulerAction_ResumeCurrentThread)
        return HK_SA_RESUME;
    if (a == SchedulerAction_ChooseNewThread)
        return HK_SA_CHOOSE;
    return hk_tcb_index(a);
}

/* a mask or ack of IRQ irq by the entry, into the table or the
 * out-of-range record (handleInterrupt's irq > maxIRQ case) */
static void hk_save_gic_irq(struct hk_state *s, word_t irq)
{
    int m = hk_gic_mask_written(irq);
    int acks = hk_gic_acks(irq);
    if (m < 0 && !acks)
        return;
    if (irq > maxIRQ) {
        s->oor_irq = (int)irq;
        if (m >= 0)
            s->oor_masked = (unsigned char)m;
        s->oor_acks = (unsigned char)(s->oor_acks + acks);
        s->oor_active = irq < HK_MAX_IRQS ? hk_irq_active[irq] : 0;
        return;
    }
    while (s->n_irqs <= irq) { /* the table grows to the IRQ touched */
        int k = s->n_irqs++;
        s->irq_state[k] = HK_IRQ_Inactive;
        s->irq_masked[k] = s->irq_acks[k] = s->irq_active[k] = s->irq_cfg[k] = 0;
        s->irq_cap[k] = (struct hk_irq_cap){.type = HK_CAP_Null, .ntfn = HK_NONE};
    }
    if (m >= 0)
        s->irq_masked[irq] = (unsigned char)m;
    s->irq_acks[irq] = (unsigned char)(s->irq_acks[irq] + acks);
    s->irq_active[irq] = hk_irq_active[irq];
}

/* Every entry the load did not note is IRQInactive with a null cap
 * (hk_reset_tables), and reads back as such; the noted ones are read. */
/* IRQ i's state and handler slot's cap */
static void hk_save_irq_entry(struct hk_state *s, int i)
{
    irq_t irq = CORE_IRQ_TO_IRQT(0, i);
    s->irq_state[i] = (unsigned char)hk_irq_state_h(intStateIRQTable[IRQT_TO_IDX(irq)]);
    s->irq_cfg[i] = hk_gic_cfg_get((word_t)i);
    cap_t c = intStateIRQNode[IRQT_TO_IDX(irq)].cap;
    struct hk_irq_cap *x = &s->irq_cap[i];
    switch (cap_get_capType(c)) {
    case cap_notification_cap:
        x->type = HK_CAP_Notification;
        x->can_send = (unsigned char)cap_notification_cap_get_capNtfnCanSend(c);
        x->ntfn = (signed char)hk_ntfn_index(cap_notification_cap_get_capNtfnPtr(c));
        x->badge = cap_notification_cap_get_capNtfnBadge(c);
        break;
    case cap_endpoint_cap:
        x->type = HK_CAP_Endpoint;
        x->can_send = (unsigned char)cap_endpoint_cap_get_capCanSend(c);
        x->can_recv = (unsigned char)cap_endpoint_cap_get_capCanReceive(c);
        x->can_grant = (unsigned char)cap_endpoint_cap_get_capCanGrant(c);
        x->can_grant_reply = (unsigned char)cap_endpoint_cap_get_capCanGrantReply(c);
        x->ep1 = (unsigned char)(hk_ep_index(cap_endpoint_cap_get_capEPPtr(c)) + 1);
        x->badge = cap_endpoint_cap_get_capEPBadge(c);
        break;
    default:
        x->type = HK_CAP_Null;
        break;
    }
}

static void hk_save_irqs(struct hk_state *s)
{
    int n = s->n_irqs <= (int)maxIRQ ? s->n_irqs : (int)maxIRQ + 1;
    for (int i = 0; i < n; i++) {
        s->irq_state[i] = HK_IRQ_Inactive;
        s->irq_cap[i].type = HK_CAP_Null;
    }
    for (word_t k = 0; k < hk_n_irq_used; k++)
        if (hk_irq_used[k] < n)
            hk_save_irq_entry(s, hk_irq_used[k]);
    __builtin_memcpy(s->irq_active, hk_irq_active, (word_t)n);
    /* masks and acks: only the IRQ the GIC delivered is touched, and the
     * IRQ a system call names (IRQHandler_Ack unmasks it where it does not
     * deactivate it, IRQControl_Get's setIRQState unmasks it) */
    if (hk_entry_iar != IRQ_NONE)
        hk_save_gic_irq(s, hk_entry_iar & IRQ_MASK);
    int h = hk_sys_irq;
    if (h >= 0 && (hk_entry_iar == IRQ_NONE || (word_t)h != (hk_entry_iar & IRQ_MASK)))
        hk_save_gic_irq(s, (word_t)h);
    /* an IRQ the table did not reach, which IRQControl_Get took: the mask
     * write grew the table to it (hk_save_gic_irq); its entry now */
    if (h >= n && h < s->n_irqs)
        hk_save_irq_entry(s, h);
    /* another core's SGIs and PPIs: the enable bits it wrote, as loaded
     * otherwise (hk_save copies the input state first), and its active bits */
    hk_gic_sample();
    for (word_t c = 1; c < CONFIG_MAX_NUM_NODES && c < HK_MAX_CORES; c++) {
        s->core_ppi_masked[c] = (s->core_ppi_masked[c] & ~hk_ppi_seen[c]) | (hk_ppi_masked[c] & hk_ppi_seen[c]);
        s->core_ppi_active[c] = hk_ppi_active[c];
    }
}

HK_API int hk_save(struct hk_state *s)
{
    for (int i = 0; i < s->n_tcbs; i++)
        hk_save_tcb(s, i);
    for (int i = 0; i < s->n_scs; i++)
        hk_save_sc(s, i);
    hk_save_ipc(s);
    s->cur_thread = (signed char)hk_tcb_index(NODE_STATE(ksCurThread));
    s->cur_sc = (signed char)hk_sc_index(NODE_STATE(ksCurSC));
    s->sched_action = (short)hk_action_index(NODE_STATE(ksSchedulerAction));
    s->reprogram = (unsigned char)NODE_STATE(ksReprogram);
    s->cur_time = NODE_STATE(ksCurTime);
    s->consumed = NODE_STATE(ksConsumed);
    s->deadline = hk_cval;
    s->hw_clock = hk_now;
    s->cur_domain = (unsigned char)ksCurDomain;
    s->domain_time = ksDomainTime;
    s->dom_idx = (unsigned char)ksDomScheduleIdx;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
        s->release_head[c] = (signed char)hk_tcb_index(hk_release_head(c));
        for (word_t d = 0; d < CONFIG_NUM_DOMAINS; d++) {
            s->l1[c][d] = NODE_STATE_ON_CORE(ksReadyQueuesL1Bitmap, c)[d];
            for (word_t w = 0; w < L2_BITMAP_SIZE && w < HK_L2_SIZE; w++)
                s->l2[c][d][w] = NODE_STATE_ON_CORE(ksReadyQueuesL2Bitmap, c)[d][w];
        }
    }
#ifdef ENABLE_SMP_SUPPORT
    for (word_t c = 1; c < CONFIG_MAX_NUM_NODES; c++) {
        s->core_cur[c] = (signed char)hk_tcb_index(NODE_STATE_ON_CORE(ksCurThread, c));
        s->core_reprogram[c] = (unsigned char)NODE_STATE_ON_CORE(ksReprogram, c);
    }
    s->ipi_pending = (unsigned char)ARCH_NODE_STATE(ipiReschedulePending);
#endif
    s->ipi_sent = (unsigned char)(s->ipi_sent | hk_ipi_sent);
    hk_save_irqs(s);
    hk_save_vcpus(s);
    return 0;
}

/* The tag of thread i's vspace as TTBR (VTTBR) took it: its ASID
 * (setVMRoot's armv_contextSwitch, the fastpaths' stored_hw_asid) or, on
 * hypervisor builds, the VMID its ASID's map entry now stores as valid
 * (getHWASID; the fastpaths take stored_hw_vmid, fastpath.c). */
static bool_t hk_ttbr0_tag_ok(word_t i)
{
    word_t tag = (hk_ttbr0 >> 48) & 0xffff;
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
    asid_map_t m = findMapForASID((asid_t)i + 1);
    return asid_map_get_type(m) == asid_map_asid_map_vspace && asid_map_asid_map_vspace_get_stored_vmid_valid(m) &&
           tag == asid_map_asid_map_vspace_get_stored_hw_vmid(m) &&
           armKSHWASIDTable[tag] == (asid_t)i + 1;
#else
    return tag == (word_t)i + 1;
#endif
}

/* what the model keeps as flags: the address space installed, FPU owner */
static void hk_fill_extra(struct hk_extra *x)
{
    x->outcome = hk_outcome;
    x->ttbr0_writes = hk_ttbr0_n;
    x->ttbr0 = hk_ttbr0;
    x->ttbr0_asid = (int)(hk_ttbr0 >> 48);
    x->ttbr0_tcb = HK_NONE;
    for (word_t i = 0; hk_ttbr0_n && i < hk_n_tcbs; i++)
        if ((hk_ttbr0 & MASK(48)) == pptr_to_paddr(hk_vspace_pool[i]))
            x->ttbr0_tcb = hk_ttbr0_tag_ok(i) ? (signed char)i : HK_TTBR_BAD_TAG;
    for (word_t c = 0; c < HK_MAX_CORES; c++)
        x->fpu_owner[c] = HK_NONE;
#ifdef CONFIG_HAVE_FPU
    for (word_t i = 0; i < hk_n_tcbs; i++) {
        int c = hk_fpu_owner_core(hk_tcb((int)i));
        if (c >= 0)
            x->fpu_owner[c] = (signed char)i;
    }
#endif
    x->fpu_enabled = hk_fpu_en;
    x->sgi_other = hk_sgi_other;
    x->remote_calls = hk_remote_calls;
    x->fastpath_done = -1;
#ifdef TRACK_KERNEL_ENTRIES
    if (hk_syscall_entry)
        x->fastpath_done = (int)ksKernelEntry.is_fastpath;
#endif
    /* the text, then zeros a word at a time: a byte loop over the buffer
     * was most of an entry's own time */
    word_t n = hk_text_len < HK_TEXT_LEN ? hk_text_len : HK_TEXT_LEN, i = 0;
    static const word_t zero = 0;
    for (; i < n; i++)
        x->text[i] = hk_text[i];
    for (; i < HK_TEXT_LEN && ((word_t)&x->text[i] % sizeof(word_t)); i++)
        x->text[i] = 0;
    for (; i + sizeof(word_t) <= HK_TEXT_LEN; i += sizeof(word_t))
        __builtin_memcpy(&x->text[i], &zero, sizeof(word_t));
    for (; i < HK_TEXT_LEN; i++)
        x->text[i] = 0;
}
