/* call_fast: model of fastpath_call, master's call fastpath (MCS). */
#include "call_fast.h"

#include "budget.h"
#include "fastpath.h"
#include "kassert.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "syscall.h"

static const struct fp_text exits[] = {
#define CALL_EXIT_TEXT(id, name, what) {name, what, #id[5] == 'S'},
    CALL_EXIT_LIST(CALL_EXIT_TEXT)
#undef CALL_EXIT_TEXT
};

static const struct fp_text fixes_text[] = {
#define CALL_FIX_TEXT(id, name, what) {name, what, false},
    CALL_FIX_LIST(CALL_FIX_TEXT)
#undef CALL_FIX_TEXT
};

const char *call_exit_name(int e)
{
    return fp_text_name(exits, CALL_EXIT_COUNT, e);
}

const char *call_exit_what(int e)
{
    return fp_text_what(exits, CALL_EXIT_COUNT, e);
}

bool call_exit_is_fallback(int e)
{
    return fp_text_fallback(exits, CALL_EXIT_COUNT, e);
}

const char *call_fix_name(int bit)
{
    return fp_text_name(fixes_text, CFIX_COUNT, bit);
}

const char *call_fix_what(int bit)
{
    return fp_text_what(fixes_text, CFIX_COUNT, bit);
}

unsigned call_variant_fixes(int variant)
{
    return variant == CALL_FIXED ? CFIX_ALL : 0;
}

const char *call_variant_name(int v)
{
    return fp_merged_variant_name(v);
}

int call_variant_parse(const char *s)
{
    return fp_merged_variant_parse(s);
}

/* slowpath(SysCall): c_handle_syscall -> handleSyscall(SysCall); false
 * when checkBudgetRestart refused the call (the caller makes it again) */
static bool slowpath_sys_call(struct kstate *ks)
{
    struct ks_call c = ks_call_of_entry(ks);
    return handleSyscall(ks, &c);
}

void slowpath_call(struct kstate *ks)
{
    slowpath_sys_call(ks);
}

/* A fallback: slowpath(SysCall) on the state as the fastpath left it. */
static int slowpath(struct kstate *ks, int exit, struct fp_run *f)
{
    f->performed = slowpath_sys_call(ks);
    return exit;
}

static const struct fp_entry call_entry = {
    .time = CFIX(CFIX_ENTRY_TIME), .budget = CFIX(CFIX_ENTRY_BUDGET), .domain = CFIX(CFIX_ENTRY_DOMAIN),
    .release = CFIX(CFIX_ENTRY_RELEASE), .exit_budget = CALL_SLOW_BUDGET, .exit_domain = CALL_SLOW_DOMAIN_EXPIRED,
    .exit_release = CALL_SLOW_RELEASE, .none = CALL_EXIT_COUNT,
};

/* fastpath_mi_check (fastpath.h): extra caps, or a length past the
 * message registers; and the caller's fault (fastpath.c:36-43) */
static int caller_checks(const struct kstate *ks)
{
    const struct ks_sysin *s = &ks->sys;
    if (s->extra_caps != 0 || s->length > KS_MSG_REGISTERS)
        return CALL_SLOW_MSGINFO;
    if (ks->tcbs[ks->cur_thread].fault != FAULT_None)
        return CALL_SLOW_FAULT;
    if (s->cap != SCAP_EP || !(s->rights & EPR(EPR_SEND)))
        return CALL_SLOW_CAP; /* lookup_fp gives a null cap for a failed lookup */
    if (ks->eps[s->ep].state != EP_Recv)
        return CALL_SLOW_NOT_RECV;
    return CALL_EXIT_COUNT;
}

/* fastpath.c:65-165: the receiver's vspace, priority, the cap's grant
 * rights, domain, SC, reply object, core */
static int check_dest(struct kstate *ks, int dest, struct fp_run *f)
{
    const struct ks_tcb *d = &ks->tcbs[dest], *cur = &ks->tcbs[ks->cur_thread];
    if (!d->vtable_ok)
        return CALL_SLOW_VTABLE;
    if (!d->asid_ok)
        return CALL_SLOW_ASID;
    if (ks->cfg.hyp && !d->vmid_ok)
        return CALL_SLOW_VMID;
    unsigned dom = ks->cfg.num_domains > 1 ? ks->cur_domain : 0; /* maxDom ? ksCurDomain : 0 */
    if (d->prio < cur->prio && !isHighestPrio(ks, (int)dom, d->prio))
        return CALL_SLOW_PRIO;
    /* FIX outranked: the slowpath's donation asks for a reschedule
     * (schedContext_donate, schedcontext.c:374-376), possibleSwitchTo then
     * queues the receiver (thread.c:565-568), and schedule() runs the
     * highest ready thread: above the caller only when another core has
     * just queued it here, its IPI in flight (remoteQueueUpdate,
     * tcb.c:444; check/invariant.c admits it on SMP) */
    if (fp_fix_on(f, CFIX(CFIX_OUTRANKED)) && !isHighestPrio(ks, (int)dom, d->prio))
        return CALL_SLOW_OUTRANKED;
    if (!(ks->sys.rights & (EPR(EPR_GRANT) | EPR(EPR_GRANT_REPLY))))
        return CALL_SLOW_GRANT;
    if (d->domain != ks->cur_domain && ks->cfg.num_domains > 1)
        return CALL_SLOW_DOMAIN;
    if (d->sc != KS_NONE)
        return CALL_SLOW_ACTIVE;
    if (d->reply == KS_NONE)
        return CALL_SLOW_NO_REPLY;
    if (ks->cfg.smp && cur->affinity != d->affinity)
        return CALL_SLOW_AFFINITY;
    return CALL_EXIT_COUNT;
}

/* After the point of no return (fastpath.c:168-232). */
static int commit(struct kstate *ks, int dest)
{
    struct ks_ep *ep = &ks->eps[ks->sys.ep];
    struct ks_tcb *d = &ks->tcbs[dest], *cur = &ks->tcbs[ks->cur_thread];
    int r = d->reply, sc = cur->sc;
    /* the receiver leaves the queue's head; its own links stay stale */
    ep->q_head = d->ep_next;
    if (d->ep_next != KS_NONE) {
        ks->tcbs[d->ep_next].ep_prev = KS_NONE;
    } else {
        ep->q_tail = KS_NONE;
        ep->state = EP_Idle;
    }
    thread_state_set_tsType_np(cur, TS_BlockedOnReply);
    thread_state_set_replyObject_np(d, KS_NONE);
    thread_state_set_replyObject_np(cur, r);
    ks->replies[r].tcb = (int8_t)ks->cur_thread;
    ks->scs[sc].tcb = (int8_t)dest;
    d->sc = (int8_t)sc;
    cur->sc = KS_NONE;
    call_stack_push(ks, r, sc);
    thread_state_set_tsType_np(d, TS_Running);
    switchToThread_fp(ks, dest);
    d->badge_reg = ks->sys.badge; /* fastpath_restore(badge, ...) */
    return CALL_EXIT;
}

/* fastpath_call */
static int fastpath_call_body(struct kstate *ks, struct fp_run *f)
{
    int fallback = fp_entry_checks(ks, f, &call_entry);
    if (fallback == CALL_EXIT_COUNT)
        fallback = caller_checks(ks);
    if (fallback != CALL_EXIT_COUNT)
        return slowpath(ks, fallback, f);
    int dest = ks->eps[ks->sys.ep].q_head;
    if (!ks_check(ks, dest != KS_NONE, A_CALL_DEST))
        return CALL_EXIT;
    fallback = check_dest(ks, dest, f);
    if (fallback != CALL_EXIT_COUNT)
        return slowpath(ks, fallback, f);
    /* FIX reschedule_ipi, reprogram_flag: what schedule() would do */
    return fp_finish(ks, f, CFIX(CFIX_IPI), CFIX(CFIX_REPROGRAM), commit(ks, dest));
}

/* c_handle_fastpath_call (src/arch/arm/c_traps.c) */
static int fastpath_call_run(struct kstate *ks, struct fp_run *f)
{
    uint8_t saved = ks->path;
    ks->path = PATH_FAST;
    int exit = fastpath_call_body(ks, f);
    ks->path = saved;
    return exit;
}

int fastpath_call_tested(struct kstate *ks, unsigned fixes, unsigned *tested)
{
    struct fp_run f = {.on = fixes, .tested = 0, .performed = true};
    int exit = fastpath_call_run(ks, &f);
    *tested = f.tested;
    return exit;
}

int fastpath_call_performed(struct kstate *ks, int variant, bool *performed)
{
    struct fp_run f = {.on = call_variant_fixes(variant), .tested = 0, .performed = true};
    int exit = fastpath_call_run(ks, &f);
    *performed = f.performed;
    return exit;
}

int fastpath_call(struct kstate *ks, int variant)
{
    bool performed;
    return fastpath_call_performed(ks, variant, &performed);
}
