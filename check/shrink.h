/*
 * shrink: reduces a divergent state to a small one that still diverges in
 * the same class. Candidates delete objects (detached first) or reset
 * fields to their defaults; a candidate is kept only if it still satisfies
 * the entry invariants and keeps the class. No allocation: the caller
 * provides the work space.
 */
#ifndef IRQSIM_SHRINK_H
#define IRQSIM_SHRINK_H

#include "classify.h"

struct shrink_ws {
    struct kstate cand;
    struct classify_ws cws;
};

/* Shrink ks in place; fixes as given to classify_run. Returns the number
 * of candidates accepted. */
int shrink_state(struct kstate *ks, unsigned fixes, struct shrink_ws *ws);

/* A size measure: objects, refills and distinct set fields. */
int shrink_size(const struct kstate *ks);

#endif
