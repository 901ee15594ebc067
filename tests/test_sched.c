/*
 * Scheduler tests (model of src/kernel/thread.c, src/object/tcb.c and
 * include/kernel/thread.h): ready queues and their two-level bitmaps, the
 * release queue, possibleSwitchTo / rescheduleRequired, schedule(), budget
 * charging, commitTime and updateTimestamp. Expected values are worked out
 * from the kernel's semantics in the comments.
 *
 * Bitmaps (addToBitmap/removeFromBitmap): the L1 word has bit prio >> 6;
 * the L2 word for that group is stored at the inverted index
 * L2_SIZE - 1 - (prio >> 6) = 3 - (prio >> 6) (256 priorities, 64-bit
 * words) and has bit prio & 63. An L2 bit is set when its queue becomes
 * non-empty and cleared when it becomes empty; the L1 bit is cleared when
 * the whole L2 word becomes zero.
 *
 * Board imx8mm: 8 MHz timer, MIN_BUDGET 160 ticks, timer precision 0, so
 * setNextInterrupt programs exactly the next interrupt time.
 */
#include "budget.h"
#include "tcommon.h"

static struct kstate g_ks, g_copy;

/* Run the checker, tolerating only the "user" invariant (scheduler action,
 * reprogram flag, a ready thread above the current one), which holds at
 * kernel boundaries but not in the middle of a kernel operation. */
static void assert_structural(const struct kstate *ks)
{
    struct inv_report r;
    int n = kstate_check(ks, INV_AT_EXIT, &r);
    int bad = 0;
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++) {
        if (r.items[i].id == INV_ENTRY)
            continue;
        print_error("invariant %s: %s\n", inv_name(r.items[i].id), r.items[i].msg);
        bad++;
    }
    assert_int_equal(bad, 0);
}

static struct kstate *fresh(ticks_t now)
{
    struct kstate *ks = &g_ks;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    assert_int_equal(ks->cfg.precision, 0);
    ks->cur_time = ks->hw_clock = now;
    return ks;
}

/* A Running thread with a round-robin SC (head = budget at time 0, empty
 * tail), in no queue. */
static int rr_thread(struct kstate *ks, const char *name, int prio, ticks_t budget)
{
    int t = build_thread(ks, name, prio, 0);
    assert_int_not_equal(t, KS_NONE);
    assert_int_not_equal(build_sc(ks, NULL, t, budget, 0, 0), KS_NONE);
    ks->tcbs[t].state = TS_Running;
    return t;
}

/* A Running thread with a periodic SC whose single refill starts at start. */
static int periodic_thread(struct kstate *ks, const char *name, int prio, ticks_t budget,
                           ticks_t period, ticks_t start)
{
    int t = build_thread(ks, name, prio, 0);
    assert_int_not_equal(t, KS_NONE);
    assert_int_not_equal(build_sc(ks, NULL, t, budget, period, start), KS_NONE);
    ks->tcbs[t].state = TS_Running;
    return t;
}

static void two_domains(struct kstate *ks, uint32_t len0_ms, uint32_t len1_ms)
{
    ks->cfg.num_domains = 2;
    ks->dom_len = 2;
    ks->dom_sched[0] = dschedule_make(0, cfg_us_to_ticks(&ks->cfg, (uint64_t)len0_ms * 1000));
    ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, (uint64_t)len1_ms * 1000));
    ks->dom_idx = 0;
    ks->cur_domain = 0;
}

/* ---- ready queues and bitmaps ---- */

/* tcbSchedEnqueue puts at the head, tcbSchedAppend at the tail; the
 * bitmap bits appear with the first thread of the queue. */
static void test_enqueue_append(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int a = rr_thread(ks, "a", 10, 1000), b = rr_thread(ks, "b", 10, 1000),
        c = rr_thread(ks, "c", 10, 1000);
    assert_int_equal(ks->l1[0][0], 0);

    tcbSchedEnqueue(ks, a);
    assert_true(ks->tcbs[a].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 10), a);
    assert_int_equal(ready_queue_tail(ks, 0, 0, 10), a);
    assert_int_equal(ks->l1[0][0], 1ull << 0);
    assert_int_equal(ks->l2[0][0][3], 1ull << 10);
    assert_int_equal(ks->l2[0][0][0] | ks->l2[0][0][1] | ks->l2[0][0][2], 0);

    tcbSchedEnqueue(ks, b); /* head: b, a */
    assert_int_equal(ready_queue_head(ks, 0, 0, 10), b);
    assert_int_equal(ks->tcbs[b].sched_prev, KS_NONE);
    assert_int_equal(ks->tcbs[b].sched_next, a);
    assert_int_equal(ks->tcbs[a].sched_prev, b);
    assert_int_equal(ks->tcbs[a].sched_next, KS_NONE);

    tcbSchedAppend(ks, c); /* tail: b, a, c */
    assert_int_equal(ready_queue_tail(ks, 0, 0, 10), c);
    assert_int_equal(ks->tcbs[a].sched_next, c);
    assert_int_equal(ks->tcbs[c].sched_prev, a);
    assert_int_equal(ks->tcbs[c].sched_next, KS_NONE);
    assert_int_equal(ks->l1[0][0], 1ull << 0);
    assert_int_equal(ks->l2[0][0][3], 1ull << 10);

    /* already queued: both are no-ops */
    ks_copy(&g_copy, ks);
    tcbSchedEnqueue(ks, c);
    tcbSchedAppend(ks, b);
    assert_true(ks_same(ks, &g_copy));
    tc_assert_no_asserts(ks);
    assert_structural(ks);
}

/* Appending to an empty queue sets the bits too; enqueue of a thread that
 * is not schedulable is a recorded kernel assertion. */
static void test_append_empty_and_assert(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int a = rr_thread(ks, "a", 200, 1000);
    tcbSchedAppend(ks, a);
    /* 200 >> 6 = 3: L1 bit 3, L2 word 3 - 3 = 0, bit 200 & 63 = 8 */
    assert_int_equal(ks->l1[0][0], 1ull << 3);
    assert_int_equal(ks->l2[0][0][0], 1ull << 8);
    assert_int_equal(ready_queue_head(ks, 0, 0, 200), a);
    tc_assert_no_asserts(ks);
    int z = build_thread(ks, "z", 5, 0); /* Inactive, no SC */
    int zsc = build_sc(ks, NULL, z, 1000, 0, 0);
    (void)zsc;
    tcbSchedEnqueue(ks, z);
    assert_true(ks->n_asserts >= 1);
    assert_int_equal(ks->asserts[0].id, A_ENQ_SCHEDULABLE);
}

/* tcbSchedDequeue from the middle, the head and the tail: the bitmap bit
 * stays while the queue is non-empty and goes with its last thread. */
static void test_dequeue(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int a = rr_thread(ks, "a", 10, 1000), b = rr_thread(ks, "b", 10, 1000),
        c = rr_thread(ks, "c", 10, 1000), d = rr_thread(ks, "d", 10, 1000);
    tcbSchedAppend(ks, a);
    tcbSchedAppend(ks, b);
    tcbSchedAppend(ks, c);
    tcbSchedAppend(ks, d); /* a b c d */

    tcbSchedDequeue(ks, b); /* middle: a c d */
    assert_false(ks->tcbs[b].queued);
    assert_int_equal(ks->tcbs[a].sched_next, c);
    assert_int_equal(ks->tcbs[c].sched_prev, a);
    assert_int_equal(ks->l2[0][0][3], 1ull << 10);
    assert_structural(ks);

    tcbSchedDequeue(ks, d); /* tail: a c */
    assert_int_equal(ks->tcbs[c].sched_next, KS_NONE);
    assert_int_equal(ready_queue_tail(ks, 0, 0, 10), c);
    assert_int_equal(ks->l1[0][0], 1);
    assert_structural(ks);

    tcbSchedDequeue(ks, a); /* head: c */
    assert_int_equal(ready_queue_head(ks, 0, 0, 10), c);
    assert_int_equal(ks->tcbs[c].sched_prev, KS_NONE);
    assert_int_equal(ks->l2[0][0][3], 1ull << 10);
    assert_structural(ks);

    /* not queued: nothing changes */
    ks_copy(&g_copy, ks);
    tcbSchedDequeue(ks, a);
    assert_true(ks_same(ks, &g_copy));

    tcbSchedDequeue(ks, c); /* the last one: bits cleared */
    assert_int_equal(ready_queue_head(ks, 0, 0, 10), KS_NONE);
    assert_int_equal(ks->l1[0][0], 0);
    assert_int_equal(ks->l2[0][0][3], 0);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* Two queues in one L2 word: removing one keeps the L1 bit. */
static void test_bitmap_shared_word(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int a = rr_thread(ks, "a", 10, 1000), b = rr_thread(ks, "b", 20, 1000);
    tcbSchedEnqueue(ks, a);
    tcbSchedEnqueue(ks, b);
    assert_int_equal(ks->l2[0][0][3], (1ull << 10) | (1ull << 20));
    tcbSchedDequeue(ks, a);
    assert_int_equal(ks->l2[0][0][3], 1ull << 20);
    assert_int_equal(ks->l1[0][0], 1);
    tcbSchedDequeue(ks, b);
    assert_int_equal(ks->l2[0][0][3], 0);
    assert_int_equal(ks->l1[0][0], 0);
}

/* getHighestPrio across words: 5 (L1 bit 0, L2 word 3 bit 5), 64 (L1 bit
 * 1, L2 word 2 bit 0), 200 (L1 bit 3, word 0 bit 8), 255 (L1 bit 3, word
 * 0 bit 63). The highest L1 bit picks the word, its highest bit the
 * priority. */
static void test_highest_prio(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int t5 = rr_thread(ks, "p5", 5, 1000), t64 = rr_thread(ks, "p64", 64, 1000),
        t200 = rr_thread(ks, "p200", 200, 1000), t255 = rr_thread(ks, "p255", 255, 1000);
    tcbSchedEnqueue(ks, t64);
    tcbSchedEnqueue(ks, t5);
    tcbSchedEnqueue(ks, t255);
    tcbSchedEnqueue(ks, t200);
    assert_int_equal(ks->l1[0][0], (1ull << 0) | (1ull << 1) | (1ull << 3));
    assert_int_equal(ks->l2[0][0][0], (1ull << 8) | (1ull << 63));
    assert_int_equal(ks->l2[0][0][1], 0);
    assert_int_equal(ks->l2[0][0][2], 1ull << 0);
    assert_int_equal(ks->l2[0][0][3], 1ull << 5);
    assert_int_equal(getHighestPrio(ks, 0), 255);
    assert_false(isHighestPrio(ks, 0, 254));
    assert_true(isHighestPrio(ks, 0, 255));
    tcbSchedDequeue(ks, t255);
    assert_int_equal(getHighestPrio(ks, 0), 200);
    assert_int_equal((ks->l1[0][0] >> 3) & 1, 1); /* 200 still in word 0 */
    tcbSchedDequeue(ks, t200);
    assert_int_equal(ks->l1[0][0], (1ull << 0) | (1ull << 1));
    assert_int_equal(getHighestPrio(ks, 0), 64);
    assert_true(isHighestPrio(ks, 0, 64));
    assert_false(isHighestPrio(ks, 0, 63));
    tcbSchedDequeue(ks, t64);
    assert_int_equal(getHighestPrio(ks, 0), 5);
    tcbSchedDequeue(ks, t5);
    assert_int_equal(ks->l1[0][0], 0);
    /* empty: every priority is the highest */
    assert_true(isHighestPrio(ks, 0, 0));
    tc_assert_no_asserts(ks);
    /* getHighestPrio on an empty bitmap: clzl(0) is undefined, the kernel
     * asserts first; recorded */
    (void)getHighestPrio(ks, 0);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_HIGHEST_L1);
}

/* Queues of other domains have their own bitmaps. */
static void test_bitmap_per_domain(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    two_domains(ks, 10, 10);
    int a = rr_thread(ks, "a", 7, 1000), b = rr_thread(ks, "b", 250, 1000);
    ks->tcbs[b].domain = 1;
    tcbSchedEnqueue(ks, a);
    tcbSchedEnqueue(ks, b);
    assert_int_equal(ks->l1[0][0], 1);
    assert_int_equal(ks->l1[0][1], 1ull << 3);
    assert_int_equal(ks->l2[0][1][0], 1ull << (250 & 63));
    assert_int_equal(getHighestPrio(ks, 0), 7);
    assert_int_equal(getHighestPrio(ks, 1), 250);
    assert_structural(ks);
}

/* ---- release queue ---- */

/* tcbReleaseEnqueue keeps the queue sorted by head refill time and puts a
 * thread after those with an equal time; ksReprogram is set only when the
 * new thread becomes the head. */
static void test_release_queue(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int x = periodic_thread(ks, "x", 10, 500, 10000, 2000);
    int y = periodic_thread(ks, "y", 10, 500, 10000, 3000);
    int z = periodic_thread(ks, "z", 10, 500, 10000, 2000);
    int w = periodic_thread(ks, "w", 10, 500, 10000, 1000);

    tcbReleaseEnqueue(ks, x); /* x */
    assert_int_equal(ks->release_head[0], x);
    assert_true(ks->tcbs[x].in_release);
    assert_true(ks->reprogram);

    ks->reprogram = false;
    tcbReleaseEnqueue(ks, y); /* x y */
    assert_int_equal(ks->tcbs[x].sched_next, y);
    assert_false(ks->reprogram);

    tcbReleaseEnqueue(ks, z); /* equal to x's 2000: after x, before y */
    assert_int_equal(ks->tcbs[x].sched_next, z);
    assert_int_equal(ks->tcbs[z].sched_prev, x);
    assert_int_equal(ks->tcbs[z].sched_next, y);
    assert_int_equal(ks->tcbs[y].sched_prev, z);
    assert_false(ks->reprogram);

    tcbReleaseEnqueue(ks, w); /* 1000: new head */
    assert_int_equal(ks->release_head[0], w);
    assert_int_equal(ks->tcbs[w].sched_prev, KS_NONE);
    assert_int_equal(ks->tcbs[w].sched_next, x);
    assert_int_equal(ks->tcbs[x].sched_prev, w);
    assert_true(ks->reprogram);
    tc_assert_no_asserts(ks);
    ks->reprogram = false;
    tc_assert_valid(ks, INV_AT_ENTRY); /* w x z y, all in the future */

    /* tcbReleaseDequeue takes the head and sets ksReprogram */
    assert_int_equal(tcbReleaseDequeue(ks), w);
    assert_false(ks->tcbs[w].in_release);
    assert_int_equal(ks->tcbs[w].sched_next, KS_NONE);
    assert_int_equal(ks->release_head[0], x);
    assert_int_equal(ks->tcbs[x].sched_prev, KS_NONE);
    assert_true(ks->reprogram);

    /* tcbReleaseRemove from the middle: no reprogram */
    ks->reprogram = false;
    tcbReleaseRemove(ks, z); /* x y */
    assert_false(ks->tcbs[z].in_release);
    assert_int_equal(ks->tcbs[z].sched_next, KS_NONE);
    assert_int_equal(ks->tcbs[z].sched_prev, KS_NONE);
    assert_int_equal(ks->tcbs[x].sched_next, y);
    assert_int_equal(ks->tcbs[y].sched_prev, x);
    assert_false(ks->reprogram);

    /* not in the queue: nothing */
    ks_copy(&g_copy, ks);
    tcbReleaseRemove(ks, z);
    assert_true(ks_same(ks, &g_copy));

    /* removing the head moves it and sets ksReprogram */
    tcbReleaseRemove(ks, x);
    assert_int_equal(ks->release_head[0], y);
    assert_int_equal(ks->tcbs[y].sched_prev, KS_NONE);
    assert_true(ks->reprogram);
    ks->reprogram = false;
    tc_assert_no_asserts(ks);
    assert_structural(ks);

    /* removing the last one empties it */
    tcbReleaseRemove(ks, y);
    assert_int_equal(ks->release_head[0], KS_NONE);
    /* tcbReleaseDequeue on an empty queue is a recorded assertion */
    assert_int_equal(tcbReleaseDequeue(ks), KS_NONE);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_REL_DEQ_NONEMPTY);
}

/* Enqueueing a thread already in the release queue is a kernel assert. */
static void test_release_enqueue_twice(void **state)
{
    (void)state;
    struct kstate *ks = fresh(0);
    int x = periodic_thread(ks, "x", 10, 500, 10000, 2000);
    tcbReleaseEnqueue(ks, x);
    tc_assert_no_asserts(ks);
    tcbReleaseEnqueue(ks, x);
    assert_true(ks->n_asserts >= 1);
    assert_int_equal(ks->asserts[0].id, A_REL_ENQ_NOT_IN_RELEASE);
}

/* ---- possibleSwitchTo / rescheduleRequired ---- */

static void test_possible_switch_to(void **state)
{
    (void)state;
    struct kstate *ks = fresh(100);
    two_domains(ks, 10, 10);
    int cur = rr_thread(ks, "cur", 100, 20000);
    build_run(ks, cur);
    int other = rr_thread(ks, "other", 50, 1000);
    ks->tcbs[other].domain = 1;

    /* 1: another domain -> enqueued in that domain's queue, action kept */
    possibleSwitchTo(ks, other);
    assert_true(ks->tcbs[other].queued);
    assert_int_equal(ready_queue_head(ks, 0, 1, 50), other);
    assert_int_equal(ks->l1[0][1], 1);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    tc_assert_valid(ks, INV_AT_ENTRY);

    /* 3: same domain, action ResumeCurrentThread -> SwitchToThread(t),
     * t not queued */
    int t = rr_thread(ks, "t", 120, 1000);
    possibleSwitchTo(ks, t);
    assert_int_equal(ks->sched_action, t);
    assert_false(ks->tcbs[t].queued);

    /* 2: action already set -> rescheduleRequired (which enqueues the
     * previous candidate t, schedulable) and enqueue the new one */
    int u = rr_thread(ks, "u", 30, 1000);
    possibleSwitchTo(ks, u);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_true(ks->tcbs[t].queued);
    assert_true(ks->tcbs[u].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 120), t);
    assert_int_equal(ready_queue_head(ks, 0, 0, 30), u);

    /* 2 again with ChooseNewThread: only the new one is enqueued */
    int v = rr_thread(ks, "v", 30, 1000);
    possibleSwitchTo(ks, v);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_int_equal(ready_queue_head(ks, 0, 0, 30), v); /* at the head */
    assert_int_equal(ks->tcbs[v].sched_next, u);
    tc_assert_no_asserts(ks);
    assert_structural(ks);
}

/* Threads without an SC, or in the release queue, are left alone. */
static void test_possible_switch_to_skips(void **state)
{
    (void)state;
    struct kstate *ks = fresh(100);
    int cur = rr_thread(ks, "cur", 100, 20000);
    build_run(ks, cur);
    int nosc = build_thread(ks, "nosc", 120, 0);
    ks->tcbs[nosc].state = TS_Running;
    int rel = periodic_thread(ks, "rel", 120, 500, 10000, 5000);
    tcbReleaseEnqueue(ks, rel);
    ks->reprogram = false;
    ks_copy(&g_copy, ks);
    possibleSwitchTo(ks, nosc);
    possibleSwitchTo(ks, rel);
    assert_true(ks_same(ks, &g_copy));
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
}

/* rescheduleRequired enqueues a schedulable action thread (at the head of
 * its queue), never an unschedulable one, and always leaves
 * ChooseNewThread. */
static void test_reschedule_required(void **state)
{
    (void)state;
    struct kstate *ks = fresh(100);
    int cur = rr_thread(ks, "cur", 100, 20000);
    build_run(ks, cur);
    int q = rr_thread(ks, "q", 80, 1000), t = rr_thread(ks, "t", 80, 1000);
    build_ready(ks, q);

    ks->sched_action = (int16_t)t;
    rescheduleRequired(ks);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_true(ks->tcbs[t].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 80), t);
    assert_int_equal(ks->tcbs[t].sched_next, q);

    int blocked = rr_thread(ks, "blk", 90, 1000);
    ks->tcbs[blocked].state = TS_Inactive;
    ks->sched_action = (int16_t)blocked;
    rescheduleRequired(ks);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_false(ks->tcbs[blocked].queued);

    ks->sched_action = KS_SA_RESUME;
    ks_copy(&g_copy, ks);
    rescheduleRequired(ks);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    g_copy.sched_action = KS_SA_CHOOSE;
    assert_true(ks_same(ks, &g_copy));
    tc_assert_no_asserts(ks);
}

/* setThreadState -> scheduleTCB: only the current thread, only while the
 * action is ResumeCurrentThread, and only if it stops being schedulable,
 * asks for a reschedule. */
static void test_set_thread_state(void **state)
{
    (void)state;
    struct kstate *ks = fresh(100);
    int cur = rr_thread(ks, "cur", 100, 20000);
    build_run(ks, cur);
    int o = rr_thread(ks, "o", 120, 1000);
    setThreadState(ks, o, TS_Inactive); /* not current */
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    setThreadState(ks, cur, TS_Restart); /* still schedulable */
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    setThreadState(ks, cur, TS_BlockedOnReply);
    assert_int_equal(ks->tcbs[cur].state, TS_BlockedOnReply);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    /* an action already set is left alone */
    ks->tcbs[o].state = TS_Running;
    ks->sched_action = (int16_t)o;
    setThreadState(ks, cur, TS_Inactive);
    assert_int_equal(ks->sched_action, o);
    assert_false(ks->tcbs[o].queued);
    tc_assert_no_asserts(ks);
}

/* ---- schedule() ---- */

/* A running thread cur at 100 with a 20000-tick round-robin SC, at time
 * 10000, last commit `consumed` ticks ago. */
static struct kstate *sched_base(int *cur, ticks_t consumed)
{
    struct kstate *ks = fresh(10000);
    *cur = rr_thread(ks, "cur", 100, 20000);
    build_run(ks, *cur);
    ks->consumed = consumed;
    ks->deadline = 123456; /* marker: only setNextInterrupt changes it */
    return ks;
}

/* fastfail: the candidate (50) is below the current thread (100) and not
 * the highest priority (cur, re-enqueued as it was runnable, is at 100):
 * the candidate is enqueued and chooseThread picks cur back (dequeued).
 * No SC change, so no reprogram: time not committed, deadline untouched. */
static void test_schedule_fastfail(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 500);
    int r = rr_thread(ks, "r", 80, 1000);
    build_ready(ks, r);
    int c = rr_thread(ks, "c", 50, 1000);
    tc_assert_valid(ks, INV_AT_ENTRY);
    possibleSwitchTo(ks, c);
    assert_int_equal(ks->sched_action, c);
    schedule(ks);
    assert_int_equal(ks->cur_thread, cur);
    assert_false(ks->tcbs[cur].queued);
    assert_true(ks->tcbs[c].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 50), c);
    assert_true(ks->tcbs[r].queued);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    assert_int_equal(ks->deadline, 123456);
    assert_int_equal(ks->deadline_writes, 0);
    assert_int_equal(ks->consumed, 500);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* The idle thread always takes the fastfail test. A candidate (10) below
 * a ready thread (20) is enqueued and chooseThread picks the 20. */
static void test_schedule_fastfail_idle(void **state)
{
    (void)state;
    struct kstate *ks = fresh(10000);
    int r = rr_thread(ks, "r", 20, 1000);
    build_ready(ks, r);
    int c = rr_thread(ks, "c", 10, 1000);
    possibleSwitchTo(ks, c);
    schedule(ks);
    assert_int_equal(ks->cur_thread, r);
    assert_int_equal(ks->cur_sc, ks->tcbs[r].sc);
    assert_true(ks->tcbs[c].queued);
    assert_false(ks->tcbs[r].queued);
    /* SC changed: reprogram: deadline = now + r's head (1000) */
    assert_int_equal(ks->deadline, 10000 + 1000);
    assert_false(ks->reprogram);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* From idle, a candidate that is the highest priority is switched to
 * directly; the lower ready thread stays queued. */
static void test_schedule_idle_direct(void **state)
{
    (void)state;
    struct kstate *ks = fresh(10000);
    int r = rr_thread(ks, "r", 20, 1000);
    build_ready(ks, r);
    int c = rr_thread(ks, "c", 50, 3000);
    possibleSwitchTo(ks, c);
    schedule(ks);
    assert_int_equal(ks->cur_thread, c);
    assert_true(ks->tcbs[r].queued);
    assert_false(ks->tcbs[c].queued);
    assert_int_equal(ks->deadline, 10000 + 3000);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* Equal priority: cur (runnable) is enqueued at the head of 100, the
 * candidate appended behind it, and chooseThread picks cur again. */
static void test_schedule_equal_append(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 0);
    int o = rr_thread(ks, "o", 100, 1000);
    build_ready(ks, o);
    int c = rr_thread(ks, "c", 100, 1000);
    tc_assert_valid(ks, INV_AT_ENTRY);
    possibleSwitchTo(ks, c);
    schedule(ks);
    assert_int_equal(ks->cur_thread, cur);
    /* queue 100: o (was there), c appended; cur dequeued again */
    assert_int_equal(ready_queue_head(ks, 0, 0, 100), o);
    assert_int_equal(ready_queue_tail(ks, 0, 0, 100), c);
    assert_int_equal(ks->tcbs[o].sched_next, c);
    assert_false(ks->tcbs[cur].queued);
    assert_int_equal(ks->deadline_writes, 0);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* Direct switch to a higher candidate (150): cur is enqueued at the head
 * of 100; switchSchedContext sees a new SC: reprogram, commitTime charges
 * the 2000 consumed ticks to cur's round-robin SC (head 20000 -> 18000,
 * tail 0 -> 2000), then setNextInterrupt: 10000 + c's head 5000. */
static void test_schedule_direct_switch(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 2000);
    int csc_cur = ks->cur_sc;
    int c = rr_thread(ks, "c", 150, 5000);
    tc_assert_valid(ks, INV_AT_ENTRY);
    possibleSwitchTo(ks, c);
    schedule(ks);
    assert_int_equal(ks->cur_thread, c);
    assert_int_equal(ks->cur_sc, ks->tcbs[c].sc);
    assert_true(ks->tcbs[cur].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 100), cur);
    assert_int_equal(refill_head(ks, csc_cur)->amount, 18000);
    assert_int_equal(refill_tail(ks, csc_cur)->amount, 2000);
    assert_int_equal(ks->scs[csc_cur].consumed, 2000);
    assert_int_equal(ks->consumed, 0);
    assert_int_equal(ks->deadline, 10000 + 5000);
    assert_false(ks->reprogram);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* Domain expiry: two domains (10 ms, 5 ms), domain time 1000 ticks. The
 * clock moves 900 ticks: 900 + MIN_BUDGET (160) >= 1000, so
 * updateTimestamp sets the domain time to 0. schedule(): checkDomainTime
 * sees it expired (reprogram, ChooseNewThread); cur is enqueued in domain
 * 0; scheduleChooseNewThread calls nextDomain: index 1, domain 1, domain
 * time usToTicks(5 ms) = 40000; chooseThread picks d, the only thread of
 * domain 1. commitTime charges 900 to cur's SC; the deadline is the
 * earlier of now + d's head (50000) and now + domain time (40000). */
static void test_schedule_domain_expiry(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 0);
    two_domains(ks, 10, 5);
    ks->domain_time = 1000;
    int csc_cur = ks->cur_sc;
    int d = rr_thread(ks, "d", 10, 50000);
    ks->tcbs[d].domain = 1;
    build_ready(ks, d);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->hw_clock = 10900;
    updateTimestamp(ks);
    assert_int_equal(ks->domain_time, 0);
    assert_int_equal(ks->consumed, 900);
    schedule(ks);
    assert_int_equal(ks->cur_domain, 1);
    assert_int_equal(ks->dom_idx, 1);
    assert_int_equal(ks->domain_time, 40000);
    assert_int_equal(ks->cur_thread, d);
    assert_true(ks->tcbs[cur].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 100), cur);
    assert_int_equal(refill_head(ks, csc_cur)->amount, 20000 - 900);
    assert_int_equal(ks->deadline, 10900 + 40000);
    assert_false(ks->reprogram);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* awaken: p (150, periodic, head at 10000) and q (150, head at 12000)
 * wait in the release queue. At 10000 p is ready: dequeued,
 * possibleSwitchTo(p) makes it the candidate, reprogram. schedule()
 * switches to it (150 > 100); its constant-bandwidth unblock check moves
 * the head to now (already 10000). commitTime charges the 2000 ticks to
 * cur. The deadline is the earlier of now + p's head (2000) = 12000 and
 * the release head q's 12000. */
static void test_schedule_awaken(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 0);
    ks->cur_time = ks->hw_clock = 8000;
    int csc_cur = ks->cur_sc;
    int p = periodic_thread(ks, "p", 150, 2000, 10000, 10000);
    int q = periodic_thread(ks, "q", 150, 2000, 10000, 12000);
    tcbReleaseEnqueue(ks, q);
    tcbReleaseEnqueue(ks, p);
    assert_int_equal(ks->release_head[0], p);
    ks->reprogram = false;
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->hw_clock = 10000;
    updateTimestamp(ks);
    schedule(ks);
    assert_int_equal(ks->cur_thread, p);
    assert_false(ks->tcbs[p].in_release);
    assert_true(ks->tcbs[q].in_release);
    assert_int_equal(ks->release_head[0], q);
    assert_int_equal(refill_head(ks, ks->tcbs[p].sc)->time, 10000);
    assert_true(ks->tcbs[cur].queued);
    assert_int_equal(refill_head(ks, csc_cur)->amount, 18000);
    assert_int_equal(ks->deadline, 12000);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* switchSchedContext runs refill_unblock_check on a new constant-bandwidth
 * SC (scSporadic false): c's ready head {2000,300} moves to now (10000)
 * and absorbs {2500,200}, which now starts before it ends: {10000,500};
 * deadline 10000 + 500. A sporadic SC is left as it is (its check ran
 * when it was woken): head {2000,300}, deadline 10000 + 300. */
static void test_schedule_switch_unblock(void **state)
{
    (void)state;
    for (int sporadic = 0; sporadic < 2; sporadic++) {
        int cur;
        struct kstate *ks = sched_base(&cur, 0);
        int c = periodic_thread(ks, "c", 150, 500, 10000, 2000);
        int sc = ks->tcbs[c].sc;
        ks->scs[sc].refills[0].amount = 300;
        ks->scs[sc].refills[1].time = 2500;
        ks->scs[sc].refills[1].amount = 200;
        ks->scs[sc].tail = 1;
        ks->scs[sc].sporadic = sporadic;
        possibleSwitchTo(ks, c);
        schedule(ks);
        assert_int_equal(ks->cur_thread, c);
        if (sporadic) {
            assert_int_equal(refill_size(&ks->scs[sc]), 2);
            assert_int_equal(refill_head(ks, sc)->time, 2000);
            assert_int_equal(ks->deadline, 10000 + 300);
        } else {
            assert_int_equal(refill_size(&ks->scs[sc]), 1);
            assert_int_equal(refill_head(ks, sc)->time, 10000);
            assert_int_equal(refill_head(ks, sc)->amount, 500);
            assert_int_equal(ks->deadline, 10000 + 500);
        }
        tc_assert_no_asserts(ks);
        tc_assert_valid(ks, INV_AT_EXIT);
    }
}

/* A released thread below the current one is only enqueued. */
static void test_schedule_awaken_lower(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 0);
    ks->cur_time = ks->hw_clock = 8000;
    int p = periodic_thread(ks, "p", 50, 2000, 10000, 9000);
    tcbReleaseEnqueue(ks, p);
    ks->reprogram = false;
    ks->hw_clock = 10000;
    updateTimestamp(ks);
    schedule(ks);
    assert_int_equal(ks->cur_thread, cur);
    assert_true(ks->tcbs[p].queued);
    assert_int_equal(ks->release_head[0], KS_NONE);
    /* awaken set reprogram: time committed (2000 from cur's head) and the
     * deadline is now + cur's remaining 18000 */
    assert_int_equal(ks->deadline, 10000 + 18000);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* ---- chargeBudget / endTimeslice ---- */

/* Round robin: t (100) has used its 7000-tick head (tail holds 3000).
 * checkBudget: capacity(7000) = 0 < MIN_BUDGET -> chargeBudget(7000):
 * head += tail (10000), tail = 0, consumed 7000; endTimeslice appends t
 * behind o; rescheduleRequired; reprogram. schedule() then picks o, the
 * head of 100. */
static void test_charge_round_robin(void **state)
{
    (void)state;
    struct kstate *ks = fresh(20000);
    int t = rr_thread(ks, "t", 100, 10000);
    int sc = ks->tcbs[t].sc;
    refill_head(ks, sc)->amount = 7000;
    refill_tail(ks, sc)->amount = 3000;
    build_run(ks, t);
    int o = rr_thread(ks, "o", 100, 4000);
    build_ready(ks, o);
    ks->consumed = 7000;
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_false(checkBudget(ks));
    assert_int_equal(refill_head(ks, sc)->amount, 10000);
    assert_int_equal(refill_tail(ks, sc)->amount, 0);
    assert_int_equal(ks->scs[sc].consumed, 7000);
    assert_int_equal(ks->consumed, 0);
    assert_true(ks->tcbs[t].queued);
    assert_int_equal(ready_queue_head(ks, 0, 0, 100), o);
    assert_int_equal(ready_queue_tail(ks, 0, 0, 100), t);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_true(ks->reprogram);
    schedule(ks);
    assert_int_equal(ks->cur_thread, o);
    assert_int_equal(ready_queue_head(ks, 0, 0, 100), t);
    assert_int_equal(ks->deadline, 20000 + 4000);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* A round-robin thread with a timeout handler is not faulted (only
 * non-round-robin SCs take timeout faults): it is appended. */
static void test_charge_round_robin_handler(void **state)
{
    (void)state;
    struct kstate *ks = fresh(20000);
    int t = rr_thread(ks, "t", 100, 10000);
    ks->tcbs[t].timeout_handler = true;
    build_run(ks, t);
    chargeBudget(ks, 0, true);
    assert_int_equal(ks->tcbs[t].fault, FAULT_None);
    assert_true(ks->tcbs[t].queued);
    tc_assert_no_asserts(ks);
}

/* Periodic: t's single refill {0,2000} (period 10000) is used up at 2000.
 * checkBudget -> chargeBudget(2000): refill_budget_check uses the whole
 * refill, which moves to {10000,2000}. endTimeslice: no timeout handler,
 * not ready -> postpone: t enters the release queue (its head), reprogram.
 * schedule(): nothing ready, idle runs; commitTime has nothing left;
 * deadline = min(now + idle head 40000, release head 10000) = 10000. */
static void test_charge_periodic_postpone(void **state)
{
    (void)state;
    struct kstate *ks = fresh(2000);
    int t = periodic_thread(ks, "t", 100, 2000, 10000, 0);
    int sc = ks->tcbs[t].sc;
    build_run(ks, t);
    ks->consumed = 2000;
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_false(checkBudget(ks));
    assert_int_equal(refill_size(&ks->scs[sc]), 1);
    assert_int_equal(refill_head(ks, sc)->time, 10000);
    assert_int_equal(refill_head(ks, sc)->amount, 2000);
    assert_int_equal(ks->scs[sc].consumed, 2000);
    assert_true(ks->tcbs[t].in_release);
    assert_false(ks->tcbs[t].queued);
    assert_int_equal(ks->release_head[0], t);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    schedule(ks);
    assert_int_equal(ks->cur_thread, ks->idle_thread);
    assert_int_equal(ks->cur_sc, ks->idle_sc);
    assert_int_equal(ks->deadline, 10000);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* postpone sets ksReprogram (on the SC's core) even when the thread does
 * not become the release head: q (head at 5000) stays first, t (10000)
 * goes behind it. */
static void test_postpone_behind(void **state)
{
    (void)state;
    struct kstate *ks = fresh(2000);
    int q = periodic_thread(ks, "q", 10, 500, 10000, 5000);
    build_release(ks, q);
    int t = periodic_thread(ks, "t", 100, 2000, 10000, 10000);
    ks->reprogram = false;
    postpone(ks, ks->tcbs[t].sc);
    assert_int_equal(ks->release_head[0], q);
    assert_int_equal(ks->tcbs[q].sched_next, t);
    assert_int_equal(ks->tcbs[t].sched_prev, q);
    assert_true(ks->tcbs[t].in_release);
    assert_true(ks->reprogram);
    tc_assert_no_asserts(ks);
    assert_structural(ks);
}

/* The same with a partly used refill that is split: {0,2000} at 1900
 * (consumed 1900): capacity 100 < 160 -> chargeBudget(1900): split into
 * head {1900,100} and used {10000,1900}; the head is below MIN_BUDGET and
 * merges into the next: {10000 - 100, 2000} = {9900,2000}. Not ready ->
 * postponed; a ready thread o (50) runs. */
static void test_charge_periodic_split(void **state)
{
    (void)state;
    struct kstate *ks = fresh(1900);
    int t = periodic_thread(ks, "t", 100, 2000, 10000, 0);
    int sc = ks->tcbs[t].sc;
    build_run(ks, t);
    int o = rr_thread(ks, "o", 50, 3000);
    build_ready(ks, o);
    ks->consumed = 1900;
    assert_false(checkBudget(ks));
    assert_int_equal(refill_size(&ks->scs[sc]), 1);
    assert_int_equal(refill_head(ks, sc)->time, 9900);
    assert_int_equal(refill_head(ks, sc)->amount, 2000);
    assert_true(ks->tcbs[t].in_release);
    schedule(ks);
    assert_int_equal(ks->cur_thread, o);
    /* min(1900 + 3000, release head 9900) */
    assert_int_equal(ks->deadline, 4900);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* handleTimeout: with a valid timeout handler and canTimeoutFault, the
 * thread takes a timeout fault instead of being postponed: blocked,
 * faulted, in no queue; setThreadState on the current thread asks for a
 * reschedule. Idle runs; the deadline is now + idle's head (no release
 * head). Without canTimeoutFault it is postponed as usual. */
static void test_charge_timeout_handler(void **state)
{
    (void)state;
    struct kstate *ks = fresh(2000);
    int t = periodic_thread(ks, "t", 100, 2000, 10000, 0);
    int sc = ks->tcbs[t].sc;
    ks->tcbs[t].timeout_handler = true;
    build_run(ks, t);
    ks->consumed = 2000;
    assert_false(checkBudget(ks));
    assert_int_equal(ks->tcbs[t].fault, FAULT_Timeout);
    assert_int_equal(ks->tcbs[t].state, TS_BlockedOnSend);
    assert_false(ks->tcbs[t].in_release);
    assert_false(ks->tcbs[t].queued);
    assert_int_equal(ks->release_head[0], KS_NONE);
    assert_int_equal(refill_head(ks, sc)->time, 10000);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    schedule(ks);
    assert_int_equal(ks->cur_thread, ks->idle_thread);
    assert_int_equal(ks->deadline, 2000 + refill_head(ks, ks->idle_sc)->amount);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);

    ks = fresh(2000);
    t = periodic_thread(ks, "t", 100, 2000, 10000, 0);
    ks->tcbs[t].timeout_handler = true;
    build_run(ks, t);
    chargeBudget(ks, 2000, false);
    assert_int_equal(ks->tcbs[t].fault, FAULT_None);
    assert_true(ks->tcbs[t].in_release);
    tc_assert_no_asserts(ks);
}

/* chargeBudget on the idle SC charges nothing but clears ksConsumed; idle
 * is not schedulable, so no timeslice ends. */
static void test_charge_idle(void **state)
{
    (void)state;
    struct kstate *ks = fresh(5000);
    ks->consumed = 700;
    ks_copy(&g_copy, ks);
    chargeBudget(ks, 700, true);
    g_copy.consumed = 0;
    assert_true(ks_same(ks, &g_copy));
}

/* ---- commitTime ---- */

static void test_commit_time(void **state)
{
    (void)state;
    /* round robin: head -= consumed, tail += consumed */
    struct kstate *ks = fresh(5000);
    int t = rr_thread(ks, "t", 100, 10000);
    int sc = ks->tcbs[t].sc;
    refill_head(ks, sc)->amount = 7000;
    refill_tail(ks, sc)->amount = 3000;
    ks->scs[sc].consumed = 5;
    build_run(ks, t);
    ks->consumed = 1000;
    commitTime(ks);
    assert_int_equal(refill_head(ks, sc)->amount, 6000);
    assert_int_equal(refill_tail(ks, sc)->amount, 4000);
    assert_int_equal(ks->scs[sc].consumed, 1005);
    assert_int_equal(ks->consumed, 0);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);

    /* periodic: refill_budget_check(500) on {0,2000}, period 10000:
     * head {500,1500}, used {10000,500} appended */
    ks = fresh(500);
    t = periodic_thread(ks, "t", 100, 2000, 10000, 0);
    sc = ks->tcbs[t].sc;
    build_run(ks, t);
    ks->consumed = 500;
    commitTime(ks);
    assert_int_equal(refill_size(&ks->scs[sc]), 2);
    assert_int_equal(refill_head(ks, sc)->time, 500);
    assert_int_equal(refill_head(ks, sc)->amount, 1500);
    assert_int_equal(refill_tail(ks, sc)->time, 10000);
    assert_int_equal(refill_tail(ks, sc)->amount, 500);
    assert_int_equal(ks->scs[sc].consumed, 500);
    assert_int_equal(ks->consumed, 0);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);

    /* nothing consumed: nothing charged */
    ks_copy(&g_copy, ks);
    commitTime(ks);
    assert_true(ks_same(ks, &g_copy));

    /* idle SC: never charged, ksConsumed still cleared */
    ks = fresh(500);
    ks->consumed = 300;
    ks_copy(&g_copy, ks);
    commitTime(ks);
    g_copy.consumed = 0;
    assert_true(ks_same(ks, &g_copy));

    /* an SC that is not configured is not charged either */
    ks = fresh(500);
    int u = build_thread(ks, "u", 10, 0);
    int usc = build_sc_unconfigured(ks, NULL, u);
    ks->cur_sc = (int8_t)usc;
    ks->consumed = 300;
    commitTime(ks);
    assert_int_equal(ks->scs[usc].consumed, 0);
    assert_int_equal(ks->consumed, 0);
}

/* commitTime's asserts are recorded: charging 900 to a 1000-tick head
 * leaves 100 < MIN_BUDGET, both before (capacity after usage) and after. */
static void test_commit_time_asserts(void **state)
{
    (void)state;
    struct kstate *ks = fresh(5000);
    int t = rr_thread(ks, "t", 100, 1000);
    build_run(ks, t);
    ks->consumed = 900;
    commitTime(ks);
    assert_int_equal(ks->n_asserts, 2);
    assert_int_equal(ks->asserts[0].id, A_COMMIT_SUFFICIENT);
    assert_int_equal(ks->asserts[1].id, A_COMMIT_SUFFICIENT_AFTER);
    assert_int_equal(refill_head(ks, ks->tcbs[t].sc)->amount, 100);
}

/* ---- updateTimestamp ---- */

/* The domain time is cut to 0 when the time consumed plus MIN_BUDGET
 * reaches it (not enough left to get through another kernel entry);
 * otherwise it shrinks by the time consumed. Single-domain builds leave
 * it alone. ksConsumed accumulates. */
static void test_update_timestamp(void **state)
{
    (void)state;
    struct kstate *ks = fresh(5000);
    two_domains(ks, 10, 10);
    ks->domain_time = 1000;
    ks->consumed = 100;
    ks->hw_clock = 5839; /* 839 + 160 = 999 < 1000 */
    updateTimestamp(ks);
    assert_int_equal(ks->cur_time, 5839);
    assert_int_equal(ks->consumed, 100 + 839);
    assert_int_equal(ks->domain_time, 1000 - 839);
    assert_false(isCurDomainExpired(ks));

    ks = fresh(5000);
    two_domains(ks, 10, 10);
    ks->domain_time = 1000;
    ks->hw_clock = 5840; /* 840 + 160 = 1000 >= 1000 */
    updateTimestamp(ks);
    assert_int_equal(ks->domain_time, 0);
    assert_int_equal(ks->consumed, 840);
    assert_true(isCurDomainExpired(ks));

    ks = fresh(5000);
    ks->domain_time = 1000; /* one domain: never expires */
    ks->hw_clock = 9000;
    updateTimestamp(ks);
    assert_int_equal(ks->domain_time, 1000);
    assert_int_equal(ks->consumed, 4000);
    assert_false(isCurDomainExpired(ks));
    tc_assert_no_asserts(ks);

    /* a clock at MAX_RELEASE_TIME breaks the kernel's assert; recorded */
    ks = fresh(5000);
    ks->hw_clock = ks->cfg.max_release;
    updateTimestamp(ks);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_UPDATE_TS_MAX);
}

/* checkDomainTime: an expired domain sets ksReprogram and asks for a
 * reschedule (enqueuing a pending candidate); an unexpired one, or any
 * single-domain build, changes nothing. */
static void test_check_domain_time(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 0);
    ks->domain_time = 0; /* one domain: never expires */
    ks_copy(&g_copy, ks);
    checkDomainTime(ks);
    assert_true(ks_same(ks, &g_copy));
    two_domains(ks, 10, 10);
    ks->domain_time = 1;
    ks_copy(&g_copy, ks);
    checkDomainTime(ks);
    assert_true(ks_same(ks, &g_copy));
    int c = rr_thread(ks, "c", 150, 1000);
    possibleSwitchTo(ks, c);
    ks->domain_time = 0;
    checkDomainTime(ks);
    assert_true(ks->reprogram);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_true(ks->tcbs[c].queued);
    tc_assert_no_asserts(ks);
}

/* checkBudget with enough budget and an unexpired domain returns true and
 * changes nothing; with the domain expired it returns false without
 * charging. */
static void test_check_budget_ok(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = sched_base(&cur, 1000);
    ks_copy(&g_copy, ks);
    assert_true(checkBudget(ks));
    assert_true(ks_same(ks, &g_copy));
    two_domains(ks, 10, 10);
    ks->domain_time = 0;
    ks_copy(&g_copy, ks);
    assert_false(checkBudget(ks));
    assert_true(ks_same(ks, &g_copy));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enqueue_append),
        cmocka_unit_test(test_append_empty_and_assert),
        cmocka_unit_test(test_dequeue),
        cmocka_unit_test(test_bitmap_shared_word),
        cmocka_unit_test(test_highest_prio),
        cmocka_unit_test(test_bitmap_per_domain),
        cmocka_unit_test(test_release_queue),
        cmocka_unit_test(test_release_enqueue_twice),
        cmocka_unit_test(test_possible_switch_to),
        cmocka_unit_test(test_possible_switch_to_skips),
        cmocka_unit_test(test_reschedule_required),
        cmocka_unit_test(test_set_thread_state),
        cmocka_unit_test(test_schedule_fastfail),
        cmocka_unit_test(test_schedule_fastfail_idle),
        cmocka_unit_test(test_schedule_idle_direct),
        cmocka_unit_test(test_schedule_equal_append),
        cmocka_unit_test(test_schedule_direct_switch),
        cmocka_unit_test(test_schedule_domain_expiry),
        cmocka_unit_test(test_schedule_awaken),
        cmocka_unit_test(test_schedule_switch_unblock),
        cmocka_unit_test(test_schedule_awaken_lower),
        cmocka_unit_test(test_charge_round_robin),
        cmocka_unit_test(test_charge_round_robin_handler),
        cmocka_unit_test(test_charge_periodic_postpone),
        cmocka_unit_test(test_postpone_behind),
        cmocka_unit_test(test_charge_periodic_split),
        cmocka_unit_test(test_charge_timeout_handler),
        cmocka_unit_test(test_charge_idle),
        cmocka_unit_test(test_commit_time),
        cmocka_unit_test(test_commit_time_asserts),
        cmocka_unit_test(test_update_timestamp),
        cmocka_unit_test(test_check_domain_time),
        cmocka_unit_test(test_check_budget_ok),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
