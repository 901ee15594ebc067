/* trace: captured JSONL traces to scenarios (trace.h, docs/TRACES.md). */
#define _POSIX_C_SOURCE 200809L
#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* A flag the kernel keeps as 0 or 1 (a larger value would wrap in the
 * int it is printed as). */
static int flag(struct tctx *c, const struct jval *o, const char *key)
{
    uint64_t v = num(c, o, key);
    if (v > 1)
        bad(c, "\"%s\" is %llu, not 0 or 1", key, (unsigned long long)v);
    return (int)(v & 1);
}

/* An optional number: dflt when absent, else as num(). */
static uint64_t opt_num(struct tctx *c, const struct jval *o, const char *key, uint64_t dflt)
{
    return jval_get(c->d, o, key) ? num(c, o, key) : dflt;
}

/* "0x" and 1 to 16 hex digits: what the capture writes for a kernel
 * address. Anything else would reach the scenario text as a name. */
static bool is_addr(const struct jval *v)
{
    if (v->type != JV_STRING || v->len < 3 || v->len > 18 || strncmp(v->str, "0x", 2) != 0)
        return false;
    return strspn(v->str + 2, "0123456789abcdefABCDEF") == v->len - 2u;
}

/* An address field: a "0x..." string or null. */
static const char *addr(struct tctx *c, const struct jval *o, const char *key)
{
    const struct jval *v = get(c, o, key);
    if (!v || v->type == JV_NULL)
        return NULL;
    if (is_addr(v))
        return v->str;
    bad(c, "\"%s\" is not an address (\"0x...\") or null", key);
    return NULL;
}

/* A name the kernel gives (a thread or IRQ state): letters, digits and
 * '_' only, so that it stays one word of the scenario line it goes into
 * (the scenario reader then checks that it names a state). */
static const char *str(struct tctx *c, const struct jval *o, const char *key)
{
    const struct jval *v = get(c, o, key);
    if (v && v->type == JV_STRING && v->len && v->len < 64 &&
        strspn(v->str, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == v->len)
        return v->str;
    bad(c, "\"%s\" is not a name (letters, digits, '_')", key);
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
        if (e->type != JV_ARRAY || e->len != 2 || !d || !l || d->type != JV_INT || l->type != JV_INT || d->neg ||
            l->neg) {
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
    if (av && is_addr(av))
        act = name_of(c, 't', av->str, b3);
    else if (av && av->type == JV_INT && av->u == 1)
        act = "choose";
    else if (av && (av->type != JV_INT || av->u != 0))
        bad(c, "\"ksSchedulerAction\" is neither 0, 1 nor an address");
    sb_printf(b, "node cur=%s cur_sc=%s idle=idle idle_sc=idle_sc action=%s time=%llu consumed=%llu "
                 "deadline=%llu reprogram=%d\n",
              ref(c, 't', node, "ksCurThread", b1), ref(c, 's', node, "ksCurSC", b2), act,
              (unsigned long long)num(c, node, "ksCurTime"), (unsigned long long)num(c, node, "ksConsumed"),
              (unsigned long long)num(c, hw, "CNTV_CVAL_EL0"), flag(c, node, "ksReprogram"));
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
    if (jval_get(c->d, t, "vtable_mapped"))
        return flag(c, t, "vtable_mapped");
    return num(c, t, "vtable_captype") == TRACE_CAP_VSPACE;
}

/* the ASID pool still maps the thread's ASID to its vspace ("asid_ok",
 * newer captures; older ones did not check it) */
static int asid_ok(struct tctx *c, const struct jval *t)
{
    return jval_get(c->d, t, "asid_ok") ? flag(c, t, "asid_ok") : 1;
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
    bool linked = flag(c, t, "queued") || flag(c, t, "in_release");
    bool inq = in_ipc_queue(ts);
    sb_printf(b,
              "tcb %s state=%s prio=%llu dom=%llu core=0 sc=%s bound=%s blocking=%s reply=%s queued=%d "
              "in_release=%d sched_next=%s sched_prev=%s ep_next=%s ep_prev=%s fault=%s timeout_handler=%d "
              "vtable=%d asid=%d badge=%llu\n",
              ref(c, 't', t, "addr", nb), ts, (unsigned long long)num(c, t, "prio"),
              (unsigned long long)num(c, t, "dom"), ref(c, 's', t, "sc", sc), ref(c, 'n', t, "bound", bound),
              blocking, reply, flag(c, t, "queued"), flag(c, t, "in_release"),
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
    /* head and tail index the queue of refill_max slots (an SC never
     * configured has none and both 0): anything else would have the model
     * and the diff walk the ring out of its slots */
    bool in_ring = max ? head < max && tail < max : head == 0 && tail == 0;
    if (!rf || rf->type != JV_ARRAY || rf->len < max || max > KS_MAX_REFILLS || !in_ring) {
        bad(c, "SC refills: %llu slots for refill_max %llu, head %llu, tail %llu", (unsigned long long)(rf ? rf->len : 0),
            (unsigned long long)max, (unsigned long long)head, (unsigned long long)tail);
        return;
    }
    uint64_t budget = 0;
    for (uint64_t i = head, n = 0; max && n < max; i = (i + 1) % max, n++) {
        const struct jval *amount = jval_at(c->d, jval_at(c->d, rf, (uint32_t)i), 1);
        budget += amount && amount->type == JV_INT ? amount->u : 0; /* each checked below */
        if (i == tail)
            break;
    }
    sb_printf(b, "sc %s period=%llu budget=%llu max=%llu head=%llu tail=%llu sporadic=%d core=0 tcb=%s ntfn=%s "
                 "consumed=%llu badge=%llu",
              ref(c, 's', s, "addr", nb), (unsigned long long)num(c, s, "scPeriod"), (unsigned long long)budget,
              (unsigned long long)max, (unsigned long long)head, (unsigned long long)tail,
              flag(c, s, "scSporadic"), ref(c, 't', s, "scTcb", tb), ref(c, 'n', s, "scNotification", ntb),
              (unsigned long long)num(c, s, "scConsumed"), (unsigned long long)num(c, s, "scBadge"));
    if (!rf->len) { /* an SC that was never configured holds no refills */
        sb_printf(b, "\n");
        return;
    }
    sb_printf(b, " refills=");
    uint32_t i = 0;
    for (const struct jval *r = jval_first(c->d, rf); r && i < KS_MAX_REFILLS; r = jval_next(c->d, r), i++) {
        const struct jval *t = jval_at(c->d, r, 0), *a = jval_at(c->d, r, 1);
        if (r->type != JV_ARRAY || r->len != 2 || t->type != JV_INT || a->type != JV_INT || t->neg || a->neg) {
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
    uint64_t msg = opt_num(c, n, "msg", 0);
    sb_printf(b, "ntfn %s state=%s msg=%llu head=%s tail=%s bound=%s sc=%s\n", ref(c, 'n', n, "addr", nb), st,
              (unsigned long long)(!strcmp(st, "Active") ? msg : 0), w ? ref(c, 't', n, "head", hb) : "-",
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
    if (c->failed)
        return;
    if (!irqs || irqs->type != JV_OBJECT) {
        bad(c, "\"irqs\" is not an object of IRQ numbers");
        return;
    }
    if (en && en->type != JV_ARRAY) {
        bad(c, "\"gicd_isenabler\" is not an array");
        return;
    }
    sb_printf(b, "irqs 160\n");
    for (const struct jval *e = jval_first(c->d, irqs); e && !c->failed; e = jval_next(c->d, e)) {
        char nb[16];
        /* a key of one to three decimal digits, below the table's 160 */
        size_t kl = strlen(e->key);
        long i = kl && kl <= 3 && strspn(e->key, "0123456789") == kl ? strtol(e->key, NULL, 10) : -1;
        if (i < 0 || i >= 160) {
            bad(c, "IRQ \"%.16s\" is not a number in the table (0..159)", e->key);
            return;
        }
        const struct jval *w = jval_at(c->d, en, (uint32_t)(i / 32));
        if (w && (w->type != JV_INT || w->neg)) {
            bad(c, "\"gicd_isenabler\" word %ld is not a non-negative integer", i / 32);
            return;
        }
        bool masked = w ? !((w->u >> (i % 32)) & 1) : false;
        uint64_t ct = num(c, e, "captype");
        sb_printf(b, "irqent %ld state=%s cap=%s ntfn=%s badge=%llu send=%d masked=%d\n", i, str(c, e, "state"),
                  ct == TRACE_CAP_NTFN ? "notification" : ct == TRACE_CAP_EP ? "endpoint" : "null",
                  jval_get(c->d, e, "ntfn") ? ref(c, 'n', e, "ntfn", nb) : "-",
                  (unsigned long long)opt_num(c, e, "badge", 0), jval_get(c->d, e, "send") ? flag(c, e, "send") : 0,
                  masked);
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
    sb_printf(&b, "# captured %s state: %s line %ld, seq %llu\n%s", which, r->shown, r->line,
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
    if (reads && reads->type != JV_ARRAY)
        return bad(c, "\"clock_reads\" is not an array"), 0;
    int i = 0;
    /* every read is [address of the read, counter value] */
    for (const struct jval *e = jval_first(c->d, reads); e; e = jval_next(c->d, e), i++) {
        const struct jval *pc = jval_at(c->d, e, 0), *v = jval_at(c->d, e, 1);
        if (e->type != JV_ARRAY || e->len != 2 || !is_addr(pc) || v->type != JV_INT || v->neg)
            return bad(c, "clock_reads entry %d is not [\"0x...\", counter]", i), 0;
    }
    const struct jval *v = jval_at(c->d, jval_at(c->d, reads, 0), 1);
    if (v)
        return v->u;
    /* no read listed: the path did not read the clock, so the kernel's
     * ksCurTime is the same at exit as at entry. A record where it moved
     * lost its reads, and any clock put in their place (entry_counter,
     * the entry's ksCurTime) would show a difference the kernel never
     * had */
    const struct jval *in = get(c, get(c, rec, "entry"), "node"), *out = get(c, get(c, rec, "exit"), "node");
    uint64_t t_in = num(c, in, "ksCurTime"), t_out = num(c, out, "ksCurTime");
    if (t_in != t_out)
        return bad(c, "clock_reads lists no read but ksCurTime moved from %llu to %llu: the kernel read the clock",
                   (unsigned long long)t_in, (unsigned long long)t_out), 0;
    const struct jval *counter = jval_get(c->d, rec, "entry_counter");
    if (counter)
        return num(c, rec, "entry_counter");
    c->state = get(c, rec, "entry");
    return num(c, get(c, c->state, "node"), "ksCurTime");
}

static int to_rec(struct trace_reader *r, const struct jval *root, struct trace_rec *rec, char *err,
                  size_t errlen)
{
    struct tctx c = {.d = &r->doc, .err = err, .errlen = errlen};
    uint64_t seq = num(&c, root, "seq");
    if (seq > LONG_MAX)
        bad(&c, "\"seq\" %llu is too large", (unsigned long long)seq);
    rec->seq = (long)seq;
    uint64_t irq = num(&c, root, "irq");
    if (irq > TRACE_IRQ_INVALID)
        bad(&c, "\"irq\" %llu is not an IRQ number (at most %u)", (unsigned long long)irq, TRACE_IRQ_INVALID);
    rec->irq = irq == TRACE_IRQ_INVALID ? -1 : (int)irq;
    rec->slowpath = flag(&c, root, "slowpath");
    const struct jval *site = get(&c, root, "exit_site");
    if (site && site->type != JV_STRING)
        bad(&c, "\"exit_site\" is not a string");
    /* printed only, never parsed: kept as far as it fits */
    snprintf(rec->exit_site, sizeof rec->exit_site, "%s", site && site->type == JV_STRING ? site->str : "");
    rec->has_taken = jval_get(c.d, root, "entry_counter") != NULL;
    rec->taken = opt_num(&c, root, "entry_counter", 0);
    uint64_t clock = entry_clock(&c, root);
    if (c.failed || state_scenario(&c, r, root, "entry", clock, rec->entry))
        return -1;
    c.order = c.state;
    if (state_scenario(&c, r, root, "exit", clock, rec->exit))
        return -1;
    return 0;
}

/* ---- the file ---- */

/* Fill r->in from the file: bytes read, 0 at the end, -1 on a read
 * error, a corrupt or truncated gzip (err names it, from gzerror). */
static int fill(struct trace_reader *r, char *err, size_t errlen)
{
    int k = gzread(r->gz, r->in, TRACE_CHUNK);
    int read_errno = errno;
    int zerr = Z_OK;
    const char *msg = gzerror(r->gz, &zerr);
    if (k < 0 && zerr == Z_ERRNO && read_errno == EINTR) {
        /* a signal the command catches (SIGINT, SIGTERM: check/stop.c)
         * cut a read that waited on a pipe: not bad input */
        snprintf(err, errlen, "%s:%ld: interrupted", r->path, r->line + 1);
        return TRACE_INTERRUPTED;
    }
    if (k < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
        size_t pl = strlen(r->path); /* zlib's message starts with the path: named once */
        if (msg && !strncmp(msg, r->path, pl) && !strncmp(msg + pl, ": ", 2))
            msg += pl + 2;
        snprintf(err, errlen, "%s:%ld: %s: %s", r->path, r->line + 1, k < 0 && zerr == Z_ERRNO ? "read error" :
                 "corrupt or truncated gzip", zerr == Z_ERRNO ? strerror(errno) : msg);
        return -1;
    }
    r->in_pos = 0;
    r->in_len = (size_t)k;
    return k;
}

/* The next line into r->buf (without its newline, NUL-terminated) and
 * its length into *len: 1, 0 at the end of the file, -1 with err. A line is refused when
 * it holds a NUL byte (JSON text has none; /dev/zero is all NULs), is
 * longer than TRACE_LINE_MAX, or would take the file past TRACE_BYTES_MAX. */
static int read_line(struct trace_reader *r, size_t *len, char *err, size_t errlen)
{
    size_t n = 0;
    bool any = false;
    for (;;) {
        if (r->in_pos == r->in_len) {
            int k = fill(r, err, errlen);
            if (k < 0)
                return k;
            if (k == 0) {
                r->buf[n] = 0;
                *len = n;
                return any;
            }
        }
        any = true;
        const char *p = r->in + r->in_pos;
        size_t avail = r->in_len - r->in_pos;
        const char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (memchr(p, 0, take)) {
            snprintf(err, errlen, "%s:%ld: a NUL byte in the line", r->path, r->line + 1);
            return -1;
        }
        if (n + take > TRACE_LINE_MAX) {
            snprintf(err, errlen, "%s:%ld: line longer than %u bytes", r->path, r->line + 1, TRACE_LINE_MAX);
            return -1;
        }
        r->total += take + (nl != NULL);
        if (r->total > TRACE_BYTES_MAX) {
            snprintf(err, errlen, "%s:%ld: the trace is longer than %llu bytes (uncompressed)", r->path,
                     r->line + 1, (unsigned long long)TRACE_BYTES_MAX);
            return -1;
        }
        if (n + take + 1 > r->cap) { /* grows to TRACE_LINE_MAX at most */
            size_t cap = r->cap * 2 > n + take + 1 ? r->cap * 2 : n + take + 1;
            char *b = realloc(r->buf, cap);
            if (!b) {
                snprintf(err, errlen, "%s:%ld: out of memory", r->path, r->line + 1);
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        memcpy(r->buf + n, p, take);
        n += take;
        r->in_pos += take + (nl != NULL);
        if (nl) {
            r->buf[n] = 0;
            *len = n;
            return 1;
        }
    }
}

/* The header's strings go into the scenario text: printable, without
 * '#' (a comment) and short enough for r->config. */
static bool plain(const struct jval *v, size_t max)
{
    if (!v || v->type != JV_STRING || v->len >= max)
        return false;
    for (const unsigned char *p = (const unsigned char *)v->str; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || *p == '#')
            return false;
    return strlen(v->str) == v->len;
}

/* Version 1 header: {"irqsim_trace": 1, "kernel": "...", "board": "...",
 * "config": "timer_hz=... ..."} with the scenario config keys. */
static int header(struct trace_reader *r, const struct jval *root, char *err, size_t errlen)
{
    const struct jval *ver = jval_get(&r->doc, root, "irqsim_trace");
    const struct jval *k = jval_get(&r->doc, root, "kernel");
    const struct jval *board = jval_get(&r->doc, root, "board");
    const struct jval *cfg = jval_get(&r->doc, root, "config");
    if (ver->type != JV_INT || ver->neg || ver->u != TRACE_FORMAT) {
        char v[32];
        if (ver->type == JV_INT)
            snprintf(v, sizeof v, "%s%llu", ver->neg ? "-" : "", (unsigned long long)ver->u);
        else
            snprintf(v, sizeof v, "of another type than a number");
        snprintf(err, errlen, "%s:%ld: trace format %s; this irqsim reads 0 and %d", r->path, r->line, v, TRACE_FORMAT);
        return -1;
    }
    if (!plain(board, 64) || !plain(cfg, sizeof r->config - 64)) {
        snprintf(err, errlen, "%s:%ld: header needs \"board\" and \"config\" strings (printable, no '#', "
                 "at most 63 and %zu bytes)", r->path, r->line, sizeof r->config - 65);
        return -1;
    }
    if (k && !plain(k, sizeof r->kernel)) {
        snprintf(err, errlen, "%s:%ld: header's \"kernel\" is not a printable string of at most %zu bytes", r->path,
                 r->line, sizeof r->kernel - 1);
        return -1;
    }
    r->format = TRACE_FORMAT;
    snprintf(r->kernel, sizeof r->kernel, "%s", k ? k->str : "");
    snprintf(r->config, sizeof r->config, "board %s\nconfig %s\n", board->str, cfg->str);
    return 0;
}

static int open_common(struct trace_reader *r, const char *path, char *err, size_t errlen)
{
    r->path = strdup(path);
    r->cap = TRACE_CHUNK;
    r->buf = malloc(r->cap);
    r->in = malloc(TRACE_CHUNK);
    if (!r->path || !r->buf || !r->in) {
        snprintf(err, errlen, "%s: out of memory", path);
        trace_close(r);
        return -1;
    }
    /* the path goes into each scenario's first comment line: no control
     * characters there */
    snprintf(r->shown, sizeof r->shown, "%s", path);
    for (char *p = r->shown; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    snprintf(r->config, sizeof r->config, "%s", v0_config);
    return 0;
}

int trace_open(struct trace_reader *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    jval_doc_init(&r->doc);
    if (open_common(r, path, err, errlen))
        return -1;
    r->gz = gzopen(path, "rb");
    if (!r->gz) {
        int open_errno = errno;
        snprintf(err, errlen, "%s: cannot open: %s", path, errno ? strerror(errno) : "out of memory");
        trace_close(r);
        /* a FIFO blocks its open until a writer comes: a signal cuts it */
        return open_errno == EINTR ? TRACE_INTERRUPTED : -1;
    }
    return 0;
}

int trace_open_fd(struct trace_reader *r, int fd, const char *name, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    jval_doc_init(&r->doc);
    if (open_common(r, name, err, errlen)) {
        close(fd);
        return -1;
    }
    r->gz = gzdopen(fd, "rb");
    if (!r->gz) {
        snprintf(err, errlen, "%s: cannot open: %s", name, errno ? strerror(errno) : "out of memory");
        close(fd);
        trace_close(r);
        return -1;
    }
    return 0;
}

int trace_next(struct trace_reader *r, struct trace_rec *rec, char *err, size_t errlen)
{
    for (;;) {
        size_t n;
        int got = read_line(r, &n, err, errlen);
        if (got < 0)
            return got;
        if (got == 0) {
            /* the end: gzclose_r reports a gzip stream cut short */
            int rc = gzclose_r(r->gz);
            r->gz = NULL;
            if (rc != Z_OK) {
                snprintf(err, errlen, "%s:%ld: corrupt or truncated gzip (%s)", r->path, r->line + 1,
                         rc == Z_BUF_ERROR ? "the stream ends early" : "error closing it");
                return -1;
            }
            return 0;
        }
        r->line++;
        if (r->line > TRACE_LINES_MAX) {
            snprintf(err, errlen, "%s:%ld: more than %ld lines", r->path, r->line, (long)TRACE_LINES_MAX);
            return -1;
        }
        char jerr[96];
        const struct jval *root = jval_parse(&r->doc, r->buf, n, jerr, sizeof jerr);
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
    free(r->in);
    free(r->path);
    jval_doc_free(&r->doc);
    memset(r, 0, sizeof *r);
}

bool trace_same_objects(const struct kstate *a, const struct kstate *b)
{
    if (a->n_tcbs != b->n_tcbs || a->n_scs != b->n_scs || a->n_ntfns != b->n_ntfns || a->n_eps != b->n_eps ||
        a->n_replies != b->n_replies)
        return false;
    for (int i = 0; i < a->n_tcbs; i++)
        if (strcmp(a->tcbs[i].name, b->tcbs[i].name))
            return false;
    for (int i = 0; i < a->n_scs; i++)
        if (strcmp(a->scs[i].name, b->scs[i].name))
            return false;
    return true;
}
