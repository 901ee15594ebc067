/*
 * Tests of the trace reader (check/jval.c, check/trace.c): the JSON reader
 * keeps 64-bit integers and names the place of a syntax error; a captured
 * record becomes two scenarios whose objects have the same indices, with
 * the kernel's encodings decoded (GIC enable bits, cap tags, the scheduler
 * action, the budget as the refills' sum).
 */
#define _POSIX_C_SOURCE 200809L
#include "tcommon.h"

#include <fcntl.h>
#include <unistd.h>

#include "diff.h"
#include "jval.h"
#include "scenario.h"
#include "trace.h"

static void test_jval_values(void **unused)
{
    (void)unused;
    struct jval_doc d;
    jval_doc_init(&d);
    char err[100];
    const char *t = "{\"a\": [1, -2, 18446744073709551615, 3.5, \"x\\\"y\\u0041\", true, null], \"b\": {}}";
    const struct jval *root = jval_parse(&d, t, strlen(t), err, sizeof err);
    assert_non_null(root);
    const struct jval *a = jval_get(&d, root, "a");
    assert_int_equal(a->type, JV_ARRAY);
    assert_int_equal(a->len, 7);
    assert_int_equal(jval_at(&d, a, 0)->u, 1);
    assert_true(jval_at(&d, a, 1)->neg);
    assert_int_equal(jval_at(&d, a, 1)->u, 2);
    /* the timer's parked compare value must survive: no detour via double */
    assert_true(jval_at(&d, a, 2)->u == UINT64_MAX);
    assert_int_equal(jval_at(&d, a, 3)->type, JV_REAL);
    assert_string_equal(jval_at(&d, a, 4)->str, "x\"yA");
    assert_int_equal(jval_at(&d, a, 5)->type, JV_BOOL);
    assert_int_equal(jval_at(&d, a, 6)->type, JV_NULL);
    assert_null(jval_at(&d, a, 7));
    assert_int_equal(jval_get(&d, root, "b")->len, 0);
    assert_null(jval_get(&d, root, "c"));
    jval_doc_free(&d);
}

static void expect_error(const char *text, const char *msg)
{
    struct jval_doc d;
    jval_doc_init(&d);
    char err[100] = "";
    assert_null(jval_parse(&d, text, strlen(text), err, sizeof err));
    assert_string_equal(err, msg);
    jval_doc_free(&d);
}

static void test_jval_errors(void **unused)
{
    (void)unused;
    expect_error("{\"a\" 1}", "line 1, column 6: expected ':'");
    expect_error("[1,\n", "line 2, column 1: expected a value");
    expect_error("\"abc", "line 1, column 5: unterminated string");
    expect_error("[1] x", "line 1, column 5: text after the value");
    expect_error("\"\\q\"", "line 1, column 4: bad escape in string");
    char deep[200];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    expect_error(deep, "line 1, column 65: nested too deeply");
}

/* One interrupt entry as the capture script writes it: t1 (prio 10)
 * runs; the handler t2 (prio 20) waits on n1, bound to IRQ 30 (enable bit
 * 30 of GICD_ISENABLER0 set: unmasked). At the exit t2 runs and IRQ 30 is
 * masked; the capture lists t2 first there. */
static const char record[] =
    "{\"seq\": 7, \"irq\": 30, \"slowpath\": false, \"exit_site\": \"c_handle_interrupt+0x124\","
    " \"clock_reads\": [[\"0xffffff8040021c90\", 5000]],"
    " \"entry\": {\"node\": {\"ksCurThread\": \"0xffffff80000a1000\", \"ksIdleThread\": \"0xffffff8000000400\","
    "  \"ksSchedulerAction\": 0, \"ksCurTime\": 4000, \"ksConsumed\": 0, \"ksCurSC\": \"0xffffff80000b1000\","
    "  \"ksIdleSC\": \"0xffffff8000000800\", \"ksReleaseHead\": null, \"ksDomainTime\": 62500, \"ksReprogram\": 0,"
    "  \"ksCurDomain\": 0, \"ksDomScheduleIdx\": 0},"
    "  \"tcbs\": [TCB1, TCB2, IDLE], \"scs\": [SC1, SC2, IDLESC],"
    "  \"ntfns\": [{\"addr\": \"0xffffff80000c1000\", \"state\": \"Waiting\", \"head\": \"0xffffff80000a2000\","
    "   \"tail\": \"0xffffff80000a2000\", \"bound\": null, \"sc\": null, \"msg\": 0}], \"eps\": [], \"replies\": [],"
    "  \"irqs\": {\"30\": {\"state\": \"Signal\", \"captype\": 6, \"ntfn\": \"0xffffff80000c1000\", \"badge\": 1, \"send\": 1}},"
    "  \"hw\": {\"CNTV_CVAL_EL0\": 18446744073709551615, \"gicd_isenabler\": [1073741824, 0, 0, 0, 0]}},"
    " \"exit\": {\"node\": {\"ksCurThread\": \"0xffffff80000a2000\", \"ksIdleThread\": \"0xffffff8000000400\","
    "  \"ksSchedulerAction\": \"0xffffff80000a1000\", \"ksCurTime\": 5000, \"ksConsumed\": 0,"
    "  \"ksCurSC\": \"0xffffff80000b2000\", \"ksIdleSC\": \"0xffffff8000000800\", \"ksReleaseHead\": null,"
    "  \"ksDomainTime\": 62500, \"ksReprogram\": 0, \"ksCurDomain\": 0, \"ksDomScheduleIdx\": 0},"
    "  \"tcbs\": [TCB2R, IDLE, TCB1], \"scs\": [IDLESC, SC2, SC1], \"ntfns\": [{\"addr\": \"0xffffff80000c1000\","
    "   \"state\": \"Idle\", \"head\": null, \"tail\": null, \"bound\": null, \"sc\": null}], \"eps\": [], \"replies\": [],"
    "  \"irqs\": {\"30\": {\"state\": \"Signal\", \"captype\": 6, \"ntfn\": \"0xffffff80000c1000\", \"badge\": 1, \"send\": 1}},"
    "  \"hw\": {\"CNTV_CVAL_EL0\": 9000, \"gicd_isenabler\": [0, 0, 0, 0, 0]}}}\n";

static const char *const parts[][2] = {
    {"TCB1", "{\"addr\": \"0xffffff80000a1000\", \"state\": \"Running\", \"blocking\": null, \"reply\": null,"
             " \"queued\": 0, \"in_release\": 0, \"prio\": 10, \"dom\": 0, \"sc\": \"0xffffff80000b1000\", \"bound\": null,"
             " \"sched_next\": null, \"sched_prev\": null, \"ep_next\": null, \"ep_prev\": null, \"fault\": 0,"
             " \"badge_x0\": 0, \"vtable_captype\": 9, \"timeout_captype\": 0}"},
    {"TCB2R", "{\"addr\": \"0xffffff80000a2000\", \"state\": \"Running\", \"blocking\": null,"
              " \"reply\": null, \"queued\": 0, \"in_release\": 0, \"prio\": 20, \"dom\": 0, \"sc\": \"0xffffff80000b2000\","
              " \"bound\": null, \"sched_next\": null, \"sched_prev\": null, \"ep_next\": null, \"ep_prev\": null,"
              " \"fault\": 0, \"badge_x0\": 1, \"vtable_captype\": 9, \"timeout_captype\": 0}"},
    {"TCB2", "{\"addr\": \"0xffffff80000a2000\", \"state\": \"BlockedOnNotification\", \"blocking\": \"0xffffff80000c1000\","
             " \"reply\": null, \"queued\": 0, \"in_release\": 0, \"prio\": 20, \"dom\": 0, \"sc\": \"0xffffff80000b2000\","
             " \"bound\": null, \"sched_next\": null, \"sched_prev\": null, \"ep_next\": null, \"ep_prev\": null,"
             " \"fault\": 0, \"badge_x0\": 0, \"vtable_captype\": 9, \"timeout_captype\": 0}"},
    {"IDLESC", "{\"addr\": \"0xffffff8000000800\", \"refill_max\": 2, \"head\": 0, \"tail\": 1,"
               " \"refills\": [[0, 312500], [0, 0]], \"scPeriod\": 0, \"scConsumed\": 0, \"scTcb\": \"0xffffff8000000400\","
               " \"scNotification\": null, \"scBadge\": 0, \"scSporadic\": 0}"},
    {"IDLE", "{\"addr\": \"0xffffff8000000400\", \"state\": \"IdleThreadState\", \"blocking\": null, \"reply\": null,"
             " \"queued\": 0, \"in_release\": 0, \"prio\": 0, \"dom\": 0, \"sc\": \"0xffffff8000000800\", \"bound\": null,"
             " \"sched_next\": null, \"sched_prev\": null, \"ep_next\": null, \"ep_prev\": null, \"fault\": 0,"
             " \"badge_x0\": 0, \"vtable_captype\": 0, \"timeout_captype\": 0}"},
    /* a wrapped ring: head 2, then 0 = tail (slot 1 is free): 300 + 100 */
    {"SC1", "{\"addr\": \"0xffffff80000b1000\", \"refill_max\": 3, \"head\": 2, \"tail\": 0,"
            " \"refills\": [[3000, 100], [0, 0], [1000, 300]], \"scPeriod\": 10000, \"scConsumed\": 0,"
            " \"scTcb\": \"0xffffff80000a1000\", \"scNotification\": null, \"scBadge\": 0, \"scSporadic\": 0}"},
    {"SC2", "{\"addr\": \"0xffffff80000b2000\", \"refill_max\": 2, \"head\": 0, \"tail\": 1,"
            " \"refills\": [[0, 300], [0, 0]], \"scPeriod\": 0, \"scConsumed\": 0,"
            " \"scTcb\": \"0xffffff80000a2000\", \"scNotification\": null, \"scBadge\": 0, \"scSporadic\": 0}"},
};

/* The record with each placeholder replaced (TCB2R before TCB2, IDLESC
 * before IDLE: a placeholder that is a prefix of another comes later). */
static char *expand(const char *rec)
{
    size_t cap = 64 * 1024;
    char *out = malloc(cap), *tmp = malloc(cap);
    snprintf(out, cap, "%s", rec);
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        char *at;
        while ((at = strstr(out, parts[p][0])) != NULL) {
            *at = 0;
            snprintf(tmp, cap, "%s%s%s", out, parts[p][1], at + strlen(parts[p][0]));
            snprintf(out, cap, "%s", tmp);
        }
    }
    free(tmp);
    return out;
}

static const char *write_trace(const char *header)
{
    static char path[] = "/tmp/irqsim-test-trace-XXXXXX";
    strcpy(path, "/tmp/irqsim-test-trace-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    char *rec = expand(record);
    fprintf(f, "%s%s", header, rec);
    fclose(f);
    free(rec);
    return path;
}

static int find(const struct kstate *ks, const char *name)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (!strcmp(ks->tcbs[i].name, name))
            return i;
    return KS_NONE;
}

static void test_trace_record(void **unused)
{
    (void)unused;
    const char *path = write_trace("");
    struct trace_reader r;
    struct trace_rec *rec = malloc(sizeof *rec);
    char err[300];
    assert_int_equal(trace_open(&r, path, err, sizeof err), 0);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), 1);
    assert_int_equal(r.format, 0);
    assert_int_equal(rec->seq, 7);
    assert_int_equal(rec->irq, 30);
    assert_false(rec->slowpath);
    assert_false(rec->has_taken); /* version 0: no counter read at c_handle_interrupt */
    struct kstate *in = tc_state(), *out = tc_state();
    struct scen_error se;
    assert_int_equal(scenario_parse(rec->entry, strlen(rec->entry), "entry", in, &se), 0);
    int rc = scenario_parse(rec->exit, strlen(rec->exit), "exit", out, &se);
    if (rc)
        fprintf(stderr, "exit scenario: line %d: %s\n", se.line, se.msg);
    assert_int_equal(rc, 0);
    /* same objects at the same indices although the exit lists them in another order */
    assert_int_equal(in->n_tcbs, out->n_tcbs);
    for (int i = 0; i < in->n_tcbs; i++)
        assert_string_equal(in->tcbs[i].name, out->tcbs[i].name);
    for (int i = 0; i < in->n_scs; i++)
        assert_string_equal(in->scs[i].name, out->scs[i].name);
    int t1 = find(in, "t000a1000"), t2 = find(in, "t000a2000");
    assert_true(t1 != KS_NONE && t2 != KS_NONE);
    assert_int_equal(in->cur_thread, t1);
    assert_int_equal(in->tcbs[t2].state, TS_BlockedOnNotification);
    assert_int_equal(in->hw_clock, 5000); /* the clock the kernel read */
    assert_int_equal(in->active_irq, 30);
    assert_true(in->deadline == UINT64_MAX);
    /* enable bit 30 set at entry, clear at exit: masked only at exit */
    assert_false(in->irq_masked[30]);
    assert_true(out->irq_masked[30]);
    assert_int_equal(in->irq_state[30], IRQ_Signal);
    assert_int_equal(in->irq_cap[30].type, CAP_Notification);
    /* budget = refills head..tail of a wrapped ring */
    assert_int_equal(in->scs[in->tcbs[t1].sc].budget, 400);
    /* ksSchedulerAction holding a TCB address names that thread */
    assert_int_equal(out->sched_action, t1);
    assert_int_equal(out->cur_thread, t2);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), 0);
    trace_close(&r);
    unlink(path);
    free(in);
    free(out);
    free(rec);
}

/* text with the first occurrence of from replaced by to (a new string) */
static char *replace_once(char *text, const char *from, const char *to)
{
    char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return out;
}

/* What newer captures add: the counter at c_handle_interrupt as the entry
 * clock when the kernel read none, a spurious interrupt's irqInvalid, a VTable cap that is not mapped and an
 * ASID that no longer maps the vspace, the domain schedule, and an SC that
 * was never configured (refill_max 0, no refills). */
static void test_trace_newer_fields(void **unused)
{
    (void)unused;
    char *rec = expand(record);
    rec = replace_once(rec, "\"clock_reads\": [[\"0xffffff8040021c90\", 5000]]",
                       "\"clock_reads\": [], \"entry_counter\": 4500");
    /* a path that read no clock leaves ksCurTime as it was (issue 32) */
    rec = replace_once(rec, "\"ksCurTime\": 5000", "\"ksCurTime\": 4000");
    /* a spurious interrupt: ksKernelEntry.word holds irqInvalid, (uint16_t)-1 */
    rec = replace_once(rec, "\"irq\": 30,", "\"irq\": 65535,");
    rec = replace_once(rec, "\"badge_x0\": 0, \"vtable_captype\": 9, \"timeout_captype\": 0}, {\"addr\": \"0xffffff80000a2000\"",
                       "\"badge_x0\": 0, \"vtable_captype\": 9, \"timeout_captype\": 0, \"vtable_mapped\": 0, \"asid_ok\": 0}, "
                       "{\"addr\": \"0xffffff80000a2000\"");
    rec = replace_once(rec, "\"ksDomScheduleIdx\": 0},", "\"ksDomScheduleIdx\": 0, \"dom_schedule\": [[0, 5]]},");
    rec = replace_once(rec, "\"scs\": [", "\"scs\": [{\"addr\": \"0xffffff80000b3000\", \"refill_max\": 0, \"head\": 0, "
                       "\"tail\": 0, \"refills\": [], \"scPeriod\": 0, \"scConsumed\": 0, \"scTcb\": null, "
                       "\"scNotification\": null, \"scBadge\": 0, \"scSporadic\": 0}, ");
    char path[] = "/tmp/irqsim-test-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(rec, f);
    fclose(f);
    free(rec);
    struct trace_reader r;
    struct trace_rec *tr = malloc(sizeof *tr);
    char err[300];
    assert_int_equal(trace_open(&r, path, err, sizeof err), 0);
    int got = trace_next(&r, tr, err, sizeof err);
    if (got != 1)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(got, 1);
    assert_true(tr->has_taken);
    assert_int_equal(tr->taken, 4500);
    assert_int_equal(tr->irq, -1);
    struct kstate *in = tc_state();
    struct scen_error se;
    int rc = scenario_parse(tr->entry, strlen(tr->entry), "entry", in, &se);
    if (rc)
        fprintf(stderr, "entry scenario: line %d: %s\n", se.line, se.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(in->hw_clock, 4500);
    assert_int_equal(in->active_irq, KS_IRQ_INVALID); /* irq none: getActiveIRQ found nothing */
    int t1 = find(in, "t000a1000");
    assert_false(in->tcbs[t1].vtable_ok);
    assert_false(in->tcbs[t1].asid_ok);
    assert_true(in->tcbs[find(in, "t000a2000")].vtable_ok);
    assert_int_equal(in->dom_len, 1);
    assert_int_equal(in->dom_sched[0], 5 * cfg_us_to_ticks(&in->cfg, 1000)); /* 5 ms, domain 0 */
    int unconfigured = KS_NONE;
    for (int i = 0; i < in->n_scs; i++)
        if (!strcmp(in->scs[i].name, "s000b3000"))
            unconfigured = i;
    assert_true(unconfigured != KS_NONE);
    assert_int_equal(in->scs[unconfigured].refill_max, 0);
    trace_close(&r);
    unlink(path);
    free(in);
    free(tr);
}

static void test_trace_header(void **unused)
{
    (void)unused;
    const char *path = write_trace("{\"irqsim_trace\": 1, \"kernel\": \"2b302023d\", \"board\": \"imx8mm\","
                                   " \"config\": \"timer_hz=8000000 max_irq=159 gic=3\"}\n");
    struct trace_reader r;
    struct trace_rec *rec = malloc(sizeof *rec);
    char err[300];
    assert_int_equal(trace_open(&r, path, err, sizeof err), 0);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), 1);
    assert_int_equal(r.format, 1);
    assert_string_equal(r.kernel, "2b302023d");
    assert_non_null(strstr(rec->entry, "config timer_hz=8000000 max_irq=159 gic=3\n"));
    trace_close(&r);
    unlink(path);

    path = write_trace("{\"irqsim_trace\": 2, \"board\": \"imx8mm\", \"config\": \"\"}\n");
    assert_int_equal(trace_open(&r, path, err, sizeof err), 0);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: trace format 2; this irqsim reads 0 and 1"));
    trace_close(&r);
    unlink(path);
    free(rec);
}

static void test_trace_errors(void **unused)
{
    (void)unused;
    struct trace_reader r;
    char err[300];
    assert_int_equal(trace_open(&r, "/nonexistent/trace.jsonl", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/trace.jsonl: cannot open"));
    char path[] = "/tmp/irqsim-test-trace-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("{\"seq\": 1, \"irq\": 30, \"slowpath\": false, \"exit_site\": \"x\", \"clock_reads\": []}\n", f);
    fclose(f);
    struct trace_rec *rec = malloc(sizeof *rec);
    assert_int_equal(trace_open(&r, path, err, sizeof err), 0);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: missing \"entry\""));
    trace_close(&r);
    unlink(path);
    free(rec);
}

/* print_refills walks head..tail of a ring of refill_max slots; a head
 * past refill_max (a state the invariants refuse) ran it off the state
 * (issue 20). Two states differing only in such a queue must print it
 * without a walk. */
static void test_diff_bad_ring(void **unused)
{
    (void)unused;
    struct kstate *a = tc_state(), *b = tc_state();
    const char *path = write_trace("");
    struct trace_reader r;
    struct trace_rec *rec = malloc(sizeof *rec);
    char err[300];
    struct scen_error se;
    assert_int_equal(trace_open(&r, path, err, sizeof err), 0);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), 1);
    assert_int_equal(scenario_parse(rec->entry, strlen(rec->entry), "entry", a, &se), 0);
    trace_close(&r);
    unlink(path);
    ks_copy(b, a);
    int sc = a->tcbs[a->cur_thread].sc;
    b->scs[sc].refill_max = 2;
    b->scs[sc].head = 5;
    b->scs[sc].tail = 1;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    uint32_t mask = diff_compare(a, b, f);
    fclose(f);
    assert_true(mask & (1u << DF_REFILLS));
    assert_non_null(strstr(text, "(out of range: head 5 tail 1 max 2)"));
    free(text);
    free(rec);
    free(a);
    free(b);
}

/* The fd form reads as the path form does, and names the file it is given. */
static void test_trace_fd(void **unused)
{
    (void)unused;
    const char *path = write_trace("{\"irqsim_trace\": 1, \"board\": \"imx8mm\", \"config\": \"gic=2\"}\n");
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct trace_reader r;
    struct trace_rec *rec = malloc(sizeof *rec);
    char err[300];
    assert_int_equal(trace_open_fd(&r, fd, "memory", err, sizeof err), 0);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), 1);
    assert_int_equal(r.format, 1);
    assert_int_equal(rec->seq, 7);
    assert_int_equal(trace_next(&r, rec, err, sizeof err), 0);
    trace_close(&r);
    unlink(path);
    free(rec);
}

/* The one JSON string writer (issue 20): what it escapes, that the reader
 * reads back the string written, and that a byte sequence which is not
 * UTF-8 is reported (RFC 3629: overlong forms, surrogates, past U+10FFFF,
 * cut short). */
static const char *written(const char *s, int *rc, char **buf)
{
    size_t len = 0;
    FILE *f = open_memstream(buf, &len);
    assert_non_null(f);
    *rc = jval_write_string(f, s);
    fclose(f);
    return *buf;
}

static void test_jval_write_string(void **unused)
{
    (void)unused;
    char *buf = NULL;
    int rc;
    assert_string_equal(written("a\"b\\c\td\ne\x01\x7f", &rc, &buf), "\"a\\\"b\\\\c\\td\\ne\\u0001\\u007f\"");
    assert_int_equal(rc, 0);
    free(buf);
    const char *utf8 = "dir/\xc3\xa9t\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x98\x80"; /* é, €, an emoji */
    assert_string_equal(written(utf8, &rc, &buf), "\"dir/\xc3\xa9t\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x98\x80\"");
    assert_int_equal(rc, 0);
    struct jval_doc d;
    jval_doc_init(&d);
    char err[100];
    const struct jval *v = jval_parse(&d, buf, strlen(buf), err, sizeof err);
    assert_non_null(v);
    assert_string_equal(v->str, utf8);
    free(buf);
    written("q\"\\\n", &rc, &buf);
    v = jval_parse(&d, buf, strlen(buf), err, sizeof err);
    assert_non_null(v);
    assert_string_equal(v->str, "q\"\\\n");
    free(buf);
    jval_doc_free(&d);
    const char *bad[] = {"bad\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        written(bad[i], &rc, &buf);
        assert_int_equal(rc, -1);
        for (const char *p = buf; *p; p++) /* written as \u escapes: ASCII, valid JSON */
            assert_true((unsigned char)*p < 0x80);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jval_values),  cmocka_unit_test(test_jval_errors),
        cmocka_unit_test(test_trace_record), cmocka_unit_test(test_trace_newer_fields),
        cmocka_unit_test(test_trace_header),
        cmocka_unit_test(test_trace_errors),
        cmocka_unit_test(test_diff_bad_ring), cmocka_unit_test(test_trace_fd),
        cmocka_unit_test(test_jval_write_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
