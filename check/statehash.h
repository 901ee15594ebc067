/*
 * statehash: hashes of kernel states that agree with ks_same, for the
 * enumeration of executions (check/executions.c counts distinct entry
 * states, check/exectree.c remembers the simulator states it visited).
 * A kernel state is hashed over exactly the bytes ks_same compares (the
 * header but for the report-only deadline write count and cost recorder,
 * then the objects and IRQ table entries in use), so states equal under
 * ks_same hash alike, and a field added to any of the state's structs is
 * covered without a change here. The hash is 128 bits wide, two 64-bit
 * lanes of multiply-rotate mixing with a final avalanche.
 */
#ifndef IRQSIM_STATEHASH_H
#define IRQSIM_STATEHASH_H

#include <stddef.h>
#include <stdint.h>

#include "kstate.h"

struct shash {
    uint64_t a, b;
};

void sh_init(struct shash *h);
/* n bytes at p: whole 64-bit words, the tail zero-filled, then n itself
 * (so that regions of different lengths do not run together) */
void sh_add(struct shash *h, const void *p, size_t n);
/* the lanes after a final avalanche */
struct shash sh_final(const struct shash *h);

/* Call put(ctx, p, n) for each region of ks that ks_same compares, in a
 * fixed order: hashing them (sh_kstate) or copying them out (a full
 * comparison later) sees exactly what ks_same sees. */
void sh_ks_regions(const struct kstate *ks, void (*put)(void *ctx, const void *p, size_t n), void *ctx);
/* sh_add of every such region */
void sh_kstate(struct shash *h, const struct kstate *ks);
/* a kernel state's 64-bit hash, odd (0 marks an empty slot of exec_set) */
uint64_t sh_kstate64(const struct kstate *ks);

#endif
