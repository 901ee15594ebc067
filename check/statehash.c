/* statehash: kernel state hashes that agree with ks_same (statehash.h). */
#include "statehash.h"

#include <string.h>

#define K1 0x9E3779B97F4A7C15ull
#define K2 0xC2B2AE3D27D4EB4Full
#define K3 0x165667B19E3779F9ull
#define K4 0xD6E8FEB86659FD93ull

static uint64_t rotl(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

/* murmur3's fmix64: every input bit reaches every output bit */
static uint64_t fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return k ^ k >> 33;
}

void sh_init(struct shash *h)
{
    h->a = 0x243F6A8885A308D3ull;
    h->b = 0x13198A2E03707344ull;
}

static void word(struct shash *h, uint64_t w)
{
    h->a = rotl(h->a ^ (w * K1), 31) * K2;
    h->b = rotl(h->b ^ (w * K3), 29) * K4 + h->a;
}

void sh_add(struct shash *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, c + i, 8);
        word(h, w);
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, c + i, n - i);
        word(h, w);
    }
    word(h, n);
}

struct shash sh_final(const struct shash *h)
{
    return (struct shash){fmix(h->a ^ rotl(h->b, 17)), fmix(h->b ^ h->a)};
}

void sh_ks_regions(const struct kstate *ks, void (*put)(void *ctx, const void *p, size_t n), void *ctx)
{
    /* as ks_same (sim/kstate.c): the header but deadline_writes and the
     * cost recorder after it, then what is in use */
    size_t dw = offsetof(struct kstate, deadline_writes);
    size_t after = offsetof(struct kstate, cost) + sizeof ks->cost;
    put(ctx, ks, dw);
    put(ctx, (const char *)ks + after, offsetof(struct kstate, tcbs) - after);
    put(ctx, &ks->n_irqs, sizeof ks->n_irqs);
    put(ctx, &ks->n_asserts, sizeof ks->n_asserts);
#define PUT(arr, n) put(ctx, ks->arr, (size_t)(n) * sizeof ks->arr[0])
    PUT(tcbs, ks->n_tcbs);
    PUT(scs, ks->n_scs);
    PUT(ntfns, ks->n_ntfns);
    PUT(eps, ks->n_eps);
    PUT(replies, ks->n_replies);
    PUT(irq_state, ks->n_irqs);
    PUT(irq_masked, ks->n_irqs);
    PUT(irq_acks, ks->n_irqs);
    PUT(irq_cfg, ks->n_irqs);
    PUT(irq_active, ks->n_irqs);
    PUT(irq_cap, ks->n_irqs);
    PUT(asserts, KS_MAX_ASSERTS);
#undef PUT
}

static void put_hash(void *ctx, const void *p, size_t n)
{
    sh_add(ctx, p, n);
}

void sh_kstate(struct shash *h, const struct kstate *ks)
{
    sh_ks_regions(ks, put_hash, h);
}

uint64_t sh_kstate64(const struct kstate *ks)
{
    struct shash h;
    sh_init(&h);
    sh_kstate(&h, ks);
    return sh_final(&h).a | 1;
}
