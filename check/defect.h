/*
 * defect: what a target's defects are made of, and how a divergence's
 * cause maps onto them. A defect is a fix of the corrected fastpath whose
 * absence is needed to explain a divergence: a class's cause (classify.h,
 * the minimal fix set) names the defects beneath it. Each target's table
 * (ids, titles, the review texts) lives in its descriptor file
 * (target_irq.c: the F defects of docs/FINDINGS.md; target_signal.c: the S
 * defects of docs/FINDINGS-signal.md), the one source `irqsim fuzz`,
 * `irqsim report` and CTest test_defect (which holds the FINDINGS pages to
 * it) read; texts that list the ids take them from it (defect_ids).
 */
#ifndef IRQSIM_DEFECT_H
#define IRQSIM_DEFECT_H

#include <stdbool.h>
#include <stddef.h>

struct target;

/* The most defects a target has, for tables of any target (a target's
 * own are named in its file: defect_index finds one by id). */
#define DEFECT_MAX 16

struct defect_info {
    const char *id;          /* "F1" */
    const char *title;       /* one line */
    unsigned need;           /* FIX() bits a cause must hold ... */
    unsigned unless;         /* ... and bits it must not hold */
    const char *fixes;       /* the fixes that remove it, as the classes name them */
    const char *state;       /* the state that shows it */
    const char *slow;        /* what the slowpath does there */
    const char *fast;        /* what the proposal does */
    const char *consequence;
    int needs;               /* enum ks_feature the kernel must have for it to show (F9: KF_SPLIT_EOI); 0 (false in
                              * the tables) is KF_NONE: any kernel */
    const char *verdict;     /* design trade-off or not; NULL where the findings give none (the IRQ target's) */
    int min_cores;           /* the cores a state that shows it needs (0: any) ... */
    int max_cores;           /* ... and the most it may have (0: any) */
    bool vcpus;              /* it needs a hypervisor build with VCPU threads (F12: a VCPU another core re-bound),
                              * which only searches with VCPUs draw (`--vcpus`) */
};

/* Defect d of t; NULL when out of range. */
const struct defect_info *defect_info(const struct target *t, int d);
/* The index of the defect with that id ("F1"), -1 when t has none. */
int defect_index(const struct target *t, const char *id);
/* Whether defect d can show on that kernel (enum ks_kernel) ... */
bool defect_possible(const struct target *t, int d, int kernel);
/* ... and in a search of that many cores (the most its states have),
 * with VCPU threads or without (`--vcpus`). */
bool defect_possible_here(const struct target *t, int d, int kernel, int cores, bool vcpus);

/* The defects (bit d for defect d) beneath a class cause (a set of t's
 * fixes); 0 for CLASS_NO_FIX. For the IRQ target, entry_time is part of the
 * fix of F1, F2 and F3 (the entry checks need the clock); a cause that needs
 * it without any of their checks is F4. */
unsigned cause_defects(const struct target *t, unsigned cause);

/* The fix bits a "+"-joined list of t's fix names holds
 * ("entry_time+entry_budget", as a class's cause or a defect's fixes are
 * written), read by name from t's fix table; unknown names are ignored. */
unsigned cause_of_text(const struct target *t, const char *text);
/* The fix that is defect d's own (the first of its `need` bits):
 * "entry_budget" for F1. */
const char *defect_fix(const struct target *t, int d);

/* "F1+F6", into buf ("none" when the mask is empty). */
/* what a class's cause says of defects: "unexplained", "the kernel's own
 * (both paths alike)", or defects_text of its defects */
const char *cause_defects_text(const struct target *t, unsigned cause, char *buf, size_t len);
const char *defects_text(const struct target *t, unsigned mask, char *buf, size_t len);

/* t's defect ids, runs of consecutive numbers as ranges: "F1-F12", or, of
 * the defects that can show on kernel (enum ks_kernel; -1: every one),
 * "F1-F8, F10-F12" on base; "S1-S6, S9-S11". For the texts that name
 * them (usage lines, summaries), so they follow the table. */
const char *defect_ids(const struct target *t, int kernel, char *buf, size_t len);

#endif
