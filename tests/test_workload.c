#define _POSIX_C_SOURCE 200809L
/* The workload format (print then parse is the identity, errors name the
 * line) and the workload simulator on the example workloads: the
 * consequences of F6 (irquser) and F5 (a quiet core) over time, the
 * corrected fastpath silent on both, every reached state admitted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "irq_fast.h"
#include "scenario.h"
#include "sim.h"
#include "target.h"

#define EX(name) IRQSIM_SRC "/examples/" name

static const char *const examples[] = {EX("irquser-imx8mm.wl"), EX("noswitch-imx8mm.wl"), EX("f5-idle-wakeup.wl"),
                                       EX("periodic-server.wl"), EX("sporadic-server.wl"), EX("timeout-fault.wl"),
                                       EX("smp-remote.wl"), EX("signal-sporadic.wl"), EX("signal-smp-ipi.wl"),
                                       EX("signal-badcap.wl"), EX("smp-lock-wait.wl"), EX("smp-both-fastpaths.wl"),
                                       EX("gic-order.wl"), EX("vcpu-vtimer.wl"), EX("vcpu-release-queue.wl"),
                                       EX("vcpu-maintenance.wl"), EX("vcpu-storm.wl"), EX("vcpu-smp.wl"),
                                       EX("vcpu-smp-core1.wl")};

static struct workload w, w2;
static struct sim s;

static void load(const char *path)
{
    struct scen_error err;
    int rc = workload_load(path, &w, &err);
    if (rc)
        scen_error_print(stderr, &err);
    assert_int_equal(rc, 0);
}

static void test_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        load(examples[i]);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        workload_print(f, &w);
        fclose(f);
        struct scen_error err;
        assert_int_equal(workload_parse(buf, len, "printed", &w2, &err), 0);
        assert_memory_equal(&w, &w2, sizeof w);
        free(buf);
    }
}

static void expect_error(const char *text, int line, const char *part)
{
    struct scen_error err;
    assert_int_equal(workload_parse(text, strlen(text), "bad.wl", &w, &err), -1);
    if (err.line != line || !strstr(err.msg, part))
        fprintf(stderr, "got line %d: %s\n", err.line, err.msg);
    assert_int_equal(err.line, line);
    assert_non_null(strstr(err.msg, part));
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("board nosuch\n", 1, "unknown board");
    expect_error("ntfn a\nthread t prio=300\n", 2, "prio");
    expect_error("thread t prio=1 prog=wait:n\n", 1, "unknown notification 'n'");
    expect_error("ntfn n\nthread t prog=loop\n", 2, "earlier instruction");
    expect_error("sc s budget=10 period=5\n", 1, "budget <= period");
    expect_error("ntfn n\nirq 27 ntfn=n at=5\n", 2, "timer IRQ");
    expect_error("ntfn n\nirq 40 ntfn=n at=5,5\n", 2, "increase");
    expect_error("ntfn n\nntfn n\n", 2, "already used");
    expect_error("thread t prog=ack:40\n", 1, "no irq line");
    expect_error("ntfn n\nthread t prio=1 prog=send:n:lost\n", 2, "send:NOTIFICATION:badcap");
    expect_error("ntfn n\nthread t prio=1 prog=send:m\n", 2, "unknown notification 'm'");
    expect_error("frob x\n", 1, "unknown directive");
    expect_error("ntfn n\nirq 40 ntfn=n at=5\nirq 40 ntfn=n at=6\n", 3, "irq 40 is declared twice");
    expect_error("spurious at=5\nspurious at=6\n", 2, "spurious is declared twice");
    /* two cores: no domains on SMP (config.cmake), cores before the SCs */
    expect_error("cores 2\ndomain_schedule 0:1,1:1\n", 2, "an SMP kernel has one domain");
    expect_error("domain_schedule 0:1,1:1\ncores 2\n", 2, "an SMP kernel has one domain");
    expect_error("cores 3\n", 1, "cores");
    expect_error("sc s budget=1000 period=1000 core=1\n", 1, "declare cores first");
    expect_error("sc s budget=1000 period=1000\ncores 2\n", 2, "before the sc lines");
    expect_error("thread t prog=suspend:u\n", 1, "unknown thread 'u'");
    expect_error("thread t prog=prio:t\n", 1, "thread:priority");
    expect_error("thread t prog=prio:t:255\n", 1, "prio");
    /* a key of a line, or a setting, once (issue 20; the scenario reader
     * refuses a key twice too) */
    expect_error("thread t prio=1 prio=2 prog=loop\n", 1, "thread: key 'prio' given twice");
    expect_error("sc s budget=1000 period=2000 budget=500\n", 1, "sc: key 'budget' given twice");
    expect_error("ntfn n\nirq 40 ntfn=n at=5 at=6\n", 2, "irq: key 'at' given twice");
    expect_error("board imx8mm\nhorizon 5\nboard imx8mm\n", 3, "board is given twice (first on line 1)");
    expect_error("horizon 5\nhorizon 6\n", 2, "horizon is given twice");
    /* hypervisor workloads (issue 29): what needs hyp 1, and what it reserves */
    expect_error("thread t vcpu=1 prog=compute:10\n", 1, "vcpu=1 needs 'hyp 1'");
    expect_error("vtimer at=5\n", 1, "vtimer needs 'hyp 1'");
    expect_error("hyp 1\nthread t lr=5 prog=compute:10\n", 2, "lr= needs vcpu=1");
    expect_error("hyp 1\nthread t prog=veoi:0\n", 2, "veoi is its guest's EOI and needs vcpu=1");
    expect_error("hyp 1\nthread t prog=compute:10\nthread u prog=ackvppi:t\n", 3, "ackvppi:t names a thread without vcpu=1");
    expect_error("hyp 1\nthread t vcpu=1 lr=8 prog=compute:10\n", 2, "lr: expected a number from 0 to 7");
    expect_error("hyp 1\nthread t vcpu=1 prog=veoi:16\n", 2, "veoi: expected a number from 0 to 15");
    expect_error("timer_irq 27\nhyp 1\n", 2, "timer_irq 27 is reserved on a hypervisor build");
    expect_error("hyp 1\ntimer_irq 25\n", 2, "timer_irq 25 is reserved on a hypervisor build");
    expect_error("hyp 1\nntfn n\nirq 27 ntfn=n at=5\n", 3, "irq 27 is reserved on a hypervisor build");
    expect_error("hyp 1\nirq 26 at=5\n", 2, "kernel's timer IRQ");
    expect_error("thread t prog=compute:10\nhyp 1\n", 2, "hyp must come before");
    expect_error("hyp 1\nntfn n\nvtimer ntfn=n at=5\n", 3, "vtimer: no ntfn=");
    expect_error("hyp 1\nvtimer at=5\nvtimer at=6\n", 3, "vtimer is declared twice");
    /* a vtimer line per core (the PPI is banked): core= below cores, declared first */
    expect_error("hyp 1\nvtimer core=1 at=5\n", 2, "vtimer core: expected a core below 'cores' (1; declare cores first), got '1'");
    expect_error("hyp 1\ncores 2\nvtimer core=2 at=5\n", 3, "vtimer core: expected a core below 'cores' (2");
    expect_error("hyp 1\ncores 2\nvtimer core=x at=5\n", 3, "got 'x'");
    expect_error("hyp 1\ncores 2\nvtimer core=1 at=5\nvtimer at=6 core=1\n", 4, "vtimer core=1 is declared twice");
    expect_error("hyp 1\ncores 2\nntfn n\nirq 40 ntfn=n core=1 at=5\n", 4, "irq: unknown key 'core'");
    expect_error("hyp 2\n", 1, "hyp: expected a number from 0 to 1");
    /* one object past the limit: refused before its slot is named (the
     * slot past the array was indexed first: UBSan, fuzz_workload_text) */
    expect_error("ep a\nep b\nep c\nep d\nep e\n", 5, "too many eps (at most 4)");
    expect_error("ntfn a\nntfn b\nntfn c\nntfn d\nntfn e\nntfn f\nntfn g\nntfn h\nntfn i\n", 9, "too many ntfns");
    expect_error("reply a\nreply b\nreply c\nreply d\nreply e\nreply f\nreply g\nreply h\nreply i\n", 9,
                 "too many replys");
    char many[2048] = "";
    for (int i = 0; i <= WL_MAX_THREADS; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "thread t%d prio=1 prog=yield,loop\n", i);
    expect_error(many, WL_MAX_THREADS + 1, "too many threads");
    many[0] = 0;
    for (int i = 0; i <= WL_MAX_SCS; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "sc s%d\n", i);
    expect_error(many, WL_MAX_SCS + 1, "too many scs");
    /* the GIC's order: the three kinds, each once (issue 19) */
    expect_error("gic_order timer,device\n", 1, "the three kinds");
    expect_error("gic_order timer,device,ipi,timer\n", 1, "timer given twice");
    expect_error("gic_order timer,spi,ipi\n", 1, "expected timer, device or ipi, got 'spi'");
    expect_error("gic_devices backwards\n", 1, "expected declared or reversed");
    expect_error("gic_order ipi,device,timer\ngic_order ipi,device,timer\n", 2, "gic_order is given twice");
    /* no directive: an empty text, blank lines, comments */
    expect_error("", 1, "no directive");
    expect_error("\n\n", 2, "no directive");
    expect_error("# a comment\n  # another\n", 2, "no directive");
}

/* workload_load refuses what is not a workload file: a directory (which
 * opens and reads as nothing), an empty file, a workload where nothing runs */
static void test_load_refuses(void **state)
{
    (void)state;
    struct scen_error err;
    assert_int_equal(workload_load(IRQSIM_SRC "/examples", &w, &err), -1);
    assert_non_null(strstr(err.msg, "not a regular file"));
    char path[] = "/tmp/irqsim-wl-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(workload_load(path, &w, &err), -1);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.msg, "no directive"));
    static const char board_only[] = "board imx8mm\nntfn n\n";
    assert_int_equal(write(fd, board_only, sizeof board_only - 1), (ssize_t)(sizeof board_only - 1));
    assert_int_equal(workload_load(path, &w, &err), -1);
    assert_non_null(strstr(err.msg, "nothing runs"));
    close(fd);
    unlink(path);
}

/* the domain schedule, thread domains and the entry latency print and
 * parse back; a thread's domain must be one of the schedule's */
/* workload_print's text of w (free it) */
static char *printed(const struct workload *x, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    workload_print(f, x);
    fclose(f);
    return buf;
}

static void test_domains(void **state)
{
    (void)state;
    const char *text = "entry_latency 40\ndomain_schedule 0:2,1:3\nntfn n\nsc s budget=800 period=800\n"
                       "thread t prio=5 domain=1 sc=s prog=wait:n\nirq 40 ntfn=n at=100\n";
    struct scen_error err;
    assert_int_equal(workload_parse(text, strlen(text), "dom.wl", &w, &err), 0);
    assert_int_equal(w.n_dom, 2);
    assert_int_equal(w.dom[1].domain, 1);
    assert_int_equal(w.dom[1].ms, 3);
    assert_int_equal(w.threads[0].domain, 1);
    assert_int_equal(wl_num_domains(&w), 2);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    workload_print(f, &w);
    fclose(f);
    assert_int_equal(workload_parse(buf, len, "printed", &w2, &err), 0);
    assert_memory_equal(&w, &w2, sizeof w);
    free(buf);
    /* the simulator boots in the schedule's first domain with its length
     * (ksDomainTime = usToTicks(length * 1000): 2 ms = 16000 ticks) */
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    assert_int_equal(s.k[0].ks.cfg.num_domains, 2);
    assert_int_equal(s.k[0].ks.cur_domain, 0);
    assert_int_equal(s.k[0].ks.domain_time, 16000);
    sim_free(&s);
    /* a kernel line names master; it prints and reads back */
    text = "kernel master\ndomain_schedule 0:2,1:3\nntfn n\nthread t prio=1 prog=wait:n\n";
    assert_int_equal(workload_parse(text, strlen(text), "m.wl", &w, &err), 0);
    assert_int_equal(w.kernel, KS_KERNEL_MASTER);
    buf = printed(&w, &len);
    assert_non_null(strstr(buf, "\nkernel master\n"));
    assert_int_equal(workload_parse(buf, len, "printed", &w2, &err), 0);
    assert_int_equal(w2.kernel, KS_KERNEL_MASTER);
    assert_int_equal(w2.n_dom, 2);
    free(buf);
    expect_error("kernel next\n", 1, "expected base or master");
    /* a target line names the fastpath under check; it prints and reads
     * back, and the irq default prints none */
    text = "target signal\nntfn n\nthread t prio=1 prog=signal:n\n";
    assert_int_equal(workload_parse(text, strlen(text), "t.wl", &w, &err), 0);
    assert_ptr_equal(w.target, &target_signal);
    buf = printed(&w, &len);
    assert_non_null(strstr(buf, "\ntarget signal\n"));
    assert_int_equal(workload_parse(buf, len, "printed", &w2, &err), 0);
    assert_ptr_equal(w2.target, &target_signal);
    free(buf);
    text = "ntfn n\nthread t prio=1 prog=wait:n\n";
    assert_int_equal(workload_parse(text, strlen(text), "i.wl", &w, &err), 0);
    assert_ptr_equal(w.target, &target_irq);
    buf = printed(&w, &len);
    assert_null(strstr(buf, "target"));
    free(buf);
    expect_error("target ipc\n", 1, "expected irq, signal, call or reply_recv");
    expect_error("domain_schedule 0:2\nthread t prio=1 domain=2\n", 2, "domain");
    expect_error("thread t prio=1\ndomain_schedule 0:2\n", 2, "before the thread");
    expect_error("domain_schedule 0-2\n", 1, "DOMAIN:MS");
    /* an entry latency above the kernel WCET (80 ticks on imx8mm) is refused at setup */
    text = "entry_latency 81\nntfn n\nthread t prio=1 prog=wait:n\n";
    assert_int_equal(workload_parse(text, strlen(text), "lat.wl", &w, &err), 0);
    assert_int_equal(sim_init(&s, &w, FP_PR1227), -1);
    assert_non_null(strstr(s.setup_error, "WCET"));
    sim_free(&s);
}

static ticks_t run_time(int k, int tcb, ticks_t from);

/* the interrupt kinds beyond a routed line, and the never-configured SC
 * and unbind they need, print and parse back; bad uses name the line */
static void test_kinds_round_trip(void **state)
{
    (void)state;
    const char *text = "ntfn n\nsc a budget=800 period=800\nsc blank ntfn=n\n"
                       "thread t prio=5 sc=a prog=unbind:blank,wait:n\nirq 40 at=100\nspurious start=50 period=300\n";
    struct scen_error err;
    assert_int_equal(workload_parse(text, strlen(text), "kinds.wl", &w, &err), 0);
    assert_int_equal(w.irqs[0].ntfn, -1);
    assert_int_equal(w.irqs[1].irq, WL_SPURIOUS_ID);
    assert_int_equal(w.scs[1].budget, 0);
    assert_int_equal(w.threads[0].prog[0].op, OP_UNBIND);
    assert_int_equal(w.threads[0].prog[0].a, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    workload_print(f, &w);
    fclose(f);
    assert_non_null(strstr(buf, "\nspurious start=50 period=300\n"));
    assert_non_null(strstr(buf, "\nsc blank ntfn=n\n"));
    assert_non_null(strstr(buf, "\nirq 40 at=100\n"));
    assert_int_equal(workload_parse(buf, len, "printed", &w2, &err), 0);
    assert_memory_equal(&w, &w2, sizeof w);
    free(buf);
    expect_error("ntfn n\nirq 1023 ntfn=n at=5\n", 2, "special IDs");
    expect_error("ntfn n\nspurious ntfn=n at=5\n", 2, "no ntfn=");
    expect_error("spurious at=5\nspurious at=7\n", 2, "twice");
    expect_error("spurious at=5\nthread t prio=1 prog=ack:1023\n", 2, "no irq line");
    expect_error("irq 40 badge=3 at=5\n", 1, "badge= needs ntfn=");
    expect_error("sc s budget=800\n", 1, "budget <= period");
    expect_error("sc s sporadic=1\n", 1, "never configured");
    expect_error("thread t prio=1 prog=unbind:s\n", 1, "unknown sc 's'");
    /* seL4_Send with one extra cap: it resolves (n 0) or not (badcap, n 1) */
    const char *sends = "ntfn n\nthread t prio=5 prog=send:n,send:n:badcap\n";
    assert_int_equal(workload_parse(sends, strlen(sends), "sends.wl", &w, &err), 0);
    assert_int_equal(w.threads[0].prog[0].op, OP_SEND);
    assert_int_equal(w.threads[0].prog[0].n, 0);
    assert_int_equal(w.threads[0].prog[1].n, 1);
    buf = NULL;
    f = open_memstream(&buf, &len);
    workload_print(f, &w);
    fclose(f);
    assert_non_null(strstr(buf, "prog=send:n,send:n:badcap\n"));
    free(buf);
}

static int named(const struct kstate *ks, const char *kind, const char *name)
{
    bool tcb = strcmp(kind, "tcb") == 0;
    for (int i = 0; i < (tcb ? ks->n_tcbs : ks->n_scs); i++)
        if (strcmp(tcb ? ks->tcbs[i].name : ks->scs[i].name, name) == 0)
            return i;
    fail();
    return -1;
}

#define WL(name) IRQSIM_SRC "/tests/workloads/" name

/* what each kind does on the slowpath kernel, argued from the kernel:
 * an issued IRQ with an empty handler slot is in IRQSignal and unmasked
 * (IRQControl_Get -> setIRQState), and handleInterrupt masks it when it
 * arrives with no notification to signal (interrupt.c, IRQSignal case);
 * a spurious entry (getActiveIRQ gives irqInvalid) touches no IRQ; a
 * notification's never-configured SC is donated to the passive waiter,
 * which is then Running but not schedulable (refillMax 0) */
static void test_kinds_in_the_kernel(void **state)
{
    (void)state;
    load(WL("undelivered__entry_time+entry_budget.wl"));
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    assert_int_equal(s.k[0].ks.irq_state[40], IRQ_Signal);
    assert_false(s.k[0].ks.irq_masked[40]);
    assert_int_equal(s.k[0].ks.irq_cap[40].type, CAP_Null);
    sim_run(&s);
    assert_true(s.k[0].ks.irq_masked[40]);
    assert_int_equal(s.k[0].entries[SE_DEVICE], 1);
    sim_free(&s);

    load(WL("spurious__entry_time+entry_budget.wl"));
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    sim_run(&s);
    assert_int_equal(s.k[0].entries[SE_DEVICE], 1);
    assert_int_equal(s.div_irq, KS_IRQ_INVALID);
    assert_int_equal(s.div_verdict.exit, FP_EXIT_SPURIOUS);
    sim_free(&s);

    load(WL("woken_unschedulable__entry_time+entry_budget.wl"));
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    const struct kstate *ks = &s.k[0].ks;
    int blank = named(ks, "sc", "blank"), drv = named(ks, "tcb", "drv"), sdrv = named(ks, "sc", "sdrv");
    assert_int_equal(ks->scs[blank].refill_max, 0);
    assert_int_equal(ks->ntfns[ks->scs[blank].ntfn].sc, blank);
    sim_run(&s);
    assert_int_equal(ks->scs[sdrv].tcb, KS_NONE); /* spin's unbind */
    assert_int_equal(ks->tcbs[drv].sc, blank);   /* donated by the signal */
    assert_int_equal(ks->tcbs[drv].state, TS_Running);
    assert_int_equal(run_time(0, drv, 0), 1);    /* only its wait, before the unbind */
    assert_true(sim_all_admitted(&s));
    sim_free(&s);
}

static void run(const char *path, int variant)
{
    load(path);
    assert_int_equal(sim_init(&s, &w, variant), 0);
    sim_run(&s);
}

static int thread_index(const char *name)
{
    for (int i = 0; i < w.n_threads; i++)
        if (strcmp(w.threads[i].name, name) == 0)
            return s.tcb_of[i];
    fail();
    return -1;
}

static ticks_t run_time(int k, int tcb, ticks_t from)
{
    ticks_t sum = 0;
    for (size_t i = 0; i < s.k[k].n_segs; i++)
        if (s.k[k].segs[i].tcb == tcb && s.k[k].segs[i].t0 >= from)
            sum += s.k[k].segs[i].t1 - s.k[k].segs[i].t0;
    return sum;
}

/* F6 over time: the proposal keeps the interrupted spinner's deadline on
 * a direct switch, so the timer fires while the handler runs: extra timer
 * entries on the fastpath kernel, none on the slowpath one */
static void test_irquser_f6(void **state)
{
    (void)state;
    run(EX("irquser-imx8mm.wl"), FP_PR1227);
    assert_true(s.diverged);
    assert_false(s.drift);
    assert_int_equal(s.div_verdict.exit, FP_EXIT_SWITCH);
    assert_int_equal(s.div_class.cause, FIX(FIX_DEADLINE));
    assert_true(s.k[1].entries[SE_TIMER] > s.k[0].entries[SE_TIMER]);
    assert_int_equal(s.k[1].entries[SE_DEVICE], s.k[0].entries[SE_DEVICE]);
    assert_true(sim_all_admitted(&s));
    sim_free(&s);
    run(EX("irquser-imx8mm.wl"), FP_FIXED);
    assert_false(s.diverged);
    assert_int_equal(s.k[1].entries[SE_TIMER], s.k[0].entries[SE_TIMER]);
    assert_true(sim_all_admitted(&s));
    sim_free(&s);
}

/* F5 over time: the woken priority-0 thread never runs on the proposal's
 * kernel within the horizon (the idle thread's timer only reprograms
 * itself), and its IRQ stays masked; it runs on the slowpath kernel */
static void test_f5_never_runs(void **state)
{
    (void)state;
    run(EX("f5-idle-wakeup.wl"), FP_PR1227);
    assert_true(s.diverged);
    assert_int_equal(s.div_verdict.exit, FP_EXIT_APPEND);
    assert_true(s.div_class.cause & FIX(FIX_IDLE_SWITCH));
    int low = thread_index("low");
    assert_true(run_time(0, low, s.div_time) > 0);
    assert_int_equal(run_time(1, low, s.div_time), 0);
    assert_true(s.k[1].ks.irq_masked[41]);
    assert_false(s.k[0].ks.irq_masked[41]);
    assert_true(s.k[1].entries[SE_TIMER] > 10); /* the timer kept firing: no reschedule */
    assert_true(sim_all_admitted(&s));
    sim_free(&s);
    run(EX("f5-idle-wakeup.wl"), FP_FIXED);
    assert_false(s.diverged);
    assert_true(run_time(1, thread_index("low"), 100000) > 0);
    sim_free(&s);
}

/* The GIC's order decides what a device interrupt meets (examples/
 * gic-order.wl): r's release is due at t=5001 with the kernel timer, and
 * IRQ 40 arrives then. Device first: at its entry the release queue's
 * head is ready, which the slowpath's schedule() awakens and PR #1227's
 * fastpath ignores (F3: entry_time + entry_release). Timer first: the
 * timer's entry has awakened r, so the device interrupt cannot show F3,
 * only the deadline it programs (F6). Either way the GIC chose once, and
 * the corrected fastpath agrees. */
static void test_gic_order(void **state)
{
    (void)state;
    run(EX("gic-order.wl"), FP_PR1227);
    assert_false(wl_gic_default(&w));
    assert_true(s.diverged);
    assert_int_equal(s.div_time, 5001);
    assert_int_equal(s.div_class.cause, FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_RELEASE));
    assert_int_equal(s.k[0].gic_choices, 1);
    sim_free(&s);
    /* the default order, the same workload */
    load(EX("gic-order.wl"));
    wl_gic_reverse(&w);
    wl_gic_reverse(&w);
    assert_false(wl_gic_default(&w)); /* reversing twice is the identity */
    struct workload def;
    workload_init(&def);
    memcpy(w.gic_rank, def.gic_rank, sizeof w.gic_rank);
    assert_true(wl_gic_default(&w));
    assert_int_equal(sim_init(&s, &w, FP_PR1227), 0);
    sim_run(&s);
    assert_true(s.diverged);
    assert_int_equal(s.div_time, 5001);
    assert_int_equal(s.div_class.cause, FIX(FIX_DEADLINE));
    assert_int_equal(s.k[0].gic_choices, 1);
    sim_free(&s);
    for (int order = 0; order < 2; order++) {
        run(EX("gic-order.wl"), FP_FIXED);
        if (order)
            memcpy(w.gic_rank, def.gic_rank, sizeof w.gic_rank);
        sim_free(&s);
        assert_int_equal(sim_init(&s, &w, FP_FIXED), 0);
        sim_run(&s);
        assert_false(s.diverged);
        sim_free(&s);
    }
}

/* every example: every state reached at a kernel entry passes the checker,
 * and no kernel assertion fails, on both kernels and both fastpaths */
static void test_all_admitted(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        for (int v = 0; v < FP_VARIANT_COUNT; v++) {
            run(examples[i], v);
            if (!sim_all_admitted(&s) || s.k[0].asserts || s.k[1].asserts)
                sim_report(stderr, &s);
            assert_true(sim_all_admitted(&s));
            assert_int_equal(s.k[0].asserts + s.k[1].asserts, 0);
            if (v == FP_FIXED)
                assert_false(s.diverged);
            sim_free(&s);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),  cmocka_unit_test(test_errors), cmocka_unit_test(test_load_refuses),
        cmocka_unit_test(test_irquser_f6),  cmocka_unit_test(test_f5_never_runs),
        cmocka_unit_test(test_all_admitted), cmocka_unit_test(test_domains),
        cmocka_unit_test(test_kinds_round_trip), cmocka_unit_test(test_kinds_in_the_kernel),
        cmocka_unit_test(test_gic_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
