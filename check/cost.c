/* cost: runs with a recorder, totals, the measured situations, the table. */
#include "cost.h"

#include <string.h>

#include "build.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "presets.h"
#include "refill.h"
#include "sched.h"

uint32_t cost_total(const struct cost_counts *c, int kind)
{
    uint32_t n = 0;
    for (int s = 0; s < SEC_COUNT; s++)
        n += c->n[s][kind];
    return n;
}

uint32_t cost_section_sum(const struct cost_counts *c, int sec)
{
    return c->n[sec][CK_R] + c->n[sec][CK_W] + c->n[sec][CK_B];
}

uint32_t cost_all(const struct cost_counts *c)
{
    return cost_total(c, CK_R) + cost_total(c, CK_W) + cost_total(c, CK_B);
}

void cost_diff(const struct cost_counts *a, const struct cost_counts *b, int32_t out[CK_COUNT])
{
    for (int k = 0; k < CK_COUNT; k++)
        out[k] = (int32_t)cost_total(a, k) - (int32_t)cost_total(b, k);
}

const char *cost_path_name(int p)
{
    static const char *const names[] = {"slowpath", "pr1227", "fixed"};
    return p >= 0 && p < CP_COUNT ? names[p] : "?";
}

void cost_run(const struct kstate *in, int path, struct kstate *out, struct cost_result *res)
{
    ks_copy(out, in);
    cost_reset(&res->rec);
    out->cost = &res->rec;
    if (path == CP_SLOW) {
        handleInterruptEntry(out);
        res->exit = -1;
    } else {
        res->exit = fastpath_irq(out, path == CP_PR1227 ? FP_PR1227 : FP_FIXED);
    }
    out->cost = NULL;
}

/* ---- situations and fallback cases ---- */

const char *cost_situation_name(int s)
{
    return s == CS_SWITCH ? "switch" : s == CS_NOSWITCH ? "noswitch" : "?";
}

const char *cost_situation_what(int s)
{
    return s == CS_SWITCH ? "sel4bench irquser: handler (254) waits on the IRQ's notification, spinner (253) runs"
           : s == CS_NOSWITCH ? "the proposal's variant: handler (253) waits, a thread at 254 spins"
                              : "?";
}

int cost_situation_build(struct kstate *ks, int s, const char *board)
{
    return s == CS_SWITCH ? preset_irquser(ks, board) : preset_noswitch(ks, board);
}

static const struct { const char *name; int base; const char *what; } cases[] = {
#define COST_CASE_TEXT(id, name, base, what) {name, base, what},
    COST_CASE_LIST(COST_CASE_TEXT)
#undef COST_CASE_TEXT
};

const char *cost_case_name(int c)
{
    return c >= 0 && c < CC_COUNT ? cases[c].name : "?";
}

const char *cost_case_what(int c)
{
    return c >= 0 && c < CC_COUNT ? cases[c].what : "?";
}

int cost_case_base(int c)
{
    return c >= 0 && c < CC_COUNT ? cases[c].base : CS_NOSWITCH;
}

static int find_thread(const struct kstate *ks, const char *name)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (strcmp(ks->tcbs[i].name, name) == 0)
            return i;
    return KS_NONE;
}

/* The architected timer's PPI (the virtual timer on aarch64). */
#define COST_TIMER_IRQ 27

int cost_case_build(struct kstate *ks, int c, const char *board)
{
    if (c < 0 || c >= CC_COUNT || cost_situation_build(ks, cases[c].base, board) != 0)
        return -1;
    int h = find_thread(ks, "handler"), spin = find_thread(ks, "spinner");
    switch (c) {
    case CC_TIMER:
        build_irq_state(ks, COST_TIMER_IRQ, IRQ_Timer);
        ks->active_irq = COST_TIMER_IRQ;
        break;
    case CC_INACTIVE:
        build_irq_state(ks, PRESET_IRQ + 1, IRQ_Inactive);
        ks->active_irq = PRESET_IRQ + 1;
        break;
    case CC_NO_SC: { /* unbind the handler's SC: a passive server */
        int sc = ks->tcbs[h].sc;
        ks->scs[sc].tcb = KS_NONE;
        ks->tcbs[h].sc = KS_NONE;
        break;
    }
    case CC_DOMAIN:
        build_two_domains(ks);
        ks->tcbs[h].domain = 1;
        build_deadline(ks);
        break;
    case CC_VTABLE:
        ks->tcbs[h].vtable_ok = false;
        break;
    case CC_ASID:
        ks->tcbs[h].asid_ok = false;
        break;
    case CC_VMID:
        ks->cfg.hyp = true;
        ks->tcbs[h].vmid_ok = false;
        break;
    case CC_BUDGET: { /* the clock where the head refill keeps MIN_BUDGET - 1 */
        ticks_t head = refill_head(ks, ks->tcbs[spin].sc)->amount;
        ks->hw_clock = ks->cur_time - ks->consumed + head - ks->cfg.min_budget + 1;
        break;
    }
    case CC_DOM_EXPIRED: /* the domain ends within MIN_BUDGET of the entry clock */
        build_two_domains(ks);
        ks->domain_time = ks->hw_clock - ks->cur_time;
        build_deadline(ks);
        break;
    case CC_RELEASE: { /* a periodic thread whose refill is due at the entry clock */
        int t = build_thread(ks, "periodic", 100, 0);
        build_sc(ks, "sc_periodic", t, 10 * ks->cfg.min_budget, 100 * ks->cfg.min_budget, ks->hw_clock);
        build_release(ks, t);
        ks->reprogram = false;
        build_deadline(ks);
        break;
    }
    default:
        break;
    }
    return 0;
}

/* ---- printing ---- */

static void print_cell(FILE *f, const struct cost_counts *c, int sec)
{
    if (sec < 0)
        fprintf(f, "  %4u %4u %4u", cost_total(c, CK_R), cost_total(c, CK_W), cost_total(c, CK_B));
    else
        fprintf(f, "  %4u %4u %4u", c->n[sec][CK_R], c->n[sec][CK_W], c->n[sec][CK_B]);
}

void cost_print_table(FILE *f, const struct cost_result res[CP_COUNT])
{
    fprintf(f, "  %-17s", "");
    for (int p = 0; p < CP_COUNT; p++) {
        char head[40];
        snprintf(head, sizeof head, "%s%s%s", cost_path_name(p), p ? " " : "",
                 p ? fp_exit_name(res[p].exit) : "");
        fprintf(f, "  %-14.14s", head);
    }
    fprintf(f, "\n  %-17s", "section");
    for (int p = 0; p < CP_COUNT; p++)
        fprintf(f, "  %4s %4s %4s", "R", "W", "B");
    fputc('\n', f);
    for (int s = 0; s < SEC_COUNT; s++) {
        fprintf(f, "  %-17s", cost_section_name(s));
        for (int p = 0; p < CP_COUNT; p++)
            print_cell(f, &res[p].rec.c, s);
        fputc('\n', f);
    }
    fprintf(f, "  %-17s", "total");
    for (int p = 0; p < CP_COUNT; p++)
        print_cell(f, &res[p].rec.c, -1);
    fprintf(f, "\n  %-17s", "R+W+B");
    uint32_t slow = cost_all(&res[CP_SLOW].rec.c);
    for (int p = 0; p < CP_COUNT; p++) {
        uint32_t n = cost_all(&res[p].rec.c);
        char cell[40];
        if (p == CP_SLOW)
            snprintf(cell, sizeof cell, "%u", n);
        else
            snprintf(cell, sizeof cell, "%u (%+.0f%%)", n, slow ? 100.0 * ((double)n / slow - 1.0) : 0.0);
        fprintf(f, "  %14s", cell);
    }
    fputc('\n', f);
}
