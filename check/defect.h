/*
 * defect: the defects of PR #1227's IRQ fastpath (F1-F8 of
 * docs/FINDINGS.md on base 43607edb6; F9 on master 1326364bc) and how a divergence's cause maps onto them. A defect is
 * a fix of the corrected fastpath whose absence is needed to explain a
 * divergence: a class's cause (classify.h, the minimal fix set) names the
 * defects beneath it. The review texts of each defect live here, in one
 * table, so that `irqsim fuzz` and `irqsim report` word them alike.
 */
#ifndef IRQSIM_DEFECT_H
#define IRQSIM_DEFECT_H

#include <stdbool.h>
#include <stddef.h>

enum defect { DEF_F1, DEF_F2, DEF_F3, DEF_F4, DEF_F5, DEF_F6, DEF_F7, DEF_F8, DEF_F9, DEF_COUNT };
/* The most defects a target has (the IRQ fastpath's DEF_COUNT, the signal
 * fastpath's seven: defect.c checks both), for tables of any target. */
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
    const char *verdict;     /* design trade-off or not; NULL where the findings give none (F1-F9) */
};

const struct defect_info *defect_info(int d);

/* The defects (bit d for DEF_d) beneath a class cause; 0 for CLASS_NO_FIX.
 * entry_time is part of the fix of F1, F2 and F3 (the entry checks need the
 * clock); a cause that needs it without any of their checks is F4. */
unsigned cause_defects(unsigned cause);

/* "F1+F6", into buf ("none" when the mask is empty). */
const char *defects_text(unsigned mask, char *buf, size_t len);

/* The same per target (enum ks_entry): the IRQ fastpath's F1-F9 above, or
 * the signal fastpath's S1-S6 (docs/FINDINGS-signal.md); a cause is then a
 * set of that target's fixes. */
int defect_count_t(int target);
const struct defect_info *defect_info_t(int target, int d);
bool defect_possible_t(int target, int d, int kernel);
int defects_possible_t(int target, int kernel);
unsigned cause_defects_t(int target, unsigned cause);
const char *defects_text_t(int target, unsigned mask, char *buf, size_t len);

#endif
