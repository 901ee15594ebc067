/* rk_sig: the real signal fastpath against the real syscall slowpath (rk_sig.h). */
#include "rk_sig.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "gen.h"
#include "print.h"
#include "progress.h"
#include "refill.h"
#include "rk_diff.h"
#include "sched.h"
#include "stop.h"
#include "target.h"

static const char *const kind_names[SIG_K_COUNT] = {
    "notification", "no_send_right", "lookup_failure", "empty_slot", "endpoint", "extra_cap_bad", "extra_cap_ok",
    "invocation",
};

static const char *const unfit_names[SIG_UNFIT_COUNT] = {
    "fit", "current thread is idle", "current thread not running", "scheduler action pending",
};

const char *rk_sig_kind_name(int kind)
{
    return kind >= 0 && kind < SIG_K_COUNT ? kind_names[kind] : "?";
}

const char *rk_sig_unfit_name(int why)
{
    return why >= 0 && why < SIG_UNFIT_COUNT ? unfit_names[why] : "?";
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* the kinds in sixteenths: notification 9, extra_cap_bad 2, others 1 */
static int pick_kind(uint64_t r)
{
    static const signed char table[16] = {
        SIG_K_NTFN,      SIG_K_NTFN,        SIG_K_NTFN,      SIG_K_NTFN,          SIG_K_NTFN,     SIG_K_NTFN,
        SIG_K_NTFN,      SIG_K_NTFN,        SIG_K_NTFN,      SIG_K_NO_SEND,       SIG_K_LOOKUP_FAIL, SIG_K_NULL,
        SIG_K_ENDPOINT,  SIG_K_EXTRA_BAD,   SIG_K_EXTRA_BAD, SIG_K_EXTRA_OK,
    };
    return table[r & 15];
}

/* The notification cap sent on: the IRQ handler's when it is one (the
 * notification the state's IRQ would signal), else one of the state's
 * notifications; false when the state has none. */
static bool pick_ntfn_cap(const struct kstate *in, uint64_t r, struct hk_irq_cap *cap)
{
    int irq = in->active_irq;
    if (irq >= 0 && irq < in->n_irqs && in->irq_cap[irq].type == CAP_Notification) {
        const struct ks_irq_cap *c = &in->irq_cap[irq];
        *cap = (struct hk_irq_cap){.type = HK_CAP_Notification, .can_send = 1, .ntfn = c->ntfn,
                                   .badge = c->badge};
        return true;
    }
    if (in->n_ntfns == 0)
        return false;
    *cap = (struct hk_irq_cap){.type = HK_CAP_Notification, .can_send = 1, .ntfn = (signed char)(r % (uint64_t)in->n_ntfns),
                               .badge = (r >> 8) & 0xff};
    return true;
}

/* a thread at user level can make a system call */
static int unfit(const struct kstate *in)
{
    if (in->cur_thread == in->idle_thread)
        return SIG_UNFIT_IDLE;
    if (in->tcbs[in->cur_thread].state != TS_Running)
        return SIG_UNFIT_NOT_RUNNING;
    if (in->sched_action != KS_SA_RESUME)
        return SIG_UNFIT_ACTION;
    return SIG_FIT;
}

/* An invocation (DomainSet_Set, TCB_SetFlags, VCPU_InjectIRQ, an IRQ
 * handler's) on the state, drawn as the signal target's generator draws it
 * (gen_invocation, from a stream seeded by r) and made the bridge's call
 * (rk_sys_of_model); the state's entry becomes that SysSend. False, the
 * state as it was, when none is drawn. */
static bool make_invocation(struct kstate *in, uint64_t r, struct rk_syscall *sys)
{
    const struct target *t = target_by_name("signal");
    struct ks_sysin keep = in->sys;
    struct gen_src src;
    gen_src_seed(&src, r);
    if (!t || !t->gen_invocation || t->gen_invocation(in, &src) != 0)
        return false;
    in->sys.target = (uint8_t)target_rank(t);
    if (rk_sys_of_model(in, sys) == 0)
        return true;
    in->sys = keep;
    return false;
}

int rk_sig_make(struct kstate *in, uint64_t seed, struct rk_syscall *sys, int *kind)
{
    int why = unfit(in);
    if (why != SIG_FIT)
        return why;
    uint64_t r = mix(seed ^ 0x5167a1ull);
    memset(sys, 0, sizeof *sys);
    *kind = pick_kind(r);
    struct hk_irq_cap cap;
    if (!pick_ntfn_cap(in, r >> 4, &cap))
        *kind = SIG_K_NULL;
    in->active_irq = KS_IRQ_INVALID; /* a system call: no IRQ is delivered */
    sys->cptr = RK_SIG_SLOT;
    sys->ipc_buffer = (r >> 40) & 1;
    switch (*kind) {
    case SIG_K_NO_SEND:
        cap.can_send = 0;
        break;
    case SIG_K_LOOKUP_FAIL:
        sys->cptr = RK_SIG_BAD_CPTR;
        break;
    case SIG_K_NULL:
        if ((r >> 44) & 1 && make_invocation(in, r, sys)) {
            *kind = SIG_K_INVOCATION;
            return SIG_FIT;
        }
        sys->cptr = RK_SIG_EMPTY_SLOT;
        break;
    case SIG_K_ENDPOINT:
        cap = (struct hk_irq_cap){.type = HK_CAP_Endpoint, .can_send = 1, .ntfn = HK_NONE};
        break;
    case SIG_K_EXTRA_BAD:
    case SIG_K_EXTRA_OK:
        sys->ipc_buffer = true;
        sys->msginfo = RK_SIG_MI_EXTRA_CAPS(1);
        sys->extra_cptr[0] = *kind == SIG_K_EXTRA_OK ? RK_SIG_SLOT : RK_SIG_BAD_CPTR;
        break;
    default:
        break;
    }
    if (*kind != SIG_K_NULL)
        sys->cspace[RK_SIG_SLOT] = cap;
    return SIG_FIT;
}

/* the cptr and the cap in the slot it names, for the model's cap kind */
static int cap_of_model(const struct kstate *ks, struct rk_syscall *sys)
{
    const struct ks_sysin *m = &ks->sys;
    bool ntfn = m->cap == SCAP_NTFN || m->cap == SCAP_NTFN_NO_SEND;
    if (ntfn && (m->ntfn < 0 || m->ntfn >= ks->n_ntfns))
        return -1;
    switch (m->cap) {
    case SCAP_NULL:
        sys->cptr = RK_SIG_EMPTY_SLOT;
        return 0;
    case SCAP_LOOKUP_FAIL:
        sys->cptr = RK_SIG_BAD_CPTR;
        return 0;
    case SCAP_EP: /* a seL4_Call's endpoint cap: a state endpoint with the cap's rights */
        if (m->ep < 0 || m->ep >= ks->n_eps)
            return -1;
        sys->cptr = RK_SIG_SLOT;
        sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){
            .type = HK_CAP_Endpoint, .can_send = (m->rights & EPR(EPR_SEND)) != 0, .ntfn = HK_NONE,
            .ep1 = (unsigned char)(m->ep + 1), .can_recv = (m->rights & EPR(EPR_RECV)) != 0,
            .can_grant = (m->rights & EPR(EPR_GRANT)) != 0, .can_grant_reply = (m->rights & EPR(EPR_GRANT_REPLY)) != 0,
            .badge = m->badge};
        return 0;
    case SCAP_DOMAIN: /* a DomainSet cap; its thread cap the extra cap's slot */
        if (m->tcb < 0 || m->tcb >= ks->n_tcbs)
            return -1;
        sys->cptr = RK_SIG_SLOT;
        sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){.type = HK_CAP_Domain, .ntfn = HK_NONE};
        sys->cspace[RK_SIG_TCB_SLOT] = (struct hk_irq_cap){.type = HK_CAP_Thread, .ntfn = HK_NONE, .reply = m->tcb};
        sys->mr0 = m->domain;
        return 0;
    case SCAP_TCB: /* a thread cap: TCB_SetFlags, clear and set in the first two words */
        if (m->tcb < 0 || m->tcb >= ks->n_tcbs)
            return -1;
        sys->cptr = RK_SIG_SLOT;
        sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){.type = HK_CAP_Thread, .ntfn = HK_NONE, .reply = m->tcb};
        sys->mr0 = m->flags_clear;
        sys->mr1 = m->flags_set;
        return 0;
    case SCAP_VCPU: /* a VCPU cap: VCPU_InjectIRQ, its first word the message's */
        if (m->vcpu < 0 || m->vcpu >= ks->n_vcpus)
            return -1;
        sys->cptr = RK_SIG_SLOT;
        sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){.type = HK_CAP_VCPU, .ntfn = HK_NONE, .reply = m->vcpu};
        sys->mr0 = m->mr0;
        return 0;
    /* an IRQ handler cap, invoked with its kind's label (another core's
     * PPI: that core in the reply field); the notification cap (with Send)
     * of an IRQHandler_SetNotification in extra cap 0's slot */
    case SCAP_IRQ_ACK:
    case SCAP_IRQ_SET:
    case SCAP_IRQ_CLEAR:
        if (m->irq < 0 || (m->irq_core ? m->irq >= KS_NUM_PPI || m->irq_core >= KS_MAX_CORES : m->irq >= ks->n_irqs) ||
            (m->cap == SCAP_IRQ_SET && (m->ntfn < 0 || m->ntfn >= ks->n_ntfns)))
            return -1;
        sys->cptr = RK_SIG_SLOT;
        sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){.type = (unsigned char)(HK_CAP_IRQAck + m->cap - SCAP_IRQ_ACK),
                                                       .ntfn = HK_NONE, .reply = (signed char)m->irq_core,
                                                       .badge = (uint64_t)m->irq};
        if (m->cap == SCAP_IRQ_SET)
            sys->cspace[RK_SIG_TCB_SLOT] = (struct hk_irq_cap){.type = HK_CAP_Notification, .can_send = 1,
                                                               .ntfn = m->ntfn, .badge = m->badge};
        return 0;
    /* IRQControl_Get: the IRQ, then the destination slot's index and
     * depth (one CNode of HK_CSPACE_BITS under a guard of the rest: 64
     * bits); the caller's CNode cap extra cap 0. _GetTrigger and
     * _GetTriggerCore: the trigger word after the IRQ, then the index and
     * depth; _GetTriggerCore's target core the fifth word (in the IPC
     * buffer, which the kernel reads whatever the length) */
    case SCAP_IRQ_CONTROL: {
        _Static_assert((int)IRQM_GET == (int)HK_IRQM_Get && (int)IRQM_TRIGGER == (int)HK_IRQM_Trigger &&
                           (int)IRQM_TRIGGER_CORE == (int)HK_IRQM_TriggerCore,
                       "enum ks_irq_method and enum hk_irq_method differ");
        if (m->dest >= IRQD_COUNT || m->irq_method >= IRQM_COUNT)
            return -1;
        sys->cptr = RK_SIG_SLOT;
        sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){.type = HK_CAP_IRQControl, .ntfn = HK_NONE};
        sys->cspace[RK_SIG_TCB_SLOT] = (struct hk_irq_cap){.type = HK_CAP_CNode, .ntfn = HK_NONE};
        uint64_t w[5] = {(uint64_t)m->irq, m->trigger, 0, 0, m->irq_core};
        int at = m->irq_method == IRQM_GET ? 1 : 2; /* the index's word */
        w[at] = (const uint64_t[]){RK_SIG_EMPTY_SLOT, RK_SIG_BAD_CPTR, RK_SIG_SLOT}[m->dest];
        w[at + 1] = 64;
        sys->mr0 = w[0];
        sys->mr1 = w[1];
        sys->mr2 = w[2];
        sys->mr3 = w[3];
        sys->mr4 = w[4];
        sys->irq_method = m->irq_method;
        return 0;
    }
    default:
        break;
    }
    if (!ntfn)
        return -1;
    sys->cptr = RK_SIG_SLOT;
    sys->cspace[RK_SIG_SLOT] = (struct hk_irq_cap){.type = HK_CAP_Notification, .can_send = m->cap == SCAP_NTFN,
                                                   .ntfn = m->ntfn, .badge = m->badge};
    return 0;
}

/* a SysReplyRecv's reply cptr (replyRegister) and the cap it names: a
 * reply cap in RK_RR_REPLY_SLOT naming the state's reply object, an empty
 * slot, or a cptr that fails the lookup */
static int reply_of_model(const struct kstate *ks, struct rk_syscall *sys)
{
    const struct ks_sysin *m = &ks->sys;
    switch (m->reply_cap) {
    case RCAP_REPLY:
        if (m->reply < 0 || m->reply >= ks->n_replies)
            return -1;
        sys->reply_cptr = RK_RR_REPLY_SLOT;
        /* capReplyCanGrant: what the kernel gives a reply cap made by
         * Untyped_Retype (cap_reply_cap_new(.., true), objecttype.c); the
         * model transfers no caps, so the grant bit changes nothing here */
        sys->cspace[RK_RR_REPLY_SLOT] = (struct hk_irq_cap){
            .type = HK_CAP_Reply, .ntfn = HK_NONE, .can_grant = 1, .reply = m->reply};
        return 0;
    case RCAP_NULL:
        sys->reply_cptr = RK_SIG_EMPTY_SLOT;
        return 0;
    case RCAP_LOOKUP_FAIL:
        sys->reply_cptr = RK_SIG_BAD_CPTR;
        return 0;
    default:
        return -1;
    }
}

int rk_sig_of_model(struct kstate *ks, struct rk_syscall *sys)
{
    if (ks->sys.entry != ENTRY_SIGNAL)
        return -1;
    return rk_sys_of_model(ks, sys);
}

int rk_sys_of_model(struct kstate *ks, struct rk_syscall *sys)
{
    memset(sys, 0, sizeof *sys);
    const struct ks_sysin *m = &ks->sys;
    if (m->extra_caps > KS_MAX_EXTRA_CAPS || m->length > KS_MSG_MAX_LENGTH || cap_of_model(ks, sys) != 0)
        return -1;
    if (ks->cur_thread >= 0 && ks->cur_thread < ks->n_tcbs)
        ks->tcbs[ks->cur_thread].badge_reg = sys->cptr;
    /* lookupExtraCaps (src/object/tcb.c) reads the cptrs from the IPC
     * buffer and looks nothing up without one: a model state with extra
     * caps has the buffer */
    if (ks->sys.entry == ENTRY_REPLY_RECV && reply_of_model(ks, sys) != 0)
        return -1;
    sys->msginfo = RK_SIG_MI_EXTRA_CAPS(m->extra_caps) | m->length; /* length: bits 6:0 */
    sys->ipc_buffer = m->extra_caps != 0;
    for (int i = 0; i < m->extra_caps; i++)
        sys->extra_cptr[i] = (m->extra_bad >> i) & 1                                  ? RK_SIG_BAD_CPTR
                             : i == 0 && (m->cap == SCAP_DOMAIN || m->cap == SCAP_IRQ_SET || m->cap == SCAP_IRQ_CONTROL)
                                 ? RK_SIG_TCB_SLOT
                                                                                           : RK_SIG_SLOT;
    return 0;
}

int rk_sig_check(struct rk_kernel *k, const struct kstate *in, const struct rk_syscall *sys, struct kstate *slow,
                 struct kstate *fast, struct rk_sig_result *r)
{
    struct rk_extra xs, xf;
    memset(r, 0, sizeof *r);
    r->slow_out = rk_run_sys(k, in, sys, RK_SIG_SLOW, slow, &xs);
    if (r->slow_out < 0)
        return -1;
    r->fast_out = rk_run_sys(k, in, sys, RK_SIG_FAST, fast, &xf);
    if (r->fast_out < 0)
        return -1;
    r->fastpath_done = xf.fastpath_done;
    if (r->slow_out == HK_OUT_HALT || r->fast_out == HK_OUT_HALT) {
        memcpy(r->text, r->slow_out == HK_OUT_HALT ? xs.text : xf.text, sizeof r->text);
        return 0;
    }
    r->fields = rk_verdict(slow, fast, false);
    return 0;
}

/* ---- the check over many states ---- */

/* The suspected cause of a divergence (one of the signal target's defects, docs/FINDINGS-signal.md),
 * read from the state with the model's helpers on a copy: the first that
 * holds. The model only names it; the verdict is the real kernel's. */
enum sig_cause { C_S6_EXTRA, C_S1_BUDGET, C_S2_DOMAIN, C_S3_RELEASE, C_S9_IPI, C_S10_OUTRANKED, C_S11_RESWITCH, C_OTHER,
                 C_COUNT };
static const char *const cause_names[C_COUNT] = {
    "S6 extra cap not looked up (slowpath faults the caller)",
    "S1 no entry budget check (slowpath charges, skips the send)",
    "S2 domain expired at the entry clock",
    "S3 released thread not woken (no awaken)",
    "S9 reschedule IPI left unsent (receiver queued on the other core; S4/S5 may come with it)",
    "S10 a ready thread another core queued outranks the caller (its IPI in flight)",
    "S11 no re-switch to the caller (a VCPU another core re-bound left active, or its address space not set again)",
    "other (S4/S5: unblock check on the stale clock, ksReprogram left set)",
};

static int sig_cause(const struct kstate *in, bool faulted, uint32_t fields)
{
    static struct kstate c;
    if (faulted)
        return C_S6_EXTRA;
    ks_copy(&c, in);
    updateTimestamp(&c);
    if (c.cur_sc != c.idle_sc && !refill_sufficient(&c, c.cur_sc, c.consumed))
        return C_S1_BUDGET;
    if (isCurDomainExpired(&c))
        return C_S2_DOMAIN;
    int h = c.release_head[0];
    if (h >= 0 && c.tcbs[h].sc >= 0 && refill_ready(&c, c.tcbs[h].sc))
        return C_S3_RELEASE;
    /* the slowpath's schedule() sends what remoteQueueUpdate marked
     * (doMaskReschedule); the fastpath returns with it pending */
    if (fields & (1u << DF_IPI))
        return C_S9_IPI;
    /* another core queued a thread above the caller (sim/sig_fast.c's
     * outranked rule: not the highest of its domain here) */
    if (c.cfg.smp && !isHighestPrio(&c, c.cur_domain, c.tcbs[c.cur_thread].prio))
        return C_S10_OUTRANKED;
    /* the slowpath's schedule() switches to the caller again
     * (Arch_switchToThread: vcpu_switch, setVMRoot); the fastpath does not:
     * the same current thread on both sides */
    if ((fields & (1u << DF_VCPU | 1u << DF_ADDRESS_SPACE)) && !(fields & (1u << DF_CUR_THREAD)))
        return C_S11_RESWITCH;
    return C_OTHER;
}


struct sclass {
    uint32_t fields;            /* the union over the class */
    uint64_t count, first_seed;
    int first_kind;
};

static struct sclass classes[C_COUNT];

static void count_class(int cause, uint32_t fields, uint64_t seed, int kind)
{
    struct sclass *c = &classes[cause];
    if (!c->count++) {
        c->first_seed = seed;
        c->first_kind = kind;
    }
    c->fields |= fields;
}

/* The check over states first..first+n-1 (rk_sig.h); prints the summary,
 * with show each state and its differing fields. */
/* the run is over after i seeds: n of them, or seconds since t0 (looked
 * at every 256), or a caught signal */
static bool sig_run_done(uint64_t i, uint64_t n, double seconds, double t0)
{
    if (stop_requested())
        return true;
    if (n)
        return i >= n;
    return (i & 255) == 0 && progress_now() - t0 >= seconds;
}

int rk_sig_run(struct rk_kernel *k, uint64_t first, uint64_t n, double seconds, bool show, struct rk_sig_tally *out,
               const struct rk_sig_each *each)
{
    static struct kstate in, slow, fast;
    memset(classes, 0, sizeof classes);
    /* fastpath_signal is master's: on a master build, master's states
     * (e.g. the current thread owns the FPU, master's switchToThread) */
    if (!cfg_kernel_is_default(k->kernel))
        rk_model(k, -1);
    struct gen_bounds b;
    gen_bounds_default(&b);
    uint64_t unfit[SIG_UNFIT_COUNT] = {0}, kinds[SIG_K_COUNT] = {0}, done[3] = {0};
    uint64_t run = 0, diverged = 0, halts = 0, bad = 0, genfail = 0, s6 = 0;
    double t0 = progress_now();
    for (uint64_t seed = first; !sig_run_done(seed - first, n, seconds, t0); seed++) {
        if (rk_gen_state(k, &in, seed, &b) != 0) {
            genfail++;
            continue;
        }
        struct rk_syscall sys;
        int kind, why = rk_sig_make(&in, seed, &sys, &kind);
        if (why != SIG_FIT) {
            unfit[why]++;
            continue;
        }
        struct rk_sig_result r;
        if (rk_sig_check(k, &in, &sys, &slow, &fast, &r) != 0) {
            genfail++;
            continue;
        }
        run++;
        kinds[kind]++;
        done[r.fastpath_done + 1]++;
        if (show) {
            printf("seed %" PRIu64 ": %s, cptr %" PRIu64 ", fastpath %s\n", seed, rk_sig_kind_name(kind), sys.cptr,
                   r.fastpath_done < 0 ? "?" : r.fastpath_done ? "finished it" : "fell back");
            ks_print(stdout, &in);
            diff_compare(&slow, &fast, stdout);
        }
        if (r.slow_out == HK_OUT_HALT || r.fast_out == HK_OUT_HALT) {
            if (halts++ < 3)
                fprintf(stderr, "seed %" PRIu64 ": %s halted: %s\n", seed,
                        r.slow_out == HK_OUT_HALT ? "slowpath" : "fastpath", r.text);
            continue;
        }
        if (each)
            each->fn(each->ctx, &in, kind, &slow, &fast, seed);
        /* the slowpath faulted the caller on the extra cap (S6): Inactive
         * without a fault handler, else blocked on its handler's endpoint
         * with the fault recorded (handleFault, sendFaultIPC); the fastpath
         * left it Running */
        const struct ks_tcb *caller = &slow.tcbs[in.cur_thread];
        bool faulted = kind == SIG_K_EXTRA_BAD && (caller->state == TS_Inactive || caller->fault != FAULT_None);
        if (r.fields) {
            diverged++;
            count_class(sig_cause(&in, faulted, r.fields), r.fields, seed, kind);
        }
        s6 += faulted && r.fastpath_done == 1;
        bool fell_back_differs = r.fastpath_done == 0 && r.fields;
        bool extra_bad_agrees = faulted && r.fastpath_done == 1 && !(r.fields & (1u << DF_THREAD_STATE));
        if ((fell_back_differs || extra_bad_agrees) && bad++ < 5)
            fprintf(stderr, "seed %" PRIu64 ": %s (%s): not as the kernel's code says\n", seed,
                    fell_back_differs ? "the fastpath fell back and yet differs" : "a bad extra cap did not diverge",
                    rk_sig_kind_name(kind));
    }
    printf("rk_signal: %" PRIu64 " seL4_Send through both real paths (%s); %" PRIu64 " states cannot call (", run,
           k->board, unfit[1] + unfit[2] + unfit[3]);
    for (int i = 1; i < SIG_UNFIT_COUNT; i++)
        printf("%s%s %" PRIu64, i > 1 ? ", " : "", rk_sig_unfit_name(i), unfit[i]);
    printf("), %" PRIu64 " do not fit\n  kinds:", genfail);
    for (int i = 0; i < SIG_K_COUNT; i++)
        printf(" %s %" PRIu64, rk_sig_kind_name(i), kinds[i]);
    printf("\n  fastpath finished %" PRIu64 ", fell back %" PRIu64 ", not tracked %" PRIu64 " (release build)\n", done[2],
           done[1], done[0]);
    printf("  divergent %" PRIu64 ", halts %" PRIu64 ", against expectation %" PRIu64
           "; the slowpath faulted the caller on an extra cap the fastpath ignored: %" PRIu64 "\n",
           diverged, halts, bad, s6);
    for (int i = 0; i < C_COUNT; i++) {
        char buf[400];
        if (classes[i].count)
            printf("  %8" PRIu64 "  %s\n            first --seed %" PRIu64 " (%s); fields: %s\n", classes[i].count,
                   cause_names[i], classes[i].first_seed, rk_sig_kind_name(classes[i].first_kind),
                   diff_fields_text(classes[i].fields, buf, sizeof buf));
    }
    if (out)
        *out = (struct rk_sig_tally){.ran = run, .diverged = diverged};
    if (halts || bad || !run)
        return 1;
    if (k->info.debug && run >= 1000 && (!done[2] || !done[1] || !s6))
        return 1;
    return 0;
}
