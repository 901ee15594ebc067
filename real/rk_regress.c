/*
 * rk_regress: the regression reproducers through the real kernel. For
 * each scenario file (tests/regressions/EXIT__CAUSE.scen), builds (or
 * takes from the cache) a host kernel of the state's configuration (its
 * board, domain count and cores; release), and checks:
 *   - the real slowpath and the real fastpath_irq (as built) diverge in
 *     the same fields as the model's slowpath and pr1227 fastpath
 *     (diff_compare after diff_normalise, with diff_run's overrun and
 *     invariant flags; kernel assertions are left out: a release kernel
 *     has none, a debug one halts);
 *   - the corrected fastpath written as kernel C (real/glue/hk_fixed.c)
 *     agrees with the real slowpath.
 * A state whose configuration cannot be built (no kernel platform for its
 * board, several cores with several domains, timing constants that
 * differ from the build's) is skipped with the reason. Then one line per
 * finding of the IRQ target's table (F1-F12, docs/FINDINGS.md): shown on the real kernel or not, and
 * the command that shows it.
 *
 *   rk_regress [--tree T] [--kernel base|master] [--cache DIR] [--script build-kernel.sh] [--debug] FILE|DIR...
 *
 * --kernel master: the tree is master's (e.g. PR #1227 rebased onto it by
 * real/rebase-pr.sh); the states with config kernel=master run, and F9
 * (split_eoi) counts.
 *
 * --signal-tree T: the signal-fastpath reproducers (sig-*.scen, a syscall
 * line) run on builds of T (master, with fastpath_signal): the real
 * fastpath_signal must diverge from the real syscall slowpath in exactly
 * the fields in which the model's merged fastpath diverges from the
 * model's slowpath (the model as master, the tree's kernel). Then one line
 * per finding of the signal target's table (S1-S6, S9-S11, docs/FINDINGS-signal.md).
 * Without it they are skipped.
 *
 * Exit 0 every state that ran matched, 1 a mismatch, 2 usage or a file
 * that does not load, 77 nothing could run (no tree, a missing
 * prerequisite), saying why.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L /* popen, setenv */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "build.h"
#include "defect.h"
#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "rk_diff.h"
#include "rk_load.h"
#include "rk_sig.h"
#include "scenario.h"
#include "sig_fast.h"
#include "target.h"

#ifndef RK_SCRIPT_DIR
#define RK_SCRIPT_DIR "real"
#endif

/* ---- host kernels, one per configuration, built on first use ---- */

struct build {
    const char *tree;
    char platform[32];
    int domains, cores;
    int hyp;           /* -D KernelArmHypervisorSupport=ON */
    int ok;            /* 1 open, 0 failed */
    char why[300];     /* why it failed */
    struct rk_kernel k;
};

#define MAX_BUILDS 32
static struct build builds[MAX_BUILDS];
static int n_builds;
static const char *tree, *cache_dir, *script;
static const char *sig_tree;   /* --signal-tree: the tree the sig- reproducers run on */
static const char *build_tree; /* the tree get_build builds: tree, or sig_tree for a signal state */
static int tree_kernel; /* enum ks_kernel of the tree (--kernel): its states run, others are skipped */
static int debug_build;
static char missing[400]; /* a prerequisite is missing: nothing can be built */

static struct build *get_build(const char *platform, int domains, int cores, int hyp)
{
    for (int i = 0; i < n_builds; i++)
        if (builds[i].tree == build_tree && strcmp(builds[i].platform, platform) == 0 &&
            builds[i].domains == domains && builds[i].cores == cores && builds[i].hyp == hyp)
            return &builds[i];
    if (n_builds == MAX_BUILDS)
        return NULL;
    struct build *b = &builds[n_builds++];
    snprintf(b->platform, sizeof b->platform, "%s", platform);
    b->tree = build_tree;
    b->domains = domains;
    b->cores = cores;
    b->hyp = hyp;
    char cmd[2048], line[512], last[512] = "", err[300] = "";
    snprintf(cmd, sizeof cmd, "'%s' --sel4 '%s' --board %s --domains %d --cores %d%s%s%s%s%s 2>&1", script, build_tree,
             platform, domains, cores, debug_build ? " --debug" : "", hyp ? " -D KernelArmHypervisorSupport=ON" : "",
             cache_dir ? " --cache '" : "", cache_dir ? cache_dir : "", cache_dir ? "'" : "");
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(b->why, sizeof b->why, "cannot run %.250s", script);
        return b;
    }
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(last, sizeof last, "%.500s", line);
        /* the last of the script's own lines is its error when it fails */
        if (strncmp(line, "build-kernel: ", 14) == 0)
            snprintf(err, sizeof err, "%.250s", line + 14);
    }
    int st = pclose(p);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    if (rc == 3) {
        snprintf(missing, sizeof missing, "%.300s", err);
        snprintf(b->why, sizeof b->why, "a prerequisite is missing: %.250s", err);
        return b;
    }
    if (rc != 0) {
        snprintf(b->why, sizeof b->why, "the host kernel build failed: %.250s", err[0] ? err : last);
        return b;
    }
    char e[512];
    if (rk_open(&b->k, last, e, sizeof e) != 0) {
        snprintf(b->why, sizeof b->why, "cannot open the build: %.250s", e);
        return b;
    }
    b->ok = 1;
    return b;
}

/* ---- the findings: a class's cause names the fixes whose absence it needs ---- */

/* A class's cause names the fixes whose absence it needs; the defects
 * beneath it are the target's defect table's (cause_defects), so this
 * report and irqsim's word them alike. */
static unsigned findings_of(const struct target *t, const char *cause)
{
    return cause_defects(t, cause_of_text(t, cause));
}

/* The targets of the two kinds of reproducer, asked for by their entry
 * (check/target.h; the descriptors are check/target.c's to name): an
 * interrupt's, and a seL4_Send's (a syscall line). */
static const struct target *irq_target(void)
{
    return target_get(ENTRY_IRQ);
}

static const struct target *sig_target(void)
{
    return target_get(ENTRY_SIGNAL);
}

struct shown {
    int ran, shown;
    char file[300];   /* a file that shows it: the one with the fewest fixes */
    int file_fixes;
};
static struct shown per_finding[DEFECT_MAX];

/* ---- one file ---- */

static struct kstate in, mapped, m_slow, m_fast, r_slow, r_fast, r_slow2, r_fixed;

static const char *timing_differs(const struct ks_config *a, const struct ks_config *b)
{
    if (a->timer_hz != b->timer_hz)
        return "timer frequency";
    if (a->wcet_us != b->wcet_us || a->wcet_scale != b->wcet_scale)
        return "kernel WCET";
    if (a->precision_us != b->precision_us)
        return "timer precision";
    if (a->overhead_ticks != b->overhead_ticks)
        return "timer overhead";
    if (a->max_irq != b->max_irq)
        return "maxIRQ";
    if (a->gic_version != b->gic_version)
        return "GIC version";
    return NULL;
}

static int n_pass, n_fail, n_skip;
static const uint32_t NO_ASSERT = ~(1u << DF_ASSERT);

static void skip(const char *file, const char *why)
{
    n_skip++;
    printf("SKIP  %s: %s\n", file, why);
}

static int fix_count(const char *cause)
{
    int n = 1;
    for (const char *p = cause; *p; p++)
        n += *p == '+';
    return n;
}

/* ---- the signal fastpath's reproducers (sig-*.scen), on --signal-tree ---- */

/* per defect of the signal target's table (docs/FINDINGS-signal.md) */
static struct shown per_sig[DEFECT_MAX];
static char sig_skip_why[DEFECT_MAX][200]; /* the first reason a reproducer of it did not run */

static int sig_skip(const char *file, const char *cause, const char *why)
{
    const struct target *t = sig_target();
    unsigned fm = findings_of(t, cause);
    for (int i = 0; i < t->n_defects; i++)
        if ((fm >> i) & 1 && !sig_skip_why[i][0])
            snprintf(sig_skip_why[i], sizeof sig_skip_why[i], "%.150s (%.40s)", why, file);
    skip(file, why);
    return 0;
}

static void sig_count(const char *path, const char *cause, bool pass)
{
    const struct target *t = sig_target();
    unsigned fm = findings_of(t, cause);
    for (int i = 0; i < t->n_defects; i++) {
        if (!(fm & (1u << i)))
            continue;
        struct shown *s = &per_sig[i];
        s->ran++;
        if (!pass)
            continue;
        s->shown++;
        int nf = fix_count(cause);
        if (!s->file[0] || nf < s->file_fixes) {
            snprintf(s->file, sizeof s->file, "%s", path);
            s->file_fixes = nf;
        }
    }
}

/* why a state's configuration has no build, NULL when it has one */
static const char *sig_unbuildable(const struct ks_config *c, char *why, size_t n)
{
    if (!rk_platform_of(c->board)) {
        snprintf(why, n, "no kernel platform for board preset %s", c->board);
        return why;
    }
    if (c->smp && c->num_domains > 1) {
        snprintf(why, n, "2 cores with %u domains: the kernel allows several cores only with one domain",
                 c->num_domains);
        return why;
    }
    return NULL;
}

/* A build of the signal tree for c: its board's, or, when that build's
 * timing constants differ from the state's (the model's preset and the
 * kernel's platform disagree: imx8mq's timer is 8 MHz in the preset,
 * 8333333 Hz in the kernel), one of another board whose preset has the
 * state's constants: the model sees only the constants, not the board.
 * NULL with why when none fits. */
static struct build *sig_build(const struct ks_config *c, char *why, size_t n)
{
    static const char *const presets[] = {"imx8mm", "imx8mq", "odroidc4", "tqma", "tx1", "zcu106"};
    static struct kstate tmpl;
    int domains = (int)c->num_domains, cores = c->smp ? 2 : 1;
    struct build *b = get_build(rk_platform_of(c->board), domains, cores, c->hyp);
    if (!b || !b->ok) {
        snprintf(why, n, "%.300s", b ? b->why : "too many configurations");
        return NULL;
    }
    const char *t = timing_differs(c, &b->k.cfg);
    if (!t)
        return b;
    snprintf(why, n, "%s of the state differs from the %s build's, and no other board's preset has its constants", t,
             b->platform);
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        if (!strcmp(presets[i], c->board) || ks_init(&tmpl, presets[i]) != 0 || timing_differs(c, &tmpl.cfg))
            continue;
        struct build *o = get_build(rk_platform_of(presets[i]), domains, cores, c->hyp);
        if (o && o->ok && !timing_differs(c, &o->k.cfg))
            return o;
    }
    return NULL;
}

/* The state as the signal tree's kernel (master: fastpath_signal is
 * master's) would hold it: master's switch makes every thread it switches
 * to, but the idle thread, its core's FPU owner (lazyFPURestore in
 * switchToThread, src/kernel/thread.c; c4501d5ed), so on a build with an
 * FPU each core's current thread owns it (check/invariant.c,
 * check_fpu_owners). The reproducers were drawn for base. */
static void sig_as_tree(struct kstate *ks, const struct rk_kernel *k)
{
    ks->cfg.kernel = k->cfg.kernel;
    ks->cfg.features = k->cfg.features;
    build_fpu_owners(ks);
}

/* One sig- reproducer: the model's merged fastpath_signal against its
 * slowpath(SysSend) (the model as master, the signal tree's kernel), the
 * real fastpath_signal against the real c_handle_syscall(SysSend) of a
 * build of its configuration; both must diverge in the same fields. */
static int sig_run_file(const char *path, const char *file, const char *cause)
{
    char why[400];
    if (!sig_tree)
        return sig_skip(file, cause, "a signal-fastpath state (syscall line): needs --signal-tree (master)");
    const struct ks_config *c = &in.cfg;
    if (sig_unbuildable(c, why, sizeof why))
        return sig_skip(file, cause, why);
    build_tree = sig_tree;
    struct build *b = sig_build(c, why, sizeof why);
    build_tree = tree;
    if (!b)
        return sig_skip(file, cause, why);
    if (!b->k.info.signal_fastpath)
        return sig_skip(file, cause, "the signal tree's build has no signal fastpath (CONFIG_SIGNAL_FASTPATH)");
    /* the state on the build's configuration, the model as master; the
     * model's verdict must not change by that */
    struct rk_syscall sys;
    struct diff_verdict v0, v;
    ks_copy(&mapped, &in);
    if (rk_sig_of_model(&mapped, &sys) != 0)
        return sig_skip(file, cause, "the syscall line does not map to the bridge's call");
    diff_run(&mapped, SIG_MERGED, true, &v0, &m_slow, &m_fast);
    mapped.cfg = b->k.cfg;
    sig_as_tree(&mapped, &b->k);
    struct inv_report rep;
    if (kstate_check(&mapped, INV_AT_ENTRY, &rep)) {
        snprintf(why, sizeof why, "as master, not a reachable state at entry: invariant %s: %.200s",
                 inv_name(rep.items[0].id), rep.items[0].msg);
        return sig_skip(file, cause, why);
    }
    diff_run(&mapped, SIG_MERGED, true, &v, &m_slow, &m_fast);
    /* where one path switches thread and the other does not, master's
     * switch also moves the FPU (switchToThread's lazyFPURestore): the
     * class is the same with fpu_owner added */
    const uint32_t cur = 1u << DF_CUR_THREAD, fpu = 1u << DF_FPU_OWNER;
    bool fpu_moved = (v0.fields & cur) && mapped.cfg.fpu && v.fields == (v0.fields | fpu);
    if (v.fields != v0.fields && !fpu_moved) {
        char a[300], x[300];
        snprintf(why, sizeof why, "as master on the build's configuration the model's verdict changes (%.120s -> %.120s)",
                 diff_fields_text(v0.fields, a, sizeof a), diff_fields_text(v.fields, x, sizeof x));
        return sig_skip(file, cause, why);
    }
    int ws = rk_run_sys(&b->k, &mapped, &sys, RK_SIG_SLOW, &r_slow, NULL);
    int wf = rk_run_sys(&b->k, &mapped, &sys, RK_SIG_FAST, &r_fast, NULL);
    if (ws < 0 || wf < 0) {
        snprintf(why, sizeof why, "the state does not fit the build: %s", rk_error(&b->k));
        return sig_skip(file, cause, why);
    }
    bool halted = ws == HK_OUT_HALT || wf == HK_OUT_HALT;
    uint32_t rv = halted ? 0 : rk_verdict(&r_slow, &r_fast, true) & NO_ASSERT, mv = v.fields & NO_ASSERT;
    bool pass = !halted && rv == mv && mv != 0;
    char cfgtxt[96], mt[300], rt[300];
    snprintf(cfgtxt, sizeof cfgtxt, "%.31s d%d c%d, master %.9s", b->platform, b->domains, b->cores, b->k.commit);
    printf("%s  %s [%s]\n      model merged fastpath_signal: %s%s\n      real fastpath_signal: %s\n",
           pass ? "PASS" : "FAIL", file, cfgtxt, diff_fields_text(mv, mt, sizeof mt),
           fpu_moved && !(v0.fields & fpu) ? " (as master: + fpu_owner, the switch moves the FPU)" : "",
           halted ? "real kernel halted" : diff_fields_text(rv, rt, sizeof rt));
    pass ? n_pass++ : n_fail++;
    sig_count(path, cause, pass);
    return pass ? 0 : 1;
}

static void sig_table(void)
{
    if (!sig_tree && !per_sig[0].ran && !sig_skip_why[0][0])
        return;
    printf("\n| finding | regressions run | real fastpath_signal diverges as the model | shown on the real kernel | "
           "command or reason |\n|---|---|---|---|---|\n");
    const struct target *t = sig_target();
    for (int i = 0; i < t->n_defects; i++) {
        const struct shown *s = &per_sig[i];
        if (s->shown)
            printf("| %s (%s) | %d | %d | yes | `rk_regress --tree %s --signal-tree %s %s` |\n", t->defects[i].id,
                   defect_fix(t, i), s->ran, s->shown, tree, sig_tree, s->file);
        else
            printf("| %s (%s) | %d | 0 | no | %s |\n", t->defects[i].id, defect_fix(t, i), s->ran,
                   sig_skip_why[i][0] ? sig_skip_why[i] : "");
    }
}

static int run_file(const char *path)
{
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    struct scen_error e;
    if (scenario_load(path, &in, &e) != 0) {
        scen_error_print(stderr, &e);
        return 2;
    }
    /* EXIT__CAUSE[--suffix].scen */
    char cause[128] = "";
    const char *u = strstr(file, "__");
    if (u) {
        snprintf(cause, sizeof cause, "%s", u + 2);
        cause[strcspn(cause, ".")] = 0;
        char *dd = strstr(cause, "--");
        if (dd)
            *dd = 0;
    }
    const struct ks_config *c = &in.cfg;
    const char *platform = rk_platform_of(c->board);
    char why[400];
    if (in.sys.entry == ENTRY_SIGNAL)
        return sig_run_file(path, file, cause);
    if (in.sys.entry != ENTRY_IRQ) { /* the call and reply_recv targets: docs/IPC-FASTPATHS.md */
        snprintf(why, sizeof why,
                 "a %s entry: rk_regress runs the IRQ and signal reproducers; `irqsim check --real BUILD FILE` "
                 "runs this one",
                 ks_entry_name(in.sys.entry));
        skip(file, why);
        return 0;
    }
    if (c->kernel != tree_kernel) {
        snprintf(why, sizeof why, "a %s state (config kernel=): the tree is %s (rk_regress --kernel)",
                 cfg_kernel_name(c->kernel), cfg_kernel_name(tree_kernel));
        skip(file, why);
        return 0;
    }
    if (!platform) {
        snprintf(why, sizeof why, "no kernel platform for board preset %s", c->board);
        skip(file, why);
        return 0;
    }
    if (c->smp && c->num_domains > 1) {
        snprintf(why, sizeof why, "2 cores with %u domains: the kernel allows several cores only with one domain",
                 c->num_domains);
        skip(file, why);
        return 0;
    }
    struct build *b = get_build(platform, (int)c->num_domains, c->smp ? 2 : 1, c->hyp);
    if (!b || !b->ok) {
        skip(file, b ? b->why : "too many configurations");
        return 0;
    }
    const char *t = timing_differs(c, &b->k.cfg);
    if (t) {
        snprintf(why, sizeof why, "%s of the state differs from the %s build's", t, platform);
        skip(file, why);
        return 0;
    }
    /* the state on the build's configuration (FPU: the kernel has one on
     * every aarch64 build); the model's verdict must not change by that.
     * The kernel modelled stays the state's: kernel.info does not say it
     * (the build's cfg reads as base), and --kernel already matched it */
    struct diff_verdict v0, v, vx;
    diff_run(&in, FP_PR1227, true, &v0, &m_slow, &m_fast);
    ks_copy(&mapped, &in);
    mapped.cfg = b->k.cfg;
    mapped.cfg.kernel = c->kernel;
    mapped.cfg.features = 0; /* that version's row */
    diff_run(&mapped, FP_PR1227, true, &v, &m_slow, &m_fast);
    if (v.fields != v0.fields) {
        skip(file, "on the build's configuration (FPU) the model's verdict changes");
        return 0;
    }
    diff_run(&mapped, FP_FIXED, true, &vx, &m_slow, &m_fast);
    int ws = rk_run(&b->k, &mapped, RK_SLOW, &r_slow);
    int wf = rk_run(&b->k, &mapped, RK_FAST, &r_fast);
    int ws2 = rk_run(&b->k, &mapped, RK_SLOW, &r_slow2);
    int wx = rk_run(&b->k, &mapped, RK_FIXED, &r_fixed);
    if (ws < 0 || wf < 0 || wx < 0) {
        snprintf(why, sizeof why, "the state does not fit the build: %s", rk_error(&b->k));
        skip(file, why);
        return 0;
    }
    char cfgtxt[64], mt[300], rt[300], xt[300];
    snprintf(cfgtxt, sizeof cfgtxt, "%s d%d c%d", platform, b->domains, b->cores);
    bool halted = ws == HK_OUT_HALT || wf == HK_OUT_HALT || ws2 == HK_OUT_HALT || wx == HK_OUT_HALT;
    uint32_t rv = 0, xv = 0;
    if (!halted) {
        rv = rk_verdict(&r_slow, &r_fast, true);
        xv = rk_verdict(&r_slow2, &r_fixed, true);
    }
    uint32_t mv = v.fields & NO_ASSERT;
    bool same = !halted && (rv & NO_ASSERT) == mv && mv != 0;
    bool fixed_ok = !halted && xv == 0 && vx.agree;
    diff_fields_text(mv, mt, sizeof mt);
    diff_fields_text(rv & NO_ASSERT, rt, sizeof rt);
    diff_fields_text(xv, xt, sizeof xt);
    bool pass = same && fixed_ok;
    printf("%s  %s [%s]\n      model pr1227: %s%s\n      real fastpath_irq: %s\n      kernel-C corrected: %s%s\n",
           pass ? "PASS" : "FAIL", file, cfgtxt, mt, v.fast_asserts ? " (+ model kernel assert)" : "",
           halted ? "real kernel halted" : rt, xv ? xt : "agrees", vx.agree ? "" : " (model FP_FIXED diverges!)");
    pass ? n_pass++ : n_fail++;
    const struct target *tg = irq_target();
    unsigned fm = findings_of(tg, cause);
    for (int i = 0; i < tg->n_defects; i++) {
        if (!(fm & (1u << i)))
            continue;
        struct shown *s = &per_finding[i];
        s->ran++;
        if (pass) {
            s->shown++;
            int nf = fix_count(cause);
            if (!s->file[0] || nf < s->file_fixes) {
                snprintf(s->file, sizeof s->file, "%s", path);
                s->file_fixes = nf;
            }
        }
    }
    return pass ? 0 : 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "rk_regress: cannot open %s\n", dir);
        return 2;
    }
    char *names[512];
    int n = 0, rc = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL && n < 512) {
        size_t l = strlen(ent->d_name);
        if (l > 5 && strcmp(ent->d_name + l - 5, ".scen") == 0) {
            names[n] = malloc(strlen(dir) + l + 2);
            sprintf(names[n], "%s/%s", dir, ent->d_name);
            n++;
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++) {
        int r = run_file(names[i]);
        rc = r > rc ? r : rc;
        free(names[i]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    script = RK_SCRIPT_DIR "/build-kernel.sh";
    int rc = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tree") == 0 && i + 1 < argc)
            tree = argv[++i];
        else if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc)
            cache_dir = argv[++i];
        else if (strcmp(argv[i], "--script") == 0 && i + 1 < argc)
            script = argv[++i];
        else if (strcmp(argv[i], "--signal-tree") == 0 && i + 1 < argc)
            sig_tree = argv[++i];
        else if (strcmp(argv[i], "--debug") == 0)
            debug_build = 1;
        else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc && cfg_kernel_parse(argv[i + 1]) >= 0)
            tree_kernel = cfg_kernel_parse(argv[++i]);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: rk_regress [--tree T] [--kernel base|master] [--signal-tree T] [--cache DIR] [--script S] [--debug] "
                            "FILE|DIR...\n");
            return 2;
        } else
            nfiles++;
    }
    if (!tree || !nfiles) {
        fprintf(stderr, "usage: rk_regress --tree SEL4_TREE_OR_TARBALL [--cache DIR] [--debug] FILE|DIR...\n");
        return 2;
    }
    build_tree = tree;
    struct stat st;
    if (sig_tree && stat(sig_tree, &st) != 0) {
        printf("note: no seL4 tree at %s (--signal-tree): the signal reproducers are skipped\n", sig_tree);
        sig_tree = NULL;
    }
    if (stat(tree, &st) != 0) {
        printf("SKIP: no seL4 tree at %s (set IRQSIM_KERNELS_DIR or IRQSIM_REAL_TREE)\n", tree);
        return 77;
    }
    /* build-kernel.sh looks for pyfdt next to the tree */
    if (!getenv("IRQSIM_KERNELS_DIR")) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s", tree);
        char *sl = strrchr(dir, '/');
        if (sl && S_ISREG(st.st_mode)) {
            *sl = 0;
            setenv("IRQSIM_KERNELS_DIR", dir, 1);
        }
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            i += strcmp(argv[i], "--debug") != 0;
            continue;
        }
        int r = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
        rc = r > rc ? r : rc;
    }
    printf("\n%d pass, %d fail, %d skipped\n", n_pass, n_fail, n_skip);
    printf("\n| finding | regressions run | real kernel diverges as the model, kernel-C fix agrees | shown on the real "
           "kernel | command |\n|---|---|---|---|---|\n");
    const struct target *t = irq_target();
    for (int i = 0; i < t->n_defects; i++) {
        const struct shown *s = &per_finding[i];
        if (s->shown)
            printf("| %s (%s) | %d | %d | yes | `rk_regress --tree %s%s%s %s` |\n", t->defects[i].id,
                   defect_fix(t, i), s->ran, s->shown, tree, cfg_kernel_is_default(tree_kernel) ? "" : " --kernel ",
                   cfg_kernel_is_default(tree_kernel) ? "" : cfg_kernel_name(tree_kernel), s->file);
        else
            printf("| %s (%s) | %d | 0 | no | |\n", t->defects[i].id, defect_fix(t, i), s->ran);
    }
    sig_table();
    if (n_pass + n_fail == 0 && missing[0]) {
        printf("SKIP: %s\n", missing);
        return 77;
    }
    return rc;
}
