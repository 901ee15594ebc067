/*
 * target_rr_entry: the reply_recv target's entry, a SysReplyRecv by the
 * current thread (struct ks_sysin): its scenario line, the rule its inputs
 * keep, the generator's draw (a server running on a caller's donated SC,
 * the caller blocked on the reply that heads the SC's call stack), the
 * bounded enumeration's part, and how the workload simulator takes it.
 */
#include "target_rr.h"

#include <stdio.h>
#include <string.h>

#include "build.h"
#include "exhaust.h"
#include "gen.h"
#include "ipcentry.h"
#include "ntfn.h"
#include "scenfield.h"
#include "sched.h"
#include "syscall.h"

static const struct scen_field rr_fields[] = {
    SF_ENUM(struct ks_sysin, "cap", cap, SCAP_COUNT, ks_sys_cap_name),
    SF_REF(struct ks_sysin, "ep", ep, SCEN_EP),
    SF_REF(struct ks_sysin, "ntfn", ntfn, SCEN_NTFN),
    SF_NUM(struct ks_sysin, "rights", rights, (1u << EPR_COUNT) - 1),
    SF_ENUM(struct ks_sysin, "reply_cap", reply_cap, RCAP_COUNT, ks_reply_cap_name),
    SF_REF(struct ks_sysin, "reply", reply, SCEN_REPLY),
    SF_NUM(struct ks_sysin, "length", length, KS_MSG_MAX_LENGTH),
    SF_NUM(struct ks_sysin, "extra_caps", extra_caps, KS_MAX_EXTRA_CAPS),
    SF_NUM(struct ks_sysin, "extra_bad", extra_bad, (1u << KS_MAX_EXTRA_CAPS) - 1),
};

/* The receive cptr as a call's (ipcentry.h); a reply cap names its reply
 * object, a null cap and a failed lookup none. */
static const char *rr_misfit(const struct kstate *ks, char *buf, size_t len)
{
    const struct ks_sysin *s = &ks->sys;
    bool reply_cap = s->reply_cap == RCAP_REPLY;
    if (ipc_cptr_misfit(ks, buf, len))
        return buf;
    if (s->reply_cap >= RCAP_COUNT)
        snprintf(buf, len, "reply_cap kind %u out of range", s->reply_cap);
    else if (reply_cap != (s->reply != KS_NONE) || (reply_cap && s->reply >= ks->n_replies))
        snprintf(buf, len, "reply_cap=%s and reply= disagree (a reply cap names one of the %u replies)",
                 ks_reply_cap_name(s->reply_cap), ks->n_replies);
    else
        return NULL;
    return buf;
}

const struct target_line rr_line = {
    .keyword = "reply_recv",
    .required = "cap",
    .fields = rr_fields,
    .n_fields = (int)SF_COUNT(rr_fields),
    .misfit = rr_misfit,
};

/* A thread's seL4_ReplyRecv in a workload (sim/syscall.h SYS_ReplyRecv) */
bool rr_entry_call(const struct ks_call *c)
{
    return c->sys == SYS_ReplyRecv;
}

void rr_set_inputs(struct kstate *ks, const struct ks_call *c)
{
    ipc_set_inputs(ks, ENTRY_REPLY_RECV, c);
}

/* ---- the generator's draw ---- */

/* A caller of the server on its SC's call stack: blocked on a reply that
 * heads the stack, no SC (donated), its priority near the server's, in
 * its domain and on its core mostly, its vspace valid mostly. */
static int push_caller(struct kstate *ks, struct gen_src *src)
{
    const struct ks_tcb *cur = &ks->tcbs[ks->cur_thread];
    static const int rel[4] = {-1, 0, 1, 1};
    int prio = (int)cur->prio + rel[gen_pick(src, 4)] * (int)(1 + gen_pick(src, 3));
    prio = prio < 0 ? 0 : prio > KS_NUM_PRIOS - 1 ? KS_NUM_PRIOS - 1 : prio;
    int dom = ks->cfg.num_domains > 1 && gen_pick(src, 8) == 0 ? (ks->cur_domain + 1) % ks->cfg.num_domains
                                                                : ks->cur_domain;
    int t = build_thread(ks, NULL, prio, dom);
    if (t == KS_NONE || build_call_push(ks, t, ks->cur_sc, NULL) == KS_NONE)
        return -1;
    struct ks_tcb *c = &ks->tcbs[t];
    c->affinity = (uint8_t)(ks->cfg.smp && gen_pick(src, 8) == 0 ? 1 : cur->affinity);
    c->vtable_ok = gen_pick(src, 16) != 0;
    c->asid_ok = gen_pick(src, 16) != 0;
    c->vmid_ok = gen_pick(src, 16) != 0;
    /* one in 16 has been given an SC of its own while it waits (a bind
     * that checks sc_released only for a thread blocked in an IPC queue,
     * schedcontext.c:111, so a released one here as well) */
    if (gen_pick(src, 16) == 0 && build_sc(ks, NULL, t, 10 * ks->cfg.min_budget, 0, ks->cur_time) == KS_NONE)
        return -1;
    /* one in 16 did not call: it faulted (a failed cap lookup), and the
     * server, its fault handler, received the fault IPC, which donated its
     * SC (handleFault -> sendFaultIPC(.., can_donate), faulthandler.c:15-44;
     * receiveIPC's reply_push for a faulted sender, endpoint.c:246-253) */
    if (gen_pick(src, 16) == 0)
        c->fault = FAULT_CapFault;
    return ks->scs[ks->cur_sc].reply;
}

/* The endpoint received on: a new one, idle (12 in 16), with a passive
 * receiver waiting (2), or with a sender waiting (2: a plain seL4_Send,
 * blocked on a released SC of its own, as check_released requires). */
static int draw_endpoint(struct kstate *ks, struct gen_src *src)
{
    int e = build_ep(ks, NULL);
    if (e == KS_NONE)
        return -1;
    unsigned k = (unsigned)gen_pick(src, 16);
    if (k < 12)
        return e;
    int t = build_thread(ks, NULL, (int)gen_pick(src, KS_NUM_PRIOS), ks->cur_domain);
    if (t == KS_NONE)
        return -1;
    if (k < 14) {
        build_recv_ep(ks, t, e, KS_NONE);
        return e;
    }
    ticks_t budget = 10 * ks->cfg.min_budget;
    if (build_sc(ks, NULL, t, budget, 0, ks->cur_time) == KS_NONE)
        return -1;
    build_send_ep(ks, t, e);
    return e;
}

/* A reply a caller waits on that does not head the current SC's call
 * stack (fastpath_reply_recv's second and third reply checks, master
 * fastpath.c:310-312): the older reply of a stack two deep, else the head
 * of another SC's stack, that of a thread P a caller Q called and donated
 * its SC to (reply_push, reply.c:31-52), P since preempted and ready. The
 * server names it through a cap in a CSpace it shares with the thread
 * that received on it (a CNode may back several TCBs' CTables). */
static int other_reply(struct kstate *ks, struct gen_src *src, int head)
{
    if (head != KS_NONE && ks->replies[head].prev != KS_NONE)
        return ks->replies[head].prev;
    const struct ks_tcb *cur = &ks->tcbs[ks->cur_thread];
    /* P at most the server's priority: a ready thread above the running
     * one would have been chosen (schedule, thread.c) */
    int p = build_thread(ks, NULL, (int)gen_pick(src, cur->prio + 1u), cur->domain);
    if (p == KS_NONE)
        return KS_NONE;
    ks->tcbs[p].affinity = cur->affinity;
    int x = build_sc(ks, NULL, p, 10 * ks->cfg.min_budget, 0, ks->cur_time);
    int q = build_thread(ks, NULL, (int)gen_pick(src, KS_NUM_PRIOS), cur->domain);
    if (x == KS_NONE || q == KS_NONE)
        return KS_NONE;
    build_ready(ks, p);
    return build_call_push(ks, q, x, NULL);
}

/* The SysReplyRecv: the receive cptr an endpoint cap (15 in 16, the
 * receive right 15 in 16), else a null cap; the reply cptr the head reply
 * (13 in 16; 1 in 8 of those another reply a caller waits on:
 * other_reply), a reply no caller waits on (1), a null cap (1), a failed
 * lookup (1); a bound notification made active (1 in 16); length and
 * extra caps as for a call; the server given a fault handler half the
 * time (gen_caller_fault_handler). */
static int draw_inputs(struct kstate *ks, struct gen_src *src, int head)
{
    struct ks_sysin *s = &ks->sys;
    ks_sysin_clear(s);
    s->entry = ENTRY_REPLY_RECV;
    s->ntfn = KS_NONE;
    ks->active_irq = KS_IRQ_INVALID;
    if (gen_pick(src, 16)) {
        s->cap = SCAP_EP;
        s->ep = (int8_t)draw_endpoint(ks, src);
        if (s->ep < 0)
            return -1;
        s->rights = (uint8_t)(gen_pick(src, 16) ? EPR(EPR_RECV) : EPR(EPR_SEND));
    } else {
        s->cap = SCAP_NULL;
    }
    unsigned k = (unsigned)gen_pick(src, 16);
    s->reply_cap = k < 14 ? RCAP_REPLY : k == 14 ? RCAP_NULL : RCAP_LOOKUP_FAIL;
    if (s->reply_cap == RCAP_REPLY && k < 13 && gen_pick(src, 8) == 0)
        s->reply = (int8_t)other_reply(ks, src, head);
    else if (s->reply_cap == RCAP_REPLY)
        s->reply = (int8_t)(k < 13 && head != KS_NONE ? head : ks_add_reply(ks, NULL));
    if (s->reply_cap == RCAP_REPLY && s->reply < 0)
        return -1;
    int me = ks->cur_thread;
    if (gen_pick(src, 16) == 0 && ks->tcbs[me].bound_ntfn == KS_NONE) {
        int n = build_ntfn(ks, NULL);
        if (n == KS_NONE)
            return -1;
        build_bind_ntfn(ks, me, n);
        ntfn_set_active(ks, n, 1);
    }
    s->length = (uint8_t)(gen_pick(src, 8) ? gen_pick(src, KS_MSG_REGISTERS + 1) : 5 + gen_pick(src, 20));
    if (gen_pick(src, 8) == 0) {
        s->extra_caps = (uint8_t)(1 + gen_pick(src, KS_MAX_EXTRA_CAPS));
        s->extra_bad = (uint8_t)gen_pick(src, 1u << s->extra_caps);
    }
    gen_caller_fault_handler(ks, src, me); /* a receive or reply cptr naming the wrong cap */
    return 0;
}

/* the caller's stack in eighths: none 1, one caller 5, two 2 */
int rr_gen_entry(struct kstate *ks, struct gen_src *src)
{
    if (gen_syscall_unfit(ks))
        return -1;
    static const uint8_t depth[8] = {0, 1, 1, 1, 1, 1, 2, 2};
    int d = depth[gen_pick(src, 8)], head = KS_NONE;
    for (int i = 0; i < d; i++)
        if ((head = push_caller(ks, src)) < 0)
            return -1;
    return draw_inputs(ks, src, head);
}

/* ---- the enumeration's part (rr_exh) ---- */

/* the plan's entry dimensions: the caller (none, on the stack's head),
 * its priority against the server's (below, equal, above), the endpoint
 * (idle, a receiver waiting) */
#define P_CALLER(p) ((p)->entry[0])
#define P_PRIO(p) ((p)->entry[1])
#define P_EP(p) ((p)->entry[2])

static int rr_current(struct exh_walk *w, int left)
{
    (void)left;
    return CUR_RR + exh_choose(w, CUR_KINDS - CUR_RR);
}

static void plan_rr(struct exh_walk *w, struct exh_plan *p)
{
    P_CALLER(p) = exh_choose(w, 2);
    P_PRIO(p) = P_CALLER(p) ? exh_choose(w, 3) : 1;
    P_EP(p) = exh_choose(w, 2);
}

static bool rr_none(const struct exh_plan *p)
{
    (void)p;
    return false;
}

static void build_rr(struct kstate *ks, const struct exh_plan *p, int n)
{
    (void)n;
    struct ks_sysin *s = &ks->sys;
    ks_sysin_clear(s);
    s->entry = ENTRY_REPLY_RECV;
    s->ntfn = KS_NONE;
    s->cap = SCAP_EP;
    s->rights = EPR(EPR_RECV);
    s->reply_cap = RCAP_REPLY;
    ks->active_irq = KS_IRQ_INVALID;
    int e = build_ep(ks, "rr_ep");
    s->ep = (int8_t)e;
    if (P_EP(p))
        build_recv_ep(ks, build_thread(ks, "receiver", 1, ks->cur_domain), e, KS_NONE);
    if (!P_CALLER(p)) {
        s->reply = (int8_t)ks_add_reply(ks, "rr_reply");
        return;
    }
    int prio = (int)ks->tcbs[ks->cur_thread].prio + P_PRIO(p) - 1;
    int t = build_thread(ks, "caller", prio < 0 ? 0 : prio, ks->cur_domain);
    ks->tcbs[t].affinity = ks->tcbs[ks->cur_thread].affinity;
    s->reply = (int8_t)build_call_push(ks, t, ks->cur_sc, "rr_reply");
}

static const char *rr_text(const struct exh_plan *p, char *buf, size_t len)
{
    static const char *const prio[] = {"below", "equal", "above"};
    snprintf(buf, len, "syscall=reply_recv caller=%s prio=%s ep=%s", P_CALLER(p) ? "stack_head" : "none",
             prio[P_PRIO(p)], P_EP(p) ? "receiver" : "idle");
    return buf;
}

/* fastpath_reply_recv switches to the caller: its vspace is read on both paths */
const struct exh_ops rr_exh = {rr_current, plan_rr, rr_none, rr_none, rr_none, false, false, build_rr, rr_text};
