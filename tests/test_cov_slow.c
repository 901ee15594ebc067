/*
 * Coverage tests of sim/irq_slow.c: handleInterruptEntry and
 * handleInterrupt for every IRQ state, as the kernel's
 * src/object/interrupt.c and src/api/syscall.c (MCS, aarch64) handle them:
 *
 *   above maxIRQ   mask and ack (no table entry)
 *   IRQSignal      sendSignal when the handler cap is a notification cap
 *                  that can send; mask; ack
 *   IRQTimer       ackDeadlineIRQ, ksReprogram = true; ack
 *   IRQIPI         handleIPI (a reschedule request in the model); ack
 *   IRQReserved    handleReservedIRQ (nothing modelled); ack
 *   IRQInactive    mask ("Received disabled IRQ"); ack
 *   other          fail("Invalid IRQ state"): recorded as an assertion
 *
 * States come from the irquser preset (imx8mm): a spinner at 253 runs, a
 * handler at 254 waits on IRQ 40's notification.
 */
#include "tcommon.h"

#include "cost.h"

/* The slowpath on a copy of in. It runs twice, with and without a cost
 * recorder (sim/cost_hooks.h), and counting must not change the outcome. */
static struct kstate *slow_run(struct kstate *in)
{
    struct kstate *out = tc_state(), *counted = tc_state();
    struct cost_rec rec;
    cost_reset(&rec);
    ks_copy(out, in);
    ks_copy(counted, in);
    counted->cost = &rec;
    handleInterruptEntry(out);
    handleInterruptEntry(counted);
    counted->cost = NULL;
    assert_true(ks_same(out, counted));
    assert_true(cost_all(&rec.c) > 0);
    free(counted);
    return out;
}

/* A signal IRQ wakes the handler, which outranks the spinner. */
static void test_signal(void **state)
{
    (void)state;
    struct kstate *in = tc_state();
    assert_int_equal(preset_irquser(in, "imx8mm"), 0);
    struct kstate *out = slow_run(in);
    tc_assert_no_asserts(out);
    tc_assert_valid(out, INV_AT_EXIT);
    assert_int_equal(out->cur_thread, tc_tid(in, "handler"));
    assert_true(out->irq_masked[PRESET_IRQ]);
    assert_int_equal(out->irq_acks[PRESET_IRQ], 1);
    assert_int_equal(out->path, PATH_NONE); /* restored on the way out */
    free(out);
    free(in);
}

/* The cap cannot deliver: no signal, but the IRQ is still masked (the
 * handler must re-enable it) and acked. */
static void test_signal_undelivered(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct kstate *in = tc_state();
        assert_int_equal(preset_irquser(in, "imx8mm"), 0);
        if (k == 0)
            in->irq_cap[PRESET_IRQ].type = CAP_Endpoint;
        else
            in->irq_cap[PRESET_IRQ].can_send = false;
        struct kstate *out = slow_run(in);
        tc_assert_no_asserts(out);
        assert_int_equal(out->ntfns[0].state, NTFN_Waiting);
        assert_int_equal(out->tcbs[tc_tid(in, "handler")].state, TS_BlockedOnNotification);
        assert_int_equal(out->cur_thread, tc_tid(in, "spinner"));
        assert_true(out->irq_masked[PRESET_IRQ]);
        assert_int_equal(out->irq_acks[PRESET_IRQ], 1);
        free(out);
        free(in);
    }
}

/* The other IRQ states: the notification is never signalled. */
static void test_other_states(void **state)
{
    (void)state;
    static const struct { int st; bool masked, reprogrammed; } cases[] = {
        {IRQ_Timer, false, true},
        {IRQ_IPI, false, false},
        {IRQ_Reserved, false, false},
        {IRQ_Inactive, true, false},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct kstate *in = tc_state();
        assert_int_equal(preset_irquser(in, "imx8mm"), 0);
        /* the kernel makes only IRQ 1 a reschedule IPI (boot.c:149) */
        int irq = cases[i].st == IRQ_IPI ? KS_IRQ_RESCHEDULE_IPI : PRESET_IRQ;
        build_irq_state(in, irq, cases[i].st);
        in->active_irq = irq;
        if (cases[i].st == IRQ_IPI) {
            /* IPIs exist in SMP builds only: a second core, idle */
            build_core1(in);
        }
        tc_assert_valid(in, INV_AT_ENTRY);
        struct kstate *out = slow_run(in);
        tc_assert_no_asserts(out);
        tc_assert_valid(out, INV_AT_EXIT);
        assert_int_equal(out->irq_masked[irq], cases[i].masked);
        assert_int_equal(out->irq_acks[irq], 1);
        assert_int_equal(out->ntfns[0].state, NTFN_Waiting);
        /* the spinner goes on: an IPI's reschedule picks it again */
        assert_int_equal(out->cur_thread, tc_tid(in, "spinner"));
        assert_int_equal(out->sched_action, KS_SA_RESUME);
        /* the timer IRQ made the exit program a new deadline: the
         * spinner's remaining head after commitTime (30000 - 8000) */
        if (cases[i].reprogrammed)
            assert_int_equal(out->deadline, out->cur_time + 22000 - out->cfg.precision);
        else
            assert_int_equal(out->deadline, in->deadline);
        assert_false(out->reprogram);
        free(out);
        free(in);
    }
}

/* An IPI state on an IRQ that is neither IPI: the kernel's handleIPI
 * fails ("Invalid IPI", src/smp/ipi.c:92); the kernel never sets such a
 * state (the irq invariant refuses it), so the state is built on purpose.
 * The remote-call IPI (IRQ 0) is taken and acked; its work for the other
 * core is not modelled, so nothing else changes. */
static void test_ipi_numbers(void **state)
{
    (void)state;
    for (int irq = 0; irq <= 2; irq++) {
        struct kstate *in = tc_state();
        assert_int_equal(preset_irquser(in, "imx8mm"), 0);
        build_core1(in);
        build_irq_state(in, irq, IRQ_IPI);
        in->active_irq = irq;
        struct kstate *out = slow_run(in);
        assert_int_equal(out->n_asserts, irq == 2);
        if (irq == 2)
            assert_int_equal(out->asserts[0].id, A_IPI_INVALID);
        assert_int_equal(out->irq_acks[irq], 1);
        assert_int_equal(out->cur_thread, tc_tid(in, "spinner"));
        free(out);
        free(in);
    }
}

/* Above maxIRQ (160 on imx8mm): no table entry, masked and acked at the
 * GIC, recorded apart from the table. Spurious: handleSpuriousIRQ only. */
static void test_out_of_range_and_spurious(void **state)
{
    (void)state;
    struct kstate *in = tc_state();
    assert_int_equal(preset_irquser(in, "imx8mm"), 0);
    in->active_irq = (int32_t)in->cfg.max_irq + 1;
    struct kstate *out = slow_run(in);
    tc_assert_no_asserts(out);
    assert_int_equal(out->oor_irq, (int32_t)in->cfg.max_irq + 1);
    assert_true(out->oor_masked);
    assert_int_equal(out->oor_acks, 1);
    assert_int_equal(out->irq_acks[PRESET_IRQ], 0);
    free(out);
    in->active_irq = KS_IRQ_INVALID;
    out = slow_run(in);
    tc_assert_no_asserts(out);
    assert_int_equal(out->oor_acks, 0);
    assert_int_equal(out->irq_acks[PRESET_IRQ], 0);
    assert_int_equal(out->cur_thread, tc_tid(in, "spinner"));
    free(out);
    free(in);
}

/* A state no kernel reaches: an IRQ table entry outside the IRQ states.
 * handleInterrupt's default case fails; the model records it (on the
 * slowpath) and acks the IRQ as the code after the switch does. */
static void test_invalid_irq_state(void **state)
{
    (void)state;
    struct kstate *in = tc_state();
    assert_int_equal(preset_irquser(in, "imx8mm"), 0);
    in->irq_state[PRESET_IRQ] = IRQ_STATE_COUNT;
    struct inv_report r;
    assert_int_not_equal(kstate_check(in, INV_AT_ENTRY, &r), 0);
    assert_true(inv_has(&r, INV_IRQ));
    struct kstate *out = slow_run(in);
    assert_int_equal(out->n_asserts, 1);
    assert_int_equal(out->asserts[0].id, A_IRQ_STATE);
    assert_int_equal(out->asserts[0].path, PATH_SLOW);
    assert_false(out->irq_masked[PRESET_IRQ]);
    assert_int_equal(out->irq_acks[PRESET_IRQ], 1);
    free(out);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal),
        cmocka_unit_test(test_signal_undelivered),
        cmocka_unit_test(test_other_states),
        cmocka_unit_test(test_ipi_numbers),
        cmocka_unit_test(test_out_of_range_and_spurious),
        cmocka_unit_test(test_invalid_irq_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
