/*
 * target_signal_entry: the signal target's entry, a SysSend by the current
 * thread (struct ks_sysin): its scenario line, the rule its inputs keep,
 * the generator's draw of them, the bounded enumeration's part (struct
 * exh_ops, exhaust.h), and how the workload simulator takes it (struct
 * target_sim).
 */
#include "target_signal.h"

#include <stdio.h>
#include <string.h>

#include "exhaust.h"
#include "gen.h"
#include "scenfield.h"
#include "sched.h"
#include "syscall.h"
#include "workload.h"

/* irq_core= as _GetTriggerCore's target word: a few values beyond the
 * cores, which the kernel refuses (an invalid argument) */
#define IRQ_CORE_WORD_MAX 7

static const struct scen_field sig_fields[] = {
    SF_ENUM(struct ks_sysin, "cap", cap, SCAP_COUNT, ks_sys_cap_name),
    SF_REF(struct ks_sysin, "ntfn", ntfn, SCEN_NTFN),
    SF_NUM(struct ks_sysin, "badge", badge, UINT64_MAX),
    SF_NUM(struct ks_sysin, "extra_caps", extra_caps, KS_MAX_EXTRA_CAPS),
    SF_NUM(struct ks_sysin, "extra_bad", extra_bad, (1u << KS_MAX_EXTRA_CAPS) - 1),
    SF_REF(struct ks_sysin, "tcb", tcb, SCEN_TCB),
    SF_NUM(struct ks_sysin, "domain", domain, UINT8_MAX),
    SF_NUM(struct ks_sysin, "clear", flags_clear, UINT8_MAX),
    SF_NUM(struct ks_sysin, "set", flags_set, UINT8_MAX),
    SF_NUM(struct ks_sysin, "length", length, KS_MSG_MAX_LENGTH),
    SF_REF(struct ks_sysin, "vcpu", vcpu, SCEN_VCPU),
    SF_NUM(struct ks_sysin, "mr0", mr0, UINT64_MAX),
    SF_NUM(struct ks_sysin, "irq", irq, KS_MAX_IRQS - 1),
    SF_ENUM(struct ks_sysin, "dest", dest, IRQD_COUNT, ks_irq_dest_name),
    SF_NUM(struct ks_sysin, "irq_core", irq_core, IRQ_CORE_WORD_MAX),
    SF_ENUM(struct ks_sysin, "method", irq_method, IRQM_COUNT, ks_irq_method_name),
    SF_NUM(struct ks_sysin, "trigger", trigger, 1),
};

/* An IRQ handler cap exists only for an IRQ in state IRQSignal: it is made
 * with that state (invokeIRQControl, src/object/interrupt.c:75-82 at
 * 1326364bc), and the state goes back to IRQInactive only when the last
 * handler cap is deleted (finaliseCap, src/object/objecttype.c: a final
 * cap_irq_handler_cap; deletedIRQHandler, interrupt.c) */
static bool irq_has_handler(const struct kstate *ks, int irq)
{
    return irq >= 0 && irq < ks->n_irqs && irq <= (int)ks->cfg.max_irq && ks->irq_state[irq] == IRQ_Signal;
}

/* the rule of an IRQ cap's fields (sig_misfit): a handler cap's IRQ is
 * in state Signal; the control cap may ask for any IRQ (the kernel refuses
 * one above maxIRQ or in use), into the destination slot dest, by any of
 * its labels (method=; trigger_core a label of two-core builds only, its
 * target core irq_core= never another core's PPI, whose IRQ table the
 * model does not hold) */
static const char *irq_cap_misfit(const struct kstate *ks, char *buf, size_t len)
{
    const struct ks_sysin *s = &ks->sys;
    if (!scap_is_irq(s->cap))
        snprintf(buf, len, "irq= is for cap=irq_ack|irq_set|irq_clear|irq_control");
    else if (s->dest && s->cap != SCAP_IRQ_CONTROL)
        snprintf(buf, len, "dest= is for cap=irq_control");
    else if ((s->irq_method || s->trigger) && s->cap != SCAP_IRQ_CONTROL)
        snprintf(buf, len, "method= and trigger= are for cap=irq_control");
    else if (s->trigger && s->irq_method == IRQM_GET)
        snprintf(buf, len, "trigger= is for method=trigger|trigger_core");
    else if (s->irq_method == IRQM_TRIGGER_CORE && !ks->cfg.smp)
        snprintf(buf, len, "method=trigger_core is a label of two-core builds only (ENABLE_SMP_SUPPORT)");
    else if (s->cap == SCAP_IRQ_CONTROL && s->irq_core && s->irq_method != IRQM_TRIGGER_CORE)
        snprintf(buf, len, "irq_core= on cap=irq_control is method=trigger_core's target core");
    else if (s->cap == SCAP_IRQ_CONTROL && s->irq_core && s->irq < KS_NUM_PPI && s->irq_core < KS_MAX_CORES)
        snprintf(buf, len, "irq_core=%u asks for core %u's PPI %d, whose IRQ table is not held (struct kstate core_ppi_masked)",
                 s->irq_core, s->irq_core, s->irq);
    else if (s->irq_core && s->cap != SCAP_IRQ_CONTROL &&
             !(s->cap == SCAP_IRQ_ACK && ks->cfg.smp && s->irq < KS_NUM_PPI && s->irq_core < KS_MAX_CORES))
        snprintf(buf, len, "irq_core= is for cap=irq_ack of a PPI (irq below %d) on two cores", KS_NUM_PPI);
    else if (s->irq_core && s->cap != SCAP_IRQ_CONTROL)
        return NULL; /* another core's IRQ table is not held (struct kstate core_ppi_masked) */
    else if (s->cap != SCAP_IRQ_CONTROL && !irq_has_handler(ks, s->irq))
        snprintf(buf, len, "cap=%s names IRQ %d, which is not in state Signal (of %u IRQs, maxIRQ %u): no handler cap exists for it",
                 ks_sys_cap_name(s->cap), s->irq, ks->n_irqs, ks->cfg.max_irq);
    else
        return NULL;
    return buf;
}

/* A notification cap (with or without Send) names its notification
 * (capNtfnPtr); a null cap and a failed lookup name none. The message's
 * unresolvable extra caps are among the extraCaps it names, at most
 * seL4_MsgMaxExtraCaps. The shrinker may delete the notification named. */
static const char *sig_misfit(const struct kstate *ks, char *buf, size_t len)
{
    const struct ks_sysin *s = &ks->sys;
    /* irq_set's notification is its extra cap 0's */
    bool ntfn_cap = s->cap == SCAP_NTFN || s->cap == SCAP_NTFN_NO_SEND || s->cap == SCAP_IRQ_SET;
    bool dom_cap = s->cap == SCAP_DOMAIN, tcb_cap = s->cap == SCAP_TCB, thread = dom_cap || tcb_cap;
    bool vcpu_cap = s->cap == SCAP_VCPU, irq_cap = scap_is_irq(s->cap);
    if (s->cap >= SCAP_SEND_KINDS && !thread && !vcpu_cap && !irq_cap)
        snprintf(buf, len,
                 "cap kind %s is not one a send line takes (ntfn, ntfn_no_send, null, lookup_fail, domain, tcb, vcpu, "
                 "irq_ack, irq_set, irq_clear, irq_control)",
                 ks_sys_cap_name(s->cap));
    else if ((irq_cap || s->irq || s->dest || s->irq_core || s->irq_method || s->trigger) &&
             irq_cap_misfit(ks, buf, len))
        return buf;
    else if (vcpu_cap != (s->vcpu != KS_NONE))
        snprintf(buf, len, "cap=%s %s", ks_sys_cap_name(s->cap),
                 vcpu_cap ? "needs vcpu= (the VCPU it invokes)" : "names no VCPU (vcpu= is for cap=vcpu)");
    else if (vcpu_cap && (s->vcpu < 0 || s->vcpu >= ks->n_vcpus))
        snprintf(buf, len, "cap=vcpu names VCPU %d of %u", s->vcpu, ks->n_vcpus);
    else if (!vcpu_cap && s->mr0)
        snprintf(buf, len, "mr0= is for cap=vcpu");
    else if (thread != (s->tcb != KS_NONE))
        snprintf(buf, len, "cap=%s %s", ks_sys_cap_name(s->cap),
                 thread ? "needs tcb= (the thread it invokes)" : "names no thread (tcb= is for cap=domain|tcb)");
    else if (thread && (s->tcb < 0 || s->tcb >= ks->n_tcbs || ks_is_idle(ks, s->tcb)))
        snprintf(buf, len, "cap=%s names thread %d of %u, or an idle thread (no user holds its cap)",
                 ks_sys_cap_name(s->cap), s->tcb, ks->n_tcbs);
    else if (!thread && !vcpu_cap && s->cap != SCAP_IRQ_CONTROL && s->length)
        snprintf(buf, len, "length= is for cap=domain|tcb|vcpu|irq_control");
    else if (!dom_cap && s->domain)
        snprintf(buf, len, "domain= is for cap=domain");
    else if (!tcb_cap && (s->flags_clear || s->flags_set))
        snprintf(buf, len, "clear= and set= are for cap=tcb");
    else if (ntfn_cap && s->ntfn == KS_NONE)
        snprintf(buf, len, "cap=%s needs ntfn=%s", ks_sys_cap_name(s->cap),
                 s->cap == SCAP_IRQ_SET ? " (extra cap 0's notification)" : "");
    else if (ntfn_cap && (s->ntfn < 0 || s->ntfn >= ks->n_ntfns))
        snprintf(buf, len, "cap=%s names notification %d of %u", ks_sys_cap_name(s->cap), s->ntfn, ks->n_ntfns);
    else if (!ntfn_cap && s->ntfn != KS_NONE)
        snprintf(buf, len, "cap=%s names no notification (ntfn= is for cap=ntfn|ntfn_no_send|irq_set)",
                 ks_sys_cap_name(s->cap));
    else if (s->extra_caps > KS_MAX_EXTRA_CAPS || (s->extra_bad >> s->extra_caps) != 0)
        snprintf(buf, len, "extra_bad=%#x names extra caps beyond extra_caps=%u (at most %d)", s->extra_bad,
                 s->extra_caps, KS_MAX_EXTRA_CAPS);
    else
        return NULL;
    return buf;
}

const struct target_line sig_line = {
    .keyword = "send",
    .required = "cap",
    .fields = sig_fields,
    .n_fields = (int)SF_COUNT(sig_fields),
    .misfit = sig_misfit,
};

/* A thread's seL4_Signal or seL4_Send on a notification in a workload
 * (sim/syscall.h CALL_Signal) */
bool sig_entry_call(const struct ks_call *c)
{
    return c->sys == SYS_Send && c->inv == CALL_Signal;
}

/* the registers and lookups of that SysSend (struct ks_sysin) */
void sig_set_inputs(struct kstate *ks, const struct ks_call *c)
{
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                .entry = ENTRY_SIGNAL, .cap = c->cap, .ntfn = (int8_t)c->ntfn, .ep = KS_NONE, .reply = KS_NONE,
                                .tcb = KS_NONE,
                                .extra_caps = c->extra_caps, .extra_bad = c->extra_bad, .badge = c->badge};
}

/* One seL4_Signal in 3 a seL4_Send with an extra cap, whose cptr does not
 * resolve in half of them (the slowpath's lookupExtraCaps, which
 * fastpath_signal never makes). */
void sig_draw_insn(struct wl_src *src, struct wl_insn *in)
{
    if (wl_take(src, 3) == 0) {
        in->op = OP_SEND;
        in->n = wl_take(src, 2);
    }
}

/* One thread in 2 (of those not drawn as device drivers) a signaller:
 * work, signal, maybe one more instruction, loop. */
bool sig_draw_thread(struct wl_src *src, struct workload *w, int i)
{
    struct wl_thread *t = &w->threads[i];
    if (!wl_take(src, 2))
        return false;
    struct wl_insn *p = t->prog;
    p[0] = (struct wl_insn){.op = OP_COMPUTE, .a = -1, .b = -1, .n = 1 + 20 * (ticks_t)wl_take(src, 200)};
    p[1] = (struct wl_insn){.op = OP_SIGNAL, .a = (int8_t)wl_take(src, w->n_ntfns), .b = -1, .n = 0};
    t->n_prog = 2;
    if (wl_take(src, 2) == 0)
        wl_draw_insn(src, w, &t->prog[t->n_prog++], 2, i);
    p[t->n_prog++] = (struct wl_insn){.op = OP_LOOP, .a = -1, .b = -1, .n = 0};
    return true;
}

enum sys_kind { SK_NTFN, SK_NO_SEND, SK_LOOKUP_FAIL, SK_NULL, SK_EXTRA_BAD, SK_EXTRA_OK };

/* t is another core's current thread (two cores) */
static bool runs_elsewhere(const struct kstate *ks, int t)
{
    for (int c = 1; c < ks_cores(ks); c++)
        if (ks->core_cur[c] == t)
            return true;
    return false;
}

/* the thread a DomainSet_Set moves: this core's FPU owner, the thread of
 * its loaded VCPU, the caller itself, or any other; never an idle thread,
 * whose cap no user holds. Never the thread another core runs (the caller
 * instead): DomainSet_Set takes no remoteTCBStall (master
 * src/object/domain.c:24-60, unlike decodeTCBInvocation, tcb.c:852), so
 * setDomain's SCHED_ENQUEUE queues that thread while it runs, a kernel
 * finding (docs/FINDINGS.md, "Not a divergence": K1) that would end every
 * two-core run; and TCB_SetFlags' remoteTCBStall of it is a remote call the
 * bridge does not run (real/glue/hk_glue.c) */
static int domain_set_thread(const struct kstate *ks, struct gen_src *src)
{
    int pick[4] = {KS_NONE, KS_NONE, ks->cur_thread, KS_NONE}, n = 0;
    for (int i = 0; i < ks->n_tcbs; i++)
        if (!ks_is_idle(ks, i)) {
            pick[0] = ks->tcbs[i].fpu_live && ks->tcbs[i].affinity == CUR_CORE ? i : pick[0];
            n++;
        }
    if (ks->cur_vcpu != KS_NONE)
        pick[1] = ks->vcpus[ks->cur_vcpu].tcb;
    int other = (int)gen_pick(src, (uint64_t)n);
    for (int i = 0; i < ks->n_tcbs && pick[3] == KS_NONE; i++)
        if (!ks_is_idle(ks, i) && other-- == 0)
            pick[3] = i;
    int t = pick[gen_pick(src, 4)];
    return t != KS_NONE && !runs_elsewhere(ks, t) ? t : pick[2];
}

/* A DomainSet_Set: a domain below numDomains (one in 8 the first above,
 * refused), a message of one word (one in 16 none: truncated), its thread
 * cap as extra cap 0 (one in 16 none). Not drawn: a thread of another
 * domain moved into the current one. setDomain asks for no preemption then (no
 * possibleSwitchTo, src/kernel/thread.c:493-503), so a higher thread may
 * stay ready beside a running lower one, which the user-level invariant
 * (`user`) does not admit (docs/FINDINGS.md, "Not a divergence"); that
 * thread's domain is drawn as it is instead (a move to its own domain). */
static void draw_domain_set(struct kstate *ks, struct gen_src *src)
{
    struct ks_sysin *s = &ks->sys;
    s->cap = SCAP_DOMAIN;
    s->tcb = (int8_t)domain_set_thread(ks, src);
    s->domain = (uint8_t)(gen_pick(src, 8) ? gen_pick(src, ks->cfg.num_domains) : ks->cfg.num_domains);
    if (s->domain == ks->cur_domain)
        s->domain = ks->tcbs[s->tcb].domain;
    s->length = (uint8_t)(gen_pick(src, 16) != 0);
    s->extra_caps = (uint8_t)(gen_pick(src, 16) != 0);
}

/* A TCB_SetFlags (trees with TCB flags, an FPU build): mostly
 * the caller's own flag, toggled (a flagged thread enabling its FPU is
 * what 78c3b11a0 fixed), else another thread's; one in 16 messages is one
 * word short (truncated) */
static void draw_set_flags(struct kstate *ks, struct gen_src *src)
{
    struct ks_sysin *s = &ks->sys;
    s->cap = SCAP_TCB;
    s->tcb = (int8_t)(gen_pick(src, 4) ? ks->cur_thread : domain_set_thread(ks, src));
    bool on = ks->tcbs[s->tcb].fpu_disabled;
    if (gen_pick(src, 4) == 0)
        on = !on; /* the flag written as it is */
    s->flags_clear = on ? 1 : 0;
    s->flags_set = on ? 0 : 1;
    s->length = (uint8_t)(gen_pick(src, 16) ? 2 : 1);
}

/* A VCPU_InjectIRQ (hypervisor builds): a quarter of them on the loaded
 * VCPU (the VGIC's own list register), the others on any VCPU: bound to a
 * thread of this core or of the other (a remote call on SMP), or to none
 * (what d26f1ff4d guarded: before it an SMP kernel read through NULL).
 * The list register one of the VGIC's; one message in 16 has a field out
 * of range (vid, priority, group or the list register: refused), one in
 * 16 no words (truncated); a list register the VCPU's copy holds active
 * is refused as the kernel refuses it. */
static void draw_inject_irq(struct kstate *ks, struct gen_src *src)
{
    struct ks_sysin *s = &ks->sys;
    s->cap = SCAP_VCPU;
    bool loaded = ks->cur_vcpu != KS_NONE && gen_pick(src, 4) == 0;
    s->vcpu = (int8_t)(loaded ? ks->cur_vcpu : (int)gen_pick(src, ks->n_vcpus));
    /* each field's first value out of range: vid, priority, group, the
     * list register (gic_vcpu_num_list_regs) */
    const uint64_t bound[4] = {1024, 32, 2, ks->vgic_num_lr};
    uint64_t f[4];
    for (int i = 0; i < 4; i++) /* in turn: an initializer's draws would be in no fixed order */
        f[i] = gen_pick(src, bound[i]);
    uint64_t bad = gen_pick(src, 16);
    if (bad < 4)
        f[bad] = bound[bad];
    s->mr0 = f[0] | f[1] << 16 | f[2] << 24 | f[3] << 32;
    s->length = (uint8_t)(gen_pick(src, 16) != 0);
}

/* the IRQs a handler cap may name (irq_has_handler): how many, and the
 * k-th */
static int handler_irqs(const struct kstate *ks, int k)
{
    int n = 0;
    for (int i = 0; i < ks->n_irqs; i++)
        if (irq_has_handler(ks, i) && n++ == k)
            return i;
    return k < 0 ? n : KS_NONE;
}

/* An IRQ control invocation: IRQControl_Get half of them, _GetTrigger a
 * quarter, and on two cores _GetTriggerCore a quarter (on one core
 * _GetTrigger then); any IRQ of the table (most are Inactive: the handler
 * cap is made; one in use is refused), one in 16 the first above maxIRQ
 * (a range error); its GIC configuration as loaded edge-triggered half the
 * time (not a GICv3 SGI's: setIRQTrigger leaves those), an SPI's target
 * core 1 on two cores a quarter; the trigger asked
 * for edge or level; the destination slot empty, one in 8 not found and
 * one in 8 holding a cap; one message in 16 a word short (truncated) and
 * one in 16 without its CNode cap, but never a _GetTriggerCore (the
 * kernel reads extra cap 0 unchecked there: kernel finding K3,
 * docs/FINDINGS.md; its length it does not check). _GetTriggerCore's
 * target: core 0 or 1 of an SPI, one in 8 core 2 (an invalid argument);
 * core 0 of an SGI or PPI (another core's PPI has an entry of that core's
 * IRQ table, which the model does not hold). */
static void draw_irq_control(struct kstate *ks, struct gen_src *src)
{
    static const uint8_t dests[8] = {IRQD_EMPTY, IRQD_EMPTY, IRQD_EMPTY, IRQD_EMPTY,
                                     IRQD_EMPTY, IRQD_EMPTY, IRQD_BAD,   IRQD_FULL};
    static const uint8_t methods[4] = {IRQM_GET, IRQM_GET, IRQM_TRIGGER, IRQM_TRIGGER_CORE};
    static const uint8_t words[IRQM_COUNT] = {3, 4, 5}; /* the message each label reads */
    struct ks_sysin *s = &ks->sys;
    s->cap = SCAP_IRQ_CONTROL;
    bool above = ks->n_irqs == 0 || gen_pick(src, 16) == 0;
    s->irq = (int16_t)(above ? ks->cfg.max_irq + 1 : gen_pick(src, ks->n_irqs));
    s->dest = dests[gen_pick(src, 8)];
    s->irq_method = methods[gen_pick(src, 4)];
    if (s->irq_method == IRQM_TRIGGER_CORE && !ks->cfg.smp)
        s->irq_method = IRQM_TRIGGER;
    s->length = (uint8_t)(words[s->irq_method] - (gen_pick(src, 16) == 0));
    s->extra_caps = (uint8_t)(s->irq_method == IRQM_TRIGGER_CORE || gen_pick(src, 16) != 0);
    if (s->irq_method != IRQM_GET)
        s->trigger = (uint8_t)gen_pick(src, 2);
    bool spi = s->irq >= KS_NUM_PPI;
    if (s->irq_method == IRQM_TRIGGER_CORE && spi)
        s->irq_core = (uint8_t)(gen_pick(src, 8) == 0 ? KS_MAX_CORES : gen_pick(src, KS_MAX_CORES));
    if (s->irq >= ks->n_irqs)
        return;
    unsigned core = ks->cfg.smp && spi && gen_pick(src, 4) == 0;
    unsigned edge = (ks->cfg.gic_version != 3 || s->irq >= KS_NUM_SGI) && gen_pick(src, 2);
    ks->irq_cfg[s->irq] = (uint8_t)(edge * KS_IRQ_EDGE | core << KS_IRQ_CORE_SHIFT);
}

/* An ack of core 1's PPI from this core (a remote call: ack_remote_ppi,
 * sim/irqhandler.c): one of INTID 16-23, which no configuration reserves
 * (the kernel's timers are 26 and 30, the virtual timer 27, the VGIC's
 * maintenance interrupt 25), its handler cap made by
 * IRQControl_GetTriggerCore; masked half the time (a tree that unmasks it
 * where it should deactivate it, a4b0c8d36, shows there). Never active:
 * on split EOI a PPI core 1 delivered stays active until this ack, but
 * master's remote deactivation deactivates INTID 0 instead (K2,
 * docs/FINDINGS.md), which would make every two-core GICv3 run report
 * it; tests/kernel-findings/k2-remote-ppi-deactivate.scen holds it. */
static void draw_remote_ppi_ack(struct kstate *ks, struct gen_src *src)
{
    struct ks_sysin *s = &ks->sys;
    s->irq = (int16_t)(16 + gen_pick(src, 8));
    s->irq_core = 1;
    if (gen_pick(src, 2))
        ks->core_ppi_masked[1] |= 1u << s->irq;
}

/* An IRQ binding invocation: IRQControl_Get a quarter of them (all where
 * no IRQ is in state Signal, draw_irq_control), else an invocation of an
 * IRQ handler cap of an IRQ in state Signal, its label one of three:
 * IRQHandler_Ack half of them (what the GIC's mask or active state of the
 * IRQ becomes: interrupt.c:133-165 at 1326364bc; on two cores a third of
 * them core 1's PPI, draw_remote_ppi_ack),
 * IRQHandler_SetNotification a quarter (the slot's cap replaced by a
 * notification cap with Send, any badge; one message in 16 without the
 * extra cap: truncated), IRQHandler_Clear a quarter. */
static void draw_irq_binding(struct kstate *ks, struct gen_src *src)
{
    static const uint8_t kinds[4] = {SCAP_IRQ_ACK, SCAP_IRQ_ACK, SCAP_IRQ_SET, SCAP_IRQ_CLEAR};
    struct ks_sysin *s = &ks->sys;
    int handled = handler_irqs(ks, -1);
    if (handled == 0 || gen_pick(src, 4) == 0) {
        draw_irq_control(ks, src);
        return;
    }
    s->irq = (int16_t)handler_irqs(ks, (int)gen_pick(src, (uint64_t)handled));
    s->cap = kinds[gen_pick(src, 4)];
    if (s->cap == SCAP_IRQ_ACK && ks->cfg.smp && gen_pick(src, 3) == 0) {
        draw_remote_ppi_ack(ks, src);
        return;
    }
    if (s->cap != SCAP_IRQ_SET)
        return;
    s->ntfn = (int8_t)gen_pick(src, ks->n_ntfns);
    s->badge = gen_pick(src, 256);
    s->extra_caps = (uint8_t)(gen_pick(src, 16) != 0);
}

/* VCPU_InjectIRQ is drawn on hypervisor builds, whose states have VCPUs */
static bool has_inject_irq(const struct kstate *ks)
{
    return ks->cfg.hyp && ks->n_vcpus > 0 && ks->vgic_num_lr > 0;
}

/* TCB_SetFlags is drawn on trees with TCB flags and an FPU: the one flag
 * (seL4_TCBFlag_fpuDisabled) is the FPU's */
static bool has_set_flags(const struct kstate *ks)
{
    return cfg_has(&ks->cfg, KF_TCB_FLAGS) && ks->cfg.fpu;
}

/* the invocations an empty slot's cap may be drawn as: a DomainSet cap, a
 * thread cap (trees with TCB flags), a VCPU cap (hypervisor builds), an
 * IRQ handler or the IRQ control cap */
static const struct {
    bool (*has)(const struct kstate *ks); /* NULL: every build */
    void (*draw)(struct kstate *ks, struct gen_src *src);
} slot_draws[] = {{NULL, draw_domain_set},
                  {has_set_flags, draw_set_flags},
                  {has_inject_irq, draw_inject_irq},
                  {NULL, draw_irq_binding}};

/* The SysSend's inputs, the cap the cptr resolves to drawn as
 * real/rk_sig.c draws it, in sixteenths: a notification cap 10, without
 * the send right 1, a lookup failure 1, an empty slot 1 (a fifth of it a
 * DomainSet cap, draw_domain_set, a fifth a thread cap, draw_set_flags,
 * where the tree has TCB flags, a fifth a VCPU cap, draw_inject_irq, on a
 * hypervisor build, and a fifth an IRQ handler or the IRQ control cap,
 * draw_irq_binding), a message naming
 * 1-3 extra caps of which some do not resolve 2, all resolve 1. Endpoint
 * caps are not drawn (not modelled, kstate.h). The notification is the
 * active IRQ's when its handler cap is one, else any. No IRQ is taken. */
static void sig_draw_send(struct kstate *ks, struct gen_src *src)
{
    static const uint8_t kinds[16] = {SK_NTFN, SK_NTFN, SK_NTFN,       SK_NTFN,      SK_NTFN,      SK_NTFN,
                                      SK_NTFN, SK_NTFN, SK_NTFN,       SK_NTFN,      SK_NO_SEND,   SK_LOOKUP_FAIL,
                                      SK_NULL, SK_EXTRA_BAD, SK_EXTRA_BAD, SK_EXTRA_OK};
    struct ks_sysin *s = &ks->sys;
    ks_sysin_clear(s);
    int kind = kinds[gen_pick(src, 16)];
    int irq = ks->active_irq;
    if (irq >= 0 && irq < ks->n_irqs && ks->irq_cap[irq].type == CAP_Notification) {
        s->ntfn = ks->irq_cap[irq].ntfn;
        s->badge = ks->irq_cap[irq].badge;
    } else {
        s->ntfn = (int8_t)gen_pick(src, ks->n_ntfns);
        s->badge = gen_pick(src, 256);
    }
    ks->active_irq = KS_IRQ_INVALID; /* a system call: no IRQ is taken */
    switch (kind) {
    case SK_NO_SEND: s->cap = SCAP_NTFN_NO_SEND; break;
    case SK_LOOKUP_FAIL: s->cap = SCAP_LOOKUP_FAIL; break;
    case SK_NULL: { /* a fifth of them each invocation of slot_draws, where the build has it */
        uint64_t k = gen_pick(src, 5);
        if (k < SF_COUNT(slot_draws) && (!slot_draws[k].has || slot_draws[k].has(ks)))
            slot_draws[k].draw(ks, src);
        else
            s->cap = SCAP_NULL;
        break;
    }
    case SK_EXTRA_BAD:
        s->extra_caps = (uint8_t)(1 + gen_pick(src, KS_MAX_EXTRA_CAPS));
        s->extra_bad = (uint8_t)(1 + gen_pick(src, (1u << s->extra_caps) - 1));
        break;
    case SK_EXTRA_OK: s->extra_caps = (uint8_t)(1 + gen_pick(src, KS_MAX_EXTRA_CAPS)); break;
    default: break;
    }
    if (s->cap != SCAP_NTFN && s->cap != SCAP_NTFN_NO_SEND && s->cap != SCAP_IRQ_SET) {
        s->ntfn = KS_NONE;
        s->badge = 0;
    }
}

/* about one state in six has the idle thread current: drawn anew */
int sig_gen_entry(struct kstate *ks, struct gen_src *src)
{
    if (gen_syscall_unfit(ks))
        return -1;
    sig_draw_send(ks, src);
    ks->sys.entry = ENTRY_SIGNAL;
    return 0;
}

/* a third VCPU_InjectIRQ on a hypervisor build; of the rest a quarter an
 * IRQ binding invocation (draw_irq_binding), then half
 * DomainSet_Set, half TCB_SetFlags where the tree has it; the notification
 * and IRQ the SysSend drew are dropped as sig_draw_send drops them for
 * these caps */
int sig_gen_invocation(struct kstate *ks, struct gen_src *src)
{
    uint8_t rank = ks->sys.target; /* target_mark's */
    ks_sysin_clear(&ks->sys);
    ks->sys.ntfn = KS_NONE;
    if (has_inject_irq(ks) && gen_pick(src, 3) == 0)
        draw_inject_irq(ks, src);
    else if (gen_pick(src, 4) == 0)
        draw_irq_binding(ks, src);
    else if (has_set_flags(ks) && gen_pick(src, 2))
        draw_set_flags(ks, src);
    else
        draw_domain_set(ks, src);
    ks->sys.entry = ENTRY_SIGNAL;
    ks->sys.target = rank;
    return 0;
}

/* ---- the enumeration's part (sig_exh) ---- */

/* the plan's entry dimensions (exh_plan entry): what the SysSend's cptr
 * resolves to (enum ks_sys_cap), and its message's extra caps (a
 * notification cap with Send): none, one whose cptr resolves, one whose
 * cptr does not (enum sig_extra, target_signal.h) */
#define P_SCAP(p) ((p)->entry[0])
#define P_EXTRA(p) ((p)->entry[1])

/* The caller of a SysSend: one that can make a system call (gen_syscall_unfit,
 * check_syscall_entry): never the idle thread, whose wfi loop makes none
 * (src/arch/arm/64/idle.S); exhaust.c's build_current makes it Running and
 * current with ResumeCurrentThread, as at every return to user level. */
static int send_current(struct exh_walk *w, int left)
{
    (void)left;
    return CUR_RR + exh_choose(w, CUR_KINDS - CUR_RR);
}

/* The SysSend's inputs, in the order both paths read them. The cap first:
 * fastpath_signal's lookup_fp and cap checks (fastpath.c:577-587) and the
 * slowpath's lookupCapAndSlot then decodeInvocation (syscall.c:320, 356)
 * tell four apart: a notification cap with Send, one without, a null cap
 * (lookup_fp gives it for an empty slot), a lookup failure (a cap fault;
 * lookup_fp gives a null cap too). Extra caps only with Send: the slowpath
 * reads them (lookupExtraCaps, syscall.c:335) after the cap lookup, so a
 * lookup failure never reaches them, and on a cap without Send or a null cap
 * both fastpaths fall back (fastpath.c:580-587; the fixed one earlier, at
 * its msg_info check) before anything changes: the same slowpath runs on
 * both sides. One extra cap that resolves and one that does not are the two
 * outcomes of lookupExtraCaps (more caps only repeat them). */
static void plan_sysin(struct exh_walk *w, struct exh_plan *p)
{
    P_SCAP(p) = exh_choose(w, SCAP_SEND_KINDS);
    P_EXTRA(p) = P_SCAP(p) == SCAP_NTFN ? exh_choose(w, XE_KINDS) : XE_NONE;
}

/* the values past the WCET window exist for the timer IRQ only: never a
 * SysSend */
static bool send_timer(const struct exh_plan *p)
{
    (void)p;
    return false;
}

/* A notification is signalled by the SysSend's cap with Send. */
static bool send_signals(const struct exh_plan *p)
{
    return P_SCAP(p) == SCAP_NTFN;
}

/* A notification object is named by the SysSend's notification cap (with
 * or without Send: its capNtfnPtr is valid either way). */
static bool send_names_ntfn(const struct exh_plan *p)
{
    return P_SCAP(p) == SCAP_NTFN || P_SCAP(p) == SCAP_NTFN_NO_SEND;
}

/* The SysSend: the svc takes no IRQ (c_handle_syscall reads none), so none
 * is active; badge 1 as the IRQ target's cap, so that an active
 * notification's word (msg_id 2) shows whether the badge was or-ed. */
static void build_sysin(struct kstate *ks, const struct exh_plan *p, int n)
{
    struct ks_sysin *s = &ks->sys;
    ks_sysin_clear(s);
    s->entry = ENTRY_SIGNAL;
    s->cap = (uint8_t)P_SCAP(p);
    s->ntfn = (int8_t)(n == KS_NONE ? KS_NONE : n);
    s->badge = n == KS_NONE ? 0 : 1;
    s->extra_caps = P_EXTRA(p) == XE_NONE ? 0 : 1;
    s->extra_bad = P_EXTRA(p) == XE_BAD ? 1 : 0;
    ks->active_irq = KS_IRQ_INVALID;
}

static const char *send_text(const struct exh_plan *p, char *buf, size_t len)
{
    static const char *const extra[] = {"0", "1_resolves", "1_unresolved"};
    snprintf(buf, len, "syscall=send cap=%s extra_caps=%s", ks_sys_cap_name(P_SCAP(p)), extra[P_EXTRA(p)]);
    return buf;
}

/* fastpath_signal compares the receiver with its core's current thread,
 * and never switches (fastpath.c:652-654) */
const struct exh_ops sig_exh = {send_current, plan_sysin, send_timer, send_signals, send_names_ntfn,
                                true, true, build_sysin, send_text};
