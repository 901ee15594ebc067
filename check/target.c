/* target: the registered targets and what every target does alike. */
#include "target.h"

#include <stdio.h>
#include <string.h>

#include "irq_fast.h"

/* The registration: one line per target, the default first. */
static const struct target *const targets[] = {
    &target_irq,
    &target_signal,
    &target_call,
    &target_reply_recv,
#ifdef IRQSIM_STUB_TARGET
    &target_stub, /* a test build's only (check/target_stub.c) */
#endif
};
#define N_TARGETS ((int)(sizeof targets / sizeof targets[0]))

const char target_fault_unreachable[] =
    "on MCS a thread with a pending fault never runs to make a system call: sendFaultIPC blocks it "
    "(faulthandler.c:37) and every way back clears tcbFault or leaves it Inactive (doReplyTransfer, cancelIPC; "
    "real/coverage-argued.txt, docs/FINDINGS-signal.md), with KernelExceptionFastpath off as irqsim models it";

const struct target *target_at(int i)
{
    return i >= 0 && i < N_TARGETS ? targets[i] : NULL;
}

const struct target *target_default(void)
{
    return targets[0];
}

const struct target *target_get(int entry)
{
    for (int i = 0; i < N_TARGETS; i++)
        if (targets[i]->entry == entry)
            return targets[i];
    return NULL;
}

const struct target *target_get_rank(int entry, int rank)
{
    for (int i = 0; i < N_TARGETS; i++)
        if (targets[i]->entry == entry && rank-- == 0)
            return targets[i];
    return NULL;
}

int target_rank(const struct target *t)
{
    int rank = 0;
    for (int i = 0; i < N_TARGETS && targets[i] != t; i++)
        rank += targets[i]->entry == t->entry;
    return rank;
}

int target_index(const struct target *t)
{
    for (int i = 0; i < N_TARGETS; i++)
        if (targets[i] == t)
            return i;
    return -1;
}

void target_mark(const struct target *t, struct kstate *ks)
{
    ks->sys.entry = (uint8_t)t->entry;
    ks->sys.target = (uint8_t)target_rank(t);
}

const struct target *target_of(const struct kstate *ks)
{
    const struct target *t = target_get_rank(ks->sys.entry, ks->sys.target);
    return t ? t : target_default();
}

int target_kernel(const struct target *t, int asked, int dflt)
{
    if (t->kernel < 0)
        return asked >= 0 ? asked : dflt;
    return asked < 0 || asked == t->kernel ? t->kernel : -1;
}

const struct target *target_by_name(const char *s)
{
    for (int i = 0; i < N_TARGETS; i++)
        if (strcmp(s, targets[i]->name) == 0)
            return targets[i];
    return NULL;
}

const struct target *target_by_keyword(const char *k, size_t n)
{
    for (int i = 0; i < N_TARGETS; i++) {
        const struct target_line *l = targets[i]->line;
        if (l && strlen(l->keyword) == n && memcmp(k, l->keyword, n) == 0)
            return targets[i];
    }
    return NULL;
}

const char *target_names(char *buf, size_t len, const char *quote)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < N_TARGETS && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s", !i ? "" : i + 1 < N_TARGETS ? ", " : " or ",
                               quote, targets[i]->name, quote);
    return buf;
}

unsigned target_variant_fixes(const struct target *t, int v)
{
    return v == FP_FIXED ? t->fix_all : 0;
}

int target_fast(const struct target *t, struct kstate *ks, int v)
{
    unsigned tested;
    return t->fast_tested(ks, target_variant_fixes(t, v), &tested);
}

unsigned target_admit_left_by(const struct target *t, int v)
{
    return v == FP_PR1227 ? t->admit_as_written : 0;
}

unsigned target_admit_beside(const struct target *t)
{
    unsigned admit = 0;
    for (int i = 0; target_at(i); i++)
        if (target_at(i) != t && target_at(i)->built)
            admit |= target_at(i)->admit_built;
    return admit;
}

static const char *unreachable(const struct target *t, int e)
{
    return t->exit_unreachable ? t->exit_unreachable(e) : NULL;
}

int target_print_unreached(FILE *f, const struct target *t, int v, const uint64_t *exits)
{
    int never = 0;
    fprintf(f, "  never reached:");
    for (int e = 0; e < t->exits; e++)
        if (!exits[e] && !unreachable(t, e) && (v == FP_FIXED || e >= t->first_merged_exit))
            fprintf(f, " %s", t->exit_name(e)), never++;
    fprintf(f, "%s\n", never ? "" : " none");
    for (int e = 0; e < t->exits; e++)
        if (unreachable(t, e) && (v == FP_FIXED || e >= t->first_merged_exit))
            fprintf(f, "  %s %s: %s\n",
                    exits[e] ? "REACHED though argued unreachable (a stale argument):" : "not reachable (argued):",
                    t->exit_name(e), unreachable(t, e));
    return never;
}

unsigned target_admit_built(const struct kstate *ks)
{
    unsigned admit = 0;
    for (int i = 0; target_at(i); i++)
        if (target_at(i)->built && target_at(i)->built(&ks->cfg))
            admit |= target_at(i)->admit_built;
    return admit;
}
