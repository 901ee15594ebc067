/*
 * target_call_entry: the call target's entry, a SysCall by the current
 * thread (struct ks_sysin): its scenario line, the rule its inputs keep,
 * the generator's draw of them and of the server waiting on the endpoint,
 * the bounded enumeration's part (struct exh_ops, exhaust.h), and how the
 * workload simulator takes it (struct target_sim).
 */
#include "target_call.h"

#include <stdio.h>
#include <string.h>

#include "build.h"
#include "exhaust.h"
#include "gen.h"
#include "ipcentry.h"
#include "scenfield.h"
#include "sched.h"
#include "syscall.h"
#include "workload.h"

static const struct scen_field call_fields[] = {
    SF_ENUM(struct ks_sysin, "cap", cap, SCAP_COUNT, ks_sys_cap_name),
    SF_REF(struct ks_sysin, "ep", ep, SCEN_EP),
    SF_REF(struct ks_sysin, "ntfn", ntfn, SCEN_NTFN),
    SF_NUM(struct ks_sysin, "rights", rights, (1u << EPR_COUNT) - 1),
    SF_NUM(struct ks_sysin, "badge", badge, UINT64_MAX),
    SF_NUM(struct ks_sysin, "length", length, KS_MSG_MAX_LENGTH),
    SF_NUM(struct ks_sysin, "extra_caps", extra_caps, KS_MAX_EXTRA_CAPS),
    SF_NUM(struct ks_sysin, "extra_bad", extra_bad, (1u << KS_MAX_EXTRA_CAPS) - 1),
};

const struct target_line call_line = {
    .keyword = "call",
    .required = "cap",
    .fields = call_fields,
    .n_fields = (int)SF_COUNT(call_fields),
    .misfit = ipc_cptr_misfit,
};

/* A thread's seL4_Call in a workload (sim/syscall.h SYS_Call) */
bool call_entry_call(const struct ks_call *c)
{
    return c->sys == SYS_Call;
}

/* the registers and lookups of that SysCall (struct ks_sysin) */
void call_set_inputs(struct kstate *ks, const struct ks_call *c)
{
    ipc_set_inputs(ks, ENTRY_CALL, c);
}

/* ---- the generator's draw ---- */

/* The server a call finds (fastpath_call's checks, in sixteenths): a
 * passive thread waiting with a reply object 10, without one 1, with an
 * SC of its own 2, none waiting (the endpoint idle) 3. */
enum srv_kind { SRV_PASSIVE, SRV_NO_REPLY, SRV_ACTIVE, SRV_NONE };

/* a periodic SC (budget below the period) or a round-robin one (period 0) */
static int add_server_sc(struct kstate *ks, struct gen_src *src, int t)
{
    ticks_t budget = 10 * ks->cfg.min_budget;
    ticks_t m = gen_pick(src, 4);
    return build_sc(ks, NULL, t, budget, m ? budget * (m + 1) : 0, ks->cur_time);
}

/* A server blocked receiving on e, as it got there: created Inactive,
 * given an SC to run (active) and a reply object, then seL4_Recv
 * (receiveIPC: blocked, queued by priority). A passive server has given
 * its SC back (SchedContext_UnbindObject). */
static int add_server(struct kstate *ks, struct gen_src *src, int e, int kind)
{
    const struct ks_tcb *cur = &ks->tcbs[ks->cur_thread];
    static const int rel[4] = {-1, 0, 0, 1}; /* below, equal (twice), above the caller */
    int prio = (int)cur->prio + rel[gen_pick(src, 4)] * (int)(1 + gen_pick(src, 3));
    prio = prio < 0 ? 0 : prio > KS_NUM_PRIOS - 1 ? KS_NUM_PRIOS - 1 : prio;
    int dom = ks->cfg.num_domains > 1 && gen_pick(src, 4) == 0 ? (ks->cur_domain + 1) % ks->cfg.num_domains
                                                                : ks->cur_domain;
    int t = build_thread(ks, NULL, prio, dom);
    if (t == KS_NONE)
        return -1;
    struct ks_tcb *srv = &ks->tcbs[t];
    srv->affinity = (uint8_t)(ks->cfg.smp && gen_pick(src, 4) == 0 ? 1 : cur->affinity);
    srv->vtable_ok = gen_pick(src, 16) != 0;
    srv->asid_ok = gen_pick(src, 16) != 0;
    srv->vmid_ok = gen_pick(src, 16) != 0;
    int r = kind == SRV_NO_REPLY ? KS_NONE : ks_add_reply(ks, NULL);
    if (kind != SRV_NO_REPLY && r == KS_NONE)
        return -1;
    if (kind == SRV_ACTIVE && add_server_sc(ks, src, t) == KS_NONE)
        return -1;
    build_recv_ep(ks, t, e, r);
    return 0;
}

/* Whether the kernel can reach endpoint e as the state has it: gen.c
 * draws receivers holding an SC that is not configured, which no kernel
 * state has (an SC is bound to a blocked thread only when released,
 * decodeSchedContext_Bind, schedcontext.c:111; TCB_SetSchedParams,
 * tcb.c:1345; and sendIPC asserts the receiver's SC sufficient,
 * endpoint.c:97), harmless where only a signal reaches them (cancelIPC)
 * but not to a call, which wakes the head receiver on its SC. */
static bool ep_reachable(const struct kstate *ks, int e)
{
    for (int t = ks->eps[e].q_head; t != KS_NONE; t = ks->tcbs[t].ep_next)
        if (ks->tcbs[t].sc != KS_NONE && ks->scs[ks->tcbs[t].sc].refill_max == 0)
            return false;
    return true;
}

/* The endpoint the cap names: one of the state's (receivers or senders
 * already queued are the state's), or a new one with its server. */
static int draw_endpoint(struct kstate *ks, struct gen_src *src)
{
    if (ks->n_eps > 0 && gen_pick(src, 4) == 0) {
        int e = (int)gen_pick(src, ks->n_eps);
        if (ep_reachable(ks, e))
            return e;
    }
    int e = build_ep(ks, NULL);
    if (e == KS_NONE)
        return -1;
    static const uint8_t kinds[16] = {SRV_PASSIVE, SRV_PASSIVE, SRV_PASSIVE,  SRV_PASSIVE, SRV_PASSIVE, SRV_PASSIVE,
                                      SRV_PASSIVE, SRV_PASSIVE, SRV_PASSIVE,  SRV_PASSIVE, SRV_NO_REPLY, SRV_ACTIVE,
                                      SRV_ACTIVE,  SRV_NONE,    SRV_NONE,     SRV_NONE};
    int kind = kinds[gen_pick(src, 16)];
    if (kind != SRV_NONE && add_server(ks, src, e, kind) != 0)
        return -1;
    return e;
}

/* The SysCall's inputs: an endpoint cap 13 in 16 (send right 15 in 16,
 * grant or grant-reply 7 in 8), a notification cap 1, a null cap 1, a
 * failed lookup 1; a message of 0-4 words, longer in 1 of 8; extra caps
 * in 1 of 8; the caller given a fault handler half the time
 * (gen_caller_fault_handler). No IRQ is taken. */
static int draw_call(struct kstate *ks, struct gen_src *src)
{
    struct ks_sysin *s = &ks->sys;
    ks_sysin_clear(s);
    s->ntfn = KS_NONE;
    ks->active_irq = KS_IRQ_INVALID;
    unsigned k = (unsigned)gen_pick(src, 16);
    if (k < 13) {
        s->cap = SCAP_EP;
        s->ep = (int8_t)draw_endpoint(ks, src);
        if (s->ep < 0)
            return -1;
        s->rights = (uint8_t)(gen_pick(src, 16) ? EPR(EPR_SEND) : 0);
        s->rights |= (uint8_t)(gen_pick(src, 8) ? (gen_pick(src, 2) ? EPR(EPR_GRANT) : EPR(EPR_GRANT_REPLY)) : 0);
        s->rights |= (uint8_t)(gen_pick(src, 2) ? EPR(EPR_RECV) : 0);
        s->badge = gen_pick(src, 256);
    } else if (k == 13 && ks->n_ntfns > 0) {
        s->cap = SCAP_NTFN;
        s->ntfn = (int8_t)gen_pick(src, ks->n_ntfns);
        s->badge = gen_pick(src, 256);
    } else {
        s->cap = k == 15 ? SCAP_LOOKUP_FAIL : SCAP_NULL;
    }
    s->length = (uint8_t)(gen_pick(src, 8) ? gen_pick(src, KS_MSG_REGISTERS + 1) : 5 + gen_pick(src, 20));
    if (gen_pick(src, 8) == 0) {
        s->extra_caps = (uint8_t)(1 + gen_pick(src, KS_MAX_EXTRA_CAPS));
        s->extra_bad = (uint8_t)gen_pick(src, 1u << s->extra_caps);
    }
    gen_caller_fault_handler(ks, src, ks->cur_thread); /* a cptr or extra cap that does not resolve */
    return 0;
}

/* A client blocked on reply r of a call that donated sc, pushed on sc's
 * call stack (reply_push, reply.c:31-52): the caller of this entry is
 * then a server running on its client's SC. */
static int push_client(struct kstate *ks, struct gen_src *src, int sc)
{
    int t = build_thread(ks, NULL, (int)gen_pick(src, KS_NUM_PRIOS), ks->cur_domain);
    return t == KS_NONE || build_call_push(ks, t, sc, NULL) == KS_NONE ? -1 : 0;
}

/* the caller's call stack, in quarters: none 2, one client 1, two 1 */
static int draw_call_stack(struct kstate *ks, struct gen_src *src)
{
    int depth = (int)gen_pick(src, 4);
    for (int i = 0; i < depth - 1; i++)
        if (push_client(ks, src, ks->cur_sc) != 0)
            return -1;
    return 0;
}

/* the caller must be able to make a system call (gen_syscall_unfit) */
int call_gen_entry(struct kstate *ks, struct gen_src *src)
{
    if (gen_syscall_unfit(ks) || draw_call_stack(ks, src) != 0 || draw_call(ks, src) != 0)
        return -1;
    ks->sys.entry = ENTRY_CALL;
    return 0;
}

/* ---- the enumeration's part (call_exh) ---- */

/* the plan's entry dimensions: the server (enum srv_kind), its priority
 * against the caller (below, equal, above), the cap's grant rights */
#define P_SRV(p) ((p)->entry[0])
#define P_PRIO(p) ((p)->entry[1])
#define P_GRANT(p) ((p)->entry[2])

/* The caller of a SysCall: one that can make a system call, as for SysSend */
static int call_current(struct exh_walk *w, int left)
{
    (void)left;
    return CUR_RR + exh_choose(w, CUR_KINDS - CUR_RR);
}

static void plan_call(struct exh_walk *w, struct exh_plan *p)
{
    P_SRV(p) = exh_choose(w, 4);
    P_PRIO(p) = P_SRV(p) == SRV_NONE ? 1 : exh_choose(w, 3);
    P_GRANT(p) = exh_choose(w, 2);
}

static bool call_none(const struct exh_plan *p)
{
    (void)p;
    return false;
}

/* The endpoint and its server, the cap with send and (or not) grant. */
static void build_call(struct kstate *ks, const struct exh_plan *p, int n)
{
    (void)n;
    struct ks_sysin *s = &ks->sys;
    ks_sysin_clear(s);
    s->entry = ENTRY_CALL;
    s->ntfn = KS_NONE;
    s->cap = SCAP_EP;
    s->rights = (uint8_t)(EPR(EPR_SEND) | (P_GRANT(p) ? EPR(EPR_GRANT) : 0));
    s->badge = 1;
    ks->active_irq = KS_IRQ_INVALID;
    int e = build_ep(ks, "call_ep");
    s->ep = (int8_t)e;
    if (P_SRV(p) == SRV_NONE)
        return;
    int prio = (int)ks->tcbs[ks->cur_thread].prio + P_PRIO(p) - 1;
    int t = build_thread(ks, "server", prio < 0 ? 0 : prio, ks->cur_domain);
    ks->tcbs[t].affinity = ks->tcbs[ks->cur_thread].affinity;
    int r = P_SRV(p) == SRV_NO_REPLY ? KS_NONE : ks_add_reply(ks, "server_reply");
    if (P_SRV(p) == SRV_ACTIVE)
        build_sc(ks, "server_sc", t, 10 * ks->cfg.min_budget, 40 * ks->cfg.min_budget, ks->cur_time);
    build_recv_ep(ks, t, e, r);
}

static const char *call_text(const struct exh_plan *p, char *buf, size_t len)
{
    static const char *const srv[] = {"passive", "no_reply", "active", "none"};
    static const char *const prio[] = {"below", "equal", "above"};
    snprintf(buf, len, "syscall=call server=%s prio=%s grant=%d", srv[P_SRV(p)], prio[P_PRIO(p)], P_GRANT(p));
    return buf;
}

/* fastpath_call switches to the server: its vspace is read on both paths */
const struct exh_ops call_exh = {call_current, plan_call, call_none, call_none, call_none,
                                 false, false, build_call, call_text};
