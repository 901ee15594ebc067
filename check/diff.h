/*
 * diff: the differential check. Runs the slowpath and a fastpath from
 * copies of one state, normalises lazy time accounting as the brief says,
 * and compares the outcomes field by field, grouped as scheduler, budget,
 * notification and interrupt. The verdict also carries the fastpath exit,
 * failed kernel assertions and invariants broken by either outcome.
 */
#ifndef IRQSIM_DIFF_H
#define IRQSIM_DIFF_H

#include <stdio.h>

#include "kstate.h"

enum diff_group { G_SCHED, G_BUDGET, G_NTFN, G_IRQ, G_CHECK, G_COUNT };

#define DIFF_FIELD_LIST(X) \
    X(DF_CUR_THREAD, G_SCHED, "current_thread") \
    X(DF_SCHED_ACTION, G_SCHED, "scheduler_action") \
    X(DF_READY_QUEUES, G_SCHED, "ready_queues") \
    X(DF_RELEASE_QUEUE, G_SCHED, "release_queue") \
    X(DF_THREAD_STATE, G_SCHED, "thread_state") \
    X(DF_DOMAIN, G_SCHED, "domain") \
    X(DF_ADDRESS_SPACE, G_SCHED, "address_space") \
    X(DF_FPU_OWNER, G_SCHED, "fpu_owner") \
    X(DF_CUR_SC, G_BUDGET, "current_sc") \
    X(DF_REFILLS, G_BUDGET, "refills") \
    X(DF_SC_CONSUMED, G_BUDGET, "sc_consumed") \
    X(DF_CONSUMED, G_BUDGET, "node_consumed") \
    X(DF_CUR_TIME, G_BUDGET, "current_time") \
    X(DF_DEADLINE, G_BUDGET, "timer_deadline") \
    X(DF_REPROGRAM, G_BUDGET, "reprogram_flag") \
    X(DF_OVERRUN, G_BUDGET, "unpayable_consumed") \
    X(DF_NTFN, G_NTFN, "notification") \
    X(DF_BADGE_REG, G_NTFN, "badge_register") \
    X(DF_TCB_SC, G_NTFN, "sc_binding") \
    X(DF_BLOCKING, G_NTFN, "blocking_object") \
    X(DF_EP, G_NTFN, "endpoint") \
    X(DF_REPLY, G_NTFN, "reply") \
    X(DF_IRQ_MASK, G_IRQ, "irq_mask") \
    X(DF_IRQ_ACK, G_IRQ, "irq_ack") \
    X(DF_IRQ_ACTIVE, G_IRQ, "irq_active") \
    X(DF_IPI, G_IRQ, "ipi") \
    X(DF_ASSERT, G_CHECK, "kernel_assert") \
    X(DF_INVARIANT, G_CHECK, "exit_invariant") \
    X(DF_VCPU, G_IRQ, "vcpu") \
    X(DF_IRQ_HANDLER, G_IRQ, "irq_handler") \
    X(DF_LOOKUP_FAULT, G_SCHED, "lookup_fault")

enum diff_field {
#define DF_ENUM(id, group, name) id,
    DIFF_FIELD_LIST(DF_ENUM)
#undef DF_ENUM
    DF_COUNT
};

const char *diff_field_name(int f);
int diff_field_group(int f);
const char *diff_group_name(int g);
/* Field names of a mask joined by '+', into buf ("none" when empty). */
const char *diff_fields_text(uint32_t mask, char *buf, size_t len);

struct diff_verdict {
    int exit;            /* fastpath exit taken */
    uint32_t fields;     /* DF_* bits that differ after normalisation */
    bool agree;          /* no field differs */
    uint8_t slow_asserts, fast_asserts;
    uint8_t slow_inv, fast_inv; /* exit invariants broken by each outcome */
    bool fast_overrun, slow_overrun; /* pending time the current SC cannot pay */
    ticks_t slow_time, fast_time; /* each outcome's ksCurTime before the normalisation */
    bool unread_clock;   /* SMP: the fastpath left the clock unread (diff_unread_clock_shows) */
};

/* Run both paths from in (which should satisfy the entry invariants) with
 * the given fastpath variant. slow and fast receive the normalised
 * outcomes. With check_invariants, both outcomes are also checked. */
/* On SMP, whether an outcome left the clock unread where the slowpath
 * read it: the normalisation may not stand in for it there (diff.c). */
bool diff_unread_clock_shows(const struct kstate *fast, ticks_t slow_cur_time);
/* The verdict on two outcomes of one entry state, slowpath's and
 * fastpath's (normalised in place): every field but the exit. */
/* The verdict differs in nothing but that the kernel's own outcome breaks
 * exit invariants or fails assertions, the fastpath's alike: the same
 * count of each, no other field (classify.h, CLASS_KERNEL). */
bool diff_kernel_own(const struct diff_verdict *v);
void diff_judge(struct kstate *slow, struct kstate *fast, bool check_invariants, struct diff_verdict *v);
void diff_run(const struct kstate *in, int variant, bool check_invariants, struct diff_verdict *v,
              struct kstate *slow, struct kstate *fast);

/* Bring an outcome to the entry clock and charge pending consumed time as
 * commitTime would; returns false when the current SC cannot pay it (it is
 * then left pending). */
bool diff_normalise(struct kstate *ks);

/* Compare two normalised outcomes; with out, write one line per
 * difference ("  budget: SC sc_h refills: slow ... fast ...").
 * Returns the DF_* mask. */
uint32_t diff_compare(const struct kstate *slow, const struct kstate *fast, FILE *out);

/* A verdict as a reviewer reads it: exit, agreement, each difference,
 * failed assertions and broken invariants of either side. */
void diff_report(FILE *out, const struct diff_verdict *v, const struct kstate *slow,
                 const struct kstate *fast);

#endif
