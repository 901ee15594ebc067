/* The kernel operations that create the states the IRQ path touches
 * (sim/ipc.c, schedcontext.c, tcbops.c, irqhandler.c, syscall.c and the
 * timeout-fault IPC in sched.c). Each expected value is derived from the
 * kernel at 43607edb6; the comment names the function and what it does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "build.h"
#include "budget.h"
#include "diff.h"
#include "ipc.h"
#include "irqhandler.h"
#include "ntfn.h"
#include "refill.h"
#include "schedcontext.h"
#include "sched.h"
#include "schedcontrol.h"
#include "syscall.h"
#include "tcbops.h"

static struct kstate ks;

/* a running thread cur (prio 100, periodic SC) on imx8mm at time 1000 */
static int setup_cur(void)
{
    ks_init(&ks, "imx8mm");
    ks.hw_clock = ks.cur_time = 1000;
    int cur = build_thread(&ks, "cur", 100, 0);
    build_sc(&ks, "sc_cur", cur, 8000, 80000, 1000);
    build_run(&ks, cur);
    return cur;
}

/* handleTimeout -> sendFaultIPC -> sendIPC, EPState_Recv (endpoint.c:57-103):
 * the waiting handler is dequeued, its reply is unlinked and pushed to the
 * faulter (reply_push: BlockedOnReply, reply.c:26-31), the handler runs
 * (setThreadState Running, possibleSwitchTo: it becomes the scheduler
 * action, thread.c:544) */
static void test_timeout_fault_wakes_handler(void **state)
{
    (void)state;
    int cur = setup_cur();
    int h = build_thread(&ks, "h", 200, 0);
    build_sc(&ks, "sc_h", h, 8000, 8000, 1000);
    int e = build_ep(&ks, "fault_ep");
    int r = ks_add_reply(&ks, "r");
    build_recv_ep(&ks, h, e, r);
    ks.tcbs[cur].timeout_handler = true;
    ks.tcbs[cur].timeout_ep = (int8_t)e;
    handleTimeout(&ks, cur);
    assert_int_equal(ks.tcbs[cur].fault, FAULT_Timeout);
    assert_int_equal(ks.tcbs[cur].state, TS_BlockedOnReply);
    assert_int_equal(ks.tcbs[cur].reply, r);
    assert_int_equal(ks.replies[r].tcb, cur);
    assert_int_equal(ks.tcbs[h].state, TS_Running);
    assert_int_equal(ks.tcbs[h].reply, KS_NONE);
    assert_int_equal(ks.eps[e].state, EP_Idle);
    /* the faulter blocked first: scheduleTCB -> rescheduleRequired (CHOOSE),
     * then possibleSwitchTo found an action set: rescheduleRequired and
     * SCHED_ENQUEUE (thread.c:539-542) */
    assert_int_equal(ks.sched_action, KS_SA_CHOOSE);
    assert_true(ks.tcbs[h].queued);
    assert_int_equal(ks.n_asserts, 0);
}

/* without a reply object: the faulter goes Inactive (endpoint.c:90) */
static void test_timeout_fault_no_reply(void **state)
{
    (void)state;
    int cur = setup_cur();
    int h = build_thread(&ks, "h", 200, 0);
    build_sc(&ks, "sc_h", h, 8000, 8000, 1000);
    int e = build_ep(&ks, "fault_ep");
    build_recv_ep(&ks, h, e, KS_NONE);
    ks.tcbs[cur].timeout_ep = (int8_t)e;
    handleTimeout(&ks, cur);
    assert_int_equal(ks.tcbs[cur].state, TS_Inactive);
    assert_int_equal(ks.tcbs[h].state, TS_Running);
}

/* no receiver: sendIPC blocks the faulter sending on the endpoint
 * (endpoint.c:28-55): BlockedOnSend, blocking object the endpoint, queued,
 * endpoint Send */
static void test_timeout_fault_blocks_sending(void **state)
{
    (void)state;
    int cur = setup_cur();
    int e = build_ep(&ks, "fault_ep");
    ks.tcbs[cur].timeout_ep = (int8_t)e;
    handleTimeout(&ks, cur);
    assert_int_equal(ks.tcbs[cur].state, TS_BlockedOnSend);
    assert_int_equal(ks.tcbs[cur].blocking, e);
    assert_int_equal(ks.eps[e].state, EP_Send);
    assert_int_equal(ks.eps[e].q_head, cur);
    /* the handler's receive takes it (receiveIPC, EPState_Send,
     * endpoint.c:196-254): a fault is pending, so reply_push with the
     * handler's reply; the endpoint becomes idle */
    int h = build_thread(&ks, "h", 200, 0);
    build_sc(&ks, "sc_h", h, 8000, 8000, 1000);
    int r = ks_add_reply(&ks, "r");
    receiveIPC(&ks, h, e, r, true);
    assert_int_equal(ks.tcbs[cur].state, TS_BlockedOnReply);
    assert_int_equal(ks.replies[r].tcb, cur);
    assert_int_equal(ks.eps[e].state, EP_Idle);
    /* a second receive on the same reply cancels the pending reply
     * (receiveIPC, endpoint.c:139-145 -> cancelIPC -> reply_remove_tcb):
     * the faulter is Inactive with its fault cleared (endpoint.c:312) */
    receiveIPC(&ks, h, e, r, true);
    assert_int_equal(ks.tcbs[cur].state, TS_Inactive);
    assert_int_equal(ks.tcbs[cur].fault, FAULT_None);
    assert_int_equal(ks.tcbs[h].state, TS_BlockedOnReceive);
    assert_int_equal(ks.replies[r].tcb, h);
}

/* decodeSchedContext_Bind (schedcontext.c:111): a blocked thread is refused
 * an SC that is not released; a notification takes it (no check, :118-130) */
static void test_bind_released(void **state)
{
    (void)state;
    setup_cur();
    int t = build_thread(&ks, "t", 50, 0);
    int n = build_ntfn(&ks, "n");
    build_wait_ntfn(&ks, t, n);
    int sc = ks_add_sc(&ks, "sc");
    refill_new(&ks, sc, 4, 8000, 80000, 5000); /* head refill in the future */
    assert_int_equal(decodeSchedContext_Bind(&ks, sc, t, KS_NONE), SYSERR_ILLEGAL_OPERATION);
    assert_int_equal(ks.tcbs[t].sc, KS_NONE);
    assert_int_equal(decodeSchedContext_Bind(&ks, sc, KS_NONE, n), SYSERR_NONE);
    assert_int_equal(ks.ntfns[n].sc, sc);
    assert_int_equal(ks.scs[sc].ntfn, n);
}

/* invokeSchedControl_ConfigureFlags (schedcontrol.c:33-48): budget ==
 * period is round robin (refill_new with MIN_REFILLS and period 0); an SC
 * of a runnable thread with new parameters keeps its head (refill_update,
 * sporadic.c:173-211): head trimmed to the new budget */
static void test_configure(void **state)
{
    (void)state;
    int cur = setup_cur();
    int t = build_thread(&ks, "t", 50, 0);
    int sc = ks_add_sc(&ks, "sc");
    assert_int_equal(decodeSchedControl_ConfigureFlags(&ks, sc, 0, 100, 100, 0, 0, 0), SYSERR_RANGE); /* < MIN_BUDGET */
    assert_int_equal(decodeSchedControl_ConfigureFlags(&ks, sc, 0, 4000, 4000, 0, 0, 0), SYSERR_NONE);
    assert_int_equal(ks.scs[sc].period, 0);
    assert_int_equal(ks.scs[sc].refill_max, MIN_REFILLS);
    assert_int_equal(ks.tcbs[cur].state, TS_Restart); /* the decode set the invoker restarting */
    assert_int_equal(decodeSchedContext_Bind(&ks, sc, t, KS_NONE), SYSERR_NONE);
    ks.tcbs[t].state = TS_Running;
    assert_int_equal(decodeSchedControl_ConfigureFlags(&ks, sc, 0, 2000, 20000, 2, 0, SC_FLAG_SPORADIC), SYSERR_NONE);
    assert_int_equal(ks.scs[sc].period, 20000);
    assert_int_equal(ks.scs[sc].refill_max, 4);
    assert_int_equal(refill_head(&ks, sc)->amount, 2000);
    assert_int_equal(refill_head(&ks, sc)->time, 1000); /* ready: stamped with ksCurTime */
    assert_true(ks.scs[sc].sporadic);
}

/* setPriority (MCS, thread.c:484-511): a thread blocked on a notification
 * is reordered in its queue (reorderNTFN) */
static void test_set_priority_reorders(void **state)
{
    (void)state;
    setup_cur();
    int n = build_ntfn(&ks, "n");
    int a = build_thread(&ks, "a", 10, 0), b = build_thread(&ks, "b", 20, 0);
    build_wait_ntfn(&ks, a, n);
    build_wait_ntfn(&ks, b, n); /* b (20) ahead of a (10) */
    assert_int_equal(ks.ntfns[n].q_head, b);
    setPriority(&ks, a, 30);
    assert_int_equal(ks.ntfns[n].q_head, a);
    assert_int_equal(ks.ntfns[n].q_tail, b);
}

/* seL4_Wait on an active notification (receiveSignal, notification.c:226-239):
 * badge delivered, notification idle, no blocking; on an idle one: blocked */
static void test_wait(void **state)
{
    (void)state;
    int cur = setup_cur();
    int n = build_ntfn(&ks, "n");
    ntfn_set_active(&ks, n, 6);
    struct ks_call c = ks_call_new(SYS_Wait, 0);
    c.ntfn = n;
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.tcbs[cur].badge_reg, 6);
    assert_int_equal(ks.ntfns[n].state, NTFN_Idle);
    assert_int_equal(ks.cur_thread, cur);
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.tcbs[cur].state, TS_BlockedOnNotification);
    assert_int_equal(ks.cur_thread, ks.idle_thread); /* schedule() at the exit */
}

/* IRQControl_Get (IRQIssueIRQHandler) of irq into slot dest */
static int irq_get(struct kstate *k, int irq, unsigned length, unsigned extra_caps, int dest)
{
    return decodeIRQControlInvocation(
        k, &(struct irqc_get){.method = IRQM_GET, .irq = irq, .dest = dest, .length = length, .extra_caps = extra_caps});
}

/* IRQControl_Get (invokeIRQControl -> setIRQState(IRQSignal): unmasked,
 * interrupt.c:78-84, 273-283); IRQHandler_Ack unmasks (interrupt.c:152) */
static void test_irq_handler(void **state)
{
    (void)state;
    setup_cur();
    int n = build_ntfn(&ks, "n");
    assert_int_equal(irq_get(&ks, 40, 3, 1, IRQD_EMPTY), SYSERR_NONE);
    assert_int_equal(ks.irq_state[40], IRQ_Signal);
    assert_false(ks.irq_masked[40]);
    assert_int_equal(irq_get(&ks, 40, 3, 1, IRQD_EMPTY), SYSERR_ILLEGAL_OPERATION);
    assert_int_equal(irq_get(&ks, 100000, 3, 1, IRQD_EMPTY), SYSERR_RANGE);
    assert_int_equal(decodeIRQHandler_SetNotification(&ks, 40, n, 4, 1), SYSERR_NONE);
    assert_int_equal(ks.irq_cap[40].ntfn, n);
    ks.irq_masked[40] = true;
    assert_int_equal(decodeIRQHandler_Ack(&ks, 40, 0), SYSERR_NONE);
    assert_false(ks.irq_masked[40]);
}

/* A SysSend on an IRQ handler cap (decodeIRQHandlerInvocation,
 * interrupt.c:86-130 at 1326364bc), the whole handleSyscall: each label
 * leaves the caller Running (Restart, then completed); SetNotification
 * without its extra cap is a truncated message (:98-101) that changes
 * nothing, with it the slot holds that cap (cteInsert, :167-175); Clear
 * empties the slot and keeps the IRQ's state and mask (:177-183); an extra
 * cap that does not resolve faults the caller before any decode
 * (handleInvocation, syscall.c: lookupExtraCaps; no fault handler:
 * Inactive) */
static void test_irq_handler_send(void **state)
{
    (void)state;
    int cur = setup_cur();
    int n = build_ntfn(&ks, "n");
    assert_int_equal(irq_get(&ks, 40, 3, 1, IRQD_EMPTY), SYSERR_NONE);
    ks.tcbs[cur].state = TS_Running;
    ks.sys = (struct ks_sysin){.entry = ENTRY_SIGNAL, .cap = SCAP_IRQ_SET, .ntfn = (int8_t)n, .badge = 9,
                               .ep = KS_NONE, .reply = KS_NONE, .tcb = KS_NONE, .vcpu = KS_NONE, .irq = 40};
    struct ks_call c = ks_call_of_entry(&ks);
    assert_int_equal(c.inv, CALL_IRQHandler_SetNotification);
    assert_int_equal(c.irq, 40);
    assert_true(handleSyscall(&ks, &c)); /* extra_caps 0: truncated */
    assert_int_equal(ks.irq_cap[40].type, CAP_Null);
    assert_int_equal(ks.tcbs[cur].state, TS_Running);
    ks.sys.extra_caps = 1;
    c = ks_call_of_entry(&ks);
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.irq_cap[40].type, CAP_Notification);
    assert_int_equal(ks.irq_cap[40].ntfn, n);
    assert_int_equal(ks.irq_cap[40].badge, 9);
    assert_int_equal(ks.tcbs[cur].state, TS_Running);
    ks.irq_masked[40] = true;
    ks.sys = (struct ks_sysin){.entry = ENTRY_SIGNAL, .cap = SCAP_IRQ_CLEAR, .ntfn = KS_NONE, .ep = KS_NONE,
                               .reply = KS_NONE, .tcb = KS_NONE, .vcpu = KS_NONE, .irq = 40};
    c = ks_call_of_entry(&ks);
    assert_int_equal(c.inv, CALL_IRQHandler_Clear);
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.irq_cap[40].type, CAP_Null);
    assert_int_equal(ks.irq_state[40], IRQ_Signal);
    assert_true(ks.irq_masked[40]);
    assert_int_equal(ks.tcbs[cur].state, TS_Running);
    ks.sys.cap = SCAP_IRQ_ACK;
    c = ks_call_of_entry(&ks);
    assert_int_equal(c.inv, CALL_IRQHandler_Ack);
    assert_true(handleSyscall(&ks, &c));
    assert_false(ks.irq_masked[40]); /* base on GICv3: the ack unmasks (43607edb6 interrupt.c:152) */
    ks.irq_masked[40] = true;
    ks.sys.extra_caps = 1;
    ks.sys.extra_bad = 1;
    c = ks_call_of_entry(&ks);
    assert_true(handleSyscall(&ks, &c));
    assert_true(ks.irq_masked[40]); /* not acked */
    assert_int_equal(ks.tcbs[cur].state, TS_Inactive);
}

/* A SysSend on the IRQ control cap (decodeIRQControlInvocation,
 * interrupt.c:23-73 at 1326364bc), the whole handleSyscall: an IRQ of the
 * table in state Inactive into an empty slot becomes Signal and unmasked
 * (invokeIRQControl, setIRQState), the caller completed; the same call
 * again is refused (the IRQ in use: seL4_RevokeFirst) and changes
 * nothing; a destination that holds a cap too */
static void test_irq_control_send(void **state)
{
    (void)state;
    int cur = setup_cur();
    ks_irq_touch(&ks, 50);
    ks.irq_masked[50] = true;
    ks.sys = (struct ks_sysin){.entry = ENTRY_SIGNAL, .cap = SCAP_IRQ_CONTROL, .ntfn = KS_NONE, .ep = KS_NONE,
                               .reply = KS_NONE, .tcb = KS_NONE, .vcpu = KS_NONE, .irq = 50, .dest = IRQD_FULL,
                               .length = 3, .extra_caps = 1};
    struct ks_call c = ks_call_of_entry(&ks);
    assert_int_equal(c.inv, CALL_IRQControl_Get);
    assert_int_equal(c.dest, IRQD_FULL);
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.irq_state[50], IRQ_Inactive);
    assert_true(ks.irq_masked[50]);
    ks.sys.dest = IRQD_EMPTY;
    c = ks_call_of_entry(&ks);
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.irq_state[50], IRQ_Signal);
    assert_false(ks.irq_masked[50]);
    assert_int_equal(ks.tcbs[cur].state, TS_Running);
    ks.irq_masked[50] = true;
    assert_true(handleSyscall(&ks, &c));
    assert_true(ks.irq_masked[50]); /* in use: refused before setIRQState */
    assert_int_equal(ks.tcbs[cur].state, TS_Running);
}

/* The comparison of two outcomes (validate --real: the model's against
 * the kernel's) sees the IRQ table a system call writes: an IRQ's state,
 * its handler slot's cap type, notification and badge; an interrupt
 * entry's outcomes are not walked for it (no interrupt path writes the
 * table, diff.c) */
static void test_diff_irq_handler(void **state)
{
    (void)state;
    setup_cur();
    int n = build_ntfn(&ks, "n");
    build_ntfn(&ks, "m");
    assert_int_equal(irq_get(&ks, 40, 3, 1, IRQD_EMPTY), SYSERR_NONE);
    assert_int_equal(decodeIRQHandler_SetNotification(&ks, 40, n, 4, 1), SYSERR_NONE);
    ks.sys.entry = ENTRY_SIGNAL;
    static struct kstate other;
    const uint32_t handler = 1u << DF_IRQ_HANDLER;
    ks_copy(&other, &ks);
    assert_int_equal(diff_compare(&ks, &other, NULL), 0);
    other.irq_cap[40].badge = 5;
    assert_int_equal(diff_compare(&ks, &other, NULL), handler);
    ks_copy(&other, &ks);
    other.irq_cap[40].ntfn = (int8_t)(n + 1);
    assert_int_equal(diff_compare(&ks, &other, NULL), handler);
    ks_copy(&other, &ks);
    other.irq_cap[40] = (struct ks_irq_cap){.type = CAP_Null, .ntfn = KS_NONE};
    assert_int_equal(diff_compare(&ks, &other, NULL), handler);
    ks_copy(&other, &ks);
    other.irq_state[40] = IRQ_Inactive;
    assert_int_equal(diff_compare(&ks, &other, NULL), handler);
    ks_copy(&other, &ks);
    ks_irq_touch(&other, 50); /* a longer table, the same entries */
    assert_int_equal(diff_compare(&ks, &other, NULL), 0);
    other.irq_state[50] = IRQ_Signal;
    assert_int_equal(diff_compare(&ks, &other, NULL), handler);
    ks.sys.entry = other.sys.entry = ENTRY_IRQ;
    assert_int_equal(diff_compare(&ks, &other, NULL), 0);
}

/* the diff sees a thread's tcbLookupFailure (the field sendFaultIPC
 * stores with a cap fault) as lookup_fault, and nothing else with it */
static void test_diff_lookup_fault(void **state)
{
    (void)state;
    setup_cur();
    static struct kstate other;
    ks_copy(&other, &ks);
    assert_int_equal(diff_compare(&ks, &other, NULL), 0);
    other.tcbs[ks.cur_thread].lookup_fault = LKF_STALE;
    assert_int_equal(diff_compare(&ks, &other, NULL), 1u << DF_LOOKUP_FAULT);
}

/* IRQHandler_Ack of another core's PPI (invokeIRQHandler_AckIRQ,
 * interrupt.c:146-157 at 1326364bc): a remote call that deactivates it
 * there with split EOI (master on GICv3, 2ec8c1547) and unmasks it
 * otherwise (43607edb6:146-150, GICv2); core 0's own IRQ of that number is
 * not touched. On one core, or for an SPI, the ack is local whatever core
 * the call names. The comparison sees core 1's bits (diff.c). */
static void test_ack_remote_ppi(void **state)
{
    (void)state;
    setup_cur();
    ks_irq_touch(&ks, 40);
    ks.irq_masked[19] = ks.irq_active[19] = true;
    ks.cfg.smp = true;
    ks.core_ppi_masked[1] = ks.core_ppi_active[1] = 1u << 19 | 1u << 20;
    assert_false(cfg_split_eoi(&ks.cfg)); /* the base */
    assert_int_equal(decodeIRQHandler_Ack(&ks, 19, 1), SYSERR_NONE);
    assert_int_equal(ks.core_ppi_masked[1], 1u << 20);
    assert_int_equal(ks.core_ppi_active[1], 1u << 19 | 1u << 20);
    assert_true(ks.irq_masked[19] && ks.irq_active[19]);
    static struct kstate before;
    ks_copy(&before, &ks);
    cfg_set_kernel(&ks.cfg, KS_KERNEL_MASTER); /* imx8mm: GICv3, split EOI */
    assert_true(cfg_split_eoi(&ks.cfg));
    assert_int_equal(decodeIRQHandler_Ack(&ks, 20, 1), SYSERR_NONE);
    assert_int_equal(ks.core_ppi_active[1], 1u << 19);
    assert_int_equal(ks.core_ppi_masked[1], 1u << 20);
    ks.sys.entry = before.sys.entry = ENTRY_SIGNAL;
    before.cfg = ks.cfg;
    assert_int_equal(diff_compare(&before, &ks, NULL), 1u << DF_IRQ_ACTIVE);
    ks.core_ppi_masked[1] = 0;
    assert_int_equal(diff_compare(&before, &ks, NULL), 1u << DF_IRQ_ACTIVE | 1u << DF_IRQ_MASK);
    /* an SPI, and one core: local (core 0's table) */
    ks.irq_active[40] = true;
    assert_int_equal(decodeIRQHandler_Ack(&ks, 40, 1), SYSERR_NONE);
    assert_false(ks.irq_active[40]);
    ks.cfg.smp = false;
    assert_int_equal(decodeIRQHandler_Ack(&ks, 19, 1), SYSERR_NONE);
    assert_false(ks.irq_active[19]);
    assert_int_equal(ks.core_ppi_active[1], 1u << 19);
    /* core 0's PPI named as core 0's, two cores: local too */
    ks.cfg.smp = true;
    ks.irq_active[19] = true;
    assert_int_equal(decodeIRQHandler_Ack(&ks, 19, 0), SYSERR_NONE);
    assert_false(ks.irq_active[19]);
    assert_int_equal(ks.core_ppi_active[1], 1u << 19);
}

/* handleYield (syscall.c:499-512): the head refill is charged whole, the
 * SC's consumed time counts only what was used */
static void test_yield(void **state)
{
    (void)state;
    int cur = setup_cur();
    ks.hw_clock = 1500;
    struct ks_call c = ks_call_new(SYS_Yield, 0);
    assert_true(handleSyscall(&ks, &c));
    assert_int_equal(ks.scs[ks.tcbs[cur].sc].consumed, 500);
    assert_true(ks.tcbs[cur].in_release); /* postponed: its refill is a period away */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeout_fault_wakes_handler), cmocka_unit_test(test_timeout_fault_no_reply),
        cmocka_unit_test(test_timeout_fault_blocks_sending), cmocka_unit_test(test_bind_released),
        cmocka_unit_test(test_configure),                  cmocka_unit_test(test_set_priority_reorders),
        cmocka_unit_test(test_wait),                       cmocka_unit_test(test_irq_handler),
        cmocka_unit_test(test_yield),                      cmocka_unit_test(test_irq_handler_send),
        cmocka_unit_test(test_diff_irq_handler),
        cmocka_unit_test(test_diff_lookup_fault),           cmocka_unit_test(test_irq_control_send),
        cmocka_unit_test(test_ack_remote_ppi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
