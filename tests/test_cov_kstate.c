/*
 * Coverage tests of sim/kstate.c: the state container itself. Object
 * creation and naming, capacity limits, the IRQ table's growth, copying,
 * the equality the round-trip and shrinker tests rely on (ks_same), the
 * record of failed kernel assertions, and deleting objects with every
 * reference to them (ks_remove, the shrinker's tool). These are the
 * model's own rules (sim/kstate.h), not kernel behaviour; the kernel-facing
 * part is the assertion record: a failed assert is kept with the path that
 * was running, and the path goes on.
 */
#include "tcommon.h"

#include "cost.h"

/* ---- assertion record ---- */

static void test_kassert_text(void **state)
{
    (void)state;
    assert_string_equal(kassert_fn(A_IRQ_STATE), "handleInterrupt");
    assert_string_equal(kassert_msg(A_NONE), "no assertion");
    for (int id = 0; id < A_COUNT; id++) {
        assert_string_not_equal(kassert_fn(id), "?");
        assert_string_not_equal(kassert_msg(id), "?");
    }
    assert_string_equal(kassert_fn(-1), "?");
    assert_string_equal(kassert_fn(A_COUNT), "?");
    assert_string_equal(kassert_msg(-1), "?");
    assert_string_equal(kassert_msg(A_COUNT), "?");
}

static void test_ks_check_record(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    assert_true(ks_check(ks, true, A_FP_DEST));
    assert_int_equal(ks->n_asserts, 0);
    ks->path = PATH_FAST;
    assert_false(ks_check(ks, false, A_FP_DEST));
    ks->path = PATH_SLOW;
    KASSERT(ks, 1 == 2, A_IRQ_STATE);
    assert_int_equal(ks->n_asserts, 2);
    assert_int_equal(ks->asserts[0].id, A_FP_DEST);
    assert_int_equal(ks->asserts[0].path, PATH_FAST);
    assert_int_equal(ks->asserts[1].id, A_IRQ_STATE);
    assert_int_equal(ks->asserts[1].path, PATH_SLOW);
    /* past KS_MAX_ASSERTS only the count goes on */
    for (int i = 2; i < KS_MAX_ASSERTS + 3; i++)
        KASSERT(ks, false, A_NTFN_STATE);
    assert_int_equal(ks->n_asserts, KS_MAX_ASSERTS + 3);
    assert_int_equal(ks->asserts[KS_MAX_ASSERTS - 1].id, A_NTFN_STATE);
    /* ... and saturates at 255 */
    ks->n_asserts = UINT8_MAX;
    KASSERT(ks, false, A_NTFN_STATE);
    assert_int_equal(ks->n_asserts, UINT8_MAX);
    free(ks);
}

/* ---- construction ---- */

static void test_init(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "no-such-board"), -1);
    assert_int_equal(ks_init(ks, "odroidc4"), 0);
    assert_int_equal(ks->n_tcbs, 1);
    assert_int_equal(ks->n_scs, 1);
    assert_int_equal(ks->cur_thread, ks->idle_thread);
    assert_int_equal(ks->cur_sc, ks->idle_sc);
    assert_int_equal(ks->tcbs[ks->idle_thread].state, TS_IdleThreadState);
    assert_int_equal(ks->active_irq, KS_IRQ_INVALID);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    tc_assert_valid(ks, INV_AT_EXIT);
    free(ks);
}

static void test_add_and_names(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    /* no name, an empty name: prefix and index; a long name is cut */
    int t1 = ks_add_tcb(ks, NULL);
    int t2 = ks_add_tcb(ks, "");
    int t3 = ks_add_tcb(ks, "a_very_long_thread_name");
    assert_string_equal(ks->tcbs[t1].name, "t1");
    assert_string_equal(ks->tcbs[t2].name, "t2");
    assert_string_equal(ks->tcbs[t3].name, "a_very_long");
    assert_int_equal(ks->tcbs[t1].sc, KS_NONE);
    assert_true(ks->tcbs[t1].vtable_ok && ks->tcbs[t1].asid_ok && ks->tcbs[t1].vmid_ok);
    /* fill every kind to capacity; two-digit indices */
    int last = KS_NONE;
    while ((last = ks_add_tcb(ks, NULL)) != KS_NONE && last < KS_MAX_TCBS - 1)
        ;
    assert_string_equal(ks->tcbs[12].name, "t12");
    assert_int_equal(ks->n_tcbs, KS_MAX_TCBS);
    assert_int_equal(ks_add_tcb(ks, "x"), KS_NONE);
    while (ks_add_sc(ks, NULL) != KS_NONE)
        ;
    assert_int_equal(ks->n_scs, KS_MAX_SCS);
    assert_string_equal(ks->scs[KS_MAX_SCS - 1].name, "sc63");
    while (ks_add_ntfn(ks, NULL) != KS_NONE)
        ;
    assert_int_equal(ks->n_ntfns, KS_MAX_NTFNS);
    assert_string_equal(ks->ntfns[0].name, "ntfn0");
    while (ks_add_ep(ks, NULL) != KS_NONE)
        ;
    assert_int_equal(ks->n_eps, KS_MAX_EPS);
    while (ks_add_reply(ks, NULL) != KS_NONE)
        ;
    assert_int_equal(ks->n_replies, KS_MAX_REPLIES);
    assert_string_equal(ks->replies[KS_MAX_REPLIES - 1].name, "reply15");
    free(ks);
}

static void test_irq_touch(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks_irq_touch(ks, 5);
    assert_int_equal(ks->n_irqs, 6);
    ks->irq_state[3] = IRQ_Timer;
    ks_irq_touch(ks, 2); /* already in the table: nothing changes */
    ks_irq_touch(ks, -1);
    ks_irq_touch(ks, KS_MAX_IRQS);
    assert_int_equal(ks->n_irqs, 6);
    assert_int_equal(ks->irq_state[3], IRQ_Timer);
    /* growing clears the new entries: inactive, unmasked, null cap */
    ks->irq_state[7] = IRQ_Signal;
    ks->irq_cap[7].ntfn = 3;
    ks->irq_active[7] = true;
    ks_irq_touch(ks, KS_MAX_IRQS - 1);
    assert_int_equal(ks->n_irqs, KS_MAX_IRQS);
    assert_int_equal(ks->irq_state[7], IRQ_Inactive);
    assert_int_equal(ks->irq_cap[7].ntfn, KS_NONE);
    assert_false(ks->irq_active[7]);
    assert_int_equal(ks->irq_cap[KS_MAX_IRQS - 1].type, CAP_Null);
    assert_int_equal(ks->irq_state[3], IRQ_Timer);
    free(ks);
}

static void test_name_tables(void **state)
{
    (void)state;
    const char *(*fns[])(int) = {ks_ts_name,        ks_ntfn_state_name, ks_ep_state_name, ks_irq_state_name,
                                 ks_cap_type_name, ks_fault_name,      ks_path_name,     ks_lookup_fault_name};
    static const int counts[] = {TS_COUNT, NTFN_COUNT, EP_COUNT, IRQ_STATE_COUNT, CAP_TYPE_COUNT, FAULT_COUNT, 4,
                                 LKF_COUNT};
    for (unsigned f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        for (int i = 0; i < counts[f]; i++)
            assert_string_not_equal(fns[f](i), "?");
        assert_string_equal(fns[f](-1), "?");
        assert_string_equal(fns[f](counts[f]), "?");
    }
    assert_string_equal(ks_ts_name(TS_BlockedOnNotification), "BlockedOnNotification");
    assert_string_equal(ks_irq_state_name(IRQ_Signal), "Signal");
    assert_string_equal(ks_path_name(PATH_FAST), "fastpath");
    assert_string_equal(ks_lookup_fault_name(LKF_RESOLVE), "resolve");
}

static void test_object_names(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks_add_ntfn(ks, "n");
    ks_add_ep(ks, "e");
    ks_add_reply(ks, "r");
    ks_add_vcpu(ks, "v");
    const char *(*fns[])(const struct kstate *, int) = {ks_tcb_name, ks_sc_name, ks_ntfn_name, ks_ep_name,
                                                         ks_reply_name, ks_vcpu_name};
    static const char *const first[] = {"idle", "idle_sc", "n", "e", "r", "v"};
    for (unsigned f = 0; f < 6; f++) {
        assert_string_equal(fns[f](ks, 0), first[f]);
        assert_string_equal(fns[f](ks, KS_NONE), "-");
        assert_string_equal(fns[f](ks, -2), "?");
        assert_string_equal(fns[f](ks, 1), "?");
    }
    free(ks);
}

/* ---- copy and equality ---- */

static void test_copy_and_same(void **state)
{
    (void)state;
    struct kstate *a = tc_state(), *b = tc_state();
    assert_int_equal(preset_irquser(a, "imx8mm"), 0);
    ks_add_ep(a, "e");
    ks_add_reply(a, "r");
    KASSERT(a, false, A_FP_DEST);
    struct cost_rec rec;
    a->cost = &rec;
    ks_copy(b, a);
    /* a copy leaves the cost recorder behind; it is not kernel state */
    assert_null(b->cost);
    assert_true(ks_same(a, b));
    /* report-only fields and the unused tails of the arrays do not count */
    b->deadline_writes += 3;
    b->tcbs[b->n_tcbs].prio = 77;
    b->irq_state[b->n_irqs] = IRQ_Timer;
    assert_true(ks_same(a, b));

#define DIFFERS(change)          \
    do {                         \
        ks_copy(b, a);           \
        change;                  \
        assert_false(ks_same(a, b)); \
    } while (0)
    DIFFERS(b->hw_clock++);                 /* before deadline_writes */
    DIFFERS(b->release_head[0] = 1);        /* after the cost recorder */
    DIFFERS(ks_irq_touch(b, b->n_irqs));    /* table length */
    DIFFERS(b->n_asserts++);                /* assertion count */
    DIFFERS(b->tcbs[1].prio++);
    DIFFERS(b->scs[1].consumed++);
    DIFFERS(b->ntfns[0].msg_id++);
    DIFFERS(b->eps[0].state = EP_Recv);
    DIFFERS(b->replies[0].tcb = 1);
    DIFFERS(b->irq_state[PRESET_IRQ] = IRQ_Timer);
    DIFFERS(b->irq_masked[PRESET_IRQ] = true);
    DIFFERS(b->irq_acks[PRESET_IRQ]++);
    DIFFERS(b->irq_cfg[PRESET_IRQ] = KS_IRQ_EDGE);
    DIFFERS(b->irq_active[PRESET_IRQ] = true);
    DIFFERS(b->oor_active = true);          /* in the header */
    DIFFERS(b->irq_cap[PRESET_IRQ].badge++);
    DIFFERS(b->asserts[0].path = PATH_SLOW);
#undef DIFFERS
    free(a);
    free(b);
}

/* ---- deleting objects ---- */

/* Threads idle(0) a(1) b(2) c(3): every kind of reference to b and c. */
static struct kstate *remove_fixture(void)
{
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    int a = ks_add_tcb(ks, "a"), b = ks_add_tcb(ks, "b"), c = ks_add_tcb(ks, "c");
    int sa = ks_add_sc(ks, "sa"), sb = ks_add_sc(ks, "sb"), sc = ks_add_sc(ks, "sc");
    int n0 = ks_add_ntfn(ks, "n0"), n1 = ks_add_ntfn(ks, "n1"), n2 = ks_add_ntfn(ks, "n2");
    int e0 = ks_add_ep(ks, "e0"), e1 = ks_add_ep(ks, "e1"), e2 = ks_add_ep(ks, "e2");
    int r0 = ks_add_reply(ks, "r0"), r1 = ks_add_reply(ks, "r1"), r2 = ks_add_reply(ks, "r2");
    (void)n0, (void)e0, (void)r0;
    struct ks_tcb *A = &ks->tcbs[a], *B = &ks->tcbs[b], *C = &ks->tcbs[c];
    A->sched_next = (int8_t)b;
    B->sched_prev = (int8_t)a;
    B->sched_next = (int8_t)c;
    C->sched_prev = (int8_t)b;
    A->ep_next = (int8_t)c;
    C->ep_prev = (int8_t)a;
    B->ep_next = B->ep_prev = (int8_t)a;
    ks->scs[sa].tcb = (int8_t)a;
    ks->scs[sb].tcb = (int8_t)b;
    ks->scs[sc].tcb = (int8_t)c;
    A->sc = (int8_t)sa;
    B->sc = (int8_t)sb;
    C->sc = (int8_t)sc;
    ks->ntfns[n1].q_head = (int8_t)b;
    ks->ntfns[n1].q_tail = (int8_t)c;
    ks->ntfns[n1].bound_tcb = (int8_t)c;
    ks->ntfns[n2].sc = (int8_t)sc;
    ks->scs[sb].ntfn = (int8_t)n1;
    ks->scs[sc].ntfn = (int8_t)n2;
    ks->eps[e1].q_head = (int8_t)b;
    ks->eps[e1].q_tail = (int8_t)c;
    ks->replies[r1].tcb = (int8_t)b;
    ks->replies[r2].tcb = (int8_t)c;
    B->reply = (int8_t)r1;
    C->reply = (int8_t)r2;
    /* b waits on n1, c receives on e2; a is blocked on e1 */
    B->state = TS_BlockedOnNotification;
    B->blocking = (int8_t)n1;
    C->state = TS_BlockedOnReceive;
    C->blocking = (int8_t)e2;
    A->state = TS_BlockedOnSend;
    A->blocking = (int8_t)e1;
    C->bound_ntfn = (int8_t)n1;
    A->bound_ntfn = (int8_t)n2;
    ks->cur_thread = (int8_t)c;
    ks->cur_sc = (int8_t)sc;
    ks->release_head[0] = (int8_t)b;
    ks->release_head[1] = (int8_t)c;
    ks->core_cur[1] = (int8_t)c;
    ks->core_idle[1] = (int8_t)a;
    ks_irq_touch(ks, 3);
    ks->irq_cap[1].ntfn = (int8_t)n1;
    ks->irq_cap[2].ntfn = (int8_t)n2;
    ks->irq_cap[3].ntfn = (int8_t)n0;
    return ks;
}

static void test_remove_tcb(void **state)
{
    (void)state;
    for (int action = 0; action < 3; action++) {
        struct kstate *ks = remove_fixture();
        /* scheduler action: b itself, c after it, or resume (below) */
        ks->sched_action = action == 0 ? 2 : action == 1 ? 3 : KS_SA_RESUME;
        ks_remove(ks, KIND_TCB, 2);
        assert_int_equal(ks->n_tcbs, 3);
        assert_string_equal(ks->tcbs[2].name, "c");
        struct ks_tcb *A = &ks->tcbs[1], *C = &ks->tcbs[2];
        assert_int_equal(A->sched_next, KS_NONE);
        assert_int_equal(C->sched_prev, KS_NONE);
        assert_int_equal(A->ep_next, 2);
        assert_int_equal(C->ep_prev, 1);
        assert_int_equal(ks->scs[1].tcb, 1);
        assert_int_equal(ks->scs[2].tcb, KS_NONE);
        assert_int_equal(ks->scs[3].tcb, 2);
        assert_int_equal(ks->ntfns[1].q_head, KS_NONE);
        assert_int_equal(ks->ntfns[1].q_tail, 2);
        assert_int_equal(ks->ntfns[1].bound_tcb, 2);
        assert_int_equal(ks->eps[1].q_head, KS_NONE);
        assert_int_equal(ks->eps[1].q_tail, 2);
        assert_int_equal(ks->replies[1].tcb, KS_NONE);
        assert_int_equal(ks->replies[2].tcb, 2);
        assert_int_equal(ks->cur_thread, 2);
        assert_int_equal(ks->idle_thread, 0);
        assert_int_equal(ks->release_head[0], KS_NONE);
        assert_int_equal(ks->release_head[1], 2);
        assert_int_equal(ks->core_cur[1], 2);
        assert_int_equal(ks->core_idle[1], 1);
        static const int want[] = {KS_SA_CHOOSE, 2, KS_SA_RESUME};
        assert_int_equal(ks->sched_action, want[action]);
        free(ks);
    }
}

/* ks_is_idle: each core's idle thread (idle_thread, core_idle), no other */
static void test_is_idle(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    int t = build_thread(ks, "t", 10, 0);
    assert_true(ks_is_idle(ks, ks->idle_thread));
    assert_false(ks_is_idle(ks, t));
    int idle1 = build_core1(ks);
    assert_true(ks_is_idle(ks, idle1));
    assert_false(ks_is_idle(ks, t));
    free(ks);
}

static void test_remove_sc(void **state)
{
    (void)state;
    struct kstate *ks = remove_fixture();
    ks_remove(ks, KIND_SC, 2); /* sb */
    assert_int_equal(ks->n_scs, 3);
    assert_int_equal(ks->tcbs[1].sc, 1);
    assert_int_equal(ks->tcbs[2].sc, KS_NONE);
    assert_int_equal(ks->tcbs[3].sc, 2);
    assert_int_equal(ks->ntfns[2].sc, 2);
    assert_int_equal(ks->cur_sc, 2);
    assert_int_equal(ks->idle_sc, 0);
    free(ks);
}

static void test_remove_ntfn(void **state)
{
    (void)state;
    struct kstate *ks = remove_fixture();
    ks_remove(ks, KIND_NTFN, 1); /* n1 */
    assert_int_equal(ks->n_ntfns, 2);
    assert_string_equal(ks->ntfns[1].name, "n2");
    /* b waited on n1; c receives on an endpoint (e2 stays 2) */
    assert_int_equal(ks->tcbs[2].blocking, KS_NONE);
    assert_int_equal(ks->tcbs[3].blocking, 2);
    assert_int_equal(ks->tcbs[1].blocking, 1);
    assert_int_equal(ks->tcbs[3].bound_ntfn, KS_NONE);
    assert_int_equal(ks->tcbs[1].bound_ntfn, 1);
    assert_int_equal(ks->scs[2].ntfn, KS_NONE);
    assert_int_equal(ks->scs[3].ntfn, 1);
    assert_int_equal(ks->irq_cap[1].ntfn, KS_NONE);
    assert_int_equal(ks->irq_cap[2].ntfn, 1);
    assert_int_equal(ks->irq_cap[3].ntfn, 0);
    free(ks);
}

static void test_remove_ep(void **state)
{
    (void)state;
    struct kstate *ks = remove_fixture();
    ks_remove(ks, KIND_EP, 1); /* e1 */
    assert_int_equal(ks->n_eps, 2);
    assert_int_equal(ks->tcbs[1].blocking, KS_NONE); /* a sent on e1 */
    assert_int_equal(ks->tcbs[3].blocking, 1);       /* c: e2 -> 1 */
    assert_int_equal(ks->tcbs[2].blocking, 1);       /* b waits on n1: untouched */
    free(ks);
}

/* VCPUs: capacity; deleting one that a thread names and the core has
 * loaded leaves no thread naming it and the core as
 * vcpu_invalidate_active leaves it (none loaded, none active, master
 * vcpu.c:261-268); deleting a thread clears and shifts the VCPUs' links */
static void test_remove_vcpu(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    int a = ks_add_tcb(ks, "a"), b = ks_add_tcb(ks, "b"), c = ks_add_tcb(ks, "c");
    for (int v = 0; v < KS_MAX_VCPUS; v++)
        assert_int_equal(ks_add_vcpu(ks, NULL), v);
    assert_int_equal(ks_add_vcpu(ks, "x"), KS_NONE);
    ks->vcpus[1].tcb = (int8_t)b, ks->tcbs[b].vcpu = 1;
    ks->vcpus[2].tcb = (int8_t)c, ks->tcbs[c].vcpu = 2;
    ks->cur_vcpu = 1, ks->vcpu_active = true;
    ks_remove(ks, KIND_VCPU, 1);
    assert_int_equal(ks->n_vcpus, KS_MAX_VCPUS - 1);
    assert_int_equal(ks->tcbs[b].vcpu, KS_NONE);
    assert_int_equal(ks->tcbs[c].vcpu, 1); /* shifted down */
    assert_int_equal(ks->vcpus[1].tcb, c);
    assert_int_equal(ks->cur_vcpu, KS_NONE);
    assert_false(ks->vcpu_active);
    /* a VCPU not loaded: the core keeps its own */
    ks->cur_vcpu = 1, ks->vcpu_active = true;
    ks_remove(ks, KIND_VCPU, 0);
    assert_int_equal(ks->cur_vcpu, 0);
    assert_true(ks->vcpu_active);
    /* thread a goes: c's VCPU names c at its new index */
    ks_remove(ks, KIND_TCB, a);
    assert_int_equal(ks->vcpus[0].tcb, c - 1);
    assert_int_equal(ks->tcbs[c - 1].vcpu, 0);
    free(ks);
}

static void test_remove_reply(void **state)
{
    (void)state;
    struct kstate *ks = remove_fixture();
    ks_remove(ks, KIND_REPLY, 1); /* r1 */
    assert_int_equal(ks->n_replies, 2);
    assert_int_equal(ks->tcbs[2].reply, KS_NONE);
    assert_int_equal(ks->tcbs[3].reply, 1);
    /* an unknown kind deletes nothing */
    struct kstate *before = tc_state();
    ks_copy(before, ks);
    ks_remove(ks, (enum ks_kind)99, 0);
    assert_true(ks_same(before, ks));
    free(before);
    free(ks);
}

/* The joined names of set bits, "none" for no bit; a buffer too small
 * truncates the text (as snprintf does) and stays terminated. */
static void test_bits_text(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(ks_bits_text(0, 8, ks_ts_name, buf, sizeof buf), "none");
    assert_string_equal(ks_bits_text((1u << TS_Running) | (1u << TS_Restart), 8, ks_ts_name, buf, sizeof buf),
                        "Running+Restart");
    char small[12];
    ks_bits_text((1u << TS_Running) | (1u << TS_Restart), 8, ks_ts_name, small, sizeof small);
    assert_string_equal(small, "Running+Res");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits_text),
        cmocka_unit_test(test_kassert_text),
        cmocka_unit_test(test_ks_check_record),
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_add_and_names),
        cmocka_unit_test(test_irq_touch),
        cmocka_unit_test(test_name_tables),
        cmocka_unit_test(test_object_names),
        cmocka_unit_test(test_copy_and_same),
        cmocka_unit_test(test_remove_tcb),
        cmocka_unit_test(test_remove_sc),
        cmocka_unit_test(test_remove_ntfn),
        cmocka_unit_test(test_remove_ep),
        cmocka_unit_test(test_remove_reply),
        cmocka_unit_test(test_remove_vcpu),
        cmocka_unit_test(test_is_idle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
