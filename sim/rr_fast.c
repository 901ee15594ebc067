/* rr_fast: model of fastpath_reply_recv, master's reply-and-receive fastpath (MCS). */
#include "rr_fast.h"

#include "fastpath.h"
#include "kassert.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "syscall.h"
#include "tcbqueue.h"

static const struct fp_text exits[] = {
#define RR_EXIT_TEXT(id, name, what) {name, what, #id[3] == 'S'},
    RR_EXIT_LIST(RR_EXIT_TEXT)
#undef RR_EXIT_TEXT
};

static const struct fp_text fixes_text[] = {
#define RR_FIX_TEXT(id, name, what) {name, what, false},
    RR_FIX_LIST(RR_FIX_TEXT)
#undef RR_FIX_TEXT
};

const char *rr_exit_name(int e)
{
    return fp_text_name(exits, RR_EXIT_COUNT, e);
}

const char *rr_exit_what(int e)
{
    return fp_text_what(exits, RR_EXIT_COUNT, e);
}

bool rr_exit_is_fallback(int e)
{
    return fp_text_fallback(exits, RR_EXIT_COUNT, e);
}

const char *rr_fix_name(int bit)
{
    return fp_text_name(fixes_text, RFIX_COUNT, bit);
}

const char *rr_fix_what(int bit)
{
    return fp_text_what(fixes_text, RFIX_COUNT, bit);
}

unsigned rr_variant_fixes(int variant)
{
    return variant == RR_FIXED ? RFIX_ALL : 0;
}

const char *rr_variant_name(int v)
{
    return fp_merged_variant_name(v);
}

int rr_variant_parse(const char *s)
{
    return fp_merged_variant_parse(s);
}

/* slowpath(SysReplyRecv): handleSyscall; false when checkBudgetRestart
 * refused the call */
static bool slowpath_sys_reply_recv(struct kstate *ks)
{
    struct ks_call c = ks_call_of_entry(ks);
    return handleSyscall(ks, &c);
}

void slowpath_reply_recv(struct kstate *ks)
{
    slowpath_sys_reply_recv(ks);
}

static int slowpath(struct kstate *ks, int exit, struct fp_run *f)
{
    f->performed = slowpath_sys_reply_recv(ks);
    return exit;
}

static const struct fp_entry rr_entry = {
    .time = RFIX(RFIX_ENTRY_TIME), .budget = RFIX(RFIX_ENTRY_BUDGET), .domain = RFIX(RFIX_ENTRY_DOMAIN),
    .release = RFIX(RFIX_ENTRY_RELEASE), .exit_budget = RR_SLOW_BUDGET, .exit_domain = RR_SLOW_DOMAIN_EXPIRED,
    .exit_release = RR_SLOW_RELEASE, .none = RR_EXIT_COUNT,
};

/* fastpath.c:258-315: the message info and the server's fault, the two
 * caps, the bound notification, the endpoint's senders, the call stack */
static int server_checks(const struct kstate *ks)
{
    const struct ks_sysin *s = &ks->sys;
    const struct ks_tcb *cur = &ks->tcbs[ks->cur_thread];
    if (s->extra_caps != 0 || s->length > KS_MSG_REGISTERS)
        return RR_SLOW_MSGINFO;
    if (cur->fault != FAULT_None)
        return RR_SLOW_FAULT;
    if (s->cap != SCAP_EP || !(s->rights & EPR(EPR_RECV)))
        return RR_SLOW_CAP; /* lookup_fp gives a null cap for a failed lookup */
    if (s->reply_cap != RCAP_REPLY)
        return RR_SLOW_REPLY_CAP;
    if (cur->bound_ntfn != KS_NONE && ks->ntfns[cur->bound_ntfn].state == NTFN_Active)
        return RR_SLOW_BOUND_ACTIVE;
    if (ks->eps[s->ep].state == EP_Send)
        return RR_SLOW_SEND_QUEUED;
    const struct ks_reply *r = &ks->replies[s->reply];
    if (r->tcb == KS_NONE || r->sc_head == KS_NONE || r->sc_head != cur->sc)
        return RR_SLOW_CALL_STACK;
    return RR_EXIT_COUNT;
}

/* fastpath.c:336-428: the caller's fault, vspace, priority, domain, SC, core */
static int caller_checks(struct kstate *ks, int caller)
{
    const struct ks_tcb *c = &ks->tcbs[caller];
    if (c->fault != FAULT_None)
        return RR_SLOW_CALLER_FAULT; /* without CONFIG_EXCEPTION_FASTPATH */
    if (!c->vtable_ok)
        return RR_SLOW_VTABLE;
    if (!c->asid_ok)
        return RR_SLOW_ASID;
    if (ks->cfg.hyp && !c->vmid_ok)
        return RR_SLOW_VMID;
    unsigned dom = ks->cfg.num_domains > 1 ? ks->cur_domain : 0; /* maxDom ? ksCurDomain : 0 */
    if (!isHighestPrio(ks, (int)dom, c->prio))
        return RR_SLOW_PRIO;
    if (c->domain != ks->cur_domain && ks->cfg.num_domains > 1)
        return RR_SLOW_DOMAIN;
    if (c->sc != KS_NONE)
        return RR_SLOW_CALLER_SC;
    if (ks->cfg.smp && ks->tcbs[ks->cur_thread].affinity != c->affinity)
        return RR_SLOW_AFFINITY;
    return RR_EXIT_COUNT;
}

/* After the point of no return (fastpath.c:432-547, no fault). */
static int commit(struct kstate *ks, int caller)
{
    int cur = ks->cur_thread, e = ks->sys.ep, r = ks->sys.reply;
    struct ks_tcb *srv = &ks->tcbs[cur], *c = &ks->tcbs[caller];
    struct ks_reply *reply = &ks->replies[r];
    srv->state = TS_BlockedOnReceive; /* thread_state_ptr_mset_blockingObject_tsType */
    srv->blocking = (int8_t)e;
    thread_state_set_replyObject_np(c, KS_NONE);
    thread_state_set_replyObject_np(srv, r);
    reply->tcb = (int8_t)cur;
    tcbEPAppend(ks, cur, &ks->eps[e].q_head, &ks->eps[e].q_tail); /* tcbAppend, by priority */
    ks->eps[e].state = EP_Recv;
    /* the call stack popped: the SC goes back to the caller */
    int sc = srv->sc; /* the reply heads its stack (server_checks) */
    srv->sc = KS_NONE;
    c->sc = (int8_t)sc;
    ks->scs[sc].tcb = (int8_t)caller;
    call_stack_pop(ks, r);
    thread_state_set_tsType_np(c, TS_Running);
    switchToThread_fp(ks, caller);
    c->badge_reg = 0; /* "Replies don't have a badge" */
    return RR_EXIT;
}

/* fastpath_reply_recv */
static int fastpath_reply_recv_body(struct kstate *ks, struct fp_run *f)
{
    int fallback = fp_entry_checks(ks, f, &rr_entry);
    if (fallback == RR_EXIT_COUNT)
        fallback = server_checks(ks);
    if (fallback == RR_EXIT_COUNT)
        fallback = caller_checks(ks, ks->replies[ks->sys.reply].tcb);
    if (fallback != RR_EXIT_COUNT)
        return slowpath(ks, fallback, f);
    int caller = ks->replies[ks->sys.reply].tcb;
    /* FIX reschedule_ipi, reprogram_flag: what schedule() would do */
    return fp_finish(ks, f, RFIX(RFIX_IPI), RFIX(RFIX_REPROGRAM), commit(ks, caller));
}

/* c_handle_fastpath_reply_recv (src/arch/arm/c_traps.c) */
static int fastpath_reply_recv_run(struct kstate *ks, struct fp_run *f)
{
    uint8_t saved = ks->path;
    ks->path = PATH_FAST;
    int exit = fastpath_reply_recv_body(ks, f);
    ks->path = saved;
    return exit;
}

int fastpath_reply_recv_tested(struct kstate *ks, unsigned fixes, unsigned *tested)
{
    struct fp_run f = {.on = fixes, .tested = 0, .performed = true};
    int exit = fastpath_reply_recv_run(ks, &f);
    *tested = f.tested;
    return exit;
}

int fastpath_reply_recv_performed(struct kstate *ks, int variant, bool *performed)
{
    struct fp_run f = {.on = rr_variant_fixes(variant), .tested = 0, .performed = true};
    int exit = fastpath_reply_recv_run(ks, &f);
    *performed = f.performed;
    return exit;
}

int fastpath_reply_recv(struct kstate *ks, int variant)
{
    bool performed;
    return fastpath_reply_recv_performed(ks, variant, &performed);
}
