/*
 * reviewgroup: the defect groups of `irqsim review` (issue 30 item 3, "one
 * screen first"). A configuration's new kinds are combinations of fields
 * (one bug in fastpath_irq makes hundreds); this module owns what the first
 * screen shows instead: the new kinds grouped by what behaves differently
 * (a known defect the model names, else the tree's path that differs, or
 * a halt's text), each group's state count and fields, its smallest
 * reproducer and the command that replays it, and the same group across
 * configurations as one. The writers (reviewout.c, reviewcmd.c) print
 * them; the kinds themselves stay in the JSON and the collapsed lists.
 */
#ifndef IRQSIM_REVIEWGROUP_H
#define IRQSIM_REVIEWGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diff.h"
#include "review.h"

/* What a group is keyed by, after its target. */
enum review_group_by {
    RG_DEFECT, /* the model's cause names defects the baseline never showed */
    RG_PATH,   /* no known defect explains it: the tree's path that differs */
    RG_HALT    /* a real path of the tree halted in an assertion the baseline never halts in: its text */
};

/* The tree's paths a RG_PATH group names. */
enum review_group_path { RG_SLOW, RG_FAST, RG_FIXED };

struct review_group_key {
    int target;              /* enum review_target */
    int by;                  /* enum review_group_by */
    int path;                /* RG_PATH: enum review_group_path */
    unsigned defects;        /* RG_DEFECT: cause_defects' mask */
    char text[HK_TEXT_LEN];  /* RG_HALT: the halt, without the side that halted */
};

/* A group's reproducer: its kind and the configuration whose tree wrote it. */
struct review_group_repro {
    const struct review_kind *kind;     /* NULL: no kind of the group has one (no --out) */
    const struct review_result *res;
};

struct review_group {
    struct review_group_key key;
    uint64_t states;                 /* distinct states, at least (review_group_states) */
    int kinds;                       /* new kinds in it */
    uint64_t field_states[DF_COUNT]; /* per field: states of its kinds that differ there */
    uint32_t fields;                 /* their union */
    uint32_t checks;                 /* 1 << enum review_check of its kinds */
    unsigned configs;                /* 1 << the index of each configuration (in res[]) it is in */
    uint64_t first_seed;             /* the smallest first seed of its kinds */
    struct review_group_repro repro;
};

/* The most groups a configuration, or a matrix, can have: a few per
 * target and path, one per defect set and halt text. Past it, a kind's
 * group is not counted (review_groups returns how many kinds were left). */
#define REVIEW_MAX_GROUPS 64

/* The key of a new kind of res. */
void review_group_key_of(const struct review_result *res, const struct review_kind *k, struct review_group_key *key);
bool review_group_key_same(const struct review_group_key *a, const struct review_group_key *b);

/* The groups of res's new kinds (res index cfg, for configs), in the
 * report's order (the most states first); the number of them. *left:
 * new kinds past REVIEW_MAX_GROUPS groups, not counted. */
int review_groups(const struct review_result *res, int cfg, struct review_group *g, int max, int *left);
/* The same over n configurations: a key found in several is one group
 * naming them all, its states and kinds summed. */
int review_groups_all(const struct review_result *res, int n, struct review_group *g, int max, int *left);

/* Whether `irqsim check --real` of k's reproducer on the tree's build
 * shows k: the tree's fastpath diverges from its own slowpath there, which
 * is what check --real compares (exit 1). */
bool review_kind_replays(const struct review_kind *k);

/* "IRQ: fastpath_irq of the tree, unexplained, differs in badge_register,
 * current_thread +2 more": a group in one line of plain text (a halt's
 * text is the kernel's: Markdown pastes it through md_paste). */
const char *review_group_label(const struct review_group *g, char *buf, size_t len);
/* "IRQ:path:fastpath", "IRQ:defect:F1+F6", "signal:halt:TEXT": the JSON's key. */
const char *review_group_id(const struct review_group *g, char *buf, size_t len);
/* "irqsim check --real BUILD FILE" of the group's reproducer; "" when it has none. */
const char *review_group_replay(const struct review_group *g, char *buf, size_t len);
/* The configurations a group is in, of res[0..n): "imx8mm-evk:release,
 * odroidc4:release" (as --configs takes them), or "all 4 configurations". */
const char *review_group_configs(const struct review_group *g, const struct review_result *res, int n, char *buf,
                                 size_t len);
/* The group's fields (enum diff_field), the most frequent (in states)
 * first; the number of them. */
int review_group_field_order(const struct review_group *g, int order[DF_COUNT]);
/* Their names, the first `named` of them (those in at least a quarter of
 * the first one's states), then "+N more" ("none"). */
const char *review_group_fields(const struct review_group *g, int named, char *buf, size_t len);

#endif
