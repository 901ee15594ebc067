/* rk_diff: diff_run's verdict on two outcomes computed elsewhere. */
#include "rk_diff.h"

#include <string.h>

#include "diff.h"
#include "kassert.h"

uint32_t rk_verdict(struct kstate *slow, struct kstate *fast, bool invariants)
{
    struct diff_verdict v = {0};
    diff_judge(slow, fast, invariants, &v);
    return v.fields;
}

/* Failed assertions a state records, counted apart: during a kernel path,
 * and during the normalisation (commitTime on an outcome, the harness's). */
static int path_asserts(const struct kstate *ks, bool norm)
{
    int n = 0, kept = ks->n_asserts < KS_MAX_ASSERTS ? ks->n_asserts : KS_MAX_ASSERTS;
    for (int i = 0; i < kept; i++)
        n += (ks->asserts[i].path == PATH_NORM) == norm;
    return n;
}

uint32_t rk_compare(const struct kstate *x, bool ox, const struct kstate *y, bool oy, bool model_debug)
{
    uint32_t f = diff_compare(x, y, NULL);
    if (ox != oy)
        f |= 1u << DF_OVERRUN;
    if (path_asserts(x, true) != path_asserts(y, true) || (model_debug && path_asserts(x, false)))
        f |= 1u << DF_ASSERT;
    return f;
}

/* Halts of the real debug kernel that are known findings, which the model
 * does not mirror: counted apart from the unexplained mismatches. */
static const struct {
    const char *where, *what;
    const char *also; /* a second text the halt must show too; NULL: none */
} known_halts[] = {
    {"cap_vspace_cap_get_capVSBasePtr",
     "PR #1227 reads the woken thread's vspace root before checking its VTable cap; a debug kernel asserts "
     "on a null cap (docs/FINDINGS.md, \"Evidence outside the model\")",
     NULL},
    /* the model mirrors the test (sim/vcpu.c, A_VPPI_RUNNABLE) but not the
     * halt; the trees before 6dbe58ef0 reach it. Only in the two handlers:
     * checkBudgetRestart asserts the same expression (thread.h:294) */
    {"'isRunnable(NODE_STATE(ksCurThread))' at",
     "VPPIEvent on a current thread the entry's budget check has already blocked on its timeout fault: the trees "
     "before 6dbe58ef0 (\"Fix VGIC and VPPI maintenance handling\", 2025) test only tcbQueued (docs/model.md, "
     "\"VCPUs\")",
     "in function VPPIEvent"},
    {"'isRunnable(NODE_STATE(ksCurThread))' at",
     "VGICMaintenance on a current thread the entry's budget check has already blocked on its timeout fault: the "
     "trees before 6dbe58ef0 test only tcbQueued (docs/model.md, \"VCPUs\")",
     "in function VGICMaintenance"},
    /* the same trees, when the fault IPC donates that thread's SC (out of
     * budget) to a passive fault handler: sendIPC asserts the SC ready */
    {"refill_ready(dest->tcbSchedContext)' at",
     "VGICMaintenance donating the SC of a current thread out of budget to its fault handler: the trees before "
     "6dbe58ef0 (docs/model.md, \"VCPUs\")",
     "Kernel entry via Interrupt, irq 25"},
    {"refill_ready(dest->tcbSchedContext)' at",
     "VPPIEvent donating the SC of a current thread out of budget to its fault handler: the trees before "
     "6dbe58ef0 (docs/model.md, \"VCPUs\")",
     "Kernel entry via Interrupt, irq 27"},
};

/* "in function NAME" in a debug kernel's halt text, NAME whole */
static bool names_function(const char *text, const char *fn)
{
    static const char in[] = "in function ";
    size_t n = strlen(fn);
    for (const char *p = strstr(text, in); p; p = strstr(p + 1, in)) {
        const char *q = p + sizeof in - 1;
        if (!strncmp(q, fn, n) && !(q[n] == '_' || (q[n] >= '0' && q[n] <= '9') || ((q[n] | 32) >= 'a' && (q[n] | 32) <= 'z')))
            return true;
    }
    return false;
}

int rk_predicted_halt(const struct kstate *model, const char *text)
{
    int kept = model->n_asserts < KS_MAX_ASSERTS ? model->n_asserts : KS_MAX_ASSERTS;
    for (int i = 0; i < kept; i++) {
        int id = model->asserts[i].id;
        if (model->asserts[i].path == PATH_NORM)
            continue;
        if (text[0] ? names_function(text, kassert_fn(id)) : strstr(kassert_msg(id), "(fail)") != NULL)
            return id;
    }
    return -1;
}

const char *rk_known_halt(const char *text)
{
    for (size_t i = 0; i < sizeof known_halts / sizeof known_halts[0]; i++)
        if (strstr(text, known_halts[i].where) && (!known_halts[i].also || strstr(text, known_halts[i].also)))
            return known_halts[i].what;
    return NULL;
}
