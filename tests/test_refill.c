/*
 * Refill-queue tests (model of src/kernel/sporadic.c and
 * include/kernel/sporadic.h). Every expected queue below is worked out by
 * hand from the kernel's semantics, step by step in the comments:
 *
 *  - refill_budget_check(usage) charges ksCurSC: while the head holds no
 *    more than what is left to charge (and its time is below
 *    MAX_RELEASE_TIME), the whole head is used: a single refill just moves
 *    one period later; otherwise the head is popped and re-scheduled one
 *    period after its old time (schedule_used). Then a remaining partial
 *    usage splits the head: the head shrinks by the usage and starts that
 *    much later, and the used part is scheduled at old head time + period.
 *    Finally, while the head is below MIN_BUDGET it is popped and merged
 *    into the next refill, which starts earlier by the popped amount.
 *  - schedule_used(new): if the tail ends at or after new's time, the tail
 *    absorbs new's amount; else if the queue has room, new becomes the
 *    tail; else (full) the tail is moved to end exactly where new would
 *    end (tail.time = new.time - tail.amount) and absorbs new's amount.
 *  - refill_unblock_check(sc): nothing for round robin; if the head is
 *    ready, its time becomes ksCurTime, ksReprogram is set, and while the
 *    next refill starts no later than the head ends, the head is popped
 *    and the next refill takes the head's time and adds its amount.
 *
 * Board imx8mm: 8 MHz timer, KERNEL_WCET 10 us, so
 * MIN_BUDGET = 2 * 80 ticks = 160 ticks.
 */
#include "tcommon.h"

static struct kstate g_ks;

struct rq {
    ticks_t time, amount;
};

/* A fresh imx8mm state with one SC configured by hand: n refills placed
 * from slot `head` on (wrapping at max), period as given, budget = their
 * sum. The SC becomes ksCurSC (refill_budget_check charges ksCurSC). */
static struct kstate *setup(int *sc_out, ticks_t period, unsigned max, unsigned head,
                            const struct rq *r, unsigned n)
{
    struct kstate *ks = &g_ks;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    assert_int_equal(ks->cfg.min_budget, 160);
    int sc = ks_add_sc(ks, "sc");
    assert_int_not_equal(sc, KS_NONE);
    struct ks_sc *s = &ks->scs[sc];
    s->period = period;
    s->refill_max = (uint8_t)max;
    s->head = (uint8_t)head;
    unsigned idx = head;
    ticks_t sum = 0;
    for (unsigned i = 0; i < n; i++) {
        s->refills[idx].time = r[i].time;
        s->refills[idx].amount = r[i].amount;
        sum += r[i].amount;
        s->tail = (uint8_t)idx;
        idx = idx + 1 == max ? 0 : idx + 1;
    }
    s->budget = sum;
    ks->cur_sc = (int8_t)sc;
    *sc_out = sc;
    return ks;
}

/* The queue from head to tail must be exactly `want`. */
static void assert_queue(struct kstate *ks, int sc, const struct rq *want, unsigned n)
{
    const struct ks_sc *s = &ks->scs[sc];
    if (refill_size(s) != n)
        print_error("refill queue has %u refills, expected %u\n", refill_size(s), n);
    assert_int_equal(refill_size(s), n);
    unsigned idx = s->head;
    for (unsigned i = 0; i < n; i++) {
        if (s->refills[idx].time != want[i].time || s->refills[idx].amount != want[i].amount)
            print_error("refill %u (slot %u): {%llu,%llu}, expected {%llu,%llu}\n", i, idx,
                        (unsigned long long)s->refills[idx].time,
                        (unsigned long long)s->refills[idx].amount,
                        (unsigned long long)want[i].time, (unsigned long long)want[i].amount);
        assert_int_equal(s->refills[idx].time, want[i].time);
        assert_int_equal(s->refills[idx].amount, want[i].amount);
        idx = refill_next(s, idx);
    }
    assert_int_equal(idx, refill_next(s, s->tail));
}

/* Sum preserved, queue ordered, no kernel assertion failed. */
static void assert_sane(struct kstate *ks, int sc, ticks_t sum)
{
    assert_int_equal(refill_sum(&ks->scs[sc]), sum);
    assert_true(refill_ordered(&ks->scs[sc]));
    tc_assert_no_asserts(ks);
}

/* ---- refill_budget_check ---- */

/* Usage smaller than the head, single refill {0,500}, period 1000, max 4:
 * no whole refill is used (500 > 100). Split: used = {0+1000, 100};
 * head becomes {0+100, 500-100} = {100,400}. schedule_used: the tail (the
 * head itself) ends at 500 < 1000, room left -> appended.
 * Head 400 >= 160: nothing merged. */
static void test_budget_usage_below_head(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 500}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 1);
    refill_budget_check(ks, 100);
    const struct rq want[] = {{100, 400}, {1000, 100}};
    assert_queue(ks, sc, want, 2);
    assert_sane(ks, sc, 500);
}

/* Usage equal to the head of a single-refill SC {0,500}: the loop uses
 * the whole head (500 <= 500), usage drops to 0, and the only refill just
 * moves a period on: {1000,500}. No split, no new refill. */
static void test_budget_usage_equal_single(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 500}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 1);
    refill_budget_check(ks, 500);
    const struct rq want[] = {{1000, 500}};
    assert_queue(ks, sc, want, 1);
    assert_sane(ks, sc, 500);
}

/* Usage equal to the head with two refills [{0,200},{300,300}], period
 * 1000: the head is popped, re-scheduled at 0+1000; the tail {300,300}
 * ends at 600 < 1000 and the queue has room, so it is appended:
 * [{300,300},{1000,200}]. */
static void test_budget_usage_equal_head(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 200}, {300, 300}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 2);
    refill_budget_check(ks, 200);
    const struct rq want[] = {{300, 300}, {1000, 200}};
    assert_queue(ks, sc, want, 2);
    assert_int_equal(ks->scs[sc].head, 1);
    assert_int_equal(ks->scs[sc].tail, 2);
    assert_sane(ks, sc, 500);
}

/* A single-refill SC {0,500}, usage 700 > head: the loop uses it whole
 * (usage 700-500 = 200, head time 0+1000); the head (500) is not <= 200,
 * so the rest splits it: used = {1000+1000, 200}, head = {1200, 300};
 * the head (also the tail) ends at 1500 < 2000, appended.
 * Result [{1200,300},{2000,200}]. */
static void test_budget_single_overrun(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 500}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 1);
    refill_budget_check(ks, 700);
    const struct rq want[] = {{1200, 300}, {2000, 200}};
    assert_queue(ks, sc, want, 2);
    assert_sane(ks, sc, 500);
}

/* Usage spanning several refills: [{0,400},{1000,400},{2000,400}] in
 * slots 0..2 of 4, period 5000, usage 1000.
 *  1. head {0,400} used whole (usage 600), popped, {5000,400}: the tail
 *     {2000,400} ends at 2400 < 5000, room -> appended in slot 3.
 *  2. head {1000,400} used whole (usage 200), popped, {6000,400}: the tail
 *     {5000,400} ends at 5400 < 6000, room -> appended in slot 0 (wraps).
 *  3. head {2000,400} > 200: split, used = {7000,200}, head {2200,200};
 *     the tail {6000,400} ends at 6400 < 7000, room -> slot 1.
 * Head 200 >= 160. Result [{2200,200},{5000,400},{6000,400},{7000,200}],
 * head in slot 2, tail in slot 1, queue now full. */
static void test_budget_spanning(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 400}, {1000, 400}, {2000, 400}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 3);
    refill_budget_check(ks, 1000);
    const struct rq want[] = {{2200, 200}, {5000, 400}, {6000, 400}, {7000, 200}};
    assert_queue(ks, sc, want, 4);
    assert_int_equal(ks->scs[sc].head, 2);
    assert_int_equal(ks->scs[sc].tail, 1);
    assert_true(refill_full(&ks->scs[sc]));
    assert_sane(ks, sc, 1200);
}

/* schedule_used merges when the tail's end reaches the new refill's time.
 * [{0,300},{800,200}], period 1000, usage 300: the head is used whole and
 * re-scheduled at 1000; the tail ends at 800+200 = 1000 >= 1000, so it
 * absorbs it: [{800,500}]. One tick earlier ({799,200}, end 999 < 1000)
 * the refill is appended instead: [{799,200},{1000,300}]. */
static void test_budget_schedule_used_merge(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {800, 200}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 2);
    refill_budget_check(ks, 300);
    const struct rq want[] = {{800, 500}};
    assert_queue(ks, sc, want, 1);
    assert_sane(ks, sc, 500);

    const struct rq in2[] = {{0, 300}, {799, 200}};
    ks = setup(&sc, 1000, 4, 0, in2, 2);
    refill_budget_check(ks, 300);
    const struct rq want2[] = {{799, 200}, {1000, 300}};
    assert_queue(ks, sc, want2, 2);
    assert_sane(ks, sc, 500);
}

/* The merge also takes a partial usage: [{0,300},{800,200}], usage 100:
 * used = {1000,100}, head {100,200}; the tail ends at 1000 >= 1000 and
 * absorbs it: [{100,200},{800,300}]. */
static void test_budget_partial_merge(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {800, 200}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 2);
    refill_budget_check(ks, 100);
    const struct rq want[] = {{100, 200}, {800, 300}};
    assert_queue(ks, sc, want, 2);
    assert_sane(ks, sc, 500);
}

/* Full queue: refill_max 2 holding [{0,300},{500,200}], period 1000,
 * usage 100: used = {1000,100}, head {100,200}; the tail {500,200} ends
 * at 700 < 1000 and there is no room, so the tail is delayed to end where
 * the used refill would: time 1000 - 200 = 800, amount 200 + 100:
 * [{100,200},{800,300}]. */
static void test_budget_full_queue(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {500, 200}};
    struct kstate *ks = setup(&sc, 1000, 2, 0, in, 2);
    assert_true(refill_full(&ks->scs[sc]));
    refill_budget_check(ks, 100);
    const struct rq want[] = {{100, 200}, {800, 300}};
    assert_queue(ks, sc, want, 2);
    assert_sane(ks, sc, 500);
}

/* Minimum-budget rule: [{0,300},{2000,200}], period 5000, usage 200:
 * split: used = {5000,200}, head {200,100}; the tail ends at 2200 < 5000,
 * appended: [{200,100},{2000,200},{5000,200}]. Now the head (100) is
 * below MIN_BUDGET (160): popped and merged into {2000,200}, which starts
 * 100 earlier: {1900,300}. Result [{1900,300},{5000,200}]. */
static void test_budget_min_budget_merge(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {2000, 200}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 2);
    refill_budget_check(ks, 200);
    const struct rq want[] = {{1900, 300}, {5000, 200}};
    assert_queue(ks, sc, want, 2);
    assert_sane(ks, sc, 500);
}

/* The rule pops as long as needed: [{0,200},{1000,50},{1100,100},
 * {3000,150}], period 10000, usage 150: split: used = {10000,150}, head
 * {150,50}; the tail {3000,150} ends at 3150 < 10000, room (max 8) ->
 * appended. Head 50 < 160: merged into {1000,50} -> {950,100}; still
 * < 160: merged into {1100,100} -> {1000,200}. Result
 * [{1000,200},{3000,150},{10000,150}]. */
static void test_budget_min_budget_twice(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 200}, {1000, 50}, {1100, 100}, {3000, 150}};
    struct kstate *ks = setup(&sc, 10000, 8, 0, in, 4);
    refill_budget_check(ks, 150);
    const struct rq want[] = {{1000, 200}, {3000, 150}, {10000, 150}};
    assert_queue(ks, sc, want, 3);
    assert_sane(ks, sc, 500);
}

/* Zero usage changes nothing when the head is sufficient. */
static void test_budget_zero_usage(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{100, 300}, {700, 200}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 2);
    refill_budget_check(ks, 0);
    assert_queue(ks, sc, in, 2);
    assert_sane(ks, sc, 500);
}

/* A head at or past MAX_RELEASE_TIME is never charged further: the loop
 * and the split both require head time < MAX_RELEASE_TIME. */
static void test_budget_max_release(void **state)
{
    (void)state;
    int sc;
    struct kstate *ks = &g_ks;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ticks_t mr = ks->cfg.max_release;
    const struct rq in[] = {{mr, 500}};
    ks = setup(&sc, 1000, 4, 0, in, 1);
    refill_budget_check(ks, 300);
    assert_queue(ks, sc, in, 1);
    tc_assert_no_asserts(ks);
}

/* A kernel assertion is recorded, not fatal: refill_budget_check on a
 * round-robin SC breaks its first assert (!isRoundRobin). The model goes
 * on: RR head {0,300}, tail {0,200}, usage 100: split, used {0+0,100},
 * head {100,200}; the tail ends at 200 >= 0 and absorbs it: {0,300}. The
 * sum is kept and RR queues are exempt from the order check, so no
 * further assertion fails. */
static void test_budget_rr_assert_recorded(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {0, 200}};
    struct kstate *ks = setup(&sc, 0, 2, 0, in, 2);
    ks->path = PATH_SLOW;
    refill_budget_check(ks, 100);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_REFILL_NOT_RR);
    assert_int_equal(ks->asserts[0].path, PATH_SLOW);
    assert_string_equal(kassert_fn(A_REFILL_NOT_RR), "refill_budget_check");
    const struct rq want[] = {{100, 200}, {0, 300}};
    assert_queue(ks, sc, want, 2);
}

/* A single refill below MIN_BUDGET: the kernel's MIN_BUDGET loop would
 * pop its only refill (refill_pop_head asserts !refill_single); the model
 * records that and stops. */
static void test_budget_pop_single_recorded(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 100}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 1);
    refill_budget_check(ks, 0);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_POP_SINGLE);
    assert_queue(ks, sc, in, 1);
}

/* Entry sanity: an unordered queue is reported (REFILL_SANITY_START). */
static void test_budget_unordered_recorded(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {200, 200}}; /* 0+300 > 200 */
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 2);
    refill_budget_check(ks, 0);
    assert_true(ks->n_asserts >= 1);
    assert_int_equal(ks->asserts[0].id, A_REFILL_SUM);
}

/* Sums are preserved over a long series of charges, from several start
 * shapes and queue sizes, and the head never drops below MIN_BUDGET. */
static void test_budget_sum_preserved(void **state)
{
    (void)state;
    static const ticks_t usages[] = {1, 159, 160, 161, 300, 499, 500, 501, 1234, 77};
    for (unsigned max = 2; max <= 6; max++) {
        int sc;
        const struct rq in[] = {{0, 1000}};
        struct kstate *ks = setup(&sc, 4000, max, max - 1, in, 1);
        for (unsigned round = 0; round < 40; round++) {
            ticks_t u = usages[round % (sizeof usages / sizeof usages[0])];
            /* usages below, at and above the head and MIN_BUDGET, as
             * commitTime and chargeBudget pass them */
            refill_budget_check(ks, u);
            assert_sane(ks, sc, 1000);
            assert_true(refill_head(ks, sc)->amount >= ks->cfg.min_budget);
            assert_true(refill_size(&ks->scs[sc]) <= max);
        }
    }
}

/* ---- refill_unblock_check ---- */

/* Ready head moved to now and overlapping refills merged: ksCurTime 1000,
 * [{500,200},{800,300},{1500,200}], period 5000. The head is ready
 * (500 <= 1000): it moves to 1000 and ksReprogram is set. It now ends at
 * 1200 >= 800: merged -> {1000,500}, ending at 1500 >= 1500 (adjacent
 * counts): merged -> {1000,700}. Single: stop. */
static void test_unblock_merge_all(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{500, 200}, {800, 300}, {1500, 200}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 3);
    ks->cur_time = 1000;
    refill_unblock_check(ks, sc);
    const struct rq want[] = {{1000, 700}};
    assert_queue(ks, sc, want, 1);
    assert_true(ks->reprogram);
    assert_sane(ks, sc, 700);
}

/* Partial merge: the third refill starts at 1600 > 1500, so it stays:
 * [{1000,500},{1600,200}]. */
static void test_unblock_merge_partial(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{500, 200}, {800, 300}, {1600, 200}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 3);
    ks->cur_time = 1000;
    refill_unblock_check(ks, sc);
    const struct rq want[] = {{1000, 500}, {1600, 200}};
    assert_queue(ks, sc, want, 2);
    assert_true(ks->reprogram);
    assert_sane(ks, sc, 700);
}

/* A ready head whose moved end does not reach the next refill is only
 * moved: [{100,300},{2000,200}] at 1000 -> [{1000,300},{2000,200}]. */
static void test_unblock_move_only(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{100, 300}, {2000, 200}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 2);
    ks->cur_time = 1000;
    refill_unblock_check(ks, sc);
    const struct rq want[] = {{1000, 300}, {2000, 200}};
    assert_queue(ks, sc, want, 2);
    assert_true(ks->reprogram);
    assert_sane(ks, sc, 500);
}

/* Head time == ksCurTime is ready: the check runs (reprogram set) and the
 * touching refill {1300,200} (1000+300 >= 1300) is merged. */
static void test_unblock_ready_boundary(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{1000, 300}, {1300, 200}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 2);
    ks->cur_time = 1000;
    refill_unblock_check(ks, sc);
    const struct rq want[] = {{1000, 500}};
    assert_queue(ks, sc, want, 1);
    assert_true(ks->reprogram);
    assert_sane(ks, sc, 500);
}

/* Not ready (head 1001 > ksCurTime 1000): untouched, no reprogram, even
 * though the refills touch. */
static void test_unblock_not_ready(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{1001, 300}, {1301, 200}};
    struct kstate *ks = setup(&sc, 5000, 4, 0, in, 2);
    ks->cur_time = 1000;
    refill_unblock_check(ks, sc);
    assert_queue(ks, sc, in, 2);
    assert_false(ks->reprogram);
    assert_sane(ks, sc, 500);
}

/* Round robin: nothing to do, whatever the times; no reprogram. */
static void test_unblock_round_robin(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 300}, {0, 200}};
    struct kstate *ks = setup(&sc, 0, 2, 0, in, 2);
    ks->cur_time = 5000;
    refill_unblock_check(ks, sc);
    assert_queue(ks, sc, in, 2);
    assert_false(ks->reprogram);
    tc_assert_no_asserts(ks);
}

/* A merged head below MIN_BUDGET breaks the kernel's assert at the end of
 * the merge loop (refill_sufficient(sc, 0)); it is recorded. */
static void test_unblock_insufficient_recorded(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 100}, {5000, 200}};
    struct kstate *ks = setup(&sc, 10000, 4, 0, in, 2);
    ks->cur_time = 1000;
    refill_unblock_check(ks, sc);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_UNBLOCK_SUFFICIENT);
    assert_int_equal(refill_head(ks, sc)->time, 1000);
}

/* ---- refill_capacity / refill_sufficient / refill_ready ---- */

static void test_capacity_sufficient_boundaries(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 500}};
    struct kstate *ks = setup(&sc, 1000, 4, 0, in, 1);
    /* capacity = head - usage, or 0 when usage exceeds the head */
    assert_int_equal(refill_capacity(ks, sc, 0), 500);
    assert_int_equal(refill_capacity(ks, sc, 340), 160);
    assert_int_equal(refill_capacity(ks, sc, 341), 159);
    assert_int_equal(refill_capacity(ks, sc, 500), 0);
    assert_int_equal(refill_capacity(ks, sc, 501), 0);
    assert_int_equal(refill_capacity(ks, sc, UINT64_MAX), 0);
    /* sufficient: capacity >= MIN_BUDGET (160) */
    assert_true(refill_sufficient(ks, sc, 340));
    assert_false(refill_sufficient(ks, sc, 341));
    assert_false(refill_sufficient(ks, sc, 600));
    refill_head(ks, sc)->amount = 160;
    assert_true(refill_sufficient(ks, sc, 0));
    assert_false(refill_sufficient(ks, sc, 1));
    refill_head(ks, sc)->amount = 159;
    assert_false(refill_sufficient(ks, sc, 0));
    /* the same for the other boards' MIN_BUDGET: 2 * WCET in ticks */
    assert_int_equal(ks_init(ks, "zcu106"), 0);
    assert_int_equal(ks->cfg.min_budget, 2000); /* 100 MHz * 10 us * 2 */
    assert_int_equal(ks_init(ks, "odroidc4"), 0);
    assert_int_equal(ks->cfg.min_budget, 480); /* 24 MHz */
    assert_int_equal(ks_init(ks, "tx1"), 0);
    assert_int_equal(ks->cfg.min_budget, 240); /* 12 MHz */
}

static void test_ready_boundaries(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{1000, 500}};
    struct kstate *ks = setup(&sc, 2000, 4, 0, in, 1);
    ks->cur_time = 999;
    assert_false(refill_ready(ks, sc));
    ks->cur_time = 1000; /* head time == now: ready */
    assert_true(refill_ready(ks, sc));
    ks->cur_time = 1001;
    assert_true(refill_ready(ks, sc));
    /* only the head counts: a later refill in the past changes nothing */
    const struct rq in2[] = {{1000, 300}, {1300, 200}};
    ks = setup(&sc, 2000, 4, 3, in2, 2);
    ks->cur_time = 999;
    assert_false(refill_ready(ks, sc));
}

/* ---- refill_size / refill_next / refill_single / refill_full ---- */

static void test_size_wraparound(void **state)
{
    (void)state;
    struct ks_sc s;
    memset(&s, 0, sizeof s);
    s.refill_max = 5;
    s.head = s.tail = 2;
    assert_int_equal(refill_size(&s), 1);
    assert_true(refill_single(&s));
    assert_false(refill_full(&s));
    s.head = 1;
    s.tail = 3; /* slots 1,2,3 */
    assert_int_equal(refill_size(&s), 3);
    assert_false(refill_single(&s));
    s.head = 3;
    s.tail = 1; /* slots 3,4,0,1: tail + 1 + (max - head) = 2 + 2 */
    assert_int_equal(refill_size(&s), 4);
    assert_false(refill_full(&s));
    s.head = 4;
    s.tail = 3; /* slots 4,0,1,2,3 */
    assert_int_equal(refill_size(&s), 5);
    assert_true(refill_full(&s));
    s.head = 0;
    s.tail = 4;
    assert_int_equal(refill_size(&s), 5);
    assert_true(refill_full(&s));
    /* refill_next wraps at refill_max - 1 */
    assert_int_equal(refill_next(&s, 3), 4);
    assert_int_equal(refill_next(&s, 4), 0);
    /* round robin: exactly MIN_REFILLS (2) */
    s.refill_max = 2;
    s.head = 1;
    s.tail = 0;
    assert_int_equal(refill_size(&s), MIN_REFILLS);
    assert_true(refill_full(&s));
}

/* refill_sum walks the wrapped queue; refill_ordered checks adjacency. */
static void test_sum_and_ordered(void **state)
{
    (void)state;
    int sc;
    const struct rq in[] = {{0, 100}, {100, 200}, {400, 300}, {700, 400}};
    struct kstate *ks = setup(&sc, 5000, 5, 3, in, 4); /* slots 3,4,0,1 */
    assert_int_equal(ks->scs[sc].tail, 1);
    assert_int_equal(refill_sum(&ks->scs[sc]), 1000);
    assert_true(refill_ordered(&ks->scs[sc])); /* each ends where the next starts */
    /* slot 0 holds {400,300}, after {100,200} (ends 300), before {700,400} */
    ks->scs[sc].refills[0].time = 399; /* 300 <= 399, ends 699 <= 700: fine */
    assert_true(refill_ordered(&ks->scs[sc]));
    ks->scs[sc].refills[0].time = 299; /* {100,200} ends at 300 > 299 */
    assert_false(refill_ordered(&ks->scs[sc]));
    ks->scs[sc].period = 0; /* round robin: exempt */
    assert_true(refill_ordered(&ks->scs[sc]));
}

/* refill_new: periodic SCs start with one full refill at now; round robin
 * ones get an empty tail at the same time (MIN_REFILLS = 2). */
static void test_refill_new(void **state)
{
    (void)state;
    struct kstate *ks = &g_ks;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    int a = ks_add_sc(ks, "a"), b = ks_add_sc(ks, "b");
    refill_new(ks, a, 8, 800, 4000, 123);
    assert_int_equal(refill_size(&ks->scs[a]), 1);
    assert_int_equal(refill_head(ks, a)->time, 123);
    assert_int_equal(refill_head(ks, a)->amount, 800);
    assert_int_equal(ks->scs[a].refill_max, 8);
    refill_new(ks, b, MIN_REFILLS, 800, 0, 123);
    assert_int_equal(refill_size(&ks->scs[b]), 2);
    assert_int_equal(refill_tail(ks, b)->time, 123);
    assert_int_equal(refill_tail(ks, b)->amount, 0);
    assert_int_equal(refill_sum(&ks->scs[b]), 800);
    assert_true(isRoundRobin(ks, b));
    assert_false(isRoundRobin(ks, a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_usage_below_head),
        cmocka_unit_test(test_budget_usage_equal_single),
        cmocka_unit_test(test_budget_usage_equal_head),
        cmocka_unit_test(test_budget_single_overrun),
        cmocka_unit_test(test_budget_spanning),
        cmocka_unit_test(test_budget_schedule_used_merge),
        cmocka_unit_test(test_budget_partial_merge),
        cmocka_unit_test(test_budget_full_queue),
        cmocka_unit_test(test_budget_min_budget_merge),
        cmocka_unit_test(test_budget_min_budget_twice),
        cmocka_unit_test(test_budget_zero_usage),
        cmocka_unit_test(test_budget_max_release),
        cmocka_unit_test(test_budget_rr_assert_recorded),
        cmocka_unit_test(test_budget_pop_single_recorded),
        cmocka_unit_test(test_budget_unordered_recorded),
        cmocka_unit_test(test_budget_sum_preserved),
        cmocka_unit_test(test_unblock_merge_all),
        cmocka_unit_test(test_unblock_merge_partial),
        cmocka_unit_test(test_unblock_move_only),
        cmocka_unit_test(test_unblock_ready_boundary),
        cmocka_unit_test(test_unblock_not_ready),
        cmocka_unit_test(test_unblock_round_robin),
        cmocka_unit_test(test_unblock_insufficient_recorded),
        cmocka_unit_test(test_capacity_sufficient_boundaries),
        cmocka_unit_test(test_ready_boundaries),
        cmocka_unit_test(test_size_wraparound),
        cmocka_unit_test(test_sum_and_ordered),
        cmocka_unit_test(test_refill_new),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
