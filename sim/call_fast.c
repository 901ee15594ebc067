/* call_fast: model of fastpath_call, master's call fastpath (MCS). */
#include "call_fast.h"

#include <string.h>

#include "budget.h"
#include "fastpath.h"
#include "kassert.h"
#include "refill.h"
#include "sched.h"
#include "syscall.h"

static const struct { const char *name, *what; bool fallback; } exits[] = {
#define CALL_EXIT_TEXT(id, name, what) {name, what, #id[5] == 'S'},
    CALL_EXIT_LIST(CALL_EXIT_TEXT)
#undef CALL_EXIT_TEXT
};

const char *call_exit_name(int e)
{
    return e >= 0 && e < CALL_EXIT_COUNT ? exits[e].name : "?";
}

const char *call_exit_what(int e)
{
    return e >= 0 && e < CALL_EXIT_COUNT ? exits[e].what : "?";
}

bool call_exit_is_fallback(int e)
{
    return e >= 0 && e < CALL_EXIT_COUNT && exits[e].fallback;
}

static const char *const variants[] = {"merged", "fixed"};

static const struct { const char *name, *what; } fixes_text[] = {
#define CALL_FIX_TEXT(id, name, what) {name, what},
    CALL_FIX_LIST(CALL_FIX_TEXT)
#undef CALL_FIX_TEXT
};

const char *call_fix_name(int bit)
{
    return bit >= 0 && bit < CFIX_COUNT ? fixes_text[bit].name : "?";
}

const char *call_fix_what(int bit)
{
    return bit >= 0 && bit < CFIX_COUNT ? fixes_text[bit].what : "?";
}

unsigned call_variant_fixes(int variant)
{
    return variant == CALL_FIXED ? CFIX_ALL : 0;
}

const char *call_variant_name(int v)
{
    return v >= 0 && v < CALL_VARIANT_COUNT ? variants[v] : "?";
}

int call_variant_parse(const char *s)
{
    for (int v = 0; v < CALL_VARIANT_COUNT; v++)
        if (strcmp(s, variants[v]) == 0)
            return v;
    return -1;
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

/* The fixes of a run and those it tested; whether the call was performed. */
struct call_fixes {
    unsigned on, tested;
    bool performed;
};

static bool fix_on(struct call_fixes *f, unsigned bit)
{
    f->tested |= bit;
    return (f->on & bit) != 0;
}

/* A fallback: slowpath(SysCall) on the state as the fastpath left it. */
static int slowpath(struct kstate *ks, int exit, struct call_fixes *f)
{
    f->performed = slowpath_sys_call(ks);
    return exit;
}

/* The entry work the merged fastpath skips (handleSyscall's
 * MCS_DO_IF_BUDGET: updateTimestamp, checkBudgetRestart; schedule()'s
 * awaken): the corrected one reads the clock and leaves to the slowpath
 * every call on which that work would change something. */
static int entry_checks(struct kstate *ks, struct call_fixes *f)
{
    if (fix_on(f, CFIX(CFIX_ENTRY_TIME)))
        updateTimestamp(ks);
    if (fix_on(f, CFIX(CFIX_ENTRY_BUDGET)) && !refill_sufficient(ks, ks->cur_sc, ks->consumed))
        return CALL_SLOW_BUDGET;
    /* checkBudget's domain half (include/kernel/thread.h:276): fastpath_call
     * has no domain guard at all */
    if (fix_on(f, CFIX(CFIX_ENTRY_DOMAIN)) && fp_domain_expired(ks, true))
        return CALL_SLOW_DOMAIN_EXPIRED;
    int rh = ks->release_head[CUR_CORE];
    if (fix_on(f, CFIX(CFIX_ENTRY_RELEASE)) && rh != KS_NONE && refill_ready(ks, ks->tcbs[rh].sc))
        return CALL_SLOW_RELEASE;
    return CALL_EXIT_COUNT;
}

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
static int check_dest(struct kstate *ks, int dest, struct call_fixes *f)
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
    if (fix_on(f, CFIX(CFIX_OUTRANKED)) && !isHighestPrio(ks, (int)dom, d->prio))
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

/* thread_state_ptr_set_replyObject_np: the reply's word is written whole,
 * clearing the flags that share it (structures_64.bf:329-345) */
static void set_reply_np(struct ks_tcb *t, int r)
{
    t->reply = (int8_t)r;
    t->ipc_grant = t->ipc_grant_reply = t->ipc_call = false;
    t->queued = t->in_release = false;
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
    cur->state = TS_BlockedOnReply; /* thread_state_ptr_set_tsType_np: the */
    cur->blocking = KS_NONE;        /* word blockingObject shares, rewritten */
    set_reply_np(d, KS_NONE);
    set_reply_np(cur, r);
    ks->replies[r].tcb = (int8_t)ks->cur_thread;
    ks->scs[sc].tcb = (int8_t)dest;
    d->sc = (int8_t)sc;
    cur->sc = KS_NONE;
    int old = ks->scs[sc].reply;
    ks->replies[r].prev = (int8_t)old;
    if (old != KS_NONE) {
        ks->replies[old].next = (int8_t)r;
        ks->replies[old].sc_head = KS_NONE;
    }
    ks->replies[r].next = KS_NONE;
    ks->replies[r].sc_head = (int8_t)sc;
    ks->scs[sc].reply = (int8_t)r;
    d->state = TS_Running; /* thread_state_ptr_set_tsType_np */
    d->blocking = KS_NONE;
    /* switchToThread_fp (master include/arch/arm/arch/64/mode/fastpath/fastpath.h):
     * the receiver's vspace root with the ASID checked above, its FPU */
    ks->vspace = (int8_t)dest;
    lazyFPURestore(ks, dest);
    ks->cur_thread = (int8_t)dest;
    d->badge_reg = ks->sys.badge; /* fastpath_restore(badge, ...) */
    return CALL_EXIT;
}

/* FIX reprogram_flag: a ksReprogram left at user level (master's own
 * fastpath_signal leaves one: docs/FINDINGS-signal.md, S5) is honoured by
 * the slowpath's schedule(), which commits the time and programs the timer
 * (switchSchedContext, setNextInterrupt, src/kernel/thread.c); the merged
 * fastpath returns with it still set. */
static int finish(struct kstate *ks, int exit, struct call_fixes *f)
{
    /* FIX reschedule_ipi: IPIs this core owes from a SCHED_ENQUEUE that
     * returned to user level without schedule() (master's fastpath_signal:
     * docs/FINDINGS-signal.md, S9); the slowpath's schedule() sends them
     * (doMaskReschedule, src/kernel/thread.c) */
    if (ks->ipi_pending && fix_on(f, CFIX(CFIX_IPI)))
        doMaskReschedule(ks);
    if (!ks->reprogram || !fix_on(f, CFIX(CFIX_REPROGRAM)))
        return exit;
    commitTime(ks);
    setNextInterrupt(ks);
    ks->reprogram = false;
    return exit;
}

/* fastpath_call */
static int fastpath_call_body(struct kstate *ks, struct call_fixes *f)
{
    int fallback = entry_checks(ks, f);
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
    return finish(ks, commit(ks, dest), f);
}

/* c_handle_fastpath_call (src/arch/arm/c_traps.c) */
static int fastpath_call_run(struct kstate *ks, struct call_fixes *f)
{
    uint8_t saved = ks->path;
    ks->path = PATH_FAST;
    int exit = fastpath_call_body(ks, f);
    ks->path = saved;
    return exit;
}

int fastpath_call_tested(struct kstate *ks, unsigned fixes, unsigned *tested)
{
    struct call_fixes f = {.on = fixes, .tested = 0, .performed = true};
    int exit = fastpath_call_run(ks, &f);
    *tested = f.tested;
    return exit;
}

int fastpath_call_performed(struct kstate *ks, int variant, bool *performed)
{
    struct call_fixes f = {.on = call_variant_fixes(variant), .tested = 0, .performed = true};
    int exit = fastpath_call_run(ks, &f);
    *performed = f.performed;
    return exit;
}

int fastpath_call(struct kstate *ks, int variant)
{
    bool performed;
    return fastpath_call_performed(ks, variant, &performed);
}
