/* scenario: reads the text ks_print() writes back into a kernel state.
 *
 * Three passes over the lines: pass 1 checks every directive, runs `board`
 * and creates every object by name in file order (so fields may name
 * objects defined further down); pass 2 fills in fields; pass 3 applies the
 * convenience forms (queue=, ready, release), which override raw links.
 * Bitmaps not given by a `bitmap` line are then derived from the queues. */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "kassert.h"
#include "print.h"
#include "scenfield.h"
#include "target.h"

#define MAX_TOKS 64
#define SHOW 40 /* longest token quoted in a message */
#define TOK(t) (int)((t).n < SHOW ? (t).n : SHOW), (t).s

struct tok {
    const char *s;
    size_t n;
};

struct line {
    int n;
    struct tok t[MAX_TOKS];
};

/* directives that may appear once */
enum {
    SEEN_BOARD = 1u << 0,
    SEEN_CONFIG = 1u << 1,
    SEEN_CLOCK = 1u << 2,
    SEEN_IRQ = 1u << 3,
    SEEN_NODE = 1u << 4,
    SEEN_DOMAIN = 1u << 5,
    SEEN_IPI = 1u << 6,
    SEEN_IRQS = 1u << 7,
    SEEN_OOR = 1u << 8,
    SEEN_SYSCALL = 1u << 9,
    SEEN_TARGET = 1u << 10,
    SEEN_VGIC = 1u << 11,
};

struct ctx {
    const char *text;
    size_t len;
    struct kstate *ks;
    struct scen_error *err;
    int line;                 /* line being read, for messages */
    unsigned seen;            /* SEEN_* */
    bool idle_named[2];       /* `tcb idle`, `sc idle_sc` met */
    bool core_seen[KS_MAX_CORES];
    bool vgic_core_seen[KS_MAX_CORES];
    bool bitmap_given[KS_MAX_CORES][KS_MAX_DOMAINS];
    bool irq_seen[KS_MAX_IRQS];
    bool vspace_given;        /* the node line's vspace key */
    bool schedule_given;      /* the domain line's schedule or schedule_ticks */
    int other_board_line;     /* a board that is no preset: its line (its config line must follow) */
    int syscall_line;         /* the syscall line, whose rule is checked on the whole state */
};

enum kind { K_TCB = SCEN_TCB, K_SC = SCEN_SC, K_NTFN = SCEN_NTFN, K_EP = SCEN_EP, K_REPLY = SCEN_REPLY, K_VCPU = SCEN_VCPU };
static const char *const kind_names[] = {"tcb", "sc", "ntfn", "ep", "reply", "vcpu"};
static const int kind_max[] = {KS_MAX_TCBS, KS_MAX_SCS, KS_MAX_NTFNS, KS_MAX_EPS, KS_MAX_REPLIES, KS_MAX_VCPUS};

/* ---- errors, tokens, numbers ---- */

__attribute__((format(printf, 2, 3))) static int fail(struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    va_end(ap);
    c->err->line = c->line;
    return -1;
}

static bool tok_is(struct tok t, const char *s)
{
    size_t n = strlen(s);
    return t.n == n && memcmp(t.s, s, n) == 0;
}

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* Splits the line at *pos into tokens, dropping a `#` comment. Returns 1
 * for a line, 0 at the end of the text, -1 on error. */
static int next_line(struct ctx *c, size_t *pos, struct line *ln)
{
    if (*pos >= c->len)
        return 0;
    const char *p = c->text + *pos;
    const char *nl = memchr(p, '\n', c->len - *pos);
    const char *end = nl ? nl : c->text + c->len;
    *pos = (size_t)(end - c->text) + 1;
    c->line++;
    ln->n = 0;
    while (p < end && *p != '#') {
        if (is_space(*p)) {
            p++;
            continue;
        }
        if (ln->n == MAX_TOKS)
            return fail(c, "more than %d fields on one line", MAX_TOKS);
        const char *s = p;
        while (p < end && !is_space(*p) && *p != '#')
            p++;
        ln->t[ln->n++] = (struct tok){s, (size_t)(p - s)};
    }
    return 1;
}

enum { NUM_OK, NUM_BAD, NUM_BIG };

static int digit_val(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return 99;
}

/* Decimal, or hexadecimal after 0x; no sign. */
static int read_u64(struct tok t, uint64_t *out)
{
    unsigned base = 10;
    size_t i = 0;
    if (t.n > 2 && t.s[0] == '0' && (t.s[1] == 'x' || t.s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i == t.n)
        return NUM_BAD;
    uint64_t v = 0;
    for (; i < t.n; i++) {
        unsigned d = (unsigned)digit_val(t.s[i]);
        if (d >= base)
            return NUM_BAD;
        if (v > (UINT64_MAX - d) / base)
            return NUM_BIG;
        v = v * base + d;
    }
    *out = v;
    return NUM_OK;
}

static int parse_num(struct ctx *c, const char *what, const char *key, struct tok v, uint64_t max,
                     uint64_t *out)
{
    int r = read_u64(v, out);
    if (r == NUM_BAD)
        return fail(c, "%s: bad number '%.*s' for %s", what, TOK(v), key);
    if (r == NUM_BIG || *out > max)
        return fail(c, "%s: %s=%.*s out of range (0..%" PRIu64 ")", what, key, TOK(v), max);
    return 0;
}

/* Next item of a sep-separated list; false when none is left. */
static bool next_item(struct tok *rest, char sep, struct tok *item)
{
    if (!rest->s)
        return false;
    const char *e = memchr(rest->s, sep, rest->n);
    if (!e) {
        *item = *rest;
        rest->s = NULL;
        return true;
    }
    *item = (struct tok){rest->s, (size_t)(e - rest->s)};
    rest->n -= item->n + 1;
    rest->s = e + 1;
    return true;
}

/* "a:b" with a <= max_a, b <= max_b */
static int parse_pair(struct ctx *c, const char *what, const char *key, struct tok item, uint64_t max_a,
                      uint64_t max_b, uint64_t *a, uint64_t *b)
{
    const char *colon = memchr(item.s, ':', item.n);
    if (!colon)
        return fail(c, "%s: %s entry '%.*s' is not of the form A:B", what, key, TOK(item));
    struct tok ta = {item.s, (size_t)(colon - item.s)};
    struct tok tb = {colon + 1, item.n - ta.n - 1};
    if (parse_num(c, what, key, ta, max_a, a))
        return -1;
    return parse_num(c, what, key, tb, max_b, b);
}

static int arity(struct ctx *c, const struct line *ln, int n, const char *usage)
{
    if (ln->n != n)
        return fail(c, "expected '%s'", usage);
    return 0;
}

static int once(struct ctx *c, unsigned bit, const char *directive)
{
    if (c->seen & bit)
        return fail(c, "duplicate '%s' line", directive);
    c->seen |= bit;
    return 0;
}

/* ---- objects ---- */

static uint8_t *obj_countp(struct kstate *ks, int k)
{
    switch (k) {
    case K_TCB: return &ks->n_tcbs;
    case K_SC: return &ks->n_scs;
    case K_NTFN: return &ks->n_ntfns;
    case K_EP: return &ks->n_eps;
    case K_VCPU: return &ks->n_vcpus;
    default: return &ks->n_replies;
    }
}

static void *obj_ptr(struct kstate *ks, int k, int i)
{
    switch (k) {
    case K_TCB: return &ks->tcbs[i];
    case K_SC: return &ks->scs[i];
    case K_NTFN: return &ks->ntfns[i];
    case K_EP: return &ks->eps[i];
    case K_VCPU: return &ks->vcpus[i];
    default: return &ks->replies[i];
    }
}

/* every object struct starts with its name */
static const char *obj_name(struct kstate *ks, int k, int i)
{
    return (const char *)obj_ptr(ks, k, i);
}

static int obj_add(struct kstate *ks, int k, const char *name)
{
    switch (k) {
    case K_TCB: return ks_add_tcb(ks, name);
    case K_SC: return ks_add_sc(ks, name);
    case K_NTFN: return ks_add_ntfn(ks, name);
    case K_EP: return ks_add_ep(ks, name);
    case K_VCPU: return ks_add_vcpu(ks, name);
    default: return ks_add_reply(ks, name);
    }
}

static int find_obj(struct kstate *ks, int k, struct tok name)
{
    int n = *obj_countp(ks, k);
    for (int i = 0; i < n; i++) {
        const char *s = obj_name(ks, k, i);
        if (strlen(s) == name.n && memcmp(s, name.s, name.n) == 0)
            return i;
    }
    return KS_NONE;
}

/* Object i back to the defaults ks_add_* gives, name kept: the idle thread
 * and SC come from ks_init with other values. Re-adding at index i keeps
 * the defaults in one place (kstate.c). */
static void obj_reset(struct kstate *ks, int k, int i)
{
    char name[KS_NAME_LEN];
    memcpy(name, obj_name(ks, k, i), sizeof name);
    uint8_t *count = obj_countp(ks, k);
    uint8_t saved = *count;
    *count = (uint8_t)i;
    obj_add(ks, k, name);
    *count = saved;
}

static bool name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '-';
}

static int check_name(struct ctx *c, int k, struct tok name)
{
    if (name.n >= KS_NAME_LEN)
        return fail(c, "%s name '%.*s' is longer than %d characters", kind_names[k], TOK(name), KS_NAME_LEN - 1);
    for (size_t i = 0; i < name.n; i++)
        if (!name_char(name.s[i]))
            return fail(c, "%s name '%.*s' has a character other than A-Z a-z 0-9 _ . -", kind_names[k],
                        TOK(name));
    if (tok_is(name, "-"))
        return fail(c, "%s name '-' is reserved for no object", kind_names[k]);
    if (k == K_TCB && (tok_is(name, "resume") || tok_is(name, "choose")))
        return fail(c, "tcb name '%.*s' is reserved for the scheduler action", TOK(name));
    return 0;
}

static int parse_ref(struct ctx *c, const char *what, const char *key, int k, struct tok v, int *out)
{
    if (tok_is(v, "-")) {
        *out = KS_NONE;
        return 0;
    }
    *out = find_obj(c->ks, k, v);
    if (*out == KS_NONE)
        return fail(c, "%s: %s=%.*s refers to an undefined %s", what, key, TOK(v), kind_names[k]);
    return 0;
}

/* ---- key=value fields ---- */

/* scenfield.h's tables, under the short names this file's tables use */
#define F_NUM SFK_NUM
#define F_BOOL SFK_BOOL
#define F_ENUM SFK_ENUM
#define F_REF SFK_REF
#define F_SPECIAL SFK_SPECIAL
#define NUM SF_NUM
#define FLAG SF_FLAG
#define ENUM SF_ENUM
#define REF SF_REF
#define SPECIAL SF_SPECIAL
#define NFIELDS SF_COUNT

static struct tok key_of(struct tok t)
{
    const char *eq = memchr(t.s, '=', t.n);
    return (struct tok){t.s, eq ? (size_t)(eq - t.s) : t.n};
}

static bool find_kv(const struct line *ln, int from, const char *key, struct tok *v)
{
    for (int i = from; i < ln->n; i++) {
        struct tok k = key_of(ln->t[i]);
        if (k.n < ln->t[i].n && tok_is(k, key)) {
            *v = (struct tok){k.s + k.n + 1, ln->t[i].n - k.n - 1};
            return true;
        }
    }
    return false;
}

static int need(struct ctx *c, const char *what, const struct line *ln, int from, const char *key)
{
    struct tok v;
    if (!find_kv(ln, from, key, &v))
        return fail(c, "%s: missing required %s=", what, key);
    return 0;
}

static const struct scen_field *find_field(const struct scen_field *fs, size_t nf, struct tok key)
{
    for (size_t i = 0; i < nf; i++)
        if (tok_is(key, fs[i].key))
            return &fs[i];
    return NULL;
}

static void store(void *base, const struct scen_field *f, uint64_t v)
{
    union {
        uint8_t b1;
        uint16_t b2;
        uint32_t b4;
        uint64_t b8;
    } u = {0};
    if (f->width == 1)
        u.b1 = (uint8_t)v;
    else if (f->width == 2)
        u.b2 = (uint16_t)v;
    else if (f->width == 4)
        u.b4 = (uint32_t)v;
    else
        u.b8 = v;
    memcpy((char *)base + f->off, &u, f->width);
}

static int parse_enum(struct ctx *c, const char *what, const struct scen_field *f, struct tok v, uint64_t *out)
{
    for (uint64_t i = 0; i <= f->max; i++)
        if (tok_is(v, f->names((int)i))) {
            *out = i;
            return 0;
        }
    return fail(c, "%s: unknown %s '%.*s'", what, f->key, TOK(v));
}

static int parse_field(struct ctx *c, const char *what, const struct scen_field *f, struct tok v, uint64_t *out)
{
    int idx;
    switch (f->kind) {
    case F_NUM:
    case F_BOOL: return parse_num(c, what, f->key, v, f->max, out);
    case F_ENUM: return parse_enum(c, what, f, v, out);
    default:
        if (parse_ref(c, what, f->key, (int)f->max, v, &idx))
            return -1;
        *out = (uint64_t)(int64_t)idx;
        return 0;
    }
}

static int check_key(struct ctx *c, const char *what, const struct line *ln, int from, int i)
{
    struct tok k = key_of(ln->t[i]);
    if (k.n == ln->t[i].n || k.n == 0)
        return fail(c, "%s: expected key=value, got '%.*s'", what, TOK(ln->t[i]));
    for (int j = from; j < i; j++)
        if (key_of(ln->t[j]).n == k.n && memcmp(ln->t[j].s, k.s, k.n) == 0)
            return fail(c, "%s: key '%.*s' given twice", what, TOK(k));
    return 0;
}

/* Applies fields ln->t[from..] to base; F_SPECIAL keys are left to the
 * caller, unknown and repeated keys are errors. */
static int apply_fields(struct ctx *c, const char *what, void *base, const struct scen_field *fs, size_t nf,
                        const struct line *ln, int from)
{
    for (int i = from; i < ln->n; i++) {
        if (check_key(c, what, ln, from, i))
            return -1;
        struct tok k = key_of(ln->t[i]);
        struct tok v = {k.s + k.n + 1, ln->t[i].n - k.n - 1};
        const struct scen_field *f = find_field(fs, nf, k);
        if (!f)
            return fail(c, "%s: unknown key '%.*s'", what, TOK(k));
        uint64_t val;
        if (f->kind == F_SPECIAL)
            continue;
        if (parse_field(c, what, f, v, &val))
            return -1;
        store(base, f, val);
    }
    return 0;
}

#define APPLY(c, what, base, tab, ln, from) apply_fields(c, what, base, tab, NFIELDS(tab), ln, from)

/* ---- field tables ---- */

static const struct scen_field config_fields[] = {
    NUM(struct ks_config, "timer_hz", timer_hz, UINT64_MAX),
    NUM(struct ks_config, "wcet_us", wcet_us, UINT32_MAX),
    NUM(struct ks_config, "wcet_scale", wcet_scale, UINT32_MAX),
    NUM(struct ks_config, "precision_us", precision_us, UINT32_MAX),
    NUM(struct ks_config, "overhead_ticks", overhead_ticks, UINT32_MAX),
    NUM(struct ks_config, "domains", num_domains, UINT32_MAX),
    NUM(struct ks_config, "max_irq", max_irq, UINT32_MAX),
    NUM(struct ks_config, "gic", gic_version, UINT8_MAX),
    FLAG(struct ks_config, "smp", smp),
    FLAG(struct ks_config, "fpu", fpu),
    FLAG(struct ks_config, "hyp", hyp),
    FLAG(struct ks_config, "signal_fastpath", signal_fastpath),
    ENUM(struct ks_config, "kernel", kernel, KS_KERNEL_COUNT, cfg_kernel_name),
    SPECIAL("features"),
};

static const struct scen_field node_fields[] = {
    REF(struct kstate, "cur", cur_thread, K_TCB),
    REF(struct kstate, "cur_sc", cur_sc, K_SC),
    REF(struct kstate, "idle", idle_thread, K_TCB),
    REF(struct kstate, "idle_sc", idle_sc, K_SC),
    SPECIAL("action"),
    NUM(struct kstate, "time", cur_time, UINT64_MAX),
    NUM(struct kstate, "consumed", consumed, UINT64_MAX),
    NUM(struct kstate, "deadline", deadline, UINT64_MAX),
    FLAG(struct kstate, "reprogram", reprogram),
    SPECIAL("vspace"),
};

static const struct scen_field domain_fields[] = {
    NUM(struct kstate, "cur", cur_domain, KS_MAX_DOMAINS - 1),
    NUM(struct kstate, "time", domain_time, UINT64_MAX),
    NUM(struct kstate, "idx", dom_idx, KS_MAX_DOM_SCHED - 1),
    NUM(struct kstate, "start", dom_start, KS_MAX_DOM_SCHED - 1),
    SPECIAL("schedule"),
    SPECIAL("schedule_ticks"),
};

static const struct scen_field ipi_fields[] = {
    NUM(struct kstate, "pending", ipi_pending, UINT8_MAX),
    NUM(struct kstate, "sent", ipi_sent, UINT8_MAX),
};

static const struct scen_field oor_fields[] = {
    NUM(struct kstate, "irq", oor_irq, KS_MAX_IRQS - 1),
    FLAG(struct kstate, "masked", oor_masked),
    NUM(struct kstate, "acks", oor_acks, UINT8_MAX),
    FLAG(struct kstate, "active", oor_active),
};

/* another core's VCPU and VGIC (a vgic_core line), as kstate.h's core_vcpu
 * and the fields beside it */
struct vgic_core_rec {
    int8_t cur;
    bool active, misr_eoi, vtimer_masked;
    uint64_t eisr;
};

static const struct scen_field vgic_core_fields[] = {
    REF(struct vgic_core_rec, "cur", cur, K_VCPU),
    FLAG(struct vgic_core_rec, "active", active),
    NUM(struct vgic_core_rec, "eisr", eisr, UINT64_MAX),
    FLAG(struct vgic_core_rec, "misr_eoi", misr_eoi),
    FLAG(struct vgic_core_rec, "vtimer_masked", vtimer_masked),
    SPECIAL("lr"),
};

/* another core's node state (core 0's is the node line) */
struct core_rec {
    int8_t cur, idle, release_head, sc, idle_sc, vspace;
    bool reprogram;
    ticks_t time, consumed, deadline;
    uint8_t ipi_pending; /* that core's ipiReschedulePending (ARCH_NODE_STATE) */
    uint32_t ppi_masked, ppi_active; /* that core's SGI and PPI enable and active bits */
};

static const struct scen_field core_fields[] = {
    REF(struct core_rec, "cur", cur, K_TCB),
    REF(struct core_rec, "idle", idle, K_TCB),
    FLAG(struct core_rec, "reprogram", reprogram),
    REF(struct core_rec, "release_head", release_head, K_TCB),
    REF(struct core_rec, "cur_sc", sc, K_SC),
    REF(struct core_rec, "idle_sc", idle_sc, K_SC),
    REF(struct core_rec, "vspace", vspace, K_TCB),
    NUM(struct core_rec, "time", time, UINT64_MAX),
    NUM(struct core_rec, "consumed", consumed, UINT64_MAX),
    NUM(struct core_rec, "deadline", deadline, UINT64_MAX),
    NUM(struct core_rec, "ipi_pending", ipi_pending, (1u << KS_MAX_CORES) - 1),
    NUM(struct core_rec, "ppi_masked", ppi_masked, UINT32_MAX),
    NUM(struct core_rec, "ppi_active", ppi_active, UINT32_MAX),
    SPECIAL("action"),
};

static const struct scen_field tcb_fields[] = {
    ENUM(struct ks_tcb, "state", state, TS_COUNT, ks_ts_name),
    NUM(struct ks_tcb, "prio", prio, KS_NUM_PRIOS - 1),
    NUM(struct ks_tcb, "dom", domain, KS_MAX_DOMAINS - 1),
    NUM(struct ks_tcb, "core", affinity, KS_MAX_CORES - 1),
    REF(struct ks_tcb, "sc", sc, K_SC),
    REF(struct ks_tcb, "bound", bound_ntfn, K_NTFN),
    SPECIAL("blocking"),
    REF(struct ks_tcb, "reply", reply, K_REPLY),
    FLAG(struct ks_tcb, "queued", queued),
    FLAG(struct ks_tcb, "in_release", in_release),
    REF(struct ks_tcb, "sched_next", sched_next, K_TCB),
    REF(struct ks_tcb, "sched_prev", sched_prev, K_TCB),
    REF(struct ks_tcb, "ep_next", ep_next, K_TCB),
    REF(struct ks_tcb, "ep_prev", ep_prev, K_TCB),
    ENUM(struct ks_tcb, "fault", fault, FAULT_COUNT, ks_fault_name),
    ENUM(struct ks_tcb, "lookup_fault", lookup_fault, LKF_COUNT, ks_lookup_fault_name),
    FLAG(struct ks_tcb, "timeout_handler", timeout_handler),
    REF(struct ks_tcb, "timeout_ep", timeout_ep, K_EP),
    FLAG(struct ks_tcb, "vtable", vtable_ok),
    FLAG(struct ks_tcb, "asid", asid_ok),
    FLAG(struct ks_tcb, "vmid", vmid_ok),
    FLAG(struct ks_tcb, "fpu_live", fpu_live),
    FLAG(struct ks_tcb, "fpu_disabled", fpu_disabled),
    NUM(struct ks_tcb, "badge", badge_reg, UINT64_MAX),
    NUM(struct ks_tcb, "ipc_badge", ipc_badge, UINT64_MAX),
    FLAG(struct ks_tcb, "ipc_grant", ipc_grant),
    FLAG(struct ks_tcb, "ipc_grant_reply", ipc_grant_reply),
    FLAG(struct ks_tcb, "ipc_call", ipc_call),
    REF(struct ks_tcb, "vcpu", vcpu, K_VCPU),
    REF(struct ks_tcb, "fault_ep", fault_ep, K_EP),
    SPECIAL("fault_lr"),
};

static const struct scen_field sc_fields[] = {
    NUM(struct ks_sc, "period", period, UINT64_MAX),
    NUM(struct ks_sc, "budget", budget, UINT64_MAX),
    NUM(struct ks_sc, "max", refill_max, KS_MAX_REFILLS),
    NUM(struct ks_sc, "head", head, KS_MAX_REFILLS - 1),
    NUM(struct ks_sc, "tail", tail, KS_MAX_REFILLS - 1),
    FLAG(struct ks_sc, "sporadic", sporadic),
    NUM(struct ks_sc, "core", core, KS_MAX_CORES - 1),
    REF(struct ks_sc, "tcb", tcb, K_TCB),
    REF(struct ks_sc, "ntfn", ntfn, K_NTFN),
    REF(struct ks_sc, "reply", reply, K_REPLY),
    NUM(struct ks_sc, "consumed", consumed, UINT64_MAX),
    NUM(struct ks_sc, "badge", badge, UINT64_MAX),
    SPECIAL("refills"),
};

static const struct scen_field ntfn_fields[] = {
    ENUM(struct ks_ntfn, "state", state, NTFN_COUNT, ks_ntfn_state_name),
    NUM(struct ks_ntfn, "msg", msg_id, UINT64_MAX),
    REF(struct ks_ntfn, "head", q_head, K_TCB),
    REF(struct ks_ntfn, "tail", q_tail, K_TCB),
    REF(struct ks_ntfn, "bound", bound_tcb, K_TCB),
    REF(struct ks_ntfn, "sc", sc, K_SC),
    SPECIAL("queue"),
};

static const struct scen_field ep_fields[] = {
    ENUM(struct ks_ep, "state", state, EP_COUNT, ks_ep_state_name),
    REF(struct ks_ep, "head", q_head, K_TCB),
    REF(struct ks_ep, "tail", q_tail, K_TCB),
    SPECIAL("queue"),
};

static const struct scen_field reply_fields[] = {
    REF(struct ks_reply, "tcb", tcb, K_TCB),
    REF(struct ks_reply, "prev", prev, K_REPLY),
    REF(struct ks_reply, "next", next, K_REPLY),
    REF(struct ks_reply, "sc_head", sc_head, K_SC),
};

static const struct scen_field vcpu_fields[] = {
    REF(struct ks_vcpu, "tcb", tcb, K_TCB),
    FLAG(struct ks_vcpu, "vppi_masked", vppi_masked),
    SPECIAL("lr"),
};

static const struct scen_field vgic_fields[] = {
    REF(struct kstate, "cur", cur_vcpu, K_VCPU),
    FLAG(struct kstate, "active", vcpu_active),
    NUM(struct kstate, "num_lr", vgic_num_lr, KS_VGIC_MAX_LRS),
    NUM(struct kstate, "eisr", vgic_eisr, UINT64_MAX),
    FLAG(struct kstate, "misr_eoi", vgic_misr_eoi),
    SPECIAL("lr"),
};

struct irq_rec {
    uint8_t state;
    bool masked;
    uint8_t acks;
    bool active;
    bool edge;
    uint8_t core;
    struct ks_irq_cap cap;
};

static const struct scen_field irqent_fields[] = {
    ENUM(struct irq_rec, "state", state, IRQ_STATE_COUNT, ks_irq_state_name),
    ENUM(struct irq_rec, "cap", cap.type, CAP_TYPE_COUNT, ks_cap_type_name),
    REF(struct irq_rec, "ntfn", cap.ntfn, K_NTFN),
    NUM(struct irq_rec, "badge", cap.badge, UINT64_MAX),
    FLAG(struct irq_rec, "send", cap.can_send),
    FLAG(struct irq_rec, "masked", masked),
    NUM(struct irq_rec, "acks", acks, UINT8_MAX),
    FLAG(struct irq_rec, "active", active),
    FLAG(struct irq_rec, "edge", edge),
    NUM(struct irq_rec, "core", core, KS_MAX_CORES - 1),
};

struct bitmap_rec {
    uint8_t core, dom;
    uint64_t l1;
};

static const struct scen_field bitmap_fields[] = {
    NUM(struct bitmap_rec, "core", core, KS_MAX_CORES - 1),
    NUM(struct bitmap_rec, "dom", dom, KS_MAX_DOMAINS - 1),
    NUM(struct bitmap_rec, "l1", l1, UINT64_MAX),
    SPECIAL("l2"),
};

static const struct scen_field assert_fields[] = {
    ENUM(struct ks_assert, "path", path, PATH_NORM + 1, ks_path_name),
};

struct queue_rec {
    uint8_t core, dom, prio;
};

static const struct scen_field ready_fields[] = {
    NUM(struct queue_rec, "core", core, KS_MAX_CORES - 1),
    NUM(struct queue_rec, "dom", dom, KS_MAX_DOMAINS - 1),
    NUM(struct queue_rec, "prio", prio, KS_NUM_PRIOS - 1),
    SPECIAL("queue"),
};

static const struct scen_field release_fields[] = {
    NUM(struct queue_rec, "core", core, KS_MAX_CORES - 1),
    SPECIAL("queue"),
};

struct kind_fields {
    const struct scen_field *f;
    size_t n;
};

static const struct kind_fields obj_fields[] = {
    {tcb_fields, NFIELDS(tcb_fields)},   {sc_fields, NFIELDS(sc_fields)},
    {ntfn_fields, NFIELDS(ntfn_fields)}, {ep_fields, NFIELDS(ep_fields)},
    {reply_fields, NFIELDS(reply_fields)}, {vcpu_fields, NFIELDS(vcpu_fields)},
};

/* ---- pass 1: board and object names ---- */

static int unknown_board(struct ctx *c, struct tok name, const char *more)
{
    char known[128] = "";
    for (int i = 0; cfg_preset_name(i); i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", cfg_preset_name(i));
    return fail(c, "unknown board '%.*s' (known: %s)%s", TOK(name), known, more);
}

/* A board name that may stand for a board without a preset: a kernel
 * platform's name (letters, digits, '-', '_') that fits ks_config.board. */
static bool board_name_ok(struct tok b)
{
    if (b.n == 0 || b.n >= sizeof(((struct ks_config *)0)->board))
        return false;
    for (size_t i = 0; i < b.n; i++)
        if (!isalnum((unsigned char)b.s[i]) && b.s[i] != '-' && b.s[i] != '_')
            return false;
    return true;
}

static int dir_board(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    char name[32] = "";
    if (arity(c, ln, 2, "board NAME") || once(c, SEEN_BOARD, "board"))
        return -1;
    struct tok b = ln->t[1];
    if (b.n >= sizeof name || memchr(b.s, '\0', b.n))
        return unknown_board(c, b, "");
    memcpy(name, b.s, b.n);
    if (ks_init(c->ks, name) == 0)
        return 0;
    /* a board that is no preset (a real kernel's platform, rockpro64: the
     * reproducers of `--real` runs on it) takes every constant from the
     * config line, which must follow (scenario_parse checks it) */
    if (!board_name_ok(b) || ks_init(c->ks, cfg_preset_name(0)) != 0)
        return unknown_board(c, b, "");
    memcpy(c->ks->cfg.board, b.s, b.n); /* board_name_ok: it fits, with its NUL */
    c->ks->cfg.board[b.n] = 0;
    c->other_board_line = c->line;
    return 0;
}

static int new_obj(struct ctx *c, const struct line *ln, int k)
{
    if (ln->n < 2)
        return fail(c, "%s: missing object name", kind_names[k]);
    struct tok name = ln->t[1];
    if (check_name(c, k, name))
        return -1;
    int i = find_obj(c->ks, k, name);
    if (i == 0 && k <= K_SC && !c->idle_named[k]) {
        c->idle_named[k] = true; /* ks_init's idle thread or SC */
        return 0;
    }
    if (i != KS_NONE)
        return fail(c, "duplicate %s name '%.*s'", kind_names[k], TOK(name));
    char buf[KS_NAME_LEN] = "";
    memcpy(buf, name.s, name.n);
    if (obj_add(c->ks, k, buf) == KS_NONE)
        return fail(c, "too many %s objects: '%.*s' is past the model's %d", kind_names[k], TOK(name),
                    kind_max[k]);
    return 0;
}

/* ---- pass 2: fields ---- */

static void describe(char *what, size_t n, int k, struct tok name)
{
    snprintf(what, n, "%s '%.*s'", kind_names[k], TOK(name));
}

/* blocking=NAME names a notification for BlockedOnNotification, else an
 * endpoint; blocking=stale:N is the stale object (of either kind, by
 * index) of a thread not blocked on an endpoint or notification. */
static int tcb_blocking(struct ctx *c, const char *what, struct ks_tcb *t, const struct line *ln)
{
    struct tok v;
    if (!find_kv(ln, 2, "blocking", &v))
        return 0;
    if (v.n > 6 && memcmp(v.s, "stale:", 6) == 0) {
        if (t->state == TS_BlockedOnNotification || t->state == TS_BlockedOnSend ||
            t->state == TS_BlockedOnReceive)
            return fail(c, "%s: blocking=stale:N only for a thread not blocked on an endpoint or notification",
                        what);
        int n = c->ks->n_ntfns > c->ks->n_eps ? c->ks->n_ntfns : c->ks->n_eps;
        uint64_t idx;
        if (n == 0)
            return fail(c, "%s: blocking=%.*s but there is no notification or endpoint", what, TOK(v));
        if (parse_num(c, what, "blocking=stale:", (struct tok){v.s + 6, v.n - 6}, (uint64_t)n - 1, &idx))
            return -1;
        t->blocking = (int8_t)idx;
        return 0;
    }
    int k = t->state == TS_BlockedOnNotification ? K_NTFN : K_EP;
    int b;
    if (parse_ref(c, what, "blocking", k, v, &b))
        return -1;
    t->blocking = (int8_t)b;
    return 0;
}

/* fault_lr=N: a VGICMaintenance fault's list register (left out: idxValid 0) */
static int tcb_fault_lr(struct ctx *c, const char *what, struct ks_tcb *t, const struct line *ln)
{
    struct tok v;
    uint64_t n;
    if (!find_kv(ln, 2, "fault_lr", &v))
        return 0;
    if (parse_num(c, what, "fault_lr", v, 63, &n)) /* an EISR bit */
        return -1;
    t->fault_lr = (int8_t)n;
    return 0;
}

/* lr=V,...: list registers 0..k-1 (VGIC_LR_* bits, 0..7), of a vcpu or the vgic line */
static int lr_list(struct ctx *c, const char *what, uint8_t *lr, const struct line *ln, int from)
{
    struct tok rest, item;
    if (!find_kv(ln, from, "lr", &rest))
        return 0;
    int n = 0;
    while (next_item(&rest, ',', &item)) {
        uint64_t v;
        if (n == KS_VGIC_MAX_LRS)
            return fail(c, "%s: lr= has more than the model's %d list registers", what, KS_VGIC_MAX_LRS);
        if (parse_num(c, what, "lr", item, VGIC_LR_TYPE | VGIC_LR_EOI, &v))
            return -1;
        lr[n++] = (uint8_t)v;
    }
    return 0;
}

/* refills=t:a,... fills slots 0..k-1 */
static int sc_refills(struct ctx *c, const char *what, struct ks_sc *s, const struct line *ln)
{
    struct tok rest, item;
    if (!find_kv(ln, 2, "refills", &rest))
        return 0;
    int r = 0;
    while (next_item(&rest, ',', &item)) {
        if (r == KS_MAX_REFILLS)
            return fail(c, "%s: refills= entry %d is beyond the model's %d refill slots", what, r, KS_MAX_REFILLS);
        if (parse_pair(c, what, "refills", item, UINT64_MAX, UINT64_MAX, &s->refills[r].time, &s->refills[r].amount))
            return -1;
        r++;
    }
    return 0;
}

static int fill_obj(struct ctx *c, const struct line *ln, int k)
{
    int i = find_obj(c->ks, k, ln->t[1]);
    char what[64];
    describe(what, sizeof what, k, ln->t[1]);
    obj_reset(c->ks, k, i);
    void *o = obj_ptr(c->ks, k, i);
    if (apply_fields(c, what, o, obj_fields[k].f, obj_fields[k].n, ln, 2))
        return -1;
    if (k == K_TCB)
        return tcb_blocking(c, what, o, ln) || tcb_fault_lr(c, what, o, ln);
    if (k == K_SC)
        return sc_refills(c, what, o, ln);
    if (k == K_VCPU)
        return lr_list(c, what, ((struct ks_vcpu *)o)->lr, ln, 2);
    return 0;
}

static int dir_config(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_CONFIG, "config") || APPLY(c, "config", &c->ks->cfg, config_fields, ln, 1))
        return -1;
    /* features=A+B|none: a tree between the versions (sim/config.h);
     * its kernel= names the nearer version */
    struct tok v;
    if (find_kv(ln, 1, "features", &v)) {
        ks_features mask;
        char why[80];
        if (cfg_features_parse(v.s, v.n, &mask, why, sizeof why))
            return fail(c, "config: features: %s", why);
        c->ks->cfg.features = mask == cfg_kernel_features(c->ks->cfg.kernel) ? 0 : mask;
    }
    /* validate first: cfg_derive divides by the timer frequency */
    const char *why = cfg_validate(&c->ks->cfg);
    if (why)
        return fail(c, "config: %s", why);
    cfg_derive(&c->ks->cfg);
    return 0;
}

/* vgic cur=V active=F num_lr=N eisr=X misr_eoi=F lr=...: core 0's VCPU
 * and its VGIC; an active VCPU is a loaded one (vcpu_switch) */
static int dir_vgic(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_VGIC, "vgic") || APPLY(c, "vgic", c->ks, vgic_fields, ln, 1) ||
        lr_list(c, "vgic", c->ks->vgic_lr, ln, 1))
        return -1;
    if (c->ks->vcpu_active && c->ks->cur_vcpu == KS_NONE)
        return fail(c, "vgic: active=1 needs cur= (armHSVCPUActive is set only with armHSCurVCPU)");
    return 0;
}

/* vgic_core K cur=V active=F eisr=X misr_eoi=F vtimer_masked=F lr=...:
 * core K's (K >= 1) VCPU and VGIC, and the mask of its own virtual timer
 * PPI; core 0's are the vgic line and irqent 27 */
static int dir_vgic_core(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct kstate *ks = c->ks;
    uint64_t k;
    if (ln->n < 2)
        return fail(c, "expected 'vgic_core K ...'");
    if (parse_num(c, "vgic_core", "core number", ln->t[1], KS_MAX_CORES - 1, &k))
        return -1;
    if (k == 0)
        return fail(c, "vgic_core 0: core 0's VCPU is the vgic line's");
    if (c->vgic_core_seen[k])
        return fail(c, "duplicate 'vgic_core %" PRIu64 "' line", k);
    c->vgic_core_seen[k] = true;
    struct vgic_core_rec r = {ks->core_vcpu[k], ks->core_vcpu_active[k], ks->core_vgic_misr_eoi[k],
                              ks->core_vtimer_masked[k], ks->core_vgic_eisr[k]};
    if (APPLY(c, "vgic_core", &r, vgic_core_fields, ln, 2) || lr_list(c, "vgic_core", ks->core_vgic_lr[k], ln, 2))
        return -1;
    if (r.active && r.cur == KS_NONE)
        return fail(c, "vgic_core: active=1 needs cur= (armHSVCPUActive is set only with armHSCurVCPU)");
    ks->core_vcpu[k] = r.cur;
    ks->core_vcpu_active[k] = r.active;
    ks->core_vgic_misr_eoi[k] = r.misr_eoi;
    ks->core_vtimer_masked[k] = r.vtimer_masked;
    ks->core_vgic_eisr[k] = r.eisr;
    return 0;
}

static int dir_clock(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    uint64_t v;
    if (arity(c, ln, 2, "clock N") || once(c, SEEN_CLOCK, "clock") ||
        parse_num(c, "clock", "clock", ln->t[1], UINT64_MAX, &v))
        return -1;
    c->ks->hw_clock = v;
    return 0;
}

static int dir_irq(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    uint64_t v;
    if (arity(c, ln, 2, "irq N|none") || once(c, SEEN_IRQ, "irq"))
        return -1;
    if (tok_is(ln->t[1], "none") || tok_is(ln->t[1], "-1")) {
        c->ks->active_irq = KS_IRQ_INVALID;
        return 0;
    }
    if (parse_num(c, "irq", "active IRQ", ln->t[1], KS_MAX_IRQS - 1, &v))
        return -1;
    c->ks->active_irq = (int32_t)v;
    return 0;
}

/* action=resume|choose|T, of the node line (from 1) or a core line (from 2) */
static int action_kv(struct ctx *c, const struct line *ln, int from, const char *what, int16_t *dst)
{
    struct tok v;
    int t;
    if (!find_kv(ln, from, "action", &v))
        return 0;
    if (tok_is(v, "resume") || tok_is(v, "choose")) {
        *dst = tok_is(v, "resume") ? KS_SA_RESUME : KS_SA_CHOOSE;
        return 0;
    }
    if (parse_ref(c, what, "action", K_TCB, v, &t))
        return -1;
    *dst = (int16_t)t;
    return 0;
}

static int node_action(struct ctx *c, const struct line *ln)
{
    return action_kv(c, ln, 1, "node", &c->ks->sched_action);
}

/* vspace=T|-: TTBR0; left out, what a switch to cur installs (set after
 * the passes, when cur's flags are known) */
static int node_vspace(struct ctx *c, const struct line *ln)
{
    struct tok v;
    int t;
    if (!find_kv(ln, 1, "vspace", &v))
        return 0;
    if (parse_ref(c, "node", "vspace", K_TCB, v, &t))
        return -1;
    c->ks->vspace = (int8_t)t;
    c->vspace_given = true;
    return 0;
}

static int dir_node(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_NODE, "node") || APPLY(c, "node", c->ks, node_fields, ln, 1))
        return -1;
    return node_action(c, ln) || node_vspace(c, ln);
}

/* schedule=D:MS,... (base's form: lengths in ms, converted with usToTicks
 * as base's nextDomain does) or schedule_ticks=D:TICKS,... (master's:
 * durations in ticks, 0:0 an end marker); read in the last pass, when the
 * config line has set the timer */
static int domain_schedule(struct ctx *c, const struct line *ln)
{
    struct tok rest, item;
    struct kstate *ks = c->ks;
    bool ms = find_kv(ln, 1, "schedule", &rest);
    struct tok tick_rest;
    if (find_kv(ln, 1, "schedule_ticks", &tick_rest)) {
        if (ms)
            return fail(c, "domain: give schedule= (ms) or schedule_ticks=, not both");
        rest = tick_rest;
    } else if (!ms) {
        return 0;
    }
    const char *key = ms ? "schedule" : "schedule_ticks";
    c->schedule_given = true;
    int n = 0;
    while (next_item(&rest, ',', &item)) {
        uint64_t d, len;
        if (n == KS_MAX_DOM_SCHED)
            return fail(c, "domain: %s= has more than %d entries", key, KS_MAX_DOM_SCHED);
        if (parse_pair(c, "domain", key, item, KS_MAX_DOMAINS - 1, ms ? UINT32_MAX : DSCHED_MAX_DURATION, &d, &len))
            return -1;
        ks->dom_sched[n++] = dschedule_make((unsigned)d, ms ? cfg_us_to_ticks(&ks->cfg, len * 1000) : len);
    }
    ks->dom_len = (uint8_t)n;
    return 0;
}

static int dir_domain(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    return once(c, SEEN_DOMAIN, "domain") || APPLY(c, "domain", c->ks, domain_fields, ln, 1);
}

static int dir_domain_schedule(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    return domain_schedule(c, ln);
}

static int dir_ipi(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_IPI, "ipi"))
        return -1;
    return APPLY(c, "ipi", c->ks, ipi_fields, ln, 1);
}

static int dir_irq_oor(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_OOR, "irq_oor") || need(c, "irq_oor", ln, 1, "irq"))
        return -1;
    return APPLY(c, "irq_oor", c->ks, oor_fields, ln, 1);
}

/* core_cur/core_idle/core_reprogram[0] are unused: core 0 is the node
 * line's state, and the writer prints only release_head for it. */
static int core0_keys(struct ctx *c, const struct line *ln)
{
    static const char *const node_keys[] = {"cur", "idle", "reprogram", "cur_sc", "idle_sc", "vspace",
                                            "time", "consumed", "deadline", "action", "ipi_pending", "ppi_masked",
                                            "ppi_active"};
    struct tok v;
    for (size_t i = 0; i < sizeof node_keys / sizeof node_keys[0]; i++)
        if (find_kv(ln, 2, node_keys[i], &v))
            return fail(c, "core 0: %s= is not allowed; core 0's is the %s line's", node_keys[i],
                        !strcmp(node_keys[i], "ipi_pending") ? "ipi"
                        : !strncmp(node_keys[i], "ppi_", 4)  ? "irqent"
                                                             : "node");
    return 0;
}

static int dir_core(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct kstate *ks = c->ks;
    uint64_t k;
    if (ln->n < 2)
        return fail(c, "expected 'core K ...'");
    if (parse_num(c, "core", "core number", ln->t[1], KS_MAX_CORES - 1, &k))
        return -1;
    if (c->core_seen[k])
        return fail(c, "duplicate 'core %" PRIu64 "' line", k);
    c->core_seen[k] = true;
    if (k == 0 && core0_keys(c, ln))
        return -1;
    struct core_rec r = {ks->core_cur[k], ks->core_idle[k], ks->release_head[k], ks->core_sc[k],
                         ks->core_idle_sc[k], ks->core_vspace[k], ks->core_reprogram[k], ks->core_time[k],
                         ks->core_consumed[k], ks->core_deadline[k], ks->core_ipi_pending[k],
                         ks->core_ppi_masked[k], ks->core_ppi_active[k]};
    if (APPLY(c, "core", &r, core_fields, ln, 2))
        return -1;
    ks->core_cur[k] = r.cur;
    ks->core_idle[k] = r.idle;
    ks->release_head[k] = r.release_head;
    ks->core_reprogram[k] = r.reprogram;
    ks->core_sc[k] = r.sc;
    ks->core_idle_sc[k] = r.idle_sc;
    ks->core_vspace[k] = r.vspace;
    ks->core_time[k] = r.time;
    ks->core_consumed[k] = r.consumed;
    ks->core_deadline[k] = r.deadline;
    ks->core_ipi_pending[k] = r.ipi_pending;
    ks->core_ppi_masked[k] = r.ppi_masked;
    ks->core_ppi_active[k] = r.ppi_active;
    return action_kv(c, ln, 2, "core", &ks->core_action[k]);
}

static int dir_irqs(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    uint64_t n;
    if (arity(c, ln, 2, "irqs N") || once(c, SEEN_IRQS, "irqs") ||
        parse_num(c, "irqs", "IRQ count", ln->t[1], KS_MAX_IRQS, &n))
        return -1;
    if (n > 0)
        ks_irq_touch(c->ks, (int)n - 1);
    return 0;
}

static int dir_irqent(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct kstate *ks = c->ks;
    uint64_t irq;
    if (ln->n < 2)
        return fail(c, "expected 'irqent IRQ ...'");
    if (parse_num(c, "irqent", "IRQ", ln->t[1], KS_MAX_IRQS - 1, &irq))
        return -1;
    if (c->irq_seen[irq])
        return fail(c, "duplicate 'irqent %" PRIu64 "' line", irq);
    c->irq_seen[irq] = true;
    ks_irq_touch(ks, (int)irq);
    struct irq_rec r;
    memset(&r, 0, sizeof r); /* padding too: ks_same compares bytes */
    r.cap.ntfn = KS_NONE;
    char what[32];
    snprintf(what, sizeof what, "irqent %" PRIu64, irq);
    if (APPLY(c, what, &r, irqent_fields, ln, 2))
        return -1;
    ks->irq_state[irq] = r.state;
    ks->irq_masked[irq] = r.masked;
    ks->irq_acks[irq] = r.acks;
    ks->irq_active[irq] = r.active;
    ks->irq_cfg[irq] = (uint8_t)((r.edge ? KS_IRQ_EDGE : 0) | r.core << KS_IRQ_CORE_SHIFT);
    memcpy(&ks->irq_cap[irq], &r.cap, sizeof r.cap);
    return 0;
}

static int bitmap_l2(struct ctx *c, const struct line *ln, uint64_t *l2)
{
    struct tok rest, item;
    int n = 0;
    if (!find_kv(ln, 1, "l2", &rest))
        return 0;
    while (next_item(&rest, ',', &item)) {
        if (n == KS_L2_SIZE)
            return fail(c, "bitmap: l2= has more than %d words", KS_L2_SIZE);
        if (parse_num(c, "bitmap", "l2", item, UINT64_MAX, &l2[n++]))
            return -1;
    }
    if (n != KS_L2_SIZE)
        return fail(c, "bitmap: l2= needs %d words, got %d", KS_L2_SIZE, n);
    return 0;
}

static int dir_bitmap(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct bitmap_rec r = {0, 0, 0};
    uint64_t l2[KS_L2_SIZE] = {0};
    if (need(c, "bitmap", ln, 1, "core") || need(c, "bitmap", ln, 1, "dom") ||
        APPLY(c, "bitmap", &r, bitmap_fields, ln, 1) || bitmap_l2(c, ln, l2))
        return -1;
    if (c->bitmap_given[r.core][r.dom])
        return fail(c, "duplicate 'bitmap core=%u dom=%u' line", r.core, r.dom);
    c->bitmap_given[r.core][r.dom] = true;
    c->ks->l1[r.core][r.dom] = r.l1;
    memcpy(c->ks->l2[r.core][r.dom], l2, sizeof l2);
    return 0;
}

static int dir_assert(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct kstate *ks = c->ks;
    struct ks_assert r = {.id = 0, .path = PATH_NONE};
    uint64_t id;
    if (ln->n < 2)
        return fail(c, "expected 'assert ID path=...'");
    if (parse_num(c, "assert", "assertion id", ln->t[1], A_COUNT - 1, &id) ||
        APPLY(c, "assert", &r, assert_fields, ln, 2))
        return -1;
    if (ks->n_asserts >= KS_MAX_ASSERTS)
        return fail(c, "assert %" PRIu64 ": more than %d assert lines", id, KS_MAX_ASSERTS);
    ks->asserts[ks->n_asserts].id = (uint16_t)id;
    ks->asserts[ks->n_asserts].path = r.path;
    ks->n_asserts++;
    return 0;
}

/* ---- pass 3: convenience queues ---- */

enum qmode { Q_IPC, Q_READY, Q_RELEASE };

struct qspec {
    int mode;              /* enum qmode */
    struct queue_rec want; /* Q_READY: where members must belong */
};

/* The members of queue=a,b,...: defined threads, each once. */
static int queue_members(struct ctx *c, const char *what, struct tok list, int8_t *m, int *n)
{
    bool seen[KS_MAX_TCBS] = {false};
    struct tok item;
    *n = 0;
    if (list.n == 0 || tok_is(list, "-"))
        return 0;
    while (next_item(&list, ',', &item)) {
        int t = find_obj(c->ks, K_TCB, item);
        if (t == KS_NONE)
            return fail(c, "%s: queue member '%.*s' is an undefined tcb", what, TOK(item));
        if (seen[t])
            return fail(c, "%s: tcb '%.*s' is in queue= twice", what, TOK(item));
        seen[t] = true;
        m[(*n)++] = (int8_t)t;
    }
    return 0;
}

static int check_ready(struct ctx *c, const char *what, const struct queue_rec *w, const struct ks_tcb *t)
{
    if (t->prio != w->prio || t->domain != w->dom || t->affinity != w->core)
        return fail(c, "%s: tcb '%s' has prio=%u dom=%u core=%u, not the queue's prio=%u dom=%u core=%u", what,
                    t->name, t->prio, t->domain, t->affinity, w->prio, w->dom, w->core);
    return 0;
}

/* Links the queue's members in order; *head and *tail (when given) get its
 * ends, KS_NONE for an empty queue. */
static int link_queue(struct ctx *c, const char *what, struct tok list, const struct qspec *q, int8_t *head,
                      int8_t *tail)
{
    int8_t m[KS_MAX_TCBS];
    int n;
    if (queue_members(c, what, list, m, &n))
        return -1;
    for (int i = 0; i < n; i++) {
        struct ks_tcb *t = &c->ks->tcbs[m[i]];
        if (q->mode == Q_READY && check_ready(c, what, &q->want, t))
            return -1;
        int8_t prev = i > 0 ? m[i - 1] : KS_NONE, next = i + 1 < n ? m[i + 1] : KS_NONE;
        *(q->mode == Q_IPC ? &t->ep_prev : &t->sched_prev) = prev;
        *(q->mode == Q_IPC ? &t->ep_next : &t->sched_next) = next;
        t->queued = t->queued || q->mode == Q_READY;
        t->in_release = t->in_release || q->mode == Q_RELEASE;
    }
    if (head)
        *head = n ? m[0] : KS_NONE;
    if (tail)
        *tail = n ? m[n - 1] : KS_NONE;
    return 0;
}

static int obj_queue(struct ctx *c, const struct line *ln, int k)
{
    struct tok v;
    if (!find_kv(ln, 2, "queue", &v))
        return 0;
    int i = find_obj(c->ks, k, ln->t[1]);
    char what[64];
    describe(what, sizeof what, k, ln->t[1]);
    struct qspec q = {Q_IPC, {0, 0, 0}};
    if (k == K_NTFN)
        return link_queue(c, what, v, &q, &c->ks->ntfns[i].q_head, &c->ks->ntfns[i].q_tail);
    return link_queue(c, what, v, &q, &c->ks->eps[i].q_head, &c->ks->eps[i].q_tail);
}

static int dir_ready(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct qspec q = {Q_READY, {0, 0, 0}};
    struct tok v;
    if (need(c, "ready", ln, 1, "core") || need(c, "ready", ln, 1, "dom") || need(c, "ready", ln, 1, "prio") ||
        need(c, "ready", ln, 1, "queue") || APPLY(c, "ready", &q.want, ready_fields, ln, 1))
        return -1;
    find_kv(ln, 1, "queue", &v);
    return link_queue(c, "ready", v, &q, NULL, NULL);
}

static int dir_release(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    struct qspec q = {Q_RELEASE, {0, 0, 0}};
    struct tok v;
    if (need(c, "release", ln, 1, "core") || need(c, "release", ln, 1, "queue") ||
        APPLY(c, "release", &q.want, release_fields, ln, 1))
        return -1;
    find_kv(ln, 1, "queue", &v);
    return link_queue(c, "release", v, &q, &c->ks->release_head[q.want.core], NULL);
}

/* "'syscall send cap=...'", one form per target with a line, into buf */
static const char *syscall_forms(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; target_at(i) && at < len; i++) {
        const struct target_line *l = target_at(i)->line;
        if (l)
            at += (size_t)snprintf(buf + at, len - at, "%s'syscall %s %s=...'", at ? " or " : "", l->keyword,
                                   l->required);
    }
    return buf;
}

/* `syscall KEYWORD key=value ...`: the state is at a system-call entry by
 * the current thread, the entry of the target whose line it is (its fields
 * and their rule: struct target_line) */
static int dir_syscall(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_SYSCALL, "syscall"))
        return -1;
    const struct target *t = ln->n >= 2 ? target_by_keyword(ln->t[1].s, ln->t[1].n) : NULL;
    if (!t) {
        char forms[120];
        return fail(c, "expected %s: the system calls modelled as entries", syscall_forms(forms, sizeof forms));
    }
    const struct target_line *l = t->line;
    struct ks_sysin *s = &c->ks->sys;
    if (need(c, "syscall", ln, 2, l->required) ||
        apply_fields(c, "syscall", s, l->fields, (size_t)l->n_fields, ln, 2))
        return -1;
    target_mark(t, c->ks);
    c->syscall_line = c->line;
    return 0;
}

/* The syscall line's rule (struct target_line misfit), once every line is
 * read: it names objects and IRQ table entries that later lines give.
 * Reported at the syscall line. */
static int syscall_fits(struct ctx *c)
{
    if (!(c->seen & SEEN_SYSCALL))
        return 0;
    char why[sizeof c->err->msg - 16];
    if (!target_of(c->ks)->line->misfit(c->ks, why, sizeof why))
        return 0;
    c->line = c->syscall_line;
    return fail(c, "syscall: %s", why);
}

/* `target NAME`: the state is an entry of the fastpath under check NAME,
 * where its entry kind has several (print.c writes the line only then);
 * read after the syscall line, which gives the entry kind */
static int dir_target(struct ctx *c, const struct line *ln, int arg)
{
    (void)arg;
    if (once(c, SEEN_TARGET, "target"))
        return -1;
    if (ln->n != 2)
        return fail(c, "expected 'target NAME'");
    const struct target *t = NULL;
    for (int i = 0; target_at(i); i++)
        if (tok_is(ln->t[1], target_at(i)->name))
            t = target_at(i);
    char names[80];
    if (!t)
        return fail(c, "target: unknown target '%.*s' (%s)", TOK(ln->t[1]), target_names(names, sizeof names, ""));
    if (t->entry != c->ks->sys.entry)
        return fail(c, "target: %s is an entry of kind %s, the state one of kind %s (its syscall line)", t->name,
                    ks_entry_name(t->entry), ks_entry_name(c->ks->sys.entry));
    target_mark(t, c->ks);
    return 0;
}

/* ---- driver ---- */

typedef int (*line_fn)(struct ctx *c, const struct line *ln, int arg);

struct directive {
    const char *name;
    int arg; /* object kind for object lines */
    line_fn pass[3];
};

static const struct directive directives[] = {
    {"board", 0, {dir_board, NULL, NULL}},
    {"config", 0, {NULL, dir_config, NULL}},
    {"clock", 0, {NULL, dir_clock, NULL}},
    {"irq", 0, {NULL, dir_irq, NULL}},
    {"node", 0, {NULL, dir_node, NULL}},
    {"domain", 0, {NULL, dir_domain, dir_domain_schedule}},
    {"core", 0, {NULL, dir_core, NULL}},
    {"ipi", 0, {NULL, dir_ipi, NULL}},
    {"irq_oor", 0, {NULL, dir_irq_oor, NULL}},
    {"syscall", 0, {NULL, dir_syscall, NULL}},
    {"target", 0, {NULL, NULL, dir_target}},
    {"tcb", K_TCB, {new_obj, fill_obj, NULL}},
    {"sc", K_SC, {new_obj, fill_obj, NULL}},
    {"ntfn", K_NTFN, {new_obj, fill_obj, obj_queue}},
    {"ep", K_EP, {new_obj, fill_obj, obj_queue}},
    {"reply", K_REPLY, {new_obj, fill_obj, NULL}},
    {"vcpu", K_VCPU, {new_obj, fill_obj, NULL}},
    {"vgic", 0, {NULL, dir_vgic, NULL}},
    {"vgic_core", 0, {NULL, dir_vgic_core, NULL}},
    {"irqs", 0, {NULL, dir_irqs, NULL}},
    {"irqent", 0, {NULL, dir_irqent, NULL}},
    {"bitmap", 0, {NULL, dir_bitmap, NULL}},
    {"assert", 0, {NULL, dir_assert, NULL}},
    {"ready", 0, {NULL, NULL, dir_ready}},
    {"release", 0, {NULL, NULL, dir_release}},
};

static const struct directive *find_directive(struct tok name)
{
    for (size_t i = 0; i < NFIELDS(directives); i++)
        if (tok_is(name, directives[i].name))
            return &directives[i];
    return NULL;
}

static int do_line(struct ctx *c, const struct line *ln, int pass)
{
    const struct directive *d = find_directive(ln->t[0]);
    if (!d)
        return fail(c, "unknown directive '%.*s'", TOK(ln->t[0]));
    if (!(c->seen & SEEN_BOARD) && d->pass[0] != dir_board)
        return fail(c, "the first directive must be 'board NAME', not '%.*s'", TOK(ln->t[0]));
    return d->pass[pass] ? d->pass[pass](c, ln, d->arg) : 0;
}

static int run_pass(struct ctx *c, int pass)
{
    struct line ln;
    size_t pos = 0;
    int r;
    c->line = 0;
    while ((r = next_line(c, &pos, &ln)) == 1)
        if (ln.n > 0 && do_line(c, &ln, pass))
            return -1;
    return r;
}

/* Bitmaps of (core, dom) pairs without a bitmap line, from the queued
 * threads as print_bitmaps() computes them; ks_init() zeroed them. */
static void derive_bitmaps(struct ctx *c)
{
    struct kstate *ks = c->ks;
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (!t->queued || c->bitmap_given[t->affinity][t->domain])
            continue;
        unsigned l1i = t->prio >> 6;
        ks->l1[t->affinity][t->domain] |= 1ull << l1i;
        ks->l2[t->affinity][t->domain][KS_L2_SIZE - 1 - l1i] |= 1ull << (t->prio & 63);
    }
}

/* A missing line is reported at the last line of the text. */
static int require(struct ctx *c, unsigned bit, const char *what)
{
    if (c->seen & bit)
        return 0;
    if (c->line == 0)
        c->line = 1;
    return fail(c, "missing required '%s' line", what);
}

int scenario_parse(const char *text, size_t len, const char *filename, struct kstate *out,
                   struct scen_error *err)
{
    struct ctx c;
    memset(&c, 0, sizeof c);
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", filename ? filename : "<input>");
    c.text = text;
    c.len = text ? len : 0;
    c.ks = out;
    c.err = err;
    if (run_pass(&c, 0) || require(&c, SEEN_BOARD, "board NAME"))
        return -1;
    if (run_pass(&c, 1) || require(&c, SEEN_NODE, "node"))
        return -1;
    if (c.other_board_line && !(c.seen & SEEN_CONFIG)) {
        c.line = c.other_board_line;
        struct tok b = {out->cfg.board, strlen(out->cfg.board)};
        return unknown_board(&c, b, "; a board without a preset needs a config line with its constants");
    }
    if (run_pass(&c, 2) || syscall_fits(&c))
        return -1;
    derive_bitmaps(&c);
    if (!c.schedule_given) /* ks_init's one entry, 10 ms of the timer the config line set */
        out->dom_sched[0] = dschedule_make(0, cfg_us_to_ticks(&out->cfg, 10 * 1000));
    if (!c.vspace_given)
        out->vspace = (int8_t)scen_vspace_default(out);
    return 0;
}

/* ---- files ---- */

char *scen_read_file(const char *path, struct scen_error *err, size_t *len)
{
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", path);
    return infile_read(path, SCEN_MAX_FILE, INFILE_STDIN, len, err->msg, sizeof err->msg);
}

/* Text has no NUL: the tokenizer would stop a word at it and report
 * something else ("unknown board 'imx8mm'"). -1 with the NUL's line. */
static int refuse_nul(const char *buf, size_t n, struct scen_error *err)
{
    const char *nul = memchr(buf, 0, n);
    if (!nul)
        return 0;
    err->line = 1;
    for (const char *p = buf; p < nul; p++)
        err->line += *p == '\n';
    snprintf(err->msg, sizeof err->msg, "a NUL byte (a scenario file is text)");
    return -1;
}

int scenario_load(const char *path, struct kstate *out, struct scen_error *err)
{
    size_t n = 0;
    char *buf = scen_read_file(path, err, &n);
    if (!buf)
        return -1;
    int rc = refuse_nul(buf, n, err);
    if (rc == 0)
        rc = scenario_parse(buf, n, path, out, err);
    free(buf);
    return rc;
}

void scen_error_print(FILE *f, const struct scen_error *e)
{
    fprintf(f, "%s:%d: %s\n", e->file, e->line, e->msg);
}
