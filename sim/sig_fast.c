/* sig_fast: model of fastpath_signal, master's signal fastpath. */
#include "sig_fast.h"

#include <string.h>

#include "fastpath.h"
#include "irq_fast.h"
#include "kassert.h"
#include "ntfn.h"
#include "refill.h"
#include "sched.h"
#include "syscall.h"
#include "vspace.h"

static const struct { const char *name, *what; bool fallback; } exits[] = {
#define SIG_EXIT_TEXT(id, name, what) {name, what, #id[4] == 'S'},
    SIG_EXIT_LIST(SIG_EXIT_TEXT)
#undef SIG_EXIT_TEXT
};

const char *sig_exit_name(int e)
{
    return e >= 0 && e < SIG_EXIT_COUNT ? exits[e].name : "?";
}

const char *sig_exit_what(int e)
{
    return e >= 0 && e < SIG_EXIT_COUNT ? exits[e].what : "?";
}

bool sig_exit_is_fallback(int e)
{
    return e >= 0 && e < SIG_EXIT_COUNT && exits[e].fallback;
}

static const char *const variants[] = {"merged", "fixed"};

static const struct { const char *name, *what; } fixes_text[] = {
#define SIG_FIX_TEXT(id, name, what) {name, what},
    SIG_FIX_LIST(SIG_FIX_TEXT)
#undef SIG_FIX_TEXT
};

const char *sig_fix_name(int bit)
{
    return bit >= 0 && bit < SFIX_COUNT ? fixes_text[bit].name : "?";
}

const char *sig_fix_what(int bit)
{
    return bit >= 0 && bit < SFIX_COUNT ? fixes_text[bit].what : "?";
}

unsigned sig_variant_fixes(int variant)
{
    return variant == SIG_FIXED ? SFIX_ALL : 0;
}

const char *sig_variant_name(int v)
{
    return v >= 0 && v < SIG_VARIANT_COUNT ? variants[v] : "?";
}

int sig_variant_parse(const char *s)
{
    for (int v = 0; v < SIG_VARIANT_COUNT; v++)
        if (strcmp(s, variants[v]) == 0)
            return v;
    return -1;
}

/* slowpath(SysSend): c_handle_syscall -> handleSyscall(SysSend); false
 * when checkBudgetRestart refused the call (the caller makes it again) */
static bool slowpath_sys_send(struct kstate *ks)
{
    struct ks_call c = ks_call_of_entry(ks);
    return handleSyscall(ks, &c);
}

void slowpath_signal(struct kstate *ks)
{
    slowpath_sys_send(ks);
}

/* The fixes of a run and those of them it tested (as irq_fast.c); and
 * whether the call was performed (a fallback's slowpath may refuse it at
 * checkBudgetRestart: the caller makes it again, handleSyscall). */
struct sig_fixes {
    unsigned on, tested;
    bool performed;
};

/* A fallback: slowpath(SysSend) on the state as the fastpath left it. */
static int slowpath_send(struct kstate *ks, int exit, struct sig_fixes *f)
{
    f->performed = slowpath_sys_send(ks);
    return exit;
}

static bool fix_on(struct sig_fixes *f, unsigned bit)
{
    f->tested |= bit;
    return (f->on & bit) != 0;
}

/* FIX reschedule_ipi (SMP): remoteQueueUpdate (include/object/tcb.h,
 * src/object/tcb.c) only marks ipiReschedulePending for the core the
 * receiver was queued on; schedule() sends it (doMaskReschedule,
 * src/kernel/thread.c). The merged fastpath returns to user level with
 * the IPI unsent: that core does not reschedule until core 0's next
 * schedule(). */
static void send_ipis(struct kstate *ks, struct sig_fixes *f)
{
    if (!ks->ipi_pending || !fix_on(f, SFIX(SFIX_IPI)))
        return;
    doMaskReschedule(ks);
}

/* FIX reprogram_flag: the receiver's unblock check (refill_unblock_check,
 * src/kernel/sporadic.c) asked for a reprogram, or another core did (SMP);
 * the slowpath's schedule() commits the time and programs the timer
 * (switchSchedContext, setNextInterrupt, src/kernel/thread.c). */
static int finish(struct kstate *ks, int exit, struct sig_fixes *f)
{
    send_ipis(ks, f);
    if (!ks->reprogram || !fix_on(f, SFIX(SFIX_REPROGRAM)))
        return exit;
    commitTime(ks);
    setNextInterrupt(ks);
    ks->reprogram = false;
    return exit;
}

/* The entry work the merged fastpath skips (handleSyscall's
 * MCS_DO_IF_BUDGET and schedule()'s awaken): the corrected one reads the
 * clock and leaves to the slowpath every call on which that work would
 * change something. */
static int entry_checks(struct kstate *ks, struct sig_fixes *f)
{
    if (fix_on(f, SFIX(SFIX_ENTRY_TIME)))
        updateTimestamp(ks);
    /* the caller is never the idle thread: ksCurSC is its own SC */
    if (fix_on(f, SFIX(SFIX_ENTRY_BUDGET)) && !refill_sufficient(ks, ks->cur_sc, ks->consumed))
        return SIG_SLOW_BUDGET;
    int rh = ks->release_head[CUR_CORE];
    if (fix_on(f, SFIX(SFIX_ENTRY_RELEASE)) && rh != KS_NONE && refill_ready(ks, ks->tcbs[rh].sc))
        return SIG_SLOW_RELEASE;
    return SIG_EXIT_COUNT;
}

/* isCurDomainExpired() on ksDomainTime as it is, or, with FIX
 * entry_domain, as updateTimestamp would leave it at the entry clock */
static bool domain_expired(const struct kstate *ks, struct sig_fixes *f)
{
    return fp_domain_expired(ks, fix_on(f, SFIX(SFIX_ENTRY_DOMAIN)));
}

/* The checks before the notification is read: fault, cap, send right,
 * domain (fastpath.c:568-592), and FIX msg_info. */
static int caller_checks(struct kstate *ks, struct sig_fixes *f)
{
    if (ks->tcbs[ks->cur_thread].fault != FAULT_None)
        return SIG_SLOW_FAULT;
    if (fix_on(f, SFIX(SFIX_MSG_INFO)) && ks->sys.extra_caps != 0)
        return SIG_SLOW_MSGINFO;
    if (ks->sys.cap != SCAP_NTFN && ks->sys.cap != SCAP_NTFN_NO_SEND)
        return SIG_SLOW_NOT_NTFN;
    if (ks->sys.cap == SCAP_NTFN_NO_SEND)
        return SIG_SLOW_NO_SEND;
    if (domain_expired(ks, f))
        return SIG_SLOW_DOMAIN_EXPIRED;
    return SIG_EXIT_COUNT;
}

/* The receiver and what the checks before the point of no return found. */
struct sig_dest {
    int dest, sc, ntfn;
    bool idle, schedulable, crossnode;
};

/* NODE_STATE_ON_CORE(ksCurThread, core) */
static int cur_thread_on(const struct kstate *ks, int core)
{
    return core == CUR_CORE ? ks->cur_thread : ks->core_cur[core];
}

/* fastpath.c:630-671: the SC, the priority against the current thread of
 * the SC's core, the refill, the cross-node test */
static int check_dest(struct kstate *ks, struct sig_dest *d, struct sig_fixes *f)
{
    const struct ks_tcb *dest = &ks->tcbs[d->dest];
    d->sc = dest->sc;
    if (d->sc == KS_NONE) {
        d->sc = ks->ntfns[d->ntfn].sc;
        if (d->sc == KS_NONE || ks->scs[d->sc].tcb != KS_NONE)
            return SIG_SLOW_NO_SC;
        if (ks->cfg.smp && ks->cfg.fpu && dest->fpu_live)
            return SIG_SLOW_FPU;
    }
    const struct ks_sc *sc = &ks->scs[d->sc];
    if (ks->tcbs[cur_thread_on(ks, sc->core)].prio < dest->prio)
        return SIG_SLOW_PRIO;
    if (sc->refill_max > 0) {
        if (!(refill_ready(ks, d->sc) && refill_sufficient(ks, d->sc, 0)))
            return SIG_SLOW_REFILL;
        d->schedulable = true;
    }
    d->crossnode = ks->cur_domain != dest->domain || (ks->cfg.smp && sc->core != CUR_CORE);
    /* FIX outranked: another core queued a thread here that outranks the
     * caller, its reschedule IPI still in flight (remoteQueueUpdate,
     * src/object/tcb.c:444-461; check/invariant.c admits it). The
     * slowpath's possibleSwitchTo makes a same-core, same-domain receiver
     * the candidate, and schedule() then chooses the highest ready thread
     * (thread.c:376-391): the receiver does not outrank the caller here
     * (slow_prio) */
    if (ks->cfg.smp && d->schedulable && !d->crossnode && fix_on(f, SFIX(SFIX_OUTRANKED)) &&
        !isHighestPrio(ks, ks->cur_domain, ks->tcbs[ks->cur_thread].prio))
        return SIG_SLOW_OUTRANKED;
    return SIG_EXIT_COUNT;
}

/* FIX reswitch: Arch_switchToThread(ksCurThread) as the slowpath's
 * schedule() runs it when possibleSwitchTo made a receiver of this core and
 * domain the candidate and it does not outrank the caller: the caller is
 * enqueued, the receiver appended or enqueued, and ChooseNewThread
 * switches to the caller again (src/kernel/thread.c: schedule,
 * chooseThread, switchToThread; src/arch/arm/64/kernel/thread.c:14-20). On
 * a hypervisor build that is vcpu_switch(its VCPU), which disables a VCPU
 * this core keeps active for a thread another core's VCPU_SetTCB re-bound
 * (src/arch/arm/object/vcpu.c:236-259, 313: S11); on every build setVMRoot.
 * A receiver of another core or domain is only queued there
 * (possibleSwitchTo's SCHED_ENQUEUE): no switch, nothing to do. */
static void reswitch(struct kstate *ks, const struct sig_dest *d, struct sig_fixes *f)
{
    if (d->crossnode || !fix_on(f, SFIX(SFIX_RESWITCH)))
        return;
    Arch_switchToThread(ks, ks->cur_thread);
}

/* After the point of no return (fastpath.c:673-713): dequeue, badge,
 * Running, donation, the sporadic unblock check, queue placement. */
static int deliver(struct kstate *ks, const struct sig_dest *d, struct sig_fixes *f)
{
    int dest = d->dest;
    if (d->idle)
        cancelIPC_fp(ks, dest);
    else
        ntfn_queue_dequeue_fp(ks, dest, d->ntfn); /* master: tcbNTFNDequeue */
    ks->tcbs[dest].badge_reg = ks->sys.badge;
    thread_state_set_tsType_np(&ks->tcbs[dest], TS_Running);
    maybeDonateSchedContext_fp(ks, dest, d->sc);
    int sc = ks->tcbs[dest].sc;
    if (sc_sporadic(ks, sc)) {
        KASSERT(ks, sc != ks->cur_sc, A_SIG_SPORADIC_CUR);
        if (sc != ks->cur_sc)
            refill_unblock_check(ks, sc);
    }
    if (!d->schedulable)
        return finish(ks, SIG_EXIT_UNSCHEDULABLE, f);
    if (ks->tcbs[ks->cur_thread].prio > ks->tcbs[dest].prio || d->crossnode) {
        sched_enqueue(ks, dest); /* SCHED_ENQUEUE */
        reswitch(ks, d, f);
        return finish(ks, SIG_EXIT_ENQUEUE, f);
    }
    sched_append(ks, dest); /* SCHED_APPEND */
    reswitch(ks, d, f);
    return finish(ks, SIG_EXIT_APPEND, f);
}

/* fastpath_signal */
static int fastpath_signal_body(struct kstate *ks, struct sig_fixes *f)
{
    int fallback = entry_checks(ks, f);
    if (fallback == SIG_EXIT_COUNT)
        fallback = caller_checks(ks, f);
    if (fallback != SIG_EXIT_COUNT)
        return slowpath_send(ks, fallback, f);
    struct sig_dest d = {.dest = KS_NONE, .ntfn = ks->sys.ntfn};
    struct ks_ntfn *ntfn = &ks->ntfns[d.ntfn];
    switch (ntfn->state) {
    case NTFN_Active:
        ntfn_set_active(ks, d.ntfn, ks->sys.badge | ntfn->msg_id);
        return finish(ks, SIG_EXIT_ACTIVE, f);
    case NTFN_Idle:
        d.dest = ntfn->bound_tcb;
        if (d.dest == KS_NONE || ks->tcbs[d.dest].state != TS_BlockedOnReceive) {
            ntfn_set_active(ks, d.ntfn, ks->sys.badge);
            return finish(ks, SIG_EXIT_IDLE, f);
        }
        d.idle = true;
        break;
    case NTFN_Waiting:
        d.dest = ntfn->q_head;
        break;
    default: /* fail("Invalid notification state") */
        KASSERT(ks, false, A_SIG_NTFN_STATE);
        return SIG_EXIT_ACTIVE;
    }
    if (!ks_check(ks, d.dest != KS_NONE, A_SIG_DEST))
        return SIG_EXIT_ACTIVE;
    fallback = check_dest(ks, &d, f);
    if (fallback != SIG_EXIT_COUNT)
        return slowpath_send(ks, fallback, f);
    return deliver(ks, &d, f);
}

/* c_handle_fastpath_signal (src/arch/arm/c_traps.c) */
static int fastpath_signal_run(struct kstate *ks, struct sig_fixes *f)
{
    uint8_t saved = ks->path;
    ks->path = PATH_FAST;
    int exit = fastpath_signal_body(ks, f);
    ks->path = saved;
    return exit;
}

int fastpath_signal_tested(struct kstate *ks, unsigned fixes, unsigned *tested)
{
    struct sig_fixes f = {.on = fixes, .tested = 0, .performed = true};
    int exit = fastpath_signal_run(ks, &f);
    *tested = f.tested;
    return exit;
}

int fastpath_signal_performed(struct kstate *ks, int variant, bool *performed)
{
    struct sig_fixes f = {.on = sig_variant_fixes(variant), .tested = 0, .performed = true};
    int exit = fastpath_signal_run(ks, &f);
    *performed = f.performed;
    return exit;
}

int fastpath_signal(struct kstate *ks, int variant)
{
    bool performed;
    return fastpath_signal_performed(ks, variant, &performed);
}
