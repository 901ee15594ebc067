/* domain: model of the domain schedule and its run-time invocations. */
#include "domain.h"

#include "schedcontext.h"
#include "sched.h"
#include "vcpuswitch.h"

/* invokeDomainScheduleConfigure; the stored entries stop at the last one
 * that is not an end marker, so equal schedules compare equal (the start
 * entry is never one, so some entry stays) */
static void invokeDomainScheduleConfigure(struct kstate *ks, unsigned index, unsigned domain, ticks_t duration)
{
    for (unsigned i = ks->dom_len; i <= index; i++)
        ks->dom_sched[i] = 0;
    if (index >= ks->dom_len)
        ks->dom_len = (uint8_t)(index + 1);
    ks->dom_sched[index] = dschedule_make(domain, duration);
    while (ks->dom_sched[ks->dom_len - 1] == 0)
        ks->dom_len--;
}

/* decodeDomainScheduleConfigure (src/object/domain.c); an index past the
 * entries the model stores is refused as out of range, the model's
 * bound, below the kernel's (KS_NUM_DOMAIN_SCHEDULES - 1) */
_Static_assert(KS_MAX_DOM_SCHED < KS_NUM_DOMAIN_SCHEDULES - 1, "the model's bound is the tighter one");
int decodeDomainScheduleConfigure(struct kstate *ks, unsigned index, unsigned domain, ticks_t duration)
{
    if (!cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME)) /* base: DomainSetSet only (tcb.c decodeDomainInvocation) */
        return SYSERR_ILLEGAL_OPERATION;
    if (index >= KS_MAX_DOM_SCHED || domain >= ks->cfg.num_domains)
        return SYSERR_RANGE;
    if (duration > DSCHED_MAX_DURATION)
        return SYSERR_INVALID_ARGUMENT;
    if (duration == 0 && (domain != 0 || index == ks->dom_start))
        return SYSERR_INVALID_ARGUMENT; /* an end marker is all zero; the start never is one */
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeDomainScheduleConfigure(ks, index, domain, duration);
    return SYSERR_NONE;
}

/* invokeDomainScheduleSetStart: the current entry ends now; the next
 * schedule() wraps from the last entry (an end marker) to the start */
static void invokeDomainScheduleSetStart(struct kstate *ks, unsigned index)
{
    ks->dom_start = (uint8_t)index;
    ks->domain_time = 0;
    ks->dom_idx = KS_NUM_DOMAIN_SCHEDULES - 2;
    rescheduleRequired(ks);
}

/* decodeDomainScheduleSetStart (src/object/domain.c) */
int decodeDomainScheduleSetStart(struct kstate *ks, unsigned index)
{
    if (!cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME))
        return SYSERR_ILLEGAL_OPERATION;
    if (index >= KS_NUM_DOMAIN_SCHEDULES)
        return SYSERR_RANGE;
    if (dschedule_is_end_marker(ks, index))
        return SYSERR_INVALID_ARGUMENT;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeDomainScheduleSetStart(ks, index);
    return SYSERR_NONE;
}

/* prepareSetDomain (master src/kernel/thread.c:306-315): to another
 * domain, the thread's VCPU flushed if this core has it loaded
 * (Arch_prepareSetDomain, src/arch/arm/kernel/thread.c:21-26; 01c3487ef)
 * and its FPU state released (35ec2554b); trees without either do neither */
static void prepareSetDomain(struct kstate *ks, int t, unsigned dom)
{
    if (ks->cur_domain == dom)
        return;
    if (cfg_has(&ks->cfg, KF_VCPU_FLUSH_AT_SET_DOMAIN) && ks->cfg.hyp && ks->tcbs[t].vcpu == ks->cur_vcpu)
        vcpu_flush(ks); /* vcpu_flush_if_current */
    if (cfg_has(&ks->cfg, KF_FPU_RELEASE_AT_SET_DOMAIN) && ks->cfg.fpu)
        fpuRelease(ks, t);
}

/* setDomain (src/kernel/thread.c:493-503; base 467-477) */
static void setDomain(struct kstate *ks, int t, unsigned dom)
{
    tcbSchedDequeue(ks, t);
    ks->tcbs[t].domain = (uint8_t)dom;
    if (isSchedulable(ks, t))
        sched_enqueue(ks, t);
    if (t == ks->cur_thread)
        rescheduleRequired(ks);
}

/* decodeDomainSetSetInvocation (master src/object/domain.c:22-58; base's
 * decodeDomainInvocation, src/object/tcb.c:1566-1607): a message of at
 * least one word naming a domain below numDomains, and an extra cap; the
 * model's extra cap is always a thread cap (t). The checks' errors are a
 * truncated message and an invalid argument; the model tells them by
 * their order only (SysSend replies neither). */
int decodeDomainSetSet(struct kstate *ks, int t, unsigned dom, unsigned length, unsigned extra_caps)
{
    if (length == 0)
        return SYSERR_INVALID_ARGUMENT; /* seL4_TruncatedMessage */
    if (dom >= ks->cfg.num_domains)
        return SYSERR_INVALID_ARGUMENT;
    if (extra_caps == 0)
        return SYSERR_INVALID_ARGUMENT; /* seL4_TruncatedMessage */
    setThreadState(ks, ks->cur_thread, TS_Restart);
    prepareSetDomain(ks, t, dom); /* invokeDomainSetSet */
    setDomain(ks, t, dom);
    return SYSERR_NONE;
}
