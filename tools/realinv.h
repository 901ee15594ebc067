/*
 * realinv: the real kernel's outcomes held to irqsim's exit invariants
 * (issue 29 item 2). The model's outcome is compared with the kernel's, but
 * a bug the model shares (written from a kernel that had it) shows in no
 * comparison; the invariants (check/invariant.c, each justified by kernel
 * lines) are an oracle of their own. Every outcome a --real run gets from
 * the kernel goes through the checker at exit, admitting only what the
 * target's fastpath as written is known to leave at user level (its
 * defects, target.h admit_as_written) and what fastpaths built beside leave;
 * a broken invariant is a finding, counted by invariant and path, with the
 * model's word on it where the run has a model outcome.
 */
#ifndef IRQSIM_REALINV_H
#define IRQSIM_REALINV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "invariant.h"
#include "kstate.h"

#define REALINV_MAX_KINDS 32

struct target;

struct realinv_kind {
    int id;               /* the invariant (invariant.h) */
    int path;             /* the bridge's path (rk_load.h) */
    const char *path_name;
    int model;            /* the model's outcome of the same path: 1 breaks it too, 0 not, -1 none run */
    uint64_t count, first_seed;
    char msg[INV_MSG_LEN];
    char *reproducer;     /* written (allocated); NULL: none */
};

struct realinv {
    /* where its findings go: the command's name ("validate") and word for
     * its messages ("irqsim validate"), --out (NULL: no reproducers), the
     * build's folder */
    const char *cmd, *who, *out, *kernel;
    int write_errors;     /* reproducers that could not be written */
    uint64_t checked;     /* outcomes held to the invariants */
    uint64_t skipped;     /* outcomes a driver did not hold to them, ... */
    const char *skip_why; /* ... and why (the summary says both) */
    uint64_t broken;      /* of them, those that broke one */
    uint64_t dropped;     /* broken outcomes of kinds past the first REALINV_MAX_KINDS */
    struct realinv_kind kinds[REALINV_MAX_KINDS];
    int n_kinds;
};

/* What a kernel outcome may leave at user level at a state's exit (enum
 * inv_admit): what the fastpaths built beside target t leave
 * (target_admit_built on the entry state in), and on t's fastpath as
 * built (as_built) what its fastpath as written leaves (its known
 * defects, admit_as_written). */
unsigned realinv_admit(const struct target *t, const struct kstate *in, bool as_built);
/* Hold out (the kernel's outcome of bridge path `path`, named path_name,
 * from the entry state in, normalised as the comparison leaves it) to the
 * exit invariants with admit; model: the model's outcome of the same path
 * (normalised), or NULL. A break is counted, its first of a kind printed
 * and (out) saved as the entry state. Returns whether it broke one. */
bool realinv_check(struct realinv *v, const struct kstate *in, const struct kstate *out, int path,
                   const char *path_name, unsigned admit, const struct kstate *model, uint64_t seed);
/* The summary line and the kinds. */
void realinv_print(FILE *f, const struct realinv *v);
/* The JSON member `"invariants": {...}` (no separator around it). */
void realinv_json(FILE *f, const struct realinv *v);
void realinv_free(struct realinv *v);

#endif
