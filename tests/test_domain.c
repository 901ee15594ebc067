/*
 * test_domain: the domain schedule in ticks (master 27a52ddd4, Runtime
 * Domain Schedules; base 43607edb6 in ms): nextDomain's wrap on both
 * kernels, the two DomainSet invocations master adds
 * (src/object/domain.c), the scenario format's tick form, the checker's
 * schedule rules, and the workload simulator's master boot.
 */
#define _POSIX_C_SOURCE 200809L
#include "tcommon.h"

#include "domain.h"
#include "print.h"
#include "scenario.h"
#include "schedcontext.h"
#include "sim.h"
#include "syscall.h"
#include "vcpuswitch.h"
#include "workload.h"

#define MS(ks, n) cfg_us_to_ticks(&(ks)->cfg, (uint64_t)(n) * 1000)

static struct kstate g_ks;

/* imx8mm (8 MHz: 8000 ticks a ms), two domains, a Running current thread
 * "cur" in domain 0 with a 20000-tick round-robin SC, at time 10000 */
static struct kstate *dom_state(int kernel)
{
    struct kstate *ks = &g_ks;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks->cfg.kernel = (uint8_t)kernel;
    build_two_domains(ks);
    ks->cur_time = ks->hw_clock = 10000;
    int t = build_thread(ks, "cur", 100, 0);
    assert_int_not_equal(build_sc(ks, NULL, t, 20000, 0, 0), KS_NONE);
    ks->tcbs[t].state = TS_Running;
    build_run(ks, t);
    ks->tcbs[t].fpu_live = kernel == KS_KERNEL_MASTER; /* master: the switch to it made it the FPU owner */
    return ks;
}

/* the current domain ends now: schedule() runs nextDomain
 * (checkDomainTime -> rescheduleRequired; scheduleChooseNewThread) */
static void end_domain(struct kstate *ks)
{
    ks->domain_time = 0;
    schedule(ks);
}

/* Base (thread.c:302-318): past the last entry the index wraps to 0. */
static void test_base_wraps_to_zero(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_BASE);
    ks->dom_sched[1] = dschedule_make(1, MS(ks, 3));
    end_domain(ks);
    assert_int_equal(ks->dom_idx, 1);
    assert_int_equal(ks->cur_domain, 1);
    assert_int_equal(ks->domain_time, 24000); /* usToTicks(3 ms) */
    end_domain(ks);
    assert_int_equal(ks->dom_idx, 0);
    assert_int_equal(ks->cur_domain, 0);
    assert_int_equal(ks->domain_time, 80000);
}

/* Master (thread.c:326-338): at an end marker, stored or past the stored
 * entries, the index wraps to ksDomScheduleStart, not to 0; the
 * duration is ticks, not whole ms. Schedule: 0:10ms, 1:12345 ticks,
 * end marker, 1:7 ticks; start 1. */
static void test_master_wraps_to_start(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER);
    ks->dom_len = 4;
    ks->dom_sched[1] = dschedule_make(1, 12345);
    ks->dom_sched[2] = 0;
    ks->dom_sched[3] = dschedule_make(1, 7);
    ks->dom_start = 1;
    tc_assert_valid(ks, INV_AT_ENTRY);
    end_domain(ks);
    assert_int_equal(ks->dom_idx, 1);
    assert_int_equal(ks->domain_time, 12345);
    end_domain(ks); /* entry 2 is an end marker: back to the start, 1 */
    assert_int_equal(ks->dom_idx, 1);
    assert_int_equal(ks->cur_domain, 1);
    assert_int_equal(ks->domain_time, 12345);
    ks->dom_idx = 3;
    end_domain(ks); /* entry 4 is past the stored ones: an end marker too */
    assert_int_equal(ks->dom_idx, 1);
}

/* A domain's end on a hypervisor build (prepareNextDomain): master flushes
 * the core's VCPU (Arch_prepareNextDomain -> vcpu_flush, e558631c7,
 * src/arch/arm/kernel/thread.c:14-19; vcpu.c:261-276): its list
 * registers saved (vcpu_save), none loaded or active, the virtual timer's mask left
 * as it was (vcpu_disable(NULL) masks none, armv/vcpu.h:704-709); the
 * thread of domain 1 has no VCPU, so no switch loads one again. Base has
 * no flush: the VCPU stays loaded, and the switch to a thread without one
 * disables it (vcpu_switch(NULL)) and masks the timer. */
static void test_vcpu_flush_at_domain_end(void **state)
{
    (void)state;
    for (int kernel = 0; kernel < KS_KERNEL_COUNT; kernel++) {
        struct kstate *ks = dom_state(kernel);
        build_hyp_boot(ks);
        int cur = ks->cur_thread, v = ks_add_vcpu(ks, "v");
        associateVCPUTCB(ks, v, cur);
        assert_int_equal(ks->cur_vcpu, v);
        ks->vgic_lr[1] = VGIC_LR_EOI | 2; /* the guest's state of LR 1 */
        int u = build_thread(ks, "other", 100, 1);
        assert_int_not_equal(build_sc(ks, NULL, u, 20000, 0, 0), KS_NONE);
        build_ready(ks, u);
        end_domain(ks);
        assert_int_equal(ks->cur_domain, 1);
        assert_int_equal(ks->cur_thread, u);
        assert_false(ks->vcpu_active);
        bool master = kernel == KS_KERNEL_MASTER;
        /* master: saved by vcpu_save; base: still in the VGIC only (vcpu_disable saves no LR) */
        assert_int_equal(ks->vcpus[v].lr[1], master ? VGIC_LR_EOI | 2 : 0);
        assert_int_equal(ks->vgic_lr[1], VGIC_LR_EOI | 2);
        assert_int_equal(ks->cur_vcpu, master ? KS_NONE : v);
        assert_int_equal(ks->irq_masked[INTERRUPT_VTIMER_EVENT], !master);
        /* back to domain 0: its thread runs with its VCPU loaded again
         * (master: vcpu_restore of the flushed one, its LRs back in the
         * VGIC; base: re-enabled), the timer unmasked (vppi_masked clear) */
        ks->vgic_lr[1] = 0;
        end_domain(ks);
        assert_int_equal(ks->cur_thread, cur);
        assert_int_equal(ks->cur_vcpu, v);
        assert_true(ks->vcpu_active);
        assert_int_equal(ks->vgic_lr[1], master ? VGIC_LR_EOI | 2 : 0);
        assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
        /* a domain's end with no VCPU loaded: master's flush does nothing */
        vcpu_switch(ks, KS_NONE);
        if (master)
            vcpu_flush(ks);
        ks->domain_time = 0;
        end_domain(ks);
        assert_int_equal(ks->cur_vcpu, master ? KS_NONE : v);
        assert_false(ks->vcpu_active);
    }
}

/* decodeDomainScheduleConfigure's refusals (src/object/domain.c), in the
 * kernel's order, and base's: DomainSetSet is its only label. */
static void test_configure_refusals(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_BASE);
    assert_int_equal(decodeDomainScheduleConfigure(ks, 1, 1, 5), SYSERR_ILLEGAL_OPERATION);
    assert_int_equal(decodeDomainScheduleSetStart(ks, 0), SYSERR_ILLEGAL_OPERATION);
    ks = dom_state(KS_KERNEL_MASTER);
    assert_int_equal(decodeDomainScheduleConfigure(ks, KS_NUM_DOMAIN_SCHEDULES - 1, 0, 5), SYSERR_RANGE);
    assert_int_equal(decodeDomainScheduleConfigure(ks, KS_MAX_DOM_SCHED, 0, 5), SYSERR_RANGE); /* the model's bound */
    assert_int_equal(decodeDomainScheduleConfigure(ks, 1, 2, 5), SYSERR_RANGE);              /* 2 domains */
    assert_int_equal(decodeDomainScheduleConfigure(ks, 1, 1, DSCHED_MAX_DURATION + 1), SYSERR_INVALID_ARGUMENT);
    assert_int_equal(decodeDomainScheduleConfigure(ks, 1, 1, 0), SYSERR_INVALID_ARGUMENT); /* not an end marker */
    assert_int_equal(decodeDomainScheduleConfigure(ks, 0, 0, 0), SYSERR_INVALID_ARGUMENT); /* the start */
    assert_int_equal(ks->dom_len, 2);
    assert_int_equal(ks->dom_sched[1], dschedule_make(1, MS(ks, 10)));
    assert_int_equal(ks->tcbs[ks->cur_thread].state, TS_Running);
}

/* A configured entry is written at once; entries between are end
 * markers; an end marker at the end shortens the stored schedule (the
 * kernel's array is zero there anyway). */
static void test_configure_writes(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER);
    assert_int_equal(decodeDomainScheduleConfigure(ks, 4, 1, DSCHED_MAX_DURATION), SYSERR_NONE);
    assert_int_equal(ks->tcbs[ks->cur_thread].state, TS_Restart);
    assert_int_equal(ks->dom_len, 5);
    assert_int_equal(ks->dom_sched[2], 0);
    assert_int_equal(ks->dom_sched[3], 0);
    assert_int_equal(dschedule_domain(ks->dom_sched[4]), 1);
    assert_int_equal(dschedule_duration(ks->dom_sched[4]), DSCHED_MAX_DURATION);
    assert_int_equal(decodeDomainScheduleConfigure(ks, 4, 0, 0), SYSERR_NONE);
    assert_int_equal(ks->dom_len, 2);
    /* the current entry changes, the running domain and its time do not */
    ticks_t left = ks->domain_time;
    assert_int_equal(decodeDomainScheduleConfigure(ks, 0, 1, 99), SYSERR_NONE);
    assert_int_equal(ks->cur_domain, 0);
    assert_int_equal(ks->domain_time, left);
}

/* ScheduleSetStart: an index past the array is out of range, an end
 * marker is refused; a valid one ends the current entry (time 0, index
 * domScheduleLength - 2) and the schedule() at the end of the call wraps
 * to the new start through the last entry, an end marker. */
static void test_set_start(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER);
    assert_int_equal(decodeDomainScheduleSetStart(ks, KS_NUM_DOMAIN_SCHEDULES), SYSERR_RANGE);
    assert_int_equal(decodeDomainScheduleSetStart(ks, 2), SYSERR_INVALID_ARGUMENT);
    assert_int_equal(decodeDomainScheduleSetStart(ks, KS_NUM_DOMAIN_SCHEDULES - 1), SYSERR_INVALID_ARGUMENT);
    assert_int_equal(decodeDomainScheduleSetStart(ks, 1), SYSERR_NONE);
    assert_int_equal(ks->dom_start, 1);
    assert_int_equal(ks->domain_time, 0);
    assert_int_equal(ks->dom_idx, KS_NUM_DOMAIN_SCHEDULES - 2);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    setThreadState(ks, ks->cur_thread, TS_Running);
    schedule(ks);
    assert_int_equal(ks->dom_idx, 1);
    assert_int_equal(ks->cur_domain, 1);
    assert_int_equal(ks->domain_time, 80000);
    assert_int_not_equal(ks->cur_thread, tc_tid(ks, "cur")); /* cur is in domain 0 */
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* The two calls through the system-call path (a SysSend on a DomainSet cap). */
static void test_syscalls(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER);
    struct ks_call c = ks_call_new(SYS_Send, CALL_DomainSet_ScheduleConfigure);
    c.dom_index = 1;
    c.domain = 0;
    c.budget = 4321;
    ks->hw_clock = 10001;
    handleSyscall(ks, &c);
    assert_int_equal(ks->dom_sched[1], dschedule_make(0, 4321));
    assert_int_equal(ks->tcbs[ks->cur_thread].state, TS_Running);
    c = ks_call_new(SYS_Send, CALL_DomainSet_ScheduleSetStart);
    c.dom_index = 1;
    ks->hw_clock = 10002;
    handleSyscall(ks, &c);
    assert_int_equal(ks->dom_idx, 1);
    assert_int_equal(ks->cur_domain, 0);
    assert_int_equal(ks->domain_time, 4321);
    assert_int_equal(ks->cur_thread, tc_tid(ks, "cur")); /* domain 0 still */
    assert_string_equal(ks_syserr_name(SYSERR_INVALID_ARGUMENT), "invalid_argument");
}

static char *print_to_string(const struct kstate *ks)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    ks_print(f, ks);
    fclose(f);
    return buf;
}

static int parse(const char *text, struct kstate *out, struct scen_error *err)
{
    return scenario_parse(text, strlen(text), "t", out, err);
}

/* Whole-ms schedules print in base's ms form, others in ticks with the
 * start index; both read back to the same state. */
static void test_scenario_forms(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER), *back = tc_state();
    struct scen_error err;
    char *text = print_to_string(ks);
    assert_non_null(strstr(text, " schedule=0:10,1:10\n"));
    free(text);
    ks->dom_sched[1] = dschedule_make(1, 12345);
    ks->dom_start = 1;
    text = print_to_string(ks);
    assert_non_null(strstr(text, " start=1 schedule_ticks=0:80000,1:12345\n"));
    assert_int_equal(parse(text, back, &err), 0);
    assert_true(ks_same(ks, back));
    free(text);
    free(back);
}

/* ms convert on load with the configured timer (zcu106: 100 MHz, also
 * with the config line after the domain line); a schedule_ticks entry above 56 bits, or both
 * forms, are refused. */
static void test_scenario_load(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct scen_error err;
    assert_int_equal(parse("board zcu106\ndomain schedule=0:2\nconfig timer_hz=50000000\nnode\n", ks, &err), 0);
    assert_int_equal(ks->dom_sched[0], 100000); /* 2 ms at the configured 50 MHz */
    assert_int_equal(parse("board zcu106\nnode\n", ks, &err), 0);
    assert_int_equal(ks->dom_sched[0], 1000000); /* ks_init's 10 ms at 100 MHz */
    assert_int_equal(parse("board imx8mm\ndomain schedule_ticks=0:72057594037927936\nnode\n", ks, &err), -1);
    assert_non_null(strstr(err.msg, "schedule_ticks"));
    assert_int_equal(parse("board imx8mm\ndomain schedule=0:1 schedule_ticks=0:5\nnode\n", ks, &err), -1);
    assert_non_null(strstr(err.msg, "not both"));
    free(ks);
}

static int domain_breaks(const struct kstate *ks, const char *msg)
{
    struct inv_report r;
    int n = kstate_check(ks, INV_AT_ENTRY, &r);
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
        if (r.items[i].id == INV_DOMAIN && strstr(r.items[i].msg, msg))
            return 1;
    return 0;
}

/* Base's entries are whole ms above 0 and it has no start index; master's
 * start is never an end marker and only an end marker has duration 0;
 * master's current entry may differ from the running domain (configured
 * since it was reached). */
static void test_checker(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_BASE);
    ks->dom_sched[1] = dschedule_make(1, 12345);
    assert_true(domain_breaks(ks, "not a whole number of ms"));
    ks = dom_state(KS_KERNEL_BASE);
    ks->dom_start = 1;
    assert_true(domain_breaks(ks, "base wraps to entry 0"));
    ks = dom_state(KS_KERNEL_MASTER);
    ks->dom_sched[1] = dschedule_make(1, 12345);
    ks->dom_sched[0] = dschedule_make(1, 5);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->dom_sched[1] = dschedule_make(1, 0);
    assert_true(domain_breaks(ks, "duration 0 with domain 1"));
    ks = dom_state(KS_KERNEL_MASTER);
    ks->dom_sched[1] = 0;
    ks->dom_start = 1;
    assert_true(domain_breaks(ks, "start 1 is an end marker"));
}

/* master's features without one of them: a tree between (real/build-kernel.sh
 * probes each; f1517d51d lacks FPU_RELEASE_AT_SET_DOMAIN, e558631c7
 * VCPU_FLUSH_AT_SET_DOMAIN) */
static void master_without(struct kstate *ks, int feature)
{
    uint16_t bits = 0;
    for (int f = KF_NONE + 1; f < KF_COUNT; f++)
        if (cfg_kernel_has(KS_KERNEL_MASTER, f) && f != feature)
            bits |= (uint16_t)(1u << f);
    ks->cfg.features = bits;
}

/* SysSend on a DomainSet cap naming thread t and domain dom, one word,
 * the thread cap as extra cap 0 (decodeDomainSetSetInvocation) */
static void domain_set(struct kstate *ks, int t, unsigned dom)
{
    ks_sysin_clear(&ks->sys);
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                .entry = ENTRY_SIGNAL, .cap = SCAP_DOMAIN, .ntfn = KS_NONE, .ep = KS_NONE,
                                .reply = KS_NONE, .tcb = (int8_t)t, .domain = (uint8_t)dom, .length = 1,
                                .extra_caps = 1};
    struct ks_call c = ks_call_of_entry(ks);
    assert_int_equal(c.inv, CALL_DomainSet_Set);
    ks->hw_clock = ks->cur_time + 1;
    handleSyscall(ks, &c);
}

/* decodeDomainSetSetInvocation's refusals in the kernel's order (master
 * src/object/domain.c:22-58, base tcb.c:1566-1603): no message word, a
 * domain not below numDomains, no extra cap. Each changes nothing. */
static void test_domain_set_refusals(void **state)
{
    (void)state;
    for (int kernel = 0; kernel < KS_KERNEL_COUNT; kernel++) {
        struct kstate *ks = dom_state(kernel), *before = tc_state();
        int cur = ks->cur_thread;
        ks_copy(before, ks);
        assert_int_equal(decodeDomainSetSet(ks, cur, 1, 0, 1), SYSERR_INVALID_ARGUMENT);
        assert_int_equal(decodeDomainSetSet(ks, cur, 2, 1, 1), SYSERR_INVALID_ARGUMENT);
        assert_int_equal(decodeDomainSetSet(ks, cur, 1, 1, 0), SYSERR_INVALID_ARGUMENT);
        assert_true(ks_same(ks, before));
        free(before);
    }
}

/* The current thread moves itself to domain 1 (setDomain, thread.c:493-503):
 * Restart, then enqueued in domain 1's queue and a reschedule, so the
 * idle thread runs domain 0; master releases its FPU first (35ec2554b);
 * a tree without that release leaves it the owner, which the domain rule
 * refuses. Base has no rule (no release at a domain's end either). */
static void test_domain_set_current_fpu(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER);
    int cur = ks->cur_thread;
    assert_true(ks->tcbs[cur].fpu_live);
    tc_assert_valid(ks, INV_AT_ENTRY);
    domain_set(ks, cur, 1);
    assert_int_equal(ks->tcbs[cur].domain, 1);
    assert_true(ks->tcbs[cur].queued);
    assert_int_equal(ks->tcbs[cur].state, TS_Running);
    assert_int_equal(ks->cur_thread, ks->idle_thread);
    assert_false(ks->tcbs[cur].fpu_live);
    tc_assert_valid(ks, INV_AT_EXIT);

    ks = dom_state(KS_KERNEL_MASTER);
    master_without(ks, KF_FPU_RELEASE_AT_SET_DOMAIN);
    domain_set(ks, cur, 1);
    assert_int_equal(ks->cur_thread, ks->idle_thread);
    assert_true(ks->tcbs[cur].fpu_live);
    assert_true(domain_breaks(ks, "thread cur of domain 1 owns the FPU in domain 0"));

    ks = dom_state(KS_KERNEL_MASTER); /* a build without an FPU releases nothing */
    ks->cfg.fpu = false;
    ks->tcbs[cur].fpu_live = false;
    domain_set(ks, cur, 1);
    assert_false(ks->tcbs[cur].fpu_live);
    tc_assert_valid(ks, INV_AT_EXIT);

    ks = dom_state(KS_KERNEL_BASE); /* base: no rule, and the owner stays */
    ks->tcbs[cur].fpu_live = true;
    domain_set(ks, cur, 1);
    assert_true(ks->tcbs[cur].fpu_live);
    assert_false(domain_breaks(ks, "owns the FPU"));
}

/* A ready thread of the current domain moved to its own domain (a move
 * prepareSetDomain ignores: ksCurDomain == dom) is dequeued and enqueued
 * again, no reschedule; a blocked one is only relabelled. */
static void test_domain_set_other(void **state)
{
    (void)state;
    struct kstate *ks = dom_state(KS_KERNEL_MASTER);
    int cur = ks->cur_thread, u = build_thread(ks, "u", 50, 0), w = build_thread(ks, "w", 50, 0);
    assert_int_not_equal(build_sc(ks, NULL, u, 20000, 0, 0), KS_NONE);
    build_ready(ks, u);
    ks->tcbs[w].state = TS_Inactive;
    domain_set(ks, u, 0);
    assert_true(ks->tcbs[u].queued);
    assert_int_equal(ks->cur_thread, cur);
    assert_true(ks->tcbs[cur].fpu_live);
    domain_set(ks, w, 1);
    assert_int_equal(ks->tcbs[w].domain, 1);
    assert_false(ks->tcbs[w].queued);
    assert_int_equal(ks->cur_thread, cur);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* Hypervisor builds: master flushes the moved thread's VCPU when this core
 * has it loaded (Arch_prepareSetDomain -> vcpu_flush_if_current,
 * 01c3487ef); a tree without it (e558631c7) keeps it loaded into domain
 * 0's idle time, which the domain rule refuses. Another thread's move
 * leaves the loaded VCPU alone. */
static void test_domain_set_vcpu(void **state)
{
    (void)state;
    for (int flush = 0; flush < 2; flush++) {
        struct kstate *ks = dom_state(KS_KERNEL_MASTER);
        if (!flush)
            master_without(ks, KF_VCPU_FLUSH_AT_SET_DOMAIN);
        build_hyp_boot(ks);
        int cur = ks->cur_thread, v = ks_add_vcpu(ks, "v"), w = build_thread(ks, "w", 50, 0);
        ks->tcbs[w].state = TS_Inactive;
        associateVCPUTCB(ks, v, cur);
        assert_int_equal(ks->cur_vcpu, v);
        domain_set(ks, w, 1); /* not the VCPU's thread: nothing flushed */
        assert_int_equal(ks->cur_vcpu, v);
        assert_true(ks->vcpu_active);
        domain_set(ks, cur, 1);
        assert_int_equal(ks->cur_thread, ks->idle_thread);
        assert_false(ks->vcpu_active);
        assert_int_equal(ks->cur_vcpu, flush ? KS_NONE : v);
        assert_int_equal(domain_breaks(ks, "VCPU v of thread cur (domain 1) loaded in domain 0"), !flush);
    }
}

static void master_workload(struct workload *w, const char *sched)
{
    char text[256];
    struct scen_error err;
    snprintf(text, sizeof text, "domain_schedule %s\nntfn n\nthread a prio=10 domain=1 prog=wait:n\n"
                                "thread b prio=10 prog=wait:n\n", sched);
    assert_int_equal(workload_parse(text, strlen(text), "w", w, &err), 0);
    w->kernel = KS_KERNEL_MASTER;
}

/* Master boot (boot.c:635-637) is domain 0 for DSCHED_MAX_DURATION; the
 * root thread configures the workload's schedule and starts it at entry
 * 0 (ScheduleSetStart), so at time 0 the first entry runs with its whole
 * length, as base boots into it (boot.c:546): 2 ms = 16000 ticks of
 * domain 1. The root (domain 0 on master) is left suspended. */
static void test_workload_master_boot(void **state)
{
    (void)state;
    static struct workload w;
    static struct sim s;
    master_workload(&w, "1:2,0:3");
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    const struct kstate *ks = &s.k[0].ks;
    assert_int_equal(ks->cur_domain, 1);
    assert_int_equal(ks->domain_time, 16000);
    assert_int_equal(ks->dom_idx, 0);
    assert_int_equal(ks->dom_len, 2);
    assert_int_equal(ks->dom_sched[1], dschedule_make(0, 24000));
    assert_int_equal(ks->tcbs[tc_tid(ks, "root")].state, TS_Inactive);
    assert_false(ks->tcbs[tc_tid(ks, "root")].queued);
    tc_assert_valid(ks, INV_AT_ENTRY);
    sim_free(&s);
    /* base: the same first domain, from boot */
    w.kernel = KS_KERNEL_BASE;
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    assert_int_equal(s.k[0].ks.cur_domain, 1);
    assert_int_equal(s.k[0].ks.domain_time, 16000);
    sim_free(&s);
    /* a schedule starting in domain 0: the root stays current, suspends itself */
    master_workload(&w, "0:2,1:3");
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    assert_int_equal(s.k[0].ks.cur_domain, 0);
    assert_int_equal(s.k[0].ks.domain_time, 16000);
    assert_int_equal(s.k[0].ks.tcbs[tc_tid(&s.k[0].ks, "root")].state, TS_Inactive);
    sim_free(&s);
}

/* One domain on master: the boot entry stands, DSCHED_MAX_DURATION. */
static void test_workload_master_one_domain(void **state)
{
    (void)state;
    static struct workload w;
    static struct sim s;
    struct scen_error err;
    const char *text = "ntfn n\nthread a prio=10 prog=wait:n\n";
    assert_int_equal(workload_parse(text, strlen(text), "w", &w, &err), 0);
    w.kernel = KS_KERNEL_MASTER;
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    assert_int_equal(s.k[0].ks.domain_time, DSCHED_MAX_DURATION);
    assert_int_equal(s.k[0].ks.dom_sched[0], DSCHED_MAX_DURATION);
    sim_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_wraps_to_zero),
        cmocka_unit_test(test_master_wraps_to_start),
        cmocka_unit_test(test_vcpu_flush_at_domain_end),
        cmocka_unit_test(test_configure_refusals),
        cmocka_unit_test(test_configure_writes),
        cmocka_unit_test(test_set_start),
        cmocka_unit_test(test_syscalls),
        cmocka_unit_test(test_scenario_forms),
        cmocka_unit_test(test_scenario_load),
        cmocka_unit_test(test_checker),
        cmocka_unit_test(test_domain_set_refusals),
        cmocka_unit_test(test_domain_set_current_fpu),
        cmocka_unit_test(test_domain_set_other),
        cmocka_unit_test(test_domain_set_vcpu),
        cmocka_unit_test(test_workload_master_boot),
        cmocka_unit_test(test_workload_master_one_domain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
