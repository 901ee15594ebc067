/* trace: captured JSONL traces to scenarios (trace.h, docs/TRACES.md). */
#include "trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The configuration of version-0 traces: the proof of concept's kernel,
 * PR #1227 head on qemu-arm-virt (GICv2, 62.5 MHz generic timer,
 * KERNEL_WCET 10 us, maxIRQ 159), debug build, one core, one domain. */
static const char v0_config[] =
    "board imx8mm\n"
    "config timer_hz=62500000 wcet_us=10 wcet_scale=1 precision_us=0 overhead_ticks=0 "
    "domains=1 max_irq=159 gic=2 smp=0 fpu=1 hyp=0\n";

/* seL4_Fault_Timeout on aarch64 MCS */
#define TRACE_FAULT_TIMEOUT 6
/* cap_vspace_cap, cap_notification_cap, cap_endpoint_cap (aarch64 cap tags) */
#define TRACE_CAP_VSPACE 9
#define TRACE_CAP_NTFN 6
#define TRACE_CAP_EP 4
/* ksKernelEntry.word of a spurious interrupt: irqInvalid on a GICv2 kernel
 * without SMP, (uint16_t)-1 (include/arch/arm/arch/machine/gic_common.h) */
#define TRACE_IRQ_INVALID 0xffffu

struct sb {
    char *p;
    size_t n, cap;
    bool over;
};

__attribute__((format(printf, 2, 3))) static void sb_printf(struct sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= b->cap - b->n) {
        b->over = true;
        b->n = b->cap - 1;
        return;
    }
    b->n += (size_t)k;
}

/* ---- reading the JSON ---- */

struct tctx {
    const struct jval_doc *d;
    const struct jval *state;
    const struct jval *order; /* the entry state, when writing the exit */
    const char *idle, *idle_sc; /* kernel addresses of the idle thread and SC */
    char *err;
    size_t errlen;
    bool failed;
};

__attribute__((format(printf, 2, 3))) static int bad(struct tctx *c, const char *fmt, ...)
{
    if (c->failed)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    c->failed = true;
    return -1;
}

static const struct jval *get(struct tctx *c, const struct jval *o, const char *key)
{
    const struct jval *v = jval_get(c->d, o, key);
    if (!v)
        bad(c, "missing \"%s\"", key);
    return v;
}

static uint64_t num(struct tctx *c, const struct jval *o, const char *key)
{
    const struct jval *v = get(c, o, key);
    if (!v)
        return 0;
    if (v->type == JV_BOOL || (v->type == JV_INT && !v->neg))
        return v->u;
    bad(c, "\"%s\" is not a non-negative integer", key);
    return 0;
}

/* An address field: a "0x..." string or null. */
static const char *addr(struct tctx *c, const struct jval *o, const char *key)
{
    const struct jval *v = get(c, o, key);
    if (!v || v->type == JV_NULL)
        return NULL;
    if (v->type == JV_STRING && strncmp(v->str, "0x", 2) == 0 && v->len > 2)
        return v->str;
    bad(c, "\"%s\" is not an address (\"0x...\") or null", key);
    return NULL;
}

static const char *str(struct tctx *c, const struct jval *o, const char *key)
{
    const struct jval *v = get(c, o, key);
    if (v && v->type == JV_STRING)
        return v->str;
    bad(c, "\"%s\" is not a string", key);
    return "";
}

/* An object's name from its kernel address (low 32 bits), as the proof of
 * concept names them; the idle thread and SC keep the names ks_init gives. */
static const char *name_of(struct tctx *c, char kind, const char *a, char buf[16])
{
    if (!a)
        return "-";
    if (kind == 't' && c->idle && strcmp(a, c->idle) == 0)
        return "idle";
    if (kind == 's' && c->idle_sc && strcmp(a, c->idle_sc) == 0)
        return "idle_sc";
    size_t n = strlen(a);
    snprintf(buf, 16, "%c%s", kind, n > 10 ? a + n - 8 : a + 2);
    return buf;
}

static const char *ref(struct tctx *c, char kind, const struct jval *o, const char *key, char buf[16])
{
    return name_of(c, kind, addr(c, o, key), buf);
}

/* ---- the scenario ---- */

static bool in_ipc_queue(const char *ts)
{
    return !strcmp(ts, "BlockedOnReceive") || !strcmp(ts, "BlockedOnSend") ||
           !strcmp(ts, "BlockedOnNotification");
}

/* ksDomSchedule as [[domain, length], ...] (newer captures); without it
 * the scenario's default schedule stands */
static void dom_schedule(struct tctx *c, const struct jval *ds, struct sb *b)
{
    if (!ds || ds->type != JV_ARRAY || !ds->len)
        return;
    sb_printf(b, " schedule=");
    int i = 0;
    for (const struct jval *e = jval_first(c->d, ds); e; e = jval_next(c->d, e), i++) {
        const struct jval *d = jval_at(c->d, e, 0), *l = jval_at(c->d, e, 1);
        if (!d || !l || d->type != JV_INT || l->type != JV_INT) {
            bad(c, "dom_schedule entry %d is not [domain, length]", i);
            return;
        }
        sb_printf(b, "%s%llu:%llu", i ? "," : "", (unsigned long long)d->u, (unsigned long long)l->u);
    }
}

static void node_line(struct tctx *c, const struct jval *node, const struct jval *hw, struct sb *b)
{
    char b1[16], b2[16], b3[16];
    /* ksSchedulerAction: 0 resume, 1 choose new, else a TCB's address */
    const struct jval *av = get(c, node, "ksSchedulerAction");
    const char *act = "resume";
    if (av && av->type == JV_STRING)
        act = name_of(c, 't', av->str, b3);
    else if (av && av->type == JV_INT && av->u == 1)
        act = "choose";
    else if (av && (av->type != JV_INT || av->u != 0))
        bad(c, "\"ksSchedulerAction\" is neither 0, 1 nor an address");
    sb_printf(b, "node cur=%s cur_sc=%s idle=idle idle_sc=idle_sc action=%s time=%llu consumed=%llu "
                 "deadline=%llu reprogram=%d\n",
              ref(c, 't', node, "ksCurThread", b1), ref(c, 's', node, "ksCurSC", b2), act,
              (unsigned long long)num(c, node, "ksCurTime"), (unsigned long long)num(c, node, "ksConsumed"),
              (unsigned long long)num(c, hw, "CNTV_CVAL_EL0"), (int)num(c, node, "ksReprogram"));
    sb_printf(b, "domain cur=%llu time=%llu idx=%llu", (unsigned long long)num(c, node, "ksCurDomain"),
              (unsigned long long)num(c, node, "ksDomainTime"), (unsigned long long)num(c, node, "ksDomScheduleIdx"));
    dom_schedule(c, jval_get(c->d, node, "dom_schedule"), b);
    sb_printf(b, "\n");
    if (addr(c, node, "ksReleaseHead"))
        sb_printf(b, "core 0 release_head=%s\n", ref(c, 't', node, "ksReleaseHead", b1));
}

/* isValidVTableRoot_fp: a vspace cap that is mapped ("vtable_mapped", newer
 * captures), else a vspace cap at all */
static int vtable_ok(struct tctx *c, const struct jval *t)
{
    const struct jval *m = jval_get(c->d, t, "vtable_mapped");
    if (m)
        return m->u != 0;
    return num(c, t, "vtable_captype") == TRACE_CAP_VSPACE;
}

/* the ASID pool still maps the thread's ASID to its vspace ("asid_ok",
 * newer captures; older ones did not check it) */
static int asid_ok(struct tctx *c, const struct jval *t)
{
    const struct jval *a = jval_get(c->d, t, "asid_ok");
    return a ? a->u != 0 : 1;
}

static void tcb_line(struct tctx *c, const struct jval *t, struct sb *b)
{
    char nb[16], sc[16], bound[16], blk[16], rep[16], sn[16], sp[16], en[16], ep[16];
    const char *ts = str(c, t, "state");
    if (!strcmp(ts, "RunningVM")) /* first capture script: the idle thread's state misdecoded */
        ts = "IdleThreadState";
    const char *blocking = "-", *reply = "-";
    if (!strcmp(ts, "BlockedOnNotification"))
        blocking = ref(c, 'n', t, "blocking", blk);
    else if (!strcmp(ts, "BlockedOnReceive") || !strcmp(ts, "BlockedOnSend"))
        blocking = ref(c, 'e', t, "blocking", blk);
    if (!strcmp(ts, "BlockedOnReceive") || !strcmp(ts, "BlockedOnReply"))
        reply = ref(c, 'r', t, "reply", rep);
    /* queue links are meaningful only while the thread is on that queue */
    bool linked = num(c, t, "queued") || num(c, t, "in_release");
    bool inq = in_ipc_queue(ts);
    sb_printf(b,
              "tcb %s state=%s prio=%llu dom=%llu core=0 sc=%s bound=%s blocking=%s reply=%s queued=%d "
              "in_release=%d sched_next=%s sched_prev=%s ep_next=%s ep_prev=%s fault=%s timeout_handler=%d "
              "vtable=%d asid=%d badge=%llu\n",
              ref(c, 't', t, "addr", nb), ts, (unsigned long long)num(c, t, "prio"),
              (unsigned long long)num(c, t, "dom"), ref(c, 's', t, "sc", sc), ref(c, 'n', t, "bound", bound),
              blocking, reply, (int)num(c, t, "queued"), (int)num(c, t, "in_release"),
              linked ? ref(c, 't', t, "sched_next", sn) : "-", linked ? ref(c, 't', t, "sched_prev", sp) : "-",
              inq ? ref(c, 't', t, "ep_next", en) : "-", inq ? ref(c, 't', t, "ep_prev", ep) : "-",
              num(c, t, "fault") == 0 ? "none" : "timeout", num(c, t, "timeout_captype") == TRACE_CAP_EP,
              vtable_ok(c, t), asid_ok(c, t), (unsigned long long)num(c, t, "badge_x0"));
}

/* The configured budget is what the refills from head to tail sum to. */
static void sc_line(struct tctx *c, const struct jval *s, struct sb *b)
{
    char nb[16], tb[16], ntb[16];
    const struct jval *rf = get(c, s, "refills");
    uint64_t max = num(c, s, "refill_max"), head = num(c, s, "head"), tail = num(c, s, "tail");
    if (c->failed)
        return;
    if (!rf || rf->type != JV_ARRAY || rf->len < max || max > KS_MAX_REFILLS || head >= KS_MAX_REFILLS ||
        tail >= KS_MAX_REFILLS) {
        bad(c, "SC refills: %llu slots for refill_max %llu, head %llu, tail %llu", (unsigned long long)(rf ? rf->len : 0),
            (unsigned long long)max, (unsigned long long)head, (unsigned long long)tail);
        return;
    }
    uint64_t budget = 0;
    for (uint64_t i = head, n = 0; max && n < max; i = (i + 1) % max, n++) {
        const struct jval *amount = jval_at(c->d, jval_at(c->d, rf, (uint32_t)i), 1);
        budget += amount ? amount->u : 0;
        if (i == tail)
            break;
    }
    sb_printf(b, "sc %s period=%llu budget=%llu max=%llu head=%llu tail=%llu sporadic=%d core=0 tcb=%s ntfn=%s "
                 "consumed=%llu badge=%llu",
              ref(c, 's', s, "addr", nb), (unsigned long long)num(c, s, "scPeriod"), (unsigned long long)budget,
              (unsigned long long)max, (unsigned long long)head, (unsigned long long)tail,
              (int)num(c, s, "scSporadic"), ref(c, 't', s, "scTcb", tb), ref(c, 'n', s, "scNotification", ntb),
              (unsigned long long)num(c, s, "scConsumed"), (unsigned long long)num(c, s, "scBadge"));
    if (!rf->len) { /* an SC that was never configured holds no refills */
        sb_printf(b, "\n");
        return;
    }
    sb_printf(b, " refills=");
    uint32_t i = 0;
    for (const struct jval *r = jval_first(c->d, rf); r && i < KS_MAX_REFILLS; r = jval_next(c->d, r), i++) {
        const struct jval *t = jval_at(c->d, r, 0), *a = jval_at(c->d, r, 1);
        if (!t || !a || t->type != JV_INT || a->type != JV_INT) {
            bad(c, "SC refill %u is not [time, amount]", i);
            return;
        }
        sb_printf(b, "%s%llu:%llu", i ? "," : "", (unsigned long long)t->u, (unsigned long long)a->u);
    }
    sb_printf(b, "\n");
}

static void ntfn_line(struct tctx *c, const struct jval *n, struct sb *b)
{
    char nb[16], hb[16], tb[16], bb[16], sb2[16];
    const char *st = str(c, n, "state");
    bool w = !strcmp(st, "Waiting");
    const struct jval *msg = jval_get(c->d, n, "msg");
    sb_printf(b, "ntfn %s state=%s msg=%llu head=%s tail=%s bound=%s sc=%s\n", ref(c, 'n', n, "addr", nb), st,
              (unsigned long long)(!strcmp(st, "Active") && msg ? msg->u : 0), w ? ref(c, 't', n, "head", hb) : "-",
              w ? ref(c, 't', n, "tail", tb) : "-", ref(c, 't', n, "bound", bb), ref(c, 's', n, "sc", sb2));
}

static void ep_line(struct tctx *c, const struct jval *e, struct sb *b)
{
    char nb[16], hb[16], tb[16];
    const char *st = str(c, e, "state");
    bool q = strcmp(st, "Idle") != 0;
    sb_printf(b, "ep %s state=%s head=%s tail=%s\n", ref(c, 'e', e, "addr", nb), st,
              q ? ref(c, 't', e, "head", hb) : "-", q ? ref(c, 't', e, "tail", tb) : "-");
}

static void reply_line(struct tctx *c, const struct jval *r, struct sb *b)
{
    char nb[16], tb[16];
    sb_printf(b, "reply %s tcb=%s\n", ref(c, 'r', r, "addr", nb), ref(c, 't', r, "tcb", tb));
}

/* IRQ table entries; masked = the distributor's enable bit is clear */
static void irq_lines(struct tctx *c, const struct jval *irqs, const struct jval *hw, struct sb *b)
{
    const struct jval *en = jval_get(c->d, hw, "gicd_isenabler");
    sb_printf(b, "irqs 160\n");
    for (const struct jval *e = jval_first(c->d, irqs); e; e = jval_next(c->d, e)) {
        char nb[16];
        long i = strtol(e->key, NULL, 10);
        if (i < 0 || i >= 160) {
            bad(c, "IRQ %s outside the table (0..159)", e->key);
            return;
        }
        const struct jval *w = jval_at(c->d, en, (uint32_t)(i / 32));
        bool masked = w ? !((w->u >> (i % 32)) & 1) : false;
        uint64_t ct = num(c, e, "captype");
        const struct jval *badge = jval_get(c->d, e, "badge"), *send = jval_get(c->d, e, "send");
        sb_printf(b, "irqent %ld state=%s cap=%s ntfn=%s badge=%llu send=%d masked=%d\n", i, str(c, e, "state"),
                  ct == TRACE_CAP_NTFN ? "notification" : ct == TRACE_CAP_EP ? "endpoint" : "null",
                  jval_get(c->d, e, "ntfn") ? ref(c, 'n', e, "ntfn", nb) : "-",
                  (unsigned long long)(badge ? badge->u : 0), send ? (int)send->u : 0, masked);
    }
}

static const struct jval *find_addr(struct tctx *c, const struct jval *arr, const char *a)
{
    for (const struct jval *o = jval_first(c->d, arr); o; o = jval_next(c->d, o)) {
        const struct jval *v = jval_get(c->d, o, "addr");
        if (v && v->type == JV_STRING && strcmp(v->str, a) == 0)
            return o;
    }
    return NULL;
}

/* The objects of one kind, in the order of the same kind in c->order (the
 * entry state) so that an object has the same index in the entry and the
 * exit scenario; objects the order does not have come last. */
static void each(struct tctx *c, const char *key, void (*line)(struct tctx *, const struct jval *, struct sb *),
                 struct sb *b)
{
    const struct jval *arr = jval_get(c->d, c->state, key);
    const struct jval *ord = c->order ? jval_get(c->d, c->order, key) : NULL;
    for (const struct jval *o = jval_first(c->d, ord); o && !c->failed; o = jval_next(c->d, o)) {
        const struct jval *a = jval_get(c->d, o, "addr");
        const struct jval *mine = a && a->type == JV_STRING ? find_addr(c, arr, a->str) : NULL;
        if (mine)
            line(c, mine, b);
    }
    for (const struct jval *o = jval_first(c->d, arr); o && !c->failed; o = jval_next(c->d, o)) {
        const struct jval *a = jval_get(c->d, o, "addr");
        if (!ord || !a || a->type != JV_STRING || !find_addr(c, ord, a->str))
            line(c, o, b);
    }
}

/* One captured state (the record's "entry" or "exit") as a scenario. */
static int state_scenario(struct tctx *c, const struct trace_reader *r, const struct jval *rec,
                          const char *which, uint64_t clock, char *out)
{
    struct sb b = {.p = out, .cap = TRACE_SCEN_MAX};
    c->state = get(c, rec, which);
    const struct jval *node = get(c, c->state, "node"), *hw = get(c, c->state, "hw");
    if (c->failed)
        return -1;
    c->idle = addr(c, node, "ksIdleThread");
    c->idle_sc = addr(c, node, "ksIdleSC");
    sb_printf(&b, "# captured %s state: %s line %ld, seq %llu\n%s", which, r->path, r->line,
              (unsigned long long)num(c, rec, "seq"), r->config);
    uint64_t irq = num(c, rec, "irq");
    if (irq == TRACE_IRQ_INVALID)
        sb_printf(&b, "clock %llu\nirq none\n", (unsigned long long)clock);
    else
        sb_printf(&b, "clock %llu\nirq %llu\n", (unsigned long long)clock, (unsigned long long)irq);
    node_line(c, node, hw, &b);
    each(c, "tcbs", tcb_line, &b);
    each(c, "scs", sc_line, &b);
    each(c, "ntfns", ntfn_line, &b);
    each(c, "eps", ep_line, &b);
    each(c, "replies", reply_line, &b);
    irq_lines(c, get(c, c->state, "irqs"), hw, &b);
    if (b.over)
        return bad(c, "%s state too large for a scenario (%u bytes)", which, TRACE_SCEN_MAX);
    return c->failed ? -1 : 0;
}

/* The clock the kernel read on this entry; when it read none (the path did
 * not look at the clock), the counter at c_handle_interrupt (newer
 * captures) or the entry's ksCurTime. */
static uint64_t entry_clock(struct tctx *c, const struct jval *rec)
{
    const struct jval *reads = jval_get(c->d, rec, "clock_reads");
    const struct jval *first = jval_at(c->d, reads, 0);
    const struct jval *v = jval_at(c->d, first, 1);
    if (v && v->type == JV_INT)
        return v->u;
    const struct jval *counter = jval_get(c->d, rec, "entry_counter");
    if (counter && counter->type == JV_INT)
        return counter->u;
    c->state = get(c, rec, "entry");
    return num(c, get(c, c->state, "node"), "ksCurTime");
}

static int to_rec(struct trace_reader *r, const struct jval *root, struct trace_rec *rec, char *err,
                  size_t errlen)
{
    struct tctx c = {.d = &r->doc, .err = err, .errlen = errlen};
    rec->seq = (long)num(&c, root, "seq");
    uint64_t irq = num(&c, root, "irq");
    rec->irq = irq == TRACE_IRQ_INVALID ? -1 : (int)irq;
    rec->slowpath = num(&c, root, "slowpath") != 0;
    snprintf(rec->exit_site, sizeof rec->exit_site, "%s", str(&c, root, "exit_site"));
    const struct jval *counter = jval_get(c.d, root, "entry_counter");
    rec->has_taken = counter && counter->type == JV_INT;
    rec->taken = rec->has_taken ? counter->u : 0;
    uint64_t clock = entry_clock(&c, root);
    if (c.failed || state_scenario(&c, r, root, "entry", clock, rec->entry))
        return -1;
    c.order = c.state;
    if (state_scenario(&c, r, root, "exit", clock, rec->exit))
        return -1;
    return 0;
}

/* ---- the file ---- */

static int read_line(struct trace_reader *r)
{
    size_t n = 0;
    for (;;) {
        if (r->cap - n < 2) {
            size_t cap = r->cap ? r->cap * 2 : 1 << 16;
            char *p = realloc(r->buf, cap);
            if (!p)
                return -1;
            r->buf = p;
            r->cap = cap;
        }
        if (!gzgets(r->gz, r->buf + n, (int)(r->cap - n)))
            return n ? (int)n : 0;
        n += strlen(r->buf + n);
        if (n && r->buf[n - 1] == '\n')
            return (int)n;
    }
}

/* Version 1 header: {"irqsim_trace": 1, "kernel": "...", "board": "...",
 * "config": "timer_hz=... ..."} with the scenario config keys. */
static int header(struct trace_reader *r, const struct jval *root, char *err, size_t errlen)
{
    const struct jval *ver = jval_get(&r->doc, root, "irqsim_trace");
    const struct jval *k = jval_get(&r->doc, root, "kernel");
    const struct jval *board = jval_get(&r->doc, root, "board");
    const struct jval *cfg = jval_get(&r->doc, root, "config");
    if (ver->type != JV_INT || ver->u != TRACE_FORMAT) {
        snprintf(err, errlen, "%s:%ld: trace format %llu; this irqsim reads 0 and %d", r->path, r->line,
                 (unsigned long long)ver->u, TRACE_FORMAT);
        return -1;
    }
    if (!board || board->type != JV_STRING || !cfg || cfg->type != JV_STRING) {
        snprintf(err, errlen, "%s:%ld: header needs \"board\" and \"config\" strings", r->path, r->line);
        return -1;
    }
    r->format = TRACE_FORMAT;
    snprintf(r->kernel, sizeof r->kernel, "%s", k && k->type == JV_STRING ? k->str : "");
    snprintf(r->config, sizeof r->config, "board %s\nconfig %s\n", board->str, cfg->str);
    return 0;
}

int trace_open(struct trace_reader *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    jval_doc_init(&r->doc);
    snprintf(r->path, sizeof r->path, "%s", path);
    snprintf(r->config, sizeof r->config, "%s", v0_config);
    r->gz = gzopen(path, "rb");
    if (!r->gz) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int trace_next(struct trace_reader *r, struct trace_rec *rec, char *err, size_t errlen)
{
    for (;;) {
        int n = read_line(r);
        if (n <= 0) {
            if (n == 0 && gzeof(r->gz))
                return 0;
            snprintf(err, errlen, "%s:%ld: read error", r->path, r->line + 1);
            return -1;
        }
        r->line++;
        char jerr[96];
        const struct jval *root = jval_parse(&r->doc, r->buf, (size_t)n, jerr, sizeof jerr);
        if (!root || root->type != JV_OBJECT) {
            snprintf(err, errlen, "%s:%ld: not a JSON object: %s", r->path, r->line, root ? "other value" : jerr);
            return -1;
        }
        if (jval_get(&r->doc, root, "irqsim_trace")) {
            if (r->line != 1) {
                snprintf(err, errlen, "%s:%ld: a header line after the first", r->path, r->line);
                return -1;
            }
            if (header(r, root, err, errlen))
                return -1;
            continue;
        }
        char why[160];
        if (to_rec(r, root, rec, why, sizeof why)) {
            snprintf(err, errlen, "%s:%ld: %s", r->path, r->line, why);
            return -1;
        }
        return 1;
    }
}

void trace_close(struct trace_reader *r)
{
    if (r->gz)
        gzclose(r->gz);
    free(r->buf);
    jval_doc_free(&r->doc);
    memset(r, 0, sizeof *r);
}
