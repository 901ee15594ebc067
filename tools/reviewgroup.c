/* reviewgroup: the defect groups of `irqsim review` (reviewgroup.h). */
#include "reviewgroup.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "defect.h"
#include "target.h"

/* ---- keys ---- */

/* The tree's path a check is about: the model, the own slowpath and the
 * baseline are what the path is compared with, not what changed. */
static int check_path(int check)
{
    switch (check) {
    case RV_VAL_SLOW:
    case RV_INV_SLOW:
    case RV_SLOW_VS_BASE:
        return RG_SLOW;
    case RV_VAL_FIXED:
    case RV_FUZZ_FIXED:
    case RV_INV_FIXED:
    case RV_FIXED_VS_BASE:
        return RG_FIXED;
    default: /* RV_VAL_FAST, RV_FUZZ, RV_INV_FAST, RV_FAST_VS_BASE */
        return RG_FAST;
    }
}

/* Whether the tree's fastpath p (RG_FAST, RG_FIXED) of target t differs
 * from the baseline's only where it follows the tree's changed slowpath
 * (or nowhere): then its new divergences from that slowpath, and its new
 * mismatches with the model (a fastpath that falls back runs the changed
 * slowpath), are the slowpath's doing. Counted over the kinds, so a state
 * past REVIEW_MAX_KINDS is not seen. */
static bool follows_slowpath(const struct review_result *res, int t, int p)
{
    if (!res->has_base || !res->t_changed[t][RG_SLOW])
        return false;
    for (int i = 0; i < res->n_kinds; i++) {
        const struct review_kind *k = &res->kinds[i];
        if (k->target == t && k->check == RV_SLOW_VS_BASE + p && k->count[0] && k->change != RV_CH_FOLLOWS)
            return false;
    }
    return true;
}

/* Whether the baseline's real fastpath of target t shows each of these
 * defects on some state (review_side t_defects: states whose divergence
 * the model's cause puts on each). Then a new kind with them is not the
 * defects coming in: the tree's fastpath diverges in other fields, or on
 * more states (on two cores, the badge register left unset made 2,856
 * states diverge that the model puts on F4 alone, which the baseline
 * shows only beside F8: new as F4 by its exact set, though the baseline
 * agrees there and the only field is the badge). */
static bool base_shows(const struct review_result *res, int t, unsigned defects)
{
    for (int d = 0; d < DEFECT_MAX; d++)
        if ((defects >> d & 1) && !res->side[1].t_defects[t][d])
            return false;
    return true;
}

/* A halt's text without the side that halted ("fastpath: ", "tree: "),
 * so the same assertion on any of the tree's paths is one group; a halt
 * of the baseline alone keeps its prefix (the tree no longer halts). */
static const char *halt_key(const char *text)
{
    static const char *const sides[] = {"slowpath: ", "fastpath: ", "corrected fastpath: ", "tree: "};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++)
        if (!strncmp(text, sides[i], strlen(sides[i])))
            return text + strlen(sides[i]);
    return text;
}

/* Whether the baseline halts in the same assertion (text without its
 * side) on some state: then a new kind with that halt is the tree's path
 * reaching it on other states, not a new halt (the priority check of
 * fastpath_irq made `>` reached the known VTable read on 259 more states
 * of two cores). */
static bool base_halts(const struct review_result *res, int t, const char *text)
{
    for (int i = 0; i < res->n_kinds; i++) {
        const struct review_kind *k = &res->kinds[i];
        if (k->target == t && k->halt && k->count[1] && !strcmp(halt_key(k->text), text))
            return true;
    }
    return false;
}

void review_group_key_of(const struct review_result *res, const struct review_kind *k, struct review_group_key *key)
{
    memset(key, 0, sizeof *key);
    key->target = k->target;
    if (k->halt && !(res->has_base && base_halts(res, k->target, halt_key(k->text)))) {
        key->by = RG_HALT;
        snprintf(key->text, sizeof key->text, "%s", halt_key(k->text));
        return;
    }
    unsigned d = k->check == RV_FUZZ && k->known ? cause_defects(review_target_of(k->target), k->cause) : 0;
    if (d && !(res->has_base && base_shows(res, k->target, d))) {
        key->by = RG_DEFECT;
        key->defects = d;
        return;
    }
    key->by = RG_PATH;
    key->path = check_path(k->check);
    if (key->path != RG_SLOW && k->check < RV_SLOW_VS_BASE && follows_slowpath(res, k->target, key->path))
        key->path = RG_SLOW;
}

bool review_group_key_same(const struct review_group_key *a, const struct review_group_key *b)
{
    return a->target == b->target && a->by == b->by && a->path == b->path && a->defects == b->defects &&
           !strcmp(a->text, b->text);
}

/* ---- reproducers ---- */

bool review_kind_replays(const struct review_kind *k)
{
    /* a *_VS_BASE fastpath kind that "diverges" does so from the tree's
     * own slowpath (review.c cross_path); the corrected fastpath is not
     * what check --real runs */
    return k->check == RV_FUZZ || (k->check == RV_FAST_VS_BASE && k->change == RV_CH_DIVERGES);
}

/* A reproducer's rank, 0 best: the tree's fastpath against its own
 * slowpath where no known defect explains the divergence (what the state
 * shows is the group's difference alone); one check --real replays, but
 * the model names a defect there (where the state shows that defect mixed
 * with the group's difference: a defect group's kinds are all such, so
 * this orders only the others) or the check does not classify (the tree
 * against the baseline); then what check --real does not replay. */
static int repro_rank(const struct review_kind *k)
{
    if (!review_kind_replays(k))
        return 2;
    return k->check == RV_FUZZ && !k->known ? 0 : 1;
}

/* Whether reproducer a is better than b: the better rank, then the
 * smaller state (shrink_size: objects, refills, IRQs in use, the measure
 * `irqsim minimize` shrinks by: fewer things to read), then the earlier
 * seed (the same choice on every run). */
static bool repro_better(const struct review_kind *a, const struct review_kind *b)
{
    if (!b)
        return true;
    if (repro_rank(a) != repro_rank(b))
        return repro_rank(a) < repro_rank(b);
    if (a->size != b->size)
        return a->size < b->size;
    return a->seed[0] < b->seed[0];
}

static void repro_offer(struct review_group_repro *r, const struct review_kind *k, const struct review_result *res)
{
    if (k->reproducer && repro_better(k, r->kind)) {
        r->kind = k;
        r->res = res;
    }
}

/* ---- grouping ---- */

/* The group of key among g[0..*n), added when new; NULL when full. */
static struct review_group *group_of(struct review_group *g, int *n, int max, const struct review_group_key *key)
{
    for (int i = 0; i < *n; i++)
        if (review_group_key_same(&g[i].key, key))
            return &g[i];
    if (*n == max)
        return NULL;
    struct review_group *x = &g[(*n)++];
    memset(x, 0, sizeof *x);
    x->key = *key;
    x->first_seed = UINT64_MAX;
    return x;
}

static void group_add(struct review_group *x, const struct review_kind *k)
{
    x->kinds++;
    x->fields |= k->fields;
    x->checks |= 1u << k->check;
    for (int f = 0; f < DF_COUNT; f++)
        x->field_states[f] += (k->fields >> f & 1) ? k->count[0] : 0;
    x->first_seed = k->seed[0] < x->first_seed ? k->seed[0] : x->first_seed;
}

/* The most states first (what the reader meets most), then the most
 * kinds, then the key's order: the same order on every run. */
static int group_cmp(const void *pa, const void *pb)
{
    const struct review_group *a = pa, *b = pb;
    if (a->states != b->states)
        return a->states > b->states ? -1 : 1;
    if (a->kinds != b->kinds)
        return a->kinds > b->kinds ? -1 : 1;
    if (a->key.target != b->key.target)
        return a->key.target - b->key.target;
    if (a->key.by != b->key.by)
        return a->key.by - b->key.by;
    if (a->key.path != b->key.path)
        return a->key.path - b->key.path;
    if (a->key.defects != b->key.defects)
        return a->key.defects < b->key.defects ? -1 : 1;
    return strcmp(a->key.text, b->key.text);
}

int review_groups(const struct review_result *res, int cfg, struct review_group *g, int max, int *left)
{
    /* A state shows in at most one kind per check (one outcome per path
     * and side), so per check the sum of a group's kinds' counts is its
     * number of distinct states there; the group's distinct states are at
     * least the largest of those sums (and at most their total). */
    uint64_t sums[REVIEW_MAX_GROUPS][RV_CHECK_COUNT] = {{0}};
    int n = 0;
    *left = 0;
    max = max < REVIEW_MAX_GROUPS ? max : REVIEW_MAX_GROUPS;
    for (int i = 0; i < res->n_kinds; i++) {
        const struct review_kind *k = &res->kinds[i];
        if (!review_kind_new(res, k))
            continue;
        struct review_group_key key;
        review_group_key_of(res, k, &key);
        struct review_group *x = group_of(g, &n, max, &key);
        if (!x) {
            ++*left;
            continue;
        }
        group_add(x, k);
        sums[x - g][k->check] += k->count[0];
        x->configs = 1u << cfg;
        repro_offer(&x->repro, k, res);
    }
    for (int i = 0; i < n; i++)
        for (int c = 0; c < RV_CHECK_COUNT; c++)
            g[i].states = sums[i][c] > g[i].states ? sums[i][c] : g[i].states;
    qsort(g, (size_t)n, sizeof *g, group_cmp);
    return n;
}

/* x gains y (the same key, another configuration's states). */
static void group_merge(struct review_group *x, const struct review_group *y)
{
    x->states += y->states; /* different configurations: different states */
    x->kinds += y->kinds;
    x->fields |= y->fields;
    x->checks |= y->checks;
    x->configs |= y->configs;
    for (int f = 0; f < DF_COUNT; f++)
        x->field_states[f] += y->field_states[f];
    x->first_seed = y->first_seed < x->first_seed ? y->first_seed : x->first_seed;
    if (y->repro.kind)
        repro_offer(&x->repro, y->repro.kind, y->repro.res);
}

int review_groups_all(const struct review_result *res, int n, struct review_group *g, int max, int *left)
{
    struct review_group one[REVIEW_MAX_GROUPS]; /* one configuration's: about 40 KiB */
    int count = 0;
    *left = 0;
    for (int i = 0; i < n; i++) {
        int l, m = review_groups(&res[i], i, one, REVIEW_MAX_GROUPS, &l);
        *left += l;
        for (int j = 0; j < m; j++) {
            int had = count;
            struct review_group *x = group_of(g, &count, max, &one[j].key);
            if (!x)
                *left += one[j].kinds;
            else if (count > had)
                *x = one[j];
            else
                group_merge(x, &one[j]);
        }
    }
    qsort(g, (size_t)count, sizeof *g, group_cmp);
    return count;
}

/* ---- words ---- */

/* The tree's path p of target t by name. */
static const char *path_name(int t, int p)
{
    return p == RG_SLOW ? "slowpath" : p == RG_FAST ? review_target_of(t)->fast_fn : "corrected fastpath";
}

/* "its slowpath, the baseline's and the model": what the path was
 * compared with in the group's checks. */
static const char *against_text(uint32_t checks, char *buf, size_t len)
{
    const char *what[3];
    int n = 0;
    if (checks & (1u << RV_FUZZ | 1u << RV_FUZZ_FIXED))
        what[n++] = "its slowpath";
    if (checks & (1u << RV_SLOW_VS_BASE | 1u << RV_FAST_VS_BASE | 1u << RV_FIXED_VS_BASE))
        what[n++] = "the baseline's";
    if (checks & (1u << RV_VAL_SLOW | 1u << RV_VAL_FAST | 1u << RV_VAL_FIXED))
        what[n++] = "the model";
    buf[0] = 0;
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", what[i]);
    return buf;
}

int review_group_field_order(const struct review_group *g, int order[DF_COUNT])
{
    int n = 0;
    for (int f = 0; f < DF_COUNT; f++)
        if (g->fields >> f & 1)
            order[n++] = f;
    /* insertion sort, the most states first, stable on the field order */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && g->field_states[order[j]] > g->field_states[order[j - 1]]; j--) {
            int s = order[j];
            order[j] = order[j - 1];
            order[j - 1] = s;
        }
    return n;
}

const char *review_group_fields(const struct review_group *g, int named, char *buf, size_t len)
{
    int order[DF_COUNT], n = review_group_field_order(g, order), named_n = 0;
    buf[0] = 0;
    size_t used = 0;
    /* a field in under a quarter of the first one's states is counted,
     * not named: a known defect's fields in a few states beside the
     * group's own difference (F1's refills beside a lost badge) would
     * read as the group's */
    for (int i = 0; i < n && i < named && used < len && g->field_states[order[i]] * 4 >= g->field_states[order[0]];
         i++, named_n++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", diff_field_name(order[i]));
    if (n > named_n && used < len)
        snprintf(buf + used, len - used, " +%d more", n - named_n);
    return n ? buf : "none";
}

const char *review_group_label(const struct review_group *g, char *buf, size_t len)
{
    const struct review_group_key *k = &g->key;
    const struct target *tg = review_target_of(k->target);
    char fields[160], against[80], defs[60];
    review_group_fields(g, 3, fields, sizeof fields);
    if (k->by == RG_HALT) {
        snprintf(buf, len, "%s target, halt: %s", review_target_label(k->target), k->text);
    } else if (k->by == RG_DEFECT) {
        defects_text(tg, k->defects, defs, sizeof defs);
        int d = __builtin_ctz(k->defects);
        bool one = (k->defects & (k->defects - 1)) == 0;
        snprintf(buf, len, "%s target, model cause %s%s%s (the baseline never shows it): %s differs from its "
                           "slowpath in %s",
                 review_target_label(k->target), defs, one ? ": " : "", one ? defect_info(tg, d)->title : "",
                 tg->fast_fn, fields);
    } else {
        snprintf(buf, len, "%s target, unexplained: the tree's %s differs from %s in %s",
                 review_target_label(k->target), path_name(k->target, k->path),
                 against_text(g->checks, against, sizeof against), fields);
    }
    return buf;
}

const char *review_group_id(const struct review_group *g, char *buf, size_t len)
{
    static const char *const paths[] = {"slowpath", "fastpath", "corrected"};
    const struct review_group_key *k = &g->key;
    const char *t = review_target_of(k->target)->name;
    char defs[60];
    if (k->by == RG_HALT)
        snprintf(buf, len, "%s:halt:%s", t, k->text);
    else if (k->by == RG_DEFECT)
        snprintf(buf, len, "%s:defect:%s", t, defects_text(review_target_of(k->target), k->defects, defs, sizeof defs));
    else
        snprintf(buf, len, "%s:path:%s", t, paths[k->path]);
    return buf;
}

/* "imx8mm-evk:debug:d16": a configuration as --configs takes it, its
 * defaults (one domain, one core) left out. */
static size_t config_short(const struct review_config *c, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s:%s", c->board, c->debug ? "debug" : "release");
    if (c->domains > 1 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ":d%d", c->domains);
    if (c->cores > 1 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ":c%d", c->cores);
    return (size_t)n < len ? (size_t)n : len - 1;
}

const char *review_group_configs(const struct review_group *g, const struct review_result *res, int n, char *buf,
                                 size_t len)
{
    unsigned all = n >= 32 ? ~0u : (1u << n) - 1;
    if (n > 1 && (g->configs & all) == all) {
        snprintf(buf, len, "all %d configurations", n);
        return buf;
    }
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used + 1 < len; i++)
        if (g->configs >> i & 1) {
            if (used)
                buf[used++] = ',', buf[used] = 0;
            used += config_short(&res[i].cfg, buf + used, len - used);
        }
    return buf;
}

const char *review_group_replay(const struct review_group *g, char *buf, size_t len)
{
    if (!g->repro.kind)
        buf[0] = 0;
    else
        snprintf(buf, len, "irqsim check --real %s %s", g->repro.res->side[0].build, g->repro.kind->reproducer);
    return buf;
}
