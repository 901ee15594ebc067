/* defect: the map from a class's cause to a target's defects. */
#include "defect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "config.h"
#include "target.h"

const struct defect_info *defect_info(const struct target *t, int d)
{
    return d >= 0 && d < t->n_defects ? &t->defects[d] : NULL;
}

int defect_index(const struct target *t, const char *id)
{
    for (int d = 0; d < t->n_defects; d++)
        if (!strcmp(t->defects[d].id, id))
            return d;
    return -1;
}

bool defect_possible(const struct target *t, int d, int kernel)
{
    return cfg_kernel_has(kernel, (enum ks_feature)t->defects[d].needs);
}

bool defect_possible_here(const struct target *t, int d, int kernel, int cores, bool vcpus)
{
    const struct defect_info *di = &t->defects[d];
    if (!defect_possible(t, d, kernel) || (di->vcpus && !vcpus))
        return false;
    return cores >= di->min_cores && (!di->max_cores || cores <= di->max_cores);
}

unsigned cause_defects(const struct target *t, unsigned cause)
{
    if (!cause_is_fixes(cause))
        return 0;
    unsigned mask = 0;
    for (int d = 0; d < t->n_defects; d++)
        if ((cause & t->defects[d].need) == t->defects[d].need && !(cause & t->defects[d].unless))
            mask |= 1u << d;
    return mask;
}

const char *cause_defects_text(const struct target *t, unsigned cause, char *buf, size_t len)
{
    if (cause == CLASS_KERNEL) {
        snprintf(buf, len, "none: the kernel's own outcome (both paths alike)");
        return buf;
    }
    if (!cause_is_fixes(cause)) {
        snprintf(buf, len, "unexplained");
        return buf;
    }
    return defects_text(t, cause_defects(t, cause), buf, len);
}

const char *defects_text(const struct target *t, unsigned mask, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int d = 0; d < t->n_defects; d++) {
        if (!(mask & (1u << d)))
            continue;
        int n = snprintf(buf + at, len - at, "%s%s", at ? "+" : "", t->defects[d].id);
        if (n < 0 || (size_t)n >= len - at) { /* truncated: keep the ids that fit */
            buf[at] = 0;
            break;
        }
        at += (size_t)n;
    }
    if (!at)
        snprintf(buf, len, "none");
    return buf;
}

unsigned cause_of_text(const struct target *t, const char *text)
{
    unsigned bits = 0;
    for (int b = 0; b < t->fixes; b++) {
        size_t n = strlen(t->fix_name(b));
        for (const char *p = text; (p = strstr(p, t->fix_name(b))) != NULL; p += n)
            if ((p == text || p[-1] == '+') && (p[n] == 0 || p[n] == '+'))
                bits |= 1u << b;
    }
    return bits;
}

const char *defect_fix(const struct target *t, int d)
{
    unsigned need = t->defects[d].need;
    for (int b = 0; b < t->fixes; b++)
        if (need & (1u << b))
            return t->fix_name(b);
    return "?";
}

/* the number after an id's letters ("F10": 10), -1 when there is none */
static long id_number(const char *id, size_t *prefix)
{
    size_t n = strcspn(id, "0123456789");
    char *end;
    long v = strtol(id + n, &end, 10);
    *prefix = n;
    return id[n] && !*end ? v : -1;
}

/* whether defect b's id follows a's: the same letters, the next number */
static bool id_follows(const char *a, const char *b)
{
    size_t pa, pb;
    long na = id_number(a, &pa), nb = id_number(b, &pb);
    return na >= 0 && nb == na + 1 && pa == pb && !strncmp(a, b, pa);
}

const char *defect_ids(const struct target *t, int kernel, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int d = 0; d < t->n_defects; d++) {
        if (kernel >= 0 && !defect_possible(t, d, kernel))
            continue;
        int last = d; /* the run of defects that follow each other from d */
        while (last + 1 < t->n_defects && (kernel < 0 || defect_possible(t, last + 1, kernel)) &&
               id_follows(t->defects[last].id, t->defects[last + 1].id))
            last++;
        if (last == d + 1)
            last = d; /* two are a list, "F10, F11": a range takes three */
        int n = last > d ? snprintf(buf + at, len - at, "%s%s-%s", at ? ", " : "", t->defects[d].id,
                                    t->defects[last].id)
                         : snprintf(buf + at, len - at, "%s%s", at ? ", " : "", t->defects[d].id);
        if (n < 0 || (size_t)n >= len - at) { /* truncated: keep the items that fit */
            buf[at] = 0;
            break;
        }
        at += (size_t)n;
        d = last;
    }
    return buf;
}
