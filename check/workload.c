/* workload: the workload format, its reader and writer, and the workload
 * generator of the fuzzer. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "workload.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gen.h"
#include "scenario.h"
#include "target.h"
#include "vcpuswitch.h"

static const char *const op_names[] = {"compute", "signal", "wait", "recv", "ack", "yield", "loop", "unbind",
                                       "suspend", "resume", "prio", "send", "call", "replyrecv", "ackvppi", "veoi"};

const char *wl_op_name(int op)
{
    return op >= 0 && op < OP_COUNT ? op_names[op] : "?";
}

int wl_num_domains(const struct workload *w)
{
    int n = 1;
    for (int i = 0; i < w->n_dom; i++)
        n = w->dom[i].domain + 1 > n ? w->dom[i].domain + 1 : n;
    return n;
}

void workload_init(struct workload *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->board, sizeof w->board, "imx8mm");
    w->horizon = 80000000;
    w->cores = 1;
    w->timer_irq = 27;
    w->target = target_default();
    for (int k = 0; k < WL_GIC_KINDS; k++)
        w->gic_rank[k] = (uint8_t)k;
}

static const char *const gic_kind_names[WL_GIC_KINDS] = {"timer", "device", "ipi"};

bool wl_gic_default(const struct workload *w)
{
    for (int k = 0; k < WL_GIC_KINDS; k++)
        if (w->gic_rank[k] != k)
            return false;
    return !w->gic_devices_reversed;
}

void wl_gic_reverse(struct workload *w)
{
    for (int k = 0; k < WL_GIC_KINDS; k++)
        w->gic_rank[k] = (uint8_t)(WL_GIC_KINDS - 1 - w->gic_rank[k]);
    w->gic_devices_reversed = !w->gic_devices_reversed;
}

/* Print, parse, print again (back is scratch): the two texts must be the
 * same (comparing the structs with memcmp would compare their padding too,
 * which struct assignments leave undefined). false, with what went wrong
 * written to err, when they are not or the printed text does not parse. */
bool workload_round_trips(const struct workload *w, struct workload *back, FILE *err)
{
    char *text = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return false;
    workload_print(f, w);
    if (fclose(f) != 0)
        return false;
    struct scen_error e;
    bool ok = workload_parse(text, len, "reprint", back, &e) == 0;
    if (!ok)
        fprintf(err, "printed workload does not parse (%d: %s):\n%s", e.line, e.msg, text);
    if (ok && (f = open_memstream(&again, &len2)) != NULL) {
        workload_print(f, back);
        ok = fclose(f) == 0 && len == len2 && memcmp(text, again, len) == 0;
        if (!ok)
            fprintf(err, "workload did not round-trip; printed:\n%s\nreprinted:\n%s", text, again ? again : "");
    }
    free(again);
    free(text);
    return ok;
}

/* ---- parsing ---- */

#define WL_MAX_LINE 1024
#define WL_MAX_HORIZON (1ull << 40)

struct rd {
    struct workload *w;
    struct scen_error *err;
    int line;
    int directives;  /* lines that are not blank or comments */
    int simple_at[12]; /* the line of each one-value setting (parse_line's once[]), 0 none */
};

static int fail(struct rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
    va_end(ap);
    r->err->line = r->line;
    return -1;
}

static int num(struct rd *r, const char *key, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-' || v < lo || v > hi)
        return fail(r, "%s: expected a number from %" PRIu64 " to %" PRIu64 ", got '%s'", key, lo, hi, s);
    *out = v;
    return 0;
}

static int find_name(const struct wl_name *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i].name, s) == 0)
            return i;
    return -1;
}

static int find_sc(const struct workload *w, const char *s)
{
    for (int i = 0; i < w->n_scs; i++)
        if (strcmp(w->scs[i].name, s) == 0)
            return i;
    return -1;
}

static int find_thread(const struct workload *w, const char *s)
{
    for (int i = 0; i < w->n_threads; i++)
        if (strcmp(w->threads[i].name, s) == 0)
            return i;
    return -1;
}

/* every object kind shares one name space, so a name means one object */
static bool name_taken(const struct workload *w, const char *s)
{
    return find_thread(w, s) >= 0 || find_sc(w, s) >= 0 || find_name(w->ntfns, w->n_ntfns, s) >= 0 ||
           find_name(w->eps, w->n_eps, s) >= 0 || find_name(w->replies, w->n_replies, s) >= 0;
}

static int ref(struct rd *r, const char *kind, const struct wl_name *names, int n, const char *s, int8_t *out)
{
    int i = find_name(names, n, s);
    if (i < 0)
        return fail(r, "unknown %s '%s' (declare it on an earlier line)", kind, s);
    *out = (int8_t)i;
    return 0;
}

static int new_name(struct rd *r, const char *kind, const char *s, char *dst, int count, int max)
{
    if (count >= max)
        return fail(r, "too many %ss (at most %d)", kind, max);
    if (!*s || strlen(s) >= KS_NAME_LEN || strchr(s, '=') || strchr(s, ',') || strchr(s, ':'))
        return fail(r, "%s name '%s': 1-%d characters, none of '=,:'", kind, s, KS_NAME_LEN - 1);
    if (name_taken(r->w, s) || strcmp(s, "idle") == 0 || strcmp(s, "root") == 0)
        return fail(r, "name '%s' is already used", s);
    snprintf(dst, KS_NAME_LEN, "%s", s);
    return 0;
}

/* key=value: value into *val, or an error naming the token */
static int split_kv(struct rd *r, char *tok, char **val)
{
    char *eq = strchr(tok, '=');
    if (!eq)
        return fail(r, "expected key=value, got '%s'", tok);
    *eq = 0;
    *val = eq + 1;
    return 0;
}

/* a thread declared on an earlier line, or the one being declared */
static int thread_ref(struct rd *r, const char *s, int8_t *out)
{
    const struct workload *w = r->w;
    for (int i = 0; i <= w->n_threads && i < WL_MAX_THREADS; i++)
        if (strcmp(w->threads[i].name, s) == 0) {
            *out = (int8_t)i;
            return 0;
        }
    return fail(r, "unknown thread '%s' (declare it on an earlier line)", s);
}

static int parse_insn(struct rd *r, char *s, struct wl_insn *in)
{
    char *arg = strchr(s, ':');
    if (arg)
        *arg++ = 0;
    int op = -1;
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(s, op_names[i]) == 0)
            op = i;
    if (op < 0)
        return fail(r, "unknown instruction '%s' (compute, signal, wait, recv, ack, yield, loop, unbind, "
                    "suspend, resume, prio, send, call, replyrecv, ackvppi, veoi)", s);
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->a = in->b = -1;
    bool wants_arg = op != OP_YIELD && op != OP_LOOP;
    if (op == OP_LOOP && arg) /* loop:K jumps to instruction K (default 0) */
        return num(r, "loop", arg, 0, WL_MAX_PROG - 1, &in->n);
    if (wants_arg != (arg != NULL))
        return fail(r, "instruction %s %s an argument", s, wants_arg ? "needs" : "takes no");
    const struct workload *w = r->w;
    switch (op) {
    case OP_COMPUTE:
        return num(r, "compute", arg, 1, WL_MAX_HORIZON, &in->n);
    case OP_SIGNAL:
    case OP_WAIT:
        return ref(r, "notification", w->ntfns, w->n_ntfns, arg, &in->a);
    case OP_RECV:
    case OP_REPLY_RECV: {
        char *reply = strchr(arg, ':');
        if (reply)
            *reply++ = 0;
        if (ref(r, "endpoint", w->eps, w->n_eps, arg, &in->a))
            return -1;
        if (!reply && op == OP_REPLY_RECV)
            return fail(r, "instruction replyrecv needs endpoint:reply, got '%s'", arg);
        return reply ? ref(r, "reply", w->replies, w->n_replies, reply, &in->b) : 0;
    }
    case OP_CALL:
        return ref(r, "endpoint", w->eps, w->n_eps, arg, &in->a);
    case OP_ACK:
        return num(r, "ack", arg, 0, KS_MAX_IRQS - 1, &in->n);
    case OP_SEND: { /* send:NTFN[:badcap] */
        char *bad = strchr(arg, ':');
        if (bad)
            *bad++ = 0;
        if (bad && strcmp(bad, "badcap") != 0)
            return fail(r, "instruction send: expected send:NOTIFICATION or send:NOTIFICATION:badcap, got ':%s'",
                        bad);
        in->n = bad != NULL;
        return ref(r, "notification", w->ntfns, w->n_ntfns, arg, &in->a);
    }
    case OP_SUSPEND:
    case OP_RESUME:
    case OP_ACK_VPPI:
        return thread_ref(r, arg, &in->a);
    case OP_VEOI:
        return num(r, "veoi", arg, 0, KS_VGIC_MAX_LRS - 1, &in->n);
    case OP_PRIO: {
        char *prio = strchr(arg, ':');
        if (!prio)
            return fail(r, "instruction prio needs thread:priority, got '%s'", arg);
        *prio++ = 0;
        return thread_ref(r, arg, &in->a) || num(r, "prio", prio, 0, 254, &in->n);
    }
    case OP_UNBIND: {
        int sc = find_sc(w, arg);
        if (sc < 0)
            return fail(r, "unknown sc '%s' (declare it on an earlier line)", arg);
        in->a = (int8_t)sc;
        return 0;
    }
    default:
        return 0;
    }
}

static int parse_prog(struct rd *r, char *v, struct wl_thread *t)
{
    if (!*v)
        return 0;
    for (char *s = strtok(v, ","); s; s = strtok(NULL, ",")) {
        if (t->n_prog >= WL_MAX_PROG)
            return fail(r, "program of %s: at most %d instructions", t->name, WL_MAX_PROG);
        if (parse_insn(r, s, &t->prog[t->n_prog]))
            return -1;
        t->n_prog++;
    }
    for (int i = 0; i < t->n_prog; i++)
        if (t->prog[i].op == OP_LOOP && t->prog[i].n >= (ticks_t)i)
            return fail(r, "program of %s: loop at %d must jump to an earlier instruction", t->name, i);
    return 0;
}

/* lr=V,V,...: the list registers VCPU_InjectIRQ wrote at setup, each
 * VGIC_LR_* bits (0-7), as the scenario format's lr= */
static int parse_lrs(struct rd *r, char *val, struct wl_thread *t)
{
    for (char *s = strtok(val, ","); s; s = strtok(NULL, ",")) {
        uint64_t v;
        if (t->n_lr >= KS_VGIC_MAX_LRS)
            return fail(r, "lr: at most %d list registers", KS_VGIC_MAX_LRS);
        if (num(r, "lr", s, 0, VGIC_LR_TYPE | VGIC_LR_EOI, &v))
            return -1;
        t->lr[t->n_lr++] = (uint8_t)v;
    }
    return 0;
}

/* a VCPU only on a hypervisor build; lr=, veoi and an ackvppi's thread ask
 * for one */
static int check_vcpu_thread(struct rd *r, const struct wl_thread *t)
{
    const struct workload *w = r->w;
    if (t->vcpu && !w->hyp)
        return fail(r, "thread %s: vcpu=1 needs 'hyp 1' on an earlier line (a VCPU exists on a hypervisor build "
                       "only)", t->name);
    if (t->n_lr && !t->vcpu)
        return fail(r, "thread %s: lr= needs vcpu=1 (they are its VCPU's list registers)", t->name);
    for (int i = 0; i < t->n_prog; i++) {
        const struct wl_insn *in = &t->prog[i];
        if (in->op == OP_VEOI && !t->vcpu)
            return fail(r, "thread %s: veoi is its guest's EOI and needs vcpu=1", t->name);
        if (in->op == OP_ACK_VPPI && !w->threads[in->a].vcpu)
            return fail(r, "thread %s: ackvppi:%s names a thread without vcpu=1", t->name, w->threads[in->a].name);
    }
    return 0;
}

static int parse_thread(struct rd *r, char **tok, int n)
{
    struct workload *w = r->w;
    if (w->n_threads >= WL_MAX_THREADS) /* before the slot past the array is cleared */
        return fail(r, "too many threads (at most %d)", WL_MAX_THREADS);
    struct wl_thread *t = &w->threads[w->n_threads];
    memset(t, 0, sizeof *t);
    t->sc = t->timeout_ep = t->fault_ep = -1;
    if (new_name(r, "thread", tok[1], t->name, w->n_threads, WL_MAX_THREADS))
        return -1;
    uint64_t v;
    for (int i = 2; i < n; i++) {
        char *val = NULL; /* set by split_kv on success */
        if (split_kv(r, tok[i], &val))
            return -1;
        if (strcmp(tok[i], "prio") == 0) {
            if (num(r, "prio", val, 0, 254, &v))
                return -1;
            t->prio = (uint8_t)v;
        } else if (strcmp(tok[i], "sc") == 0) {
            int s = find_sc(w, val);
            if (s < 0)
                return fail(r, "unknown sc '%s' (declare it on an earlier line)", val);
            for (int k = 0; k < w->n_threads; k++)
                if (w->threads[k].sc == s)
                    return fail(r, "sc %s is already bound to thread %s", val, w->threads[k].name);
            t->sc = (int8_t)s;
        } else if (strcmp(tok[i], "domain") == 0) {
            if (num(r, "domain", val, 0, (uint64_t)wl_num_domains(w) - 1, &v))
                return fail(r, "domain: expected a domain of the domain_schedule (0 to %d), got '%s'",
                            wl_num_domains(w) - 1, val);
            t->domain = (uint8_t)v;
        } else if (strcmp(tok[i], "timeout_ep") == 0) {
            if (ref(r, "endpoint", w->eps, w->n_eps, val, &t->timeout_ep))
                return -1;
        } else if (strcmp(tok[i], "fault_ep") == 0) {
            if (ref(r, "endpoint", w->eps, w->n_eps, val, &t->fault_ep))
                return -1;
        } else if (strcmp(tok[i], "vcpu") == 0) {
            if (num(r, "vcpu", val, 0, 1, &v))
                return -1;
            t->vcpu = v != 0;
        } else if (strcmp(tok[i], "lr") == 0) {
            if (parse_lrs(r, val, t))
                return -1;
        } else if (strcmp(tok[i], "prog") == 0) {
            if (parse_prog(r, val, t))
                return -1;
        } else {
            return fail(r, "thread: unknown key '%s' (prio, domain, sc, timeout_ep, fault_ep, vcpu, lr, prog)",
                        tok[i]);
        }
    }
    if (check_vcpu_thread(r, t))
        return -1;
    w->n_threads++;
    return 0;
}

static int parse_sc(struct rd *r, char **tok, int n)
{
    struct workload *w = r->w;
    if (w->n_scs >= WL_MAX_SCS) /* before the slot past the array is cleared */
        return fail(r, "too many scs (at most %d)", WL_MAX_SCS);
    struct wl_sc *s = &w->scs[w->n_scs];
    memset(s, 0, sizeof *s);
    s->ntfn = -1;
    if (new_name(r, "sc", tok[1], s->name, w->n_scs, WL_MAX_SCS))
        return -1;
    uint64_t v;
    for (int i = 2; i < n; i++) {
        char *val = NULL; /* set by split_kv on success */
        if (split_kv(r, tok[i], &val))
            return -1;
        if (strcmp(tok[i], "budget") == 0 || strcmp(tok[i], "period") == 0) {
            if (num(r, tok[i], val, 1, WL_MAX_HORIZON, &v))
                return -1;
            *(tok[i][0] == 'b' ? &s->budget : &s->period) = v;
        } else if (strcmp(tok[i], "refills") == 0) {
            if (num(r, "refills", val, 0, KS_MAX_REFILLS - 2, &v))
                return -1;
            s->extra_refills = (uint8_t)v;
        } else if (strcmp(tok[i], "sporadic") == 0) {
            if (num(r, "sporadic", val, 0, 1, &v))
                return -1;
            s->sporadic = v != 0;
        } else if (strcmp(tok[i], "ntfn") == 0) {
            if (ref(r, "notification", w->ntfns, w->n_ntfns, val, &s->ntfn))
                return -1;
        } else if (strcmp(tok[i], "core") == 0) {
            if (num(r, "core", val, 0, (uint64_t)w->cores - 1, &v))
                return fail(r, "core: expected a core below 'cores' (%u; declare cores first), got '%s'",
                            w->cores, val);
            s->core = (uint8_t)v;
        } else {
            return fail(r, "sc: unknown key '%s' (budget, period, refills, sporadic, ntfn, core)", tok[i]);
        }
    }
    /* neither: an SC never configured (refillMax 0), as Untyped_Retype made it */
    bool unconfigured = !s->budget && !s->period && !s->extra_refills && !s->sporadic;
    if (!unconfigured && (!s->budget || !s->period || s->budget > s->period))
        return fail(r, "sc %s: needs budget and period, budget <= period (or none of budget, period, refills, "
                       "sporadic: never configured)", s->name);
    w->n_scs++;
    return 0;
}

/* comma-separated, strictly increasing times */
static int parse_at(struct rd *r, char *val, struct wl_irq *q)
{
    for (char *s = strtok(val, ","); s; s = strtok(NULL, ",")) {
        uint64_t v;
        if (q->n_at >= WL_MAX_AT)
            return fail(r, "irq %u: at most %d arrival times", q->irq, WL_MAX_AT);
        if (num(r, "at", s, 1, WL_MAX_HORIZON, &v))
            return -1;
        if (q->n_at && v <= q->at[q->n_at - 1])
            return fail(r, "irq %u: arrival times must increase", q->irq);
        q->at[q->n_at++] = v;
    }
    return 0;
}

static int irq_key(struct rd *r, struct wl_irq *q, char *key, char *val)
{
    struct workload *w = r->w;
    uint64_t v;
    if (strcmp(key, "ntfn") == 0)
        return ref(r, "notification", w->ntfns, w->n_ntfns, val, &q->ntfn);
    if (strcmp(key, "badge") == 0)
        return num(r, "badge", val, 0, UINT64_MAX, &q->badge);
    if (strcmp(key, "at") == 0)
        return parse_at(r, val, q);
    if (strcmp(key, "start") == 0 || strcmp(key, "period") == 0) {
        if (num(r, key, val, 1, WL_MAX_HORIZON, &v))
            return -1;
        *(key[0] == 's' ? &q->start : &q->period) = v;
        return 0;
    }
    return fail(r, "irq: unknown key '%s' (ntfn, badge, at, start, period)", key);
}

/* the key=value fields of an irq or spurious line, from tok[first] */
static int irq_keys(struct rd *r, struct wl_irq *q, char **tok, int n, int first)
{
    for (int i = first; i < n; i++) {
        char *val = NULL; /* set by split_kv on success */
        if (split_kv(r, tok[i], &val) || irq_key(r, q, tok[i], val))
            return -1;
    }
    if (q->badge && q->ntfn < 0)
        return fail(r, "irq %u: badge= needs ntfn=", q->irq);
    if (!q->n_at && !q->period)
        return fail(r, "irq %u: needs at= or period=", q->irq);
    r->w->n_irqs++;
    return 0;
}

/* the next irq slot, for IRQ id (a line or the spurious ID) on core
 * (a banked PPI's; 0 for the rest), once per id and core; NULL after an
 * error */
static struct wl_irq *new_irq(struct rd *r, uint16_t id, uint8_t core, const char *what)
{
    struct workload *w = r->w;
    if (w->n_irqs >= WL_MAX_IRQS) {
        fail(r, "too many irqs (at most %d)", WL_MAX_IRQS);
        return NULL;
    }
    for (int i = 0; i < w->n_irqs; i++)
        if (w->irqs[i].irq == id && w->irqs[i].core == core) {
            fail(r, "%s is declared twice", what);
            return NULL;
        }
    struct wl_irq *q = &w->irqs[w->n_irqs];
    memset(q, 0, sizeof *q);
    q->ntfn = -1;
    q->irq = id;
    q->core = core;
    return q;
}

static int parse_irq(struct rd *r, char **tok, int n)
{
    uint64_t v;
    char what[16];
    if (num(r, "irq", tok[1], 0, KS_MAX_IRQS - 1, &v))
        return -1;
    snprintf(what, sizeof what, "irq %u", (unsigned)v);
    struct wl_irq *q = new_irq(r, (uint16_t)v, 0, what);
    if (!q)
        return -1;
    if (q->irq == r->w->timer_irq)
        return fail(r, "irq %u is the kernel's timer IRQ", q->irq);
    if (r->w->hyp && (q->irq == INTERRUPT_VTIMER_EVENT || q->irq == INTERRUPT_VGIC_MAINTENANCE))
        return fail(r, "irq %u is reserved on a hypervisor build (the %s; the guest's timer is the 'vtimer' line)",
                    q->irq, q->irq == INTERRUPT_VTIMER_EVENT ? "virtual timer's PPI" : "VGIC maintenance PPI");
    if (q->irq >= WL_SPECIAL_ID_START)
        return fail(r, "irq %u is one of the GIC's special IDs (1020-1023), not a line (the spurious one: "
                       "'spurious')", q->irq);
    return irq_keys(r, q, tok, n, 2);
}

/* spurious at=...|start= period=: the GIC signals the CPU and its
 * acknowledge reads the spurious ID */
static int parse_spurious(struct rd *r, char **tok, int n)
{
    struct wl_irq *q = new_irq(r, WL_SPURIOUS_ID, 0, "spurious");
    if (!q)
        return -1;
    for (int i = 1; i < n; i++)
        if (strncmp(tok[i], "ntfn=", 5) == 0 || strncmp(tok[i], "badge=", 6) == 0)
            return fail(r, "spurious: no ntfn= or badge= (no IRQ line is acknowledged)");
    return irq_keys(r, q, tok, n, 1);
}

/* vtimer [core=C] at=...|start= period=: core C's virtual timer fires
 * for the VCPU loaded there (PPI INTERRUPT_VTIMER_EVENT, banked per core,
 * reserved at boot, handled by VPPIEvent); one line per core. core= is
 * taken out of tok before the irq keys. */
static int parse_vtimer(struct rd *r, char **tok, int n)
{
    struct workload *w = r->w;
    if (!w->hyp)
        return fail(r, "vtimer needs 'hyp 1' on an earlier line (the virtual timer's PPI is a hypervisor build's)");
    uint64_t core = 0;
    int m = 1;
    for (int i = 1; i < n; i++) {
        if (strncmp(tok[i], "core=", 5) != 0) {
            tok[m++] = tok[i];
            continue;
        }
        if (num(r, "core", tok[i] + 5, 0, (uint64_t)w->cores - 1, &core))
            return fail(r, "vtimer core: expected a core below 'cores' (%u; declare cores first), got '%s'", w->cores,
                        tok[i] + 5);
    }
    n = m;
    char what[32] = "vtimer";
    if (core)
        snprintf(what, sizeof what, "vtimer core=%u", (unsigned)core);
    struct wl_irq *q = new_irq(r, INTERRUPT_VTIMER_EVENT, (uint8_t)core, what);
    if (!q)
        return -1;
    q->vtimer = true;
    for (int i = 1; i < n; i++)
        if (strncmp(tok[i], "ntfn=", 5) == 0 || strncmp(tok[i], "badge=", 6) == 0)
            return fail(r, "vtimer: no ntfn= or badge= (VPPIEvent sends the VCPU thread a fault)");
    return irq_keys(r, q, tok, n, 1);
}

/* hyp 1: a hypervisor build; before the lines that depend on it. Its
 * kernel timer is the hypervisor timer's PPI unless timer_irq says
 * otherwise. */
static int parse_hyp(struct rd *r, const char *val)
{
    struct workload *w = r->w;
    uint64_t v;
    if (num(r, "hyp", val, 0, 1, &v))
        return -1;
    if (w->n_threads || w->n_irqs)
        return fail(r, "hyp must come before the thread, irq and vtimer lines");
    w->hyp = v != 0;
    if (w->hyp && !r->simple_at[2]) /* no timer_irq line yet (parse_line's once[2]) */
        w->timer_irq = WL_HYP_TIMER_IRQ;
    if (w->hyp && (w->timer_irq == INTERRUPT_VTIMER_EVENT || w->timer_irq == INTERRUPT_VGIC_MAINTENANCE))
        return fail(r, "timer_irq %u is reserved on a hypervisor build (the kernel's timer is the hypervisor "
                       "timer, %d)", w->timer_irq, WL_HYP_TIMER_IRQ);
    return 0;
}

/* domain_schedule D:MS,D:MS,...: ksDomSchedule */
static int parse_domains(struct rd *r, char *val)
{
    struct workload *w = r->w;
    if (w->n_dom)
        return fail(r, "domain_schedule is given twice");
    if (w->n_threads)
        return fail(r, "domain_schedule must come before the thread lines");
    if (w->cores > 1) /* config.cmake: KernelMaxNumNodes depends on KernelNumDomains = 1 */
        return fail(r, "domain_schedule on %u cores: an SMP kernel has one domain", w->cores);
    for (char *s = strtok(val, ","); s; s = strtok(NULL, ",")) {
        uint64_t d, ms;
        char *colon = strchr(s, ':');
        if (!colon)
            return fail(r, "domain_schedule: expected DOMAIN:MS, got '%s'", s);
        *colon = 0;
        if (w->n_dom >= KS_MAX_DOM_SCHED)
            return fail(r, "domain_schedule: at most %d entries", KS_MAX_DOM_SCHED);
        if (num(r, "domain", s, 0, KS_MAX_DOMAINS - 1, &d) || num(r, "length (ms)", colon + 1, 1, 100000, &ms))
            return -1;
        w->dom[w->n_dom++] = (struct wl_dom){.domain = (uint8_t)d, .ms = (uint32_t)ms};
    }
    return 0;
}

/* gic_order KIND,KIND,KIND: timer, device and ipi, each once, first
 * taken first */
static int parse_gic_order(struct rd *r, char *val)
{
    bool seen[WL_GIC_KINDS] = {false};
    int n = 0;
    for (char *s = strtok(val, ","); s; s = strtok(NULL, ","), n++) {
        int k = 0;
        while (k < WL_GIC_KINDS && strcmp(s, gic_kind_names[k]) != 0)
            k++;
        if (k == WL_GIC_KINDS)
            return fail(r, "gic_order: expected timer, device or ipi, got '%s'", s);
        if (seen[k])
            return fail(r, "gic_order: %s given twice", s);
        seen[k] = true;
        r->w->gic_rank[k] = (uint8_t)n;
    }
    if (n != WL_GIC_KINDS)
        return fail(r, "gic_order: expected the three kinds timer, device and ipi, got %d", n);
    return 0;
}

static int parse_simple(struct rd *r, char **tok, int n)
{
    struct workload *w = r->w;
    uint64_t v;
    if (n != 2)
        return fail(r, "%s takes one value", tok[0]);
    if (strcmp(tok[0], "domain_schedule") == 0)
        return parse_domains(r, tok[1]);
    if (strcmp(tok[0], "entry_latency") == 0) {
        if (num(r, "entry_latency", tok[1], 0, 100000, &v))
            return -1;
        w->entry_latency = v;
        return 0;
    }
    if (strcmp(tok[0], "ipi_latency") == 0) {
        if (num(r, "ipi_latency", tok[1], 0, 100000, &v))
            return -1;
        w->ipi_latency = v;
        return 0;
    }
    if (strcmp(tok[0], "board") == 0) {
        struct ks_config c;
        if (cfg_preset(&c, tok[1]) != 0)
            return fail(r, "unknown board '%s'", tok[1]);
        snprintf(w->board, sizeof w->board, "%s", tok[1]);
        return 0;
    }
    if (strcmp(tok[0], "gic_order") == 0)
        return parse_gic_order(r, tok[1]);
    if (strcmp(tok[0], "gic_devices") == 0) {
        if (strcmp(tok[1], "declared") != 0 && strcmp(tok[1], "reversed") != 0)
            return fail(r, "gic_devices: expected declared or reversed, got '%s'", tok[1]);
        w->gic_devices_reversed = tok[1][0] == 'r';
        return 0;
    }
    if (strcmp(tok[0], "signal_fastpath") == 0) {
        if (num(r, "signal_fastpath", tok[1], 0, 1, &v))
            return -1;
        w->signal_fastpath = v;
        return 0;
    }
    if (strcmp(tok[0], "kernel") == 0) { /* what irqsim sim --kernel also sets */
        int k = cfg_kernel_parse(tok[1]);
        if (k < 0)
            return fail(r, "kernel: expected base or master, got '%s'", tok[1]);
        w->kernel = (uint8_t)k;
        return 0;
    }
    if (strcmp(tok[0], "target") == 0) { /* what irqsim sim --target also sets */
        const struct target *t = target_by_name(tok[1]);
        char names[64];
        if (!t)
            return fail(r, "target: expected %s, got '%s'", target_names(names, sizeof names, ""), tok[1]);
        w->target = t;
        return 0;
    }
    if (strcmp(tok[0], "cores") == 0) {
        if (w->n_scs)
            return fail(r, "cores must come before the sc lines");
        if (num(r, "cores", tok[1], 1, KS_MAX_CORES, &v))
            return -1;
        if (v > 1 && w->n_dom) /* config.cmake: KernelMaxNumNodes depends on KernelNumDomains = 1 */
            return fail(r, "cores %" PRIu64 " with a domain_schedule: an SMP kernel has one domain", v);
        w->cores = (uint8_t)v;
        return 0;
    }
    if (strcmp(tok[0], "horizon") == 0) {
        if (num(r, "horizon", tok[1], 1, WL_MAX_HORIZON, &v))
            return -1;
        w->horizon = v;
        return 0;
    }
    if (strcmp(tok[0], "hyp") == 0)
        return parse_hyp(r, tok[1]);
    if (strcmp(tok[0], "timer_irq") == 0) {
        if (w->n_irqs)
            return fail(r, "timer_irq must come before the irq lines");
        if (num(r, "timer_irq", tok[1], 0, KS_MAX_IRQS - 1, &v))
            return -1;
        if (w->hyp && (v == INTERRUPT_VTIMER_EVENT || v == INTERRUPT_VGIC_MAINTENANCE))
            return fail(r, "timer_irq %" PRIu64 " is reserved on a hypervisor build (the kernel's timer is the "
                           "hypervisor timer, %d)", v, WL_HYP_TIMER_IRQ);
        w->timer_irq = (uint16_t)v;
        return 0;
    }
    /* the next slot is named only below the limit (new_name refuses the
     * count first): the slot past the array is not an object */
    if (strcmp(tok[0], "ntfn") == 0)
        return new_name(r, "ntfn", tok[1], w->n_ntfns < WL_MAX_NTFNS ? w->ntfns[w->n_ntfns].name : NULL,
                        w->n_ntfns, WL_MAX_NTFNS) ? -1 : (w->n_ntfns++, 0);
    if (strcmp(tok[0], "ep") == 0)
        return new_name(r, "ep", tok[1], w->n_eps < WL_MAX_EPS ? w->eps[w->n_eps].name : NULL, w->n_eps,
                        WL_MAX_EPS) ? -1 : (w->n_eps++, 0);
    return new_name(r, "reply", tok[1], w->n_replies < WL_MAX_REPLIES ? w->replies[w->n_replies].name : NULL,
                    w->n_replies, WL_MAX_REPLIES) ? -1 : (w->n_replies++, 0);
}

static int parse_line(struct rd *r, char *line)
{
    char *tok[64];
    int n = 0;
    /* all tokens first: the value parsers use strtok again */
    for (char *s = strtok(line, " \t\r"); s; s = strtok(NULL, " \t\r")) {
        if (n == 64)
            return fail(r, "more than 64 fields on the line");
        tok[n++] = s;
    }
    if (n == 0 || tok[0][0] == '#')
        return 0;
    r->directives++;
    /* a setting and a key of a line once each, as the scenario reader has it */
    static const char *const once[] = {"board", "horizon", "timer_irq", "entry_latency", "cores", "kernel", "target",
                                       "signal_fastpath", "gic_order", "gic_devices", "ipi_latency", "hyp"};
    _Static_assert(sizeof once / sizeof once[0] == sizeof ((struct rd *)0)->simple_at / sizeof(int),
                   "simple_at holds a line per one-value setting");
    for (size_t i = 0; i < sizeof once / sizeof once[0]; i++)
        if (strcmp(tok[0], once[i]) == 0) {
            if (r->simple_at[i])
                return fail(r, "%s is given twice (first on line %d)", once[i], r->simple_at[i]);
            r->simple_at[i] = r->line;
        }
    for (int i = 1; i < n; i++) {
        size_t k = strcspn(tok[i], "=");
        for (int j = 1; j < i && tok[i][k]; j++)
            if (strncmp(tok[i], tok[j], k + 1) == 0)
                return fail(r, "%s: key '%.*s' given twice", tok[0], (int)k, tok[i]);
    }
    static const char *const simple[] = {"board", "horizon", "timer_irq", "ntfn", "ep", "reply", "domain_schedule",
                                         "entry_latency", "cores", "kernel", "target", "signal_fastpath",
                                         "gic_order", "gic_devices", "ipi_latency", "hyp"};
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (strcmp(tok[0], simple[i]) == 0)
            return parse_simple(r, tok, n);
    if (n < 2)
        return fail(r, "%s needs a name or number", tok[0]);
    if (strcmp(tok[0], "thread") == 0)
        return parse_thread(r, tok, n);
    if (strcmp(tok[0], "sc") == 0)
        return parse_sc(r, tok, n);
    if (strcmp(tok[0], "irq") == 0)
        return parse_irq(r, tok, n);
    if (strcmp(tok[0], "spurious") == 0)
        return parse_spurious(r, tok, n);
    if (strcmp(tok[0], "vtimer") == 0)
        return parse_vtimer(r, tok, n);
    return fail(r, "unknown directive '%s' (board, kernel, target, horizon, cores, hyp, timer_irq, entry_latency, ipi_latency, signal_fastpath, gic_order, gic_devices, domain_schedule, ntfn, ep, reply, sc, thread, irq, spurious, vtimer)", tok[0]);
}

/* every ack names a declared IRQ line (not the spurious one) */
static int check_acks(struct rd *r)
{
    const struct workload *w = r->w;
    for (int t = 0; t < w->n_threads; t++)
        for (int i = 0; i < w->threads[t].n_prog; i++) {
            const struct wl_insn *in = &w->threads[t].prog[i];
            bool found = false;
            for (int q = 0; q < w->n_irqs; q++)
                found |= w->irqs[q].irq == in->n && in->n != WL_SPURIOUS_ID;
            if (in->op == OP_ACK && !found)
                return fail(r, "thread %s acks irq %" PRIu64 ", which no irq line declares", w->threads[t].name,
                            in->n);
        }
    return 0;
}

int workload_parse(const char *text, size_t len, const char *filename, struct workload *w,
                   struct scen_error *err)
{
    struct rd r = {.w = w, .err = err, .line = 0};
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", filename);
    workload_init(w);
    size_t pos = 0;
    while (pos < len) {
        char line[WL_MAX_LINE];
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        r.line++;
        if (end - pos >= sizeof line)
            return fail(&r, "line longer than %d characters", WL_MAX_LINE - 1);
        memcpy(line, text + pos, end - pos);
        line[end - pos] = 0;
        if (memchr(line, 0, end - pos))
            return fail(&r, "NUL byte in the line");
        if (parse_line(&r, line))
            return -1;
        pos = end + 1;
    }
    if (!r.directives) {
        r.line = r.line ? r.line : 1;
        return fail(&r, "no directive: an empty workload (docs/workload-format.md)");
    }
    return check_acks(&r);
}

int workload_load(const char *path, struct workload *w, struct scen_error *err)
{
    size_t n = 0;
    char *buf = scen_read_file(path, err, &n);
    if (!buf)
        return -1;
    int rc = workload_parse(buf, n, path, w, err);
    free(buf);
    if (rc != 0)
        return -1;
    /* without a thread or an IRQ line no kernel entry is ever compared */
    if (w->n_threads == 0 && w->n_irqs == 0) {
        err->line = 1;
        snprintf(err->msg, sizeof err->msg, "nothing runs: no thread and no irq or spurious line");
        return -1;
    }
    return 0;
}

/* ---- printing ---- */

static void print_insn(FILE *out, const struct workload *w, const struct wl_insn *in)
{
    fprintf(out, "%s", op_names[in->op]);
    switch (in->op) {
    case OP_COMPUTE:
    case OP_ACK:
        fprintf(out, ":%" PRIu64, in->n);
        return;
    case OP_LOOP:
        if (in->n)
            fprintf(out, ":%" PRIu64, in->n);
        return;
    case OP_SIGNAL:
    case OP_WAIT:
        fprintf(out, ":%s", w->ntfns[in->a].name);
        return;
    case OP_SEND:
        fprintf(out, ":%s%s", w->ntfns[in->a].name, in->n ? ":badcap" : "");
        return;
    case OP_CALL:
        fprintf(out, ":%s", w->eps[in->a].name);
        return;
    case OP_RECV:
    case OP_REPLY_RECV:
        fprintf(out, ":%s", w->eps[in->a].name);
        if (in->b >= 0)
            fprintf(out, ":%s", w->replies[in->b].name);
        return;
    case OP_SUSPEND:
    case OP_RESUME:
    case OP_ACK_VPPI:
        fprintf(out, ":%s", w->threads[in->a].name);
        return;
    case OP_VEOI:
        fprintf(out, ":%" PRIu64, in->n);
        return;
    case OP_PRIO:
        fprintf(out, ":%s:%" PRIu64, w->threads[in->a].name, in->n);
        return;
    case OP_UNBIND:
        fprintf(out, ":%s", w->scs[in->a].name);
        return;
    default:
        return;
    }
}

static void print_thread(FILE *out, const struct workload *w, const struct wl_thread *t)
{
    fprintf(out, "thread %s prio=%u", t->name, t->prio);
    if (t->domain)
        fprintf(out, " domain=%u", t->domain);
    if (t->sc >= 0)
        fprintf(out, " sc=%s", w->scs[t->sc].name);
    if (t->timeout_ep >= 0)
        fprintf(out, " timeout_ep=%s", w->eps[t->timeout_ep].name);
    if (t->fault_ep >= 0)
        fprintf(out, " fault_ep=%s", w->eps[t->fault_ep].name);
    if (t->vcpu)
        fprintf(out, " vcpu=1");
    for (int i = 0; i < t->n_lr; i++)
        fprintf(out, "%s%u", i ? "," : " lr=", t->lr[i]);
    fprintf(out, " prog=");
    for (int i = 0; i < t->n_prog; i++) {
        fprintf(out, i ? "," : "");
        print_insn(out, w, &t->prog[i]);
    }
    fprintf(out, "\n");
}

static void print_irq(FILE *out, const struct workload *w, const struct wl_irq *q)
{
    if (q->irq == WL_SPURIOUS_ID)
        fprintf(out, "spurious");
    else if (q->vtimer)
        fprintf(out, "vtimer");
    else
        fprintf(out, "irq %u", q->irq);
    if (q->core)
        fprintf(out, " core=%u", q->core);
    if (q->ntfn >= 0)
        fprintf(out, " ntfn=%s", w->ntfns[q->ntfn].name);
    if (q->badge)
        fprintf(out, " badge=%" PRIu64, q->badge);
    for (int i = 0; i < q->n_at; i++)
        fprintf(out, "%s%" PRIu64, i ? "," : " at=", q->at[i]);
    if (q->start)
        fprintf(out, " start=%" PRIu64, q->start);
    if (q->period)
        fprintf(out, " period=%" PRIu64, q->period);
    fprintf(out, "\n");
}

static void wl_print_gic(FILE *out, const struct workload *w)
{
    if (wl_gic_default(w))
        return;
    const char *by_rank[WL_GIC_KINDS];
    for (int k = 0; k < WL_GIC_KINDS; k++)
        by_rank[w->gic_rank[k]] = gic_kind_names[k];
    fprintf(out, "gic_order %s,%s,%s\n", by_rank[0], by_rank[1], by_rank[2]);
    if (w->gic_devices_reversed)
        fprintf(out, "gic_devices reversed\n");
}

void workload_print(FILE *out, const struct workload *w)
{
    fprintf(out, "# irqsim workload\nboard %s\nhorizon %" PRIu64 "\ntimer_irq %u\n", w->board, w->horizon,
            w->timer_irq);
    if (!cfg_kernel_is_default(w->kernel))
        fprintf(out, "kernel %s\n", cfg_kernel_name(w->kernel));
    if (w->hyp)
        fprintf(out, "hyp 1\n");
    if (!w->target->is_default)
        fprintf(out, "target %s\n", w->target->name);
    if (w->cores > 1)
        fprintf(out, "cores %u\n", w->cores);
    if (w->signal_fastpath)
        fprintf(out, "signal_fastpath 1\n");
    if (w->entry_latency)
        fprintf(out, "entry_latency %" PRIu64 "\n", w->entry_latency);
    if (w->ipi_latency)
        fprintf(out, "ipi_latency %" PRIu64 "\n", w->ipi_latency);
    wl_print_gic(out, w);
    for (int i = 0; i < w->n_dom; i++)
        fprintf(out, "%s%u:%u", i ? "," : "domain_schedule ", w->dom[i].domain, w->dom[i].ms);
    if (w->n_dom)
        fprintf(out, "\n");
    for (int i = 0; i < w->n_ntfns; i++)
        fprintf(out, "ntfn %s\n", w->ntfns[i].name);
    for (int i = 0; i < w->n_eps; i++)
        fprintf(out, "ep %s\n", w->eps[i].name);
    for (int i = 0; i < w->n_replies; i++)
        fprintf(out, "reply %s\n", w->replies[i].name);
    for (int i = 0; i < w->n_scs; i++) {
        const struct wl_sc *s = &w->scs[i];
        fprintf(out, "sc %s", s->name);
        if (s->budget)
            fprintf(out, " budget=%" PRIu64 " period=%" PRIu64, s->budget, s->period);
        if (s->extra_refills)
            fprintf(out, " refills=%u", s->extra_refills);
        if (s->sporadic)
            fprintf(out, " sporadic=1");
        if (s->ntfn >= 0)
            fprintf(out, " ntfn=%s", w->ntfns[s->ntfn].name);
        if (s->core)
            fprintf(out, " core=%u", s->core);
        fprintf(out, "\n");
    }
    for (int i = 0; i < w->n_threads; i++)
        print_thread(out, w, &w->threads[i]);
    for (int i = 0; i < w->n_irqs; i++)
        print_irq(out, w, &w->irqs[i]);
}

/* ---- the workload fuzzer's generator ---- */

struct wl_src {
    const uint8_t *p;
    size_t n, i;
    const struct target *target; /* a target may draw its own entries too (target_sim) */
};

static unsigned take(struct wl_src *s, unsigned bound)
{
    unsigned v = s->i < s->n ? s->p[s->i] : (unsigned)(s->i * 7u + 3u);
    s->i++;
    return bound ? v % bound : 0;
}

static void gen_insn(struct wl_src *src, const struct workload *w, struct wl_insn *in, int pc, int self);

unsigned wl_take(struct wl_src *s, unsigned bound)
{
    return take(s, bound);
}

void wl_draw_insn(struct wl_src *src, const struct workload *w, struct wl_insn *in, int pc, int self)
{
    gen_insn(src, w, in, pc, self);
}

static void gen_sc(struct wl_src *src, struct workload *w, int i)
{
    struct wl_sc *s = &w->scs[i];
    snprintf(s->name, sizeof s->name, "sc%d", (uint8_t)i); /* i < n_scs, a uint8_t */
    s->ntfn = -1;
    s->budget = 200 + 400 * (ticks_t)take(src, 40);     /* >= MIN_BUDGET on every board */
    s->period = take(src, 3) == 0 ? s->budget : s->budget * (2 + take(src, 8));
    s->extra_refills = (uint8_t)take(src, 6);
    s->sporadic = take(src, 3) == 0;
    if (w->cores > 1)
        s->core = (uint8_t)take(src, w->cores);
}

/* instruction pc of thread self; the TCB invocations on other threads
 * come only with a second core (one-core byte streams keep their meaning),
 * and name a thread of an earlier line or self (the reader's rule) */
static void gen_insn(struct wl_src *src, const struct workload *w, struct wl_insn *in, int pc, int self)
{
    memset(in, 0, sizeof *in);
    in->a = in->b = -1;
    /* not unbind (keeps the generated workloads of a seed); the three TCB
     * invocations after it on two cores */
    unsigned v = take(src, w->cores > 1 ? OP_LOOP + 4 : OP_LOOP + 1);
    in->op = (uint8_t)(v <= OP_LOOP ? v : OP_SUSPEND + (v - OP_LOOP - 1));
    switch (in->op) {
    case OP_SUSPEND:
    case OP_RESUME:
        in->a = (int8_t)take(src, (unsigned)self + 1);
        return;
    case OP_PRIO:
        in->a = (int8_t)take(src, (unsigned)self + 1);
        in->n = take(src, 255);
        return;
    case OP_COMPUTE:
        in->n = 1 + 50 * (ticks_t)take(src, 200);
        return;
    case OP_SIGNAL:
        in->a = (int8_t)take(src, w->n_ntfns);
        if (src->target->sim.draw_insn) /* the target's own forms of it */
            src->target->sim.draw_insn(src, in);
        return;
    case OP_WAIT:
        in->a = (int8_t)take(src, w->n_ntfns);
        return;
    case OP_RECV:
        in->a = (int8_t)take(src, w->n_eps);
        in->b = (int8_t)(take(src, 2) ? (int)take(src, w->n_replies) : -1);
        return;
    case OP_ACK:
        in->n = w->irqs[take(src, w->n_irqs)].irq;
        return;
    case OP_LOOP:
        if (pc == 0)
            in->op = OP_YIELD;
        else
            in->n = take(src, (unsigned)pc);
        return;
    default:
        return;
    }
}

/* a server's program: receive on ep0 with reply r, then reply and receive
 * again (loop to 1) */
static bool is_server(const struct wl_thread *t)
{
    return t->n_prog == 3 && t->prog[0].op == OP_RECV && t->prog[1].op == OP_REPLY_RECV;
}

/* Thread i drawn as a passive server or a client of one (of those not
 * drawn as device drivers). A server (the first such thread, on an SC of
 * its own, above priority 199) receives on ep0 with reply r0 and
 * then answers with seL4_ReplyRecv. A client of an earlier server (two in
 * 3) first unbinds the server's SC, which the server, blocked receiving,
 * gives up (SchedContext_Unbind: it stays blocked, now passive, as a
 * passive server's initialiser makes it), then computes and calls, in a
 * loop (three in 4). Below the server's priority, so the server is
 * blocked first. */
bool wl_draw_ipc_thread(struct wl_src *src, struct workload *w, int i)
{
    struct wl_thread *t = &w->threads[i];
    int server = -1;
    for (int k = 0; k < i; k++)
        if (is_server(&w->threads[k]))
            server = k;
    if (server < 0) {
        if (i >= w->n_scs)
            return false;
        t->sc = (int8_t)i;
        t->prio = (uint8_t)(200 + take(src, 50));
        t->prog[0] = (struct wl_insn){.op = OP_RECV, .a = 0, .b = 0, .n = 0};
        t->prog[1] = (struct wl_insn){.op = OP_REPLY_RECV, .a = 0, .b = 0, .n = 0};
        t->prog[2] = (struct wl_insn){.op = OP_LOOP, .a = -1, .b = -1, .n = 1};
        t->n_prog = 3;
        return true;
    }
    if (take(src, 4) == 0)
        return false;
    t->prio = (uint8_t)take(src, 200);
    t->prog[0] = (struct wl_insn){.op = OP_UNBIND, .a = w->threads[server].sc, .b = -1, .n = 0};
    t->prog[1] = (struct wl_insn){.op = OP_COMPUTE, .a = -1, .b = -1, .n = 1 + 20 * (ticks_t)take(src, 200)};
    t->prog[2] = (struct wl_insn){.op = OP_CALL, .a = 0, .b = -1, .n = 0};
    t->prog[3] = (struct wl_insn){.op = OP_LOOP, .a = -1, .b = -1, .n = 1};
    t->n_prog = 4;
    return true;
}

static void gen_thread(struct wl_src *src, struct workload *w, int i)
{
    struct wl_thread *t = &w->threads[i];
    snprintf(t->name, sizeof t->name, "t%d", (uint8_t)i); /* i < n_threads, a uint8_t */
    t->prio = (uint8_t)(take(src, 4) == 0 ? 0 : take(src, 255));
    t->sc = (int8_t)(take(src, 4) == 0 || i >= w->n_scs ? -1 : i);
    t->timeout_ep = (int8_t)(take(src, 4) == 0 ? (int)take(src, w->n_eps) : -1);
    if (take(src, 2)) { /* a device driver: wait for the IRQ, work, ack, loop */
        const struct wl_irq *q = &w->irqs[take(src, w->n_irqs)];
        struct wl_insn *p = t->prog;
        p[0] = (struct wl_insn){.op = OP_WAIT, .a = q->ntfn, .b = -1, .n = 0};
        p[1] = (struct wl_insn){.op = OP_COMPUTE, .a = -1, .b = -1, .n = 1 + 20 * (ticks_t)take(src, 200)};
        p[2] = (struct wl_insn){.op = OP_ACK, .a = -1, .b = -1, .n = q->irq};
        t->n_prog = 3;
        if (take(src, 3) == 0) /* and something more */
            gen_insn(src, w, &t->prog[t->n_prog++], 3, i);
        p[t->n_prog++] = (struct wl_insn){.op = OP_LOOP, .a = -1, .b = -1, .n = 0};
        return;
    }
    if (src->target->sim.draw_thread && src->target->sim.draw_thread(src, w, i))
        return;
    t->n_prog = (uint8_t)(1 + take(src, 6));
    for (int k = 0; k < t->n_prog; k++)
        gen_insn(src, w, &t->prog[k], k, i);
}

static void gen_irq(struct wl_src *src, struct workload *w, int q)
{
    struct wl_irq *x = &w->irqs[q];
    x->irq = (uint16_t)(32 + q);
    x->ntfn = (int8_t)take(src, w->n_ntfns);
    x->badge = 1u << q;
    if (take(src, 2)) {
        x->start = 1 + 100 * (ticks_t)take(src, 100);
        x->period = 1000 + 500 * (ticks_t)take(src, 100);
        return;
    }
    x->n_at = (uint8_t)(1 + take(src, 4));
    for (int k = 0; k < x->n_at; k++)
        x->at[k] = (k ? x->at[k - 1] : 0) + 1 + 200 * (ticks_t)take(src, 250);
}

/* line q takes IRQ number irq, and so do the acks naming it; false (and
 * nothing changes) when irq is the timer's or another line's */
static bool renumber_irq(struct workload *w, int q, int irq)
{
    for (int i = 0; i < w->n_irqs; i++)
        if (w->irqs[i].irq == irq)
            return false;
    if (irq == w->timer_irq || (w->hyp && (irq == INTERRUPT_VTIMER_EVENT || irq == INTERRUPT_VGIC_MAINTENANCE)))
        return false;
    int old = w->irqs[q].irq;
    w->irqs[q].irq = (uint16_t)irq;
    for (int t = 0; t < w->n_threads; t++)
        for (int k = 0; k < w->threads[t].n_prog; k++)
            if (w->threads[t].prog[k].op == OP_ACK && w->threads[t].prog[k].n == (ticks_t)old)
                w->threads[t].prog[k].n = (ticks_t)irq;
    return true;
}

/* The configuration's edges the searches tally (situation.h), drawn last
 * so the draws before stay as they were, each in a fixed share of the
 * workloads (docs/workload-format.md, "The workload fuzzer's draws"):
 * an SC whose budget is exactly MIN_BUDGET (valid: SchedControl_Configure
 * refuses budget < MIN_BUDGET only, src/object/schedcontrol.c), its period
 * the same multiple of it; and a device IRQ at an edge of the valid range,
 * by gen.c's rule (gen_irq_edge). An IRQ above maxIRQ is not drawn: the
 * kernel never enables one (docs/workload-format.md). */
static void gen_edges(struct wl_src *src, struct workload *w)
{
    struct ks_config c;
    if (cfg_preset(&c, w->board) != 0)
        return;
    c.smp = w->cores > 1;
    if (take(src, WL_GEN_MIN_BUDGET_ONE_IN) == 0) {
        /* a thread's SC, which runs on it (else any) */
        int t = (int)take(src, w->n_threads);
        struct wl_sc *s = &w->scs[w->threads[t].sc >= 0 ? w->threads[t].sc : (int)take(src, w->n_scs)];
        ticks_t multiple = s->period / s->budget;
        s->budget = c.min_budget;
        s->period = c.min_budget * multiple;
    }
    if (take(src, WL_GEN_IRQ_EDGE_ONE_IN) == 0) {
        int q = (int)take(src, w->n_irqs);
        renumber_irq(w, q, gen_irq_edge(&c, take(src, GEN_IRQ_EDGES)));
    }
}

/* The GIC's order among interrupts pending at once (workload.h,
 * gic_rank), any of the six orders of the three kinds and either order of
 * the device lines, in a fixed share of the workloads; drawn last, so the
 * draws before stay as they were */
static void gen_gic_order(struct wl_src *src, struct workload *w)
{
    static const uint8_t orders[6][WL_GIC_KINDS] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    if (take(src, WL_GEN_GIC_ORDER_ONE_IN) != 0)
        return;
    memcpy(w->gic_rank, orders[take(src, 6)], sizeof w->gic_rank);
    w->gic_devices_reversed = take(src, 2) == 1;
}

/* Thread g (drawn as every thread is) made a guest: a VCPU with list
 * registers as VCPU_InjectIRQ leaves them (each virqType, with or
 * without EOI maintenance) and the VMM's endpoint as its fault handler;
 * one instruction of its program that is not a loop becomes the guest's
 * EOI of a list register, so that the VGIC's maintenance interrupt comes
 * while it runs. */
static void gen_guest(struct wl_src *src, struct workload *w, int g, int fep)
{
    struct wl_thread *t = &w->threads[g];
    t->vcpu = true;
    t->fault_ep = (int8_t)fep;
    t->n_lr = (uint8_t)take(src, 5);
    for (int i = 0; i < t->n_lr; i++)
        t->lr[i] = (uint8_t)take(src, VGIC_LR_TYPE + VGIC_LR_EOI + 1);
    int k = (int)take(src, t->n_prog);
    if (t->n_lr && t->prog[k].op != OP_LOOP && take(src, 2))
        t->prog[k] = (struct wl_insn){.op = OP_VEOI, .a = -1, .b = -1, .n = take(src, t->n_lr)};
}

/* The VMM: on the guests' fault endpoint with its own reply object, at a
 * priority above or below theirs, on its own SC or passive (the fault IPC
 * then donates the guest's SC, faulthandler.c:18); for each fault it acks
 * the VPPI of a guest or not, may compute, and replies. */
static void gen_vmm(struct wl_src *src, struct workload *w, int fep, int rv, int guest)
{
    int i = w->n_threads++;
    struct wl_thread *t = &w->threads[i];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "vmm");
    t->prio = (uint8_t)(take(src, 4) ? 200 : 50);
    t->timeout_ep = t->fault_ep = -1;
    t->sc = -1;
    if (take(src, 3) && w->n_scs < WL_MAX_SCS) {
        int s = w->n_scs++;
        gen_sc(src, w, s);
        snprintf(w->scs[s].name, KS_NAME_LEN, "vsc");
        t->sc = (int8_t)s;
    }
    struct wl_insn *p = t->prog;
    int n = 0;
    p[n++] = (struct wl_insn){.op = OP_RECV, .a = (int8_t)fep, .b = (int8_t)rv};
    int top = n;
    if (take(src, 4))
        p[n++] = (struct wl_insn){.op = OP_ACK_VPPI, .a = (int8_t)guest, .b = -1};
    if (take(src, 3) == 0)
        p[n++] = (struct wl_insn){.op = OP_COMPUTE, .a = -1, .b = -1, .n = 1 + 50 * (ticks_t)take(src, 100)};
    p[n++] = (struct wl_insn){.op = OP_REPLY_RECV, .a = (int8_t)fep, .b = (int8_t)rv};
    p[n++] = (struct wl_insn){.op = OP_LOOP, .a = -1, .b = -1, .n = (ticks_t)top};
    t->n_prog = (uint8_t)n;
}

/* a vtimer line (core 0's), its arrivals drawn as a device line's (gen_irq) */
static struct wl_irq *gen_vtimer(struct wl_src *src, struct workload *w)
{
    struct wl_irq *x = &w->irqs[w->n_irqs];
    memset(x, 0, sizeof *x);
    gen_irq(src, w, w->n_irqs++);
    x->irq = INTERRUPT_VTIMER_EVENT;
    x->vtimer = true;
    x->ntfn = -1;
    x->badge = 0;
    return x;
}

/* A hypervisor build (workload_from_bytes' vcpus): one or two guests
 * among the threads drawn, their VMM, and the guest's virtual timer
 * firing at drawn times or periodically; drawn after everything else, and
 * nothing drawn without it. On two cores the guests run where their SCs
 * were drawn, and the virtual timer is a drawn core's, or (one in two)
 * each core's (the PPI is banked per core: vtimer core=). */
static void gen_hyp(struct wl_src *src, struct workload *w)
{
    for (int q = 0; q < w->n_irqs; q++) /* an edge drawn on the PPIs a hypervisor build takes */
        for (int id = 40; w->irqs[q].irq >= INTERRUPT_VGIC_MAINTENANCE && w->irqs[q].irq <= INTERRUPT_VTIMER_EVENT;
             id++)
            renumber_irq(w, q, id);
    w->hyp = true;
    w->timer_irq = WL_HYP_TIMER_IRQ;
    int fep = w->n_eps++, rv = w->n_replies++;
    snprintf(w->eps[fep].name, KS_NAME_LEN, "fep");
    snprintf(w->replies[rv].name, KS_NAME_LEN, "rv");
    int guests = w->n_threads > 1 && take(src, 2) ? 2 : 1;
    for (int g = 0; g < guests; g++)
        gen_guest(src, w, g, fep);
    gen_vmm(src, w, fep, rv, (int)take(src, (unsigned)guests));
    struct wl_irq *x = gen_vtimer(src, w);
    if (w->cores == 1)
        return;
    x->core = (uint8_t)take(src, w->cores);
    if (w->n_irqs < WL_MAX_IRQS && take(src, 2) == 0)
        gen_vtimer(src, w)->core = (uint8_t)(1 - x->core);
}

int workload_from_bytes(const uint8_t *data, size_t len, int cores, const struct target *target, bool vcpus,
                        struct workload *w)
{
    struct wl_src src = {data, len, 0, target};
    workload_init(w);
    w->target = target;
    w->cores = (uint8_t)(cores > 1 ? KS_MAX_CORES : 1);
    w->horizon = 400000;
    w->n_ntfns = (uint8_t)(1 + take(&src, 3));
    w->n_eps = 1;
    w->n_replies = 2;
    w->n_scs = (uint8_t)(1 + take(&src, 4));
    w->n_irqs = (uint8_t)(1 + take(&src, 2));
    for (int i = 0; i < w->n_ntfns; i++)
        snprintf(w->ntfns[i].name, KS_NAME_LEN, "n%d", (uint8_t)i); /* i < n_ntfns, a uint8_t */
    snprintf(w->eps[0].name, KS_NAME_LEN, "ep0");
    for (int i = 0; i < w->n_replies; i++)
        snprintf(w->replies[i].name, KS_NAME_LEN, "r%d", (uint8_t)i);
    for (int i = 0; i < w->n_scs; i++)
        gen_sc(&src, w, i);
    for (int q = 0; q < w->n_irqs; q++)
        gen_irq(&src, w, q);
    if (take(&src, 3) == 0) /* a passive server: an SC on a notification */
        w->scs[w->n_scs - 1].ntfn = (int8_t)take(&src, w->n_ntfns);
    w->n_threads = (uint8_t)(1 + take(&src, 4));
    if (w->n_threads < target->sim.min_threads)
        w->n_threads = (uint8_t)target->sim.min_threads;
    for (int i = 0; i < w->n_threads; i++)
        gen_thread(&src, w, i);
    /* kernel entry latency (up to the kernel WCET, 10 us = 80 ticks on
     * every board the generator uses), and a domain schedule of two or
     * three entries */
    w->entry_latency = take(&src, 3) == 0 ? 0 : 1 + take(&src, 80);
    if (take(&src, 3) == 0 && w->cores == 1) { /* no domains on SMP (cfg_validate) */
        w->n_dom = (uint8_t)(2 + take(&src, 2));
        for (int i = 0; i < w->n_dom; i++)
            w->dom[i] = (struct wl_dom){.domain = (uint8_t)(i % 2), .ms = 1 + take(&src, 4)};
        for (int i = 0; i < w->n_threads; i++)
            w->threads[i].domain = (uint8_t)take(&src, 2);
    }
    /* last, so the draws above stay as they were: the kernel's own signal
     * fastpath beside an IRQ target's (its leftovers, issue 19) */
    w->signal_fastpath = !target->built && take(&src, 3) == 0;
    gen_edges(&src, w);
    gen_gic_order(&src, w);
    /* last again: on two cores, one workload in 3 has the GIC deliver a
     * reschedule IPI 1 to 40 ticks after the entry that sent it, so that
     * the core can make a system call (SYS_TICKS after its return) with
     * the IPI in flight: a state the kernel reaches (S10) */
    if (w->cores > 1 && take(&src, 3) == 0)
        w->ipi_latency = 1 + take(&src, 40);
    if (vcpus)
        gen_hyp(&src, w);
    return 0;
}
