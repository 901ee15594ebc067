/* test_realinv: the real kernel's outcomes held to the exit invariants
 * (tools/realinv.c, issue 29 item 2), on outcomes built by hand: one that
 * keeps them passes; one that returns to user level with a scheduler
 * action pending (schedule() ends every slowpath with ResumeCurrentThread,
 * src/kernel/thread.c:419 at 1326364bc) is a finding, counted by kind,
 * printed once, saved as a reproducer the scenario reader takes back;
 * what the fastpath as written is known to leave (its defects) is
 * admitted on the fastpath as built only. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invariant.h"
#include "realinv.h"
#include "scenario.h"
#include "target.h"

/* a thread at user level with its round-robin SC, an interrupt entry */
static const char base[] = "board tx1\n"
                           "node cur=t cur_sc=sc action=resume time=1000 deadline=100000\n"
                           "tcb t state=Running prio=10 sc=sc\n"
                           "sc sc period=0 budget=50000 max=2 head=0 tail=1 tcb=t refills=1000:40000,41000:10000\n"
                           "clock 1000\n";

static void load(struct kstate *ks)
{
    struct scen_error e;
    assert_int_equal(scenario_parse(base, strlen(base), "base", ks, &e), 0);
}

static void kept_and_broken(void **state)
{
    (void)state;
    static struct kstate in, out;
    load(&in);
    ks_copy(&out, &in);
    char dir[] = "/tmp/test_realinv.XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct realinv v = {.cmd = "fuzz", .who = "irqsim fuzz", .out = dir, .kernel = "K"};
    assert_false(realinv_check(&v, &in, &out, 0, "slowpath", 0, NULL, 7));
    assert_int_equal(v.checked, 1);
    assert_int_equal(v.broken, 0);
    /* the scheduler action left pending at user level */
    out.sched_action = KS_SA_CHOOSE;
    struct inv_report r;
    assert_true(kstate_check(&out, INV_AT_EXIT, &r) > 0); /* the checker's own rule */
    assert_true(realinv_check(&v, &in, &out, 0, "slowpath", 0, NULL, 8));
    assert_true(realinv_check(&v, &in, &out, 0, "slowpath", 0, NULL, 9));
    assert_int_equal(v.checked, 3);
    assert_int_equal(v.broken, 2);
    assert_int_equal(v.n_kinds, 1);
    assert_int_equal(v.kinds[0].count, 2);
    assert_int_equal(v.kinds[0].first_seed, 8);
    assert_int_equal(v.kinds[0].model, -1);
    assert_int_equal(v.kinds[0].id, r.items[0].id);
    /* the model's outcome keeps it: a kind of its own, said so */
    assert_true(realinv_check(&v, &in, &out, 0, "slowpath", 0, &in, 10));
    assert_int_equal(v.n_kinds, 2);
    assert_int_equal(v.kinds[1].model, 0);
    /* admitted: what the fastpath as written leaves */
    assert_false(realinv_check(&v, &in, &out, 1, "fastpath", INV_ADMIT_ACTION, NULL, 11));
    assert_int_equal(v.broken, 3);
    /* the reproducer is the entry state, read back whole */
    assert_non_null(v.kinds[0].reproducer);
    assert_int_equal(v.write_errors, 0);
    static struct kstate back;
    struct scen_error e;
    assert_int_equal(scenario_load(v.kinds[0].reproducer, &back, &e), 0);
    assert_true(ks_same(&back, &in));
    /* the summary and the JSON */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    realinv_print(f, &v);
    realinv_json(f, &v);
    fclose(f);
    assert_non_null(strstr(buf, "5 outcomes checked, 3 broke one (KERNEL INVARIANT BROKEN: a finding)"));
    assert_non_null(strstr(buf, "the model's outcome keeps it"));
    assert_non_null(strstr(buf, "why it holds: "));
    assert_non_null(strstr(buf, "\"invariants\": {\"checked\": 5, \"broken\": 3, \"skipped\": 0}"));
    free(buf);
    for (int i = 0; i < v.n_kinds; i++)
        if (v.kinds[i].reproducer)
            unlink(v.kinds[i].reproducer);
    realinv_free(&v);
    rmdir(dir);
}

/* what may be left at exit: the fastpath as written's known leftovers on
 * the fastpath as built, never on the slowpath */
static void admit_by_path(void **state)
{
    (void)state;
    static struct kstate in;
    load(&in);
    const struct target *irq = target_by_name("irq");
    assert_int_equal(realinv_admit(irq, &in, true) & irq->admit_as_written, irq->admit_as_written);
    assert_int_equal(realinv_admit(irq, &in, false) & INV_ADMIT_ACTION, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_and_broken),
        cmocka_unit_test(admit_by_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
