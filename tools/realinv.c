/* realinv: the real kernel's outcomes held to the exit invariants (realinv.h). */
#define _POSIX_C_SOURCE 200809L
#include "realinv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "target.h"

unsigned realinv_admit(const struct target *t, const struct kstate *in, bool as_built)
{
    return target_admit_built(in) | (as_built ? t->admit_as_written : 0);
}

static struct realinv_kind *kind_of(struct realinv *v, int id, int path, int model)
{
    for (int i = 0; i < v->n_kinds; i++)
        if (v->kinds[i].id == id && v->kinds[i].path == path && v->kinds[i].model == model)
            return &v->kinds[i];
    if (v->n_kinds == REALINV_MAX_KINDS)
        return NULL;
    struct realinv_kind *k = &v->kinds[v->n_kinds++];
    memset(k, 0, sizeof *k);
    k->id = id, k->path = path, k->model = model;
    return k;
}

static const char *model_word(int model)
{
    return model > 0 ? "the model's outcome breaks it too" : model == 0 ? "the model's outcome keeps it" : "no model run";
}

/* the entry state of a kind's first outcome, with the finding on top */
static void save(struct realinv *v, struct realinv_kind *k, const struct kstate *in)
{
    if (!v->out)
        return;
    char *path = out_join(v->out, "%s-invariant-%02d-seed%" PRIu64 ".scen", v->cmd, (int)(k - v->kinds), k->first_seed);
    char verdict[INV_MSG_LEN + 600];
    snprintf(verdict, sizeof verdict,
             "the real kernel's %s outcome breaks invariant %s at exit: %s\n(%s; %s)\nreal kernel: %s, seed %" PRIu64,
             k->path_name, inv_name(k->id), k->msg, inv_what(k->id), model_word(k->model), v->kernel, k->first_seed);
    if (path && out_reproducer(v->who, path, verdict, in, NULL) == 0) {
        k->reproducer = path;
        return;
    }
    v->write_errors++;
    free(path);
}

bool realinv_check(struct realinv *v, const struct kstate *in, const struct kstate *out, int path,
                   const char *path_name, unsigned admit, const struct kstate *model, uint64_t seed)
{
    struct inv_report rep;
    v->checked++;
    if (kstate_check_admit(out, INV_AT_EXIT, admit, &rep) == 0)
        return false;
    v->broken++;
    struct inv_report mrep;
    int shared = model ? kstate_check_admit(model, INV_AT_EXIT, admit, &mrep) > 0 : -1;
    struct realinv_kind *k = kind_of(v, rep.items[0].id, path, shared);
    if (!k) {
        v->dropped++;
        return true;
    }
    if (k->count++)
        return true;
    k->first_seed = seed;
    k->path_name = path_name;
    snprintf(k->msg, sizeof k->msg, "%s", rep.items[0].msg);
    save(v, k, in);
    if (strcmp(v->cmd, "check")) /* a generated state: its seed */
        printf("-- seed %" PRIu64 ": ", seed);
    else
        printf("-- ");
    printf("the real kernel's %s outcome breaks invariant %s at exit: %s (%s)\n", path_name, inv_name(k->id), k->msg,
           model_word(shared));
    if (k->reproducer)
        printf("  reproducer: %s\n", k->reproducer);
    return true;
}

void realinv_print(FILE *f, const struct realinv *v)
{
    fprintf(f, "  exit invariants on the real kernel's outcomes: %" PRIu64 " outcomes checked, %" PRIu64
               " broke one%s\n",
            v->checked, v->broken, v->broken ? " (KERNEL INVARIANT BROKEN: a finding)" : "");
    for (int i = 0; i < v->n_kinds; i++) {
        const struct realinv_kind *k = &v->kinds[i];
        fprintf(f, "    %8" PRIu64 "  %s after %s (%s)", k->count, inv_name(k->id), k->path_name, model_word(k->model));
        if (strcmp(v->cmd, "check")) /* a generated state: its seed; a scenario file is its own */
            fprintf(f, ", first --seed %" PRIu64, k->first_seed);
        fprintf(f, ": %s\n", k->msg);
        fprintf(f, "              why it holds: %s\n", inv_what(k->id));
    }
    if (v->dropped)
        fprintf(f, "    (%" PRIu64 " more, of kinds past the first %d)\n", v->dropped, REALINV_MAX_KINDS);
    if (v->skipped)
        fprintf(f, "    not held to them: %" PRIu64 " outcomes (%s)\n", v->skipped, v->skip_why);
}

void realinv_json(FILE *f, const struct realinv *v)
{
    fprintf(f, "\"invariants\": {\"checked\": %" PRIu64 ", \"broken\": %" PRIu64 ", \"skipped\": %" PRIu64 "}",
            v->checked, v->broken, v->skipped);
}

void realinv_free(struct realinv *v)
{
    for (int i = 0; i < v->n_kinds; i++)
        free(v->kinds[i].reproducer);
}
