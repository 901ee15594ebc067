/* replay: captured interrupt entries through the model (replay.h, docs/TRACES.md). */
#define _POSIX_C_SOURCE 200809L
#include "replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "diff.h"
#include "invariant.h"
#include "jval.h"
#include "out.h"
#include "progress.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "scenario.h"
#include "stop.h"
#include "target.h"
#include "trace.h"

#define REPLAY_MAX_FILES 64
#define REPLAY_MAX_CLASSES 64

struct replay_opts {
    int variant;          /* the fastpath the model runs */
    bool slow_only;       /* --path slow: the kernel was built without the IRQ fastpath */
    int path;             /* --path fast|slow: its index */
    uint64_t limit;       /* records per trace, 0 = all */
    const char *out, *json;
    bool verbose;
    const char *files[REPLAY_MAX_FILES];
    int n_files;
};

/* A kind of difference: the model's exit, the fields, whether the model
 * and the kernel disagree on falling back to the slowpath. */
struct rclass {
    int exit;
    uint32_t fields;
    bool path;
    long count;
    long first_seq;
    char where[300];      /* file:line of the first */
    char *reproducer;     /* written (allocated); NULL: none */
};

struct replay_run {
    long records, agree, differ, unreadable, inv_entries, admitted, read_late;
    long inv[INV_COUNT];
    long exits[FP_EXIT_COUNT + 1]; /* the last: the slowpath alone */
    long real_slow;                 /* entries the kernel handed to the slowpath */
    struct rclass classes[REPLAY_MAX_CLASSES];
    int n_classes;
    long classes_dropped;
    int write_errors;               /* outputs that could not be written */
    struct kstate in, model, real;
    struct trace_rec rec;
    struct progress line;           /* entries read so far, each second */
};

static const char usage[] =
    "usage: irqsim replay [--fastpath pr1227|fixed] [--path fast|slow] [--limit N] [--out DIR] [--json FILE] [-v] "
    "TRACE...\n"
    "  replays each captured interrupt entry of TRACE (JSONL, plain or .gz; docs/TRACES.md) through the model\n"
    "  and compares the predicted exit with the captured one. Exit status: 0 every entry agrees, 1 an entry\n"
    "  differs or breaks one of irqsim's entry invariants, 2 bad input, 4 an output could not be written.\n";

static int trace_arg(void *opts, const char *arg, char *why, size_t len)
{
    struct replay_opts *o = opts;
    if (o->n_files == REPLAY_MAX_FILES) {
        snprintf(why, len, "too many traces (at most %d)", REPLAY_MAX_FILES);
        return -1;
    }
    o->files[o->n_files++] = arg;
    return 0;
}


#define O struct replay_opts
static const struct cli_opt replay_table[] = {
    CLI_ROW(O, "--fastpath", CLI_VARIANT, variant),
    CLI_PICK(O, "--path", path, "fast|slow"),
    CLI_NUM(O, "--limit", CLI_U64, limit, 0, CLI_UNBOUNDED),
    CLI_ROW(O, "--out", CLI_STR, out),
    CLI_ROW(O, "--json", CLI_STR, json),
    CLI_ROW(O, "-v", CLI_SET, verbose),
};
#undef O
static const struct cli_cmd replay_cmd = {"replay", usage, NULL, replay_table,
                                          sizeof replay_table / sizeof replay_table[0], trace_arg};

/* 0, 1 when --help printed the usage, 2 on an error */
static int parse_opts(int argc, char **argv, struct replay_opts *o)
{
    memset(o, 0, sizeof *o);
    o->variant = FP_PR1227;
    int rc = cli_parse(&replay_cmd, o, 1, argc, argv);
    if (rc)
        return rc;
    o->slow_only = o->path == 1;
    if (!o->n_files)
        return cli_error(&replay_cmd, "no trace given");
    return 0;
}

/* What the trace cannot show, or the kernel does not keep, is taken from
 * the model: IRQ acks (the GIC's EOI is not captured), the IRQs' trigger
 * and target core (the GIC's configuration registers, likewise), TTBR0's vspace, the
 * VTable, ASID, VMID and FPU flags (abstractions of the model), an SC's configured
 * budget (the kernel keeps only the refills) and the timer write count. */
static void align_uncaptured(const struct kstate *model, struct kstate *real)
{
    memcpy(real->irq_acks, model->irq_acks, sizeof real->irq_acks);
    memcpy(real->irq_cfg, model->irq_cfg, sizeof real->irq_cfg);
    real->oor_irq = model->oor_irq;
    real->oor_masked = model->oor_masked;
    real->oor_acks = model->oor_acks;
    real->deadline_writes = model->deadline_writes;
    real->vspace = model->vspace; /* TTBR0 is not captured */
    for (int i = 0; i < real->n_tcbs && i < model->n_tcbs; i++) {
        real->tcbs[i].vtable_ok = model->tcbs[i].vtable_ok;
        real->tcbs[i].asid_ok = model->tcbs[i].asid_ok;
        real->tcbs[i].vmid_ok = model->tcbs[i].vmid_ok;
        real->tcbs[i].fpu_live = model->tcbs[i].fpu_live;
    }
    for (int i = 0; i < real->n_scs && i < model->n_scs; i++)
        real->scs[i].budget = model->scs[i].budget;
}

/* The differences of the model's outcome from the captured exit, written
 * with "model"/"real" where the differential check says "slow"/"fast". */
static void print_diffs(const struct kstate *model, const struct kstate *real)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    diff_compare(model, real, m);
    fclose(m);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        char *s = strstr(line, ": slow ");
        char *f = s ? strstr(s, " fast ") : NULL;
        if (s && f) {
            *s = *f = 0;
            printf("%s: model %s real %s\n", line, s + 7, f + 6);
        } else {
            printf("%s\n", line);
        }
    }
    free(buf);
}

static const char *exit_name(int e)
{
    return e < 0 ? "slowpath" : fp_exit_name(e);
}

static void class_name(const struct rclass *c, char *buf, size_t n)
{
    char f[200];
    snprintf(buf, n, "%s%s/%s", exit_name(c->exit), c->path ? "+path" : "", diff_fields_text(c->fields, f, sizeof f));
}

/* The first entry of a class: its entry state as a reproducer, and the
 * captured exit beside it. */
static void keep_reproducer(const struct replay_opts *o, struct replay_run *r, struct rclass *c)
{
    if (!o->out)
        return;
    char name[200];
    class_name(c, name, sizeof name);
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '+')
            *p = *p == '/' ? '_' : '-';
    char *entry = out_join(o->out, "replay-%02d-%s.scen", r->n_classes, name);
    char *exit = out_join(o->out, "replay-%02d-%s.real.scen", r->n_classes, name);
    if (entry && exit && out_text("irqsim replay", entry, r->rec.entry) == 0 &&
        out_text("irqsim replay", exit, r->rec.exit) == 0) {
        c->reproducer = entry;
    } else { /* the summary and the JSON name only reproducers that exist */
        r->write_errors++;
        free(entry);
    }
    free(exit);
}

static void count_class(const struct replay_opts *o, struct replay_run *r, int exit, uint32_t fields, bool path,
                        const char *where)
{
    for (int i = 0; i < r->n_classes; i++) {
        struct rclass *c = &r->classes[i];
        if (c->exit == exit && c->fields == fields && c->path == path) {
            c->count++;
            return;
        }
    }
    if (r->n_classes == REPLAY_MAX_CLASSES) {
        r->classes_dropped++;
        return;
    }
    struct rclass *c = &r->classes[r->n_classes];
    *c = (struct rclass){.exit = exit, .fields = fields, .path = path, .count = 1, .first_seq = r->rec.seq};
    snprintf(c->where, sizeof c->where, "%s", where);
    keep_reproducer(o, r, c);
    r->n_classes++;
    char name[200];
    class_name(c, name, sizeof name);
    printf("-- %s, seq %ld: new difference %s\n", where, r->rec.seq, name);
    if (path)
        printf("  path: the kernel %s, the model's fastpath exit is %s\n",
               r->rec.slowpath ? "fell back to the slowpath" : "finished in the fastpath", exit_name(exit));
    print_diffs(&r->model, &r->real);
    for (int i = 0; i < r->model.n_asserts && i < KS_MAX_ASSERTS; i++)
        printf("  checks: the model failed a kernel assert the real debug kernel did not (%s)\n",
               ks_path_name(r->model.asserts[i].path));
}

/* What the traced kernel's fastpath leaves at user level, admitted at
 * entry: a trace is of PR #1227's kernel (docs/TRACES.md) taking device
 * interrupts, so its fastpath is the IRQ entry's target as written. */
static unsigned traced_admit(void)
{
    return target_admit_left_by(target_get(ENTRY_IRQ), FP_PR1227);
}

/* Under capture the entry clock (the kernel's first clock read) can come
 * long after the kernel took the IRQ: QEMU's icount moves the guest clock
 * on by host time when gdb resumes it (docs/TRACES.md; up to 122,675 ticks
 * measured). "The timer IRQ would come first" is a question about the
 * moment the IRQ was taken, which the counter read at c_handle_interrupt's
 * first instruction gives. A state that breaks the entry invariants at its
 * clock read is checked again at that counter (in r->model, which is
 * written from r->in only after this); if it passes there, that state is
 * checked from then on and the entry is counted apart. */
static const struct kstate *when_taken(struct replay_run *r, const char *where)
{
    struct inv_report rep;
    if (!r->rec.has_taken || r->rec.taken >= r->in.hw_clock)
        return &r->in;
    ks_copy(&r->model, &r->in);
    r->model.hw_clock = r->rec.taken;
    if (kstate_check_admit(&r->model, INV_AT_ENTRY, traced_admit(), &rep))
        return &r->in;
    if (r->read_late++ == 0)
        printf("-- %s, seq %ld: the kernel took the IRQ at %llu and read the clock at %llu, %llu ticks after: "
               "entry invariants checked when it was taken (docs/TRACES.md)\n",
               where, r->rec.seq, (unsigned long long)r->rec.taken, (unsigned long long)r->in.hw_clock,
               (unsigned long long)(r->in.hw_clock - r->rec.taken));
    return &r->model;
}

/* Entry invariants a captured state breaks: checker findings, reported
 * with the first message of each invariant, each invariant counted once
 * per state. A state that breaks only what the traced kernel's fastpath
 * (PR #1227's) leaves at user level is admitted and counted apart: the
 * real kernel reached it, after one of its fastpath exits. Returns true
 * when the state is refused: the model is not run on it (as `irqsim
 * check` refuses such a state; the model's functions assume the
 * invariants, e.g. a refill index in range). */
static bool check_entry(struct replay_run *r, const char *where)
{
    struct inv_report rep;
    if (!kstate_check(&r->in, INV_AT_ENTRY, &rep))
        return false;
    const struct kstate *ks = &r->in;
    if (kstate_check_admit(ks, INV_AT_ENTRY, traced_admit(), &rep))
        ks = when_taken(r, where);
    if (!kstate_check(ks, INV_AT_ENTRY, &rep))
        return false;
    if (!kstate_check_admit(ks, INV_AT_ENTRY, traced_admit(), &rep)) {
        if (r->admitted++ == 0)
            printf("-- %s, seq %ld: captured entry state carries what PR #1227's fastpath left at user level "
                   "(admitted; docs/TRACES.md)\n",
                   where, r->rec.seq);
        return false;
    }
    r->inv_entries++;
    printf("-- %s, seq %ld: refused, not replayed: the captured entry state breaks %d of irqsim's entry "
           "invariants\n", where, r->rec.seq, rep.n);
    bool seen[INV_COUNT] = {false};
    for (int i = 0; i < rep.n && i < INV_MAX_ITEMS; i++) {
        int id = rep.items[i].id;
        if (seen[id])
            continue;
        seen[id] = true;
        if (r->inv[id]++ == 0)
            printf("-- %s, seq %ld: captured entry state breaks irqsim's invariant %s: %s\n", where, r->rec.seq,
                   inv_name(id), rep.items[i].msg);
    }
    return true;
}

static int load(const char *text, const char *what, const char *where, struct kstate *ks)
{
    struct scen_error err;
    if (scenario_parse(text, strlen(text), where, ks, &err) == 0)
        return 0;
    fprintf(stderr, "irqsim replay: %s: the captured %s state does not read back: line %d of its scenario: %s\n",
            where, what, err.line, err.msg);
    return -1;
}

static void replay_one(const struct replay_opts *o, struct replay_run *r, const char *where)
{
    r->records++;
    if (load(r->rec.entry, "entry", where, &r->in) || load(r->rec.exit, "exit", where, &r->real)) {
        r->unreadable++;
        return;
    }
    if (check_entry(r, where))
        return;
    ks_copy(&r->model, &r->in);
    int exit = -1;
    if (o->slow_only)
        handleInterruptEntry(&r->model);
    else
        exit = fastpath_irq(&r->model, o->variant);
    r->exits[exit < 0 ? FP_EXIT_COUNT : exit]++;
    r->real_slow += r->rec.slowpath;
    bool path = !o->slow_only && fp_exit_is_fallback(exit) != r->rec.slowpath;
    uint32_t fields = 0;
    if (!trace_same_objects(&r->model, &r->real)) {
        printf("-- %s, seq %ld: the exit state holds other objects than the entry state\n", where, r->rec.seq);
        r->differ++;
        count_class(o, r, exit, 1u << DF_THREAD_STATE, path, where);
        return;
    }
    align_uncaptured(&r->model, &r->real);
    /* The kernel that ran is PR #1227's: the model of the same path must
     * match it exactly, lazy time accounting included. The corrected
     * fastpath reads the clock where the PR's does not, so its outcome is
     * compared as the differential check compares outcomes: both brought
     * to the entry clock with pending time charged (diff_normalise). */
    if (!o->slow_only && o->variant != FP_PR1227) {
        diff_normalise(&r->model);
        diff_normalise(&r->real);
    }
    fields = diff_compare(&r->model, &r->real, NULL);
    if (r->model.n_asserts)
        fields |= 1u << DF_ASSERT;
    if (!fields && !path) {
        r->agree++;
        if (o->verbose)
            printf("   %s, seq %ld: agree (%s)\n", where, r->rec.seq, exit_name(exit));
        return;
    }
    r->differ++;
    count_class(o, r, exit, fields, path, where);
}

static int replay_file(const struct replay_opts *o, struct replay_run *r, const char *file)
{
    struct trace_reader tr;
    char err[400];
    int opened = trace_open(&tr, file, err, sizeof err);
    if (opened == TRACE_INTERRUPTED && stop_requested())
        return 0; /* the caller reports the stop and ends by the signal */
    if (opened) {
        fprintf(stderr, "irqsim replay: %s\n", err);
        return -1;
    }
    uint64_t n = 0;
    int rc = 0;
    while ((o->limit == 0 || n < o->limit) && !stop_requested() &&
           (rc = trace_next(&tr, &r->rec, err, sizeof err)) == 1) {
        char where[300];
        snprintf(where, sizeof where, "%s:%ld", file, tr.line);
        replay_one(o, r, where);
        if (++n % 256 == 0 && progress_due(&r->line))
            progress_print(&r->line, "irqsim replay: %s: %ld entries", file, n);
    }
    progress_end(&r->line, true);
    if (o->limit && n == o->limit)
        rc = 0;
    if (rc == TRACE_INTERRUPTED && stop_requested())
        rc = 0; /* a read waiting on a pipe, cut by the signal: the stop, not bad input */
    if (rc < 0)
        fprintf(stderr, "irqsim replay: %s\n", err);
    printf("== %s: %ld entries, trace format %d%s%s\n", file, n, tr.format, tr.kernel[0] ? ", kernel " : "",
           tr.kernel);
    trace_close(&tr);
    return rc < 0 ? -1 : 0;
}

/* No entry went through the model (an empty trace, a header alone, every
 * entry refused): "0 differ" would be a claim about nothing. */
static bool checked_none(const struct replay_run *r)
{
    return r->agree + r->differ == 0;
}

static void print_summary(const struct replay_opts *o, const struct replay_run *r)
{
    printf("replay (%s): %ld entries: %ld agree, %ld differ, %ld unreadable; %ld break an entry invariant\n",
           o->slow_only ? "slowpath" : fp_variant_name(o->variant), r->records, r->agree, r->differ, r->unreadable,
           r->inv_entries);
    if (r->inv_entries)
        printf("%ld entries refused: not replayed, their entry state breaks an entry invariant\n", r->inv_entries);
    if (r->admitted)
        printf("%ld entries start from what PR #1227's fastpath left at user level (admitted)\n", r->admitted);
    if (r->read_late)
        printf("%ld entries read the clock past what the entry invariants allow after taking the IRQ within it "
               "(checked when taken)\n",
               r->read_late);
    printf("model exits:");
    for (int e = 0; e <= FP_EXIT_COUNT; e++)
        if (r->exits[e])
            printf(" %s %ld", e == FP_EXIT_COUNT ? "slowpath" : fp_exit_name(e), r->exits[e]);
    printf("; the kernel fell back to the slowpath on %ld\n", r->real_slow);
    for (int i = 0; i < INV_COUNT; i++)
        if (r->inv[i])
            printf("entry invariant %s broken by %ld captured states\n", inv_name(i), r->inv[i]);
    for (int i = 0; i < r->n_classes; i++) {
        char name[200];
        class_name(&r->classes[i], name, sizeof name);
        printf("difference %-50s %6ld  first %s%s%s\n", name, r->classes[i].count, r->classes[i].where,
               r->classes[i].reproducer ? " -> " : "", r->classes[i].reproducer ? r->classes[i].reproducer : "");
    }
    if (r->classes_dropped)
        printf("(%ld entries in classes past the first %d not listed)\n", r->classes_dropped, REPLAY_MAX_CLASSES);
    if (checked_none(r))
        printf("nothing replayed: no entry of the trace%s went through the model (NOT a pass)\n",
               o->n_files == 1 ? "" : "s");
}


static int write_json(const struct replay_opts *o, const struct replay_run *r)
{
    struct out *out = out_open("irqsim replay", o->json);
    if (!out)
        return -1;
    FILE *f = out->f;
    fprintf(f, "{\"fastpath\": \"%s\", \"entries\": %ld, \"agree\": %ld, \"differ\": %ld, \"unreadable\": %ld, "
               "\"invariant_entries\": %ld, \"admitted\": %ld, \"read_late\": %ld, \"kernel_slowpath\": %ld,\n \"exits\": {",
            o->slow_only ? "none" : fp_variant_name(o->variant), r->records, r->agree, r->differ, r->unreadable,
            r->inv_entries, r->admitted, r->read_late, r->real_slow);
    const char *sep = "";
    for (int e = 0; e <= FP_EXIT_COUNT; e++)
        if (r->exits[e]) {
            fprintf(f, "%s\"%s\": %ld", sep, e == FP_EXIT_COUNT ? "slowpath" : fp_exit_name(e), r->exits[e]);
            sep = ", ";
        }
    fprintf(f, "},\n \"invariants\": {");
    sep = "";
    for (int i = 0; i < INV_COUNT; i++)
        if (r->inv[i]) {
            fprintf(f, "%s\"%s\": %ld", sep, inv_name(i), r->inv[i]);
            sep = ", ";
        }
    fprintf(f, "},\n \"differences\": [");
    for (int i = 0; i < r->n_classes; i++) {
        const struct rclass *c = &r->classes[i];
        char fields[200];
        fprintf(f, "%s\n  {\"exit\": \"%s\", \"path\": %s, \"fields\": \"%s\", \"count\": %ld, \"first\": ", i ? "," : "",
                exit_name(c->exit), c->path ? "true" : "false", diff_fields_text(c->fields, fields, sizeof fields),
                c->count);
        out_string(out, c->where);
        fprintf(f, ", \"reproducer\": ");
        out_string(out, c->reproducer ? c->reproducer : "");
        fputc('}', f);
    }
    fprintf(f, "]");
    if (stop_requested())
        fprintf(f, ",\n \"interrupted\": \"%s\"", stop_name(stop_requested()));
    fprintf(f, "}\n");
    return out_close(out);
}

int replay_main(int argc, char **argv)
{
    struct replay_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? EXIT_AGREE : EXIT_USAGE;
    if (out_not_input("irqsim replay", (const char *const[]){o.json}, 1, (const char *const *)o.files, o.n_files))
        return EXIT_USAGE;
    if (o.out && out_dir("irqsim replay", o.out) != 0)
        return EXIT_OUTPUT;
    struct replay_run *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "irqsim replay: out of memory\n");
        return EXIT_USAGE;
    }
    progress_init(&r->line, true, 1.0); /* replay has no --quiet */
    stop_catch();
    int bad = 0;
    for (int i = 0; i < o.n_files && !stop_requested(); i++)
        bad |= replay_file(&o, r, o.files[i]) != 0;
    print_summary(&o, r);
    if (stop_requested())
        printf("interrupted by %s: the entries above are those replayed before it\n", stop_name(stop_requested()));
    if (o.json && write_json(&o, r))
        r->write_errors++;
    rc = bad || r->unreadable           ? EXIT_USAGE
         : r->write_errors              ? EXIT_OUTPUT
         : r->differ || r->inv_entries  ? EXIT_DIVERGE
         : checked_none(r)              ? EXIT_INCOMPLETE /* nothing checked is no pass */
                                        : EXIT_AGREE;
    for (int i = 0; i < r->n_classes; i++)
        free(r->classes[i].reproducer);
    free(r);
    return stop_finish(rc);
}
