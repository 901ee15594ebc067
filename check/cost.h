/*
 * cost: measuring with the counting hooks of the kernel model
 * (cost_hooks.h): run one path with a recorder attached, add up the
 * counts, build the benchmark situations of PR #1227 and the fallback
 * cases derived from them, and print the table docs/COST.md shows.
 */
#ifndef IRQSIM_COST_H
#define IRQSIM_COST_H

#include <stdint.h>
#include <stdio.h>

#include "cost_hooks.h"
#include "kstate.h"

/* ---- measuring ---- */

uint32_t cost_total(const struct cost_counts *c, int kind); /* over sections */
uint32_t cost_section_sum(const struct cost_counts *c, int sec); /* R + W + B */
uint32_t cost_all(const struct cost_counts *c);                  /* R + W + B, all sections */
void cost_diff(const struct cost_counts *a, const struct cost_counts *b, int32_t out[CK_COUNT]); /* a - b totals */

/* Which path a measurement runs. */
enum cost_path { CP_SLOW, CP_PR1227, CP_FIXED, CP_COUNT };
const char *cost_path_name(int p);

struct cost_result {
    int exit;             /* fastpath exit, or -1 for the slowpath */
    struct cost_rec rec;
};

/* Copy in to out, run one path on out with a recorder, and detach it. */
void cost_run(const struct kstate *in, int path, struct kstate *out, struct cost_result *res);

/* ---- the benchmark situations and the fallback cases built from them ---- */

enum cost_situation { CS_SWITCH, CS_NOSWITCH, CS_COUNT };
const char *cost_situation_name(int s);
const char *cost_situation_what(int s);
int cost_situation_build(struct kstate *ks, int s, const char *board);

#define COST_CASE_LIST(X) \
    X(CC_TIMER, "timer_irq", CS_NOSWITCH, "the active IRQ is the kernel's timer (IRQ state Timer)") \
    X(CC_INACTIVE, "inactive_irq", CS_NOSWITCH, "the active IRQ is not set up (IRQ state Inactive)") \
    X(CC_NO_SC, "no_sc", CS_NOSWITCH, "the handler is passive (no SC) and the notification has none") \
    X(CC_DOMAIN, "other_domain", CS_NOSWITCH, "the handler is in another domain (two domains)") \
    X(CC_VTABLE, "vtable", CS_SWITCH, "switch needed and the handler's VTable is not a mapped vspace") \
    X(CC_ASID, "asid", CS_SWITCH, "switch needed and the handler's ASID no longer maps its vspace") \
    X(CC_VMID, "vmid", CS_SWITCH, "hypervisor build: switch needed and the handler's VMID is not valid") \
    X(CC_BUDGET, "budget", CS_NOSWITCH, "the spinner's head refill cannot pay the time consumed (clock at the budget edge)") \
    X(CC_DOM_EXPIRED, "domain_expired", CS_NOSWITCH, "the current domain's time is up (two domains)") \
    X(CC_RELEASE, "release", CS_NOSWITCH, "a periodic thread's refill is due: release queue head ready")

enum cost_case {
#define COST_CASE_ENUM(id, name, base, what) id,
    COST_CASE_LIST(COST_CASE_ENUM)
#undef COST_CASE_ENUM
    CC_COUNT
};

const char *cost_case_name(int c);
const char *cost_case_what(int c);
int cost_case_base(int c);
/* Build the case from its situation's preset; 0, or -1 on a bad board. */
int cost_case_build(struct kstate *ks, int c, const char *board);

/* ---- printing ---- */

/* The table of one situation: sections by path, R W B, totals. */
void cost_print_table(FILE *f, const struct cost_result res[CP_COUNT]);

#endif
