/* cli: one option parser for every command, --fastpath for a target, the board list. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "defect.h"
#include "out.h"
#include "stop.h"
#include "target.h"

/* the engines in check/ return OUT_FAILED, the commands pass it on */
_Static_assert(EXIT_OUTPUT == OUT_FAILED, "one status for an output that could not be written");
_Static_assert(EXIT_INCOMPLETE == RUN_INCOMPLETE, "one status for a run that did not do what was asked");

/* "{defects:T}" or "{defects:T:K}" at p: target T's defect ids (of
 * kernel K's) into buf; the length of the placeholder, 0 when p is none */
static size_t defects_field(const char *p, char *buf, size_t len)
{
    static const char head[] = "{defects:";
    if (strncmp(p, head, sizeof head - 1) != 0)
        return 0;
    const char *name = p + sizeof head - 1, *close = strchr(name, '}');
    char t[32], *k;
    if (!close || (size_t)(close - name) >= sizeof t)
        return 0;
    memcpy(t, name, (size_t)(close - name));
    t[close - name] = 0;
    int kernel = -1;
    if ((k = strchr(t, ':')) != NULL) {
        *k++ = 0;
        kernel = cfg_kernel_parse(k);
    }
    const struct target *tg = target_by_name(t);
    if (!tg || (k && kernel < 0))
        return 0;
    defect_ids(tg, kernel, buf, len);
    return (size_t)(close - p) + 1;
}

void cli_usage(FILE *f, const char *usage)
{
    static const char boards[] = "{boards}";
    char buf[256];
    for (const char *p = usage; *p; p++) {
        size_t n = 0;
        if (*p == '{' && !strncmp(p, boards, sizeof boards - 1)) {
            fputs(cli_boards(buf, sizeof buf), f);
            n = sizeof boards - 1;
        } else if (*p == '{' && (n = defects_field(p, buf, sizeof buf)) != 0) {
            fputs(buf, f);
        }
        if (n)
            p += n - 1;
        else
            fputc(*p, f);
    }
}

static void verror(const struct cli_cmd *c, const char *fmt, va_list ap)
{
    fprintf(stderr, "irqsim %s: ", c->name);
    vfprintf(stderr, fmt, ap);
    if (c->hint) {
        fprintf(stderr, "\n(%s lists the options)\n", c->hint);
        return;
    }
    fputc('\n', stderr);
    cli_usage(stderr, c->usage);
}

int cli_error(const struct cli_cmd *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(c, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

static const struct cli_opt *find(const struct cli_cmd *c, const char *name)
{
    for (int i = 0; i < c->n_opts; i++)
        if (!strcmp(c->opts[i].name, name))
            return &c->opts[i];
    return NULL;
}

/* a number in [lo, hi]; whole when the option's field is an integer */
static int number(const struct cli_opt *d, const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x >= d->lo && x <= d->hi))
        return -1;
    if (d->kind != CLI_REAL && x != (double)(uint64_t)x)
        return -1;
    *out = x;
    return 0;
}

/* the index of v among "a|b|c", -1 when it is none of them */
static int choice(const char *choices, const char *v)
{
    size_t n = strlen(v);
    int i = 0;
    for (const char *p = choices; *p; i++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, v, n))
            return i;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

/* "a|b|c" as "a, b or c" */
static const char *or_list(const char *choices, char *buf, size_t len)
{
    size_t at = 0;
    for (const char *p = choices; *p && at + 1 < len; p++) {
        if (*p != '|') {
            buf[at++] = *p;
            continue;
        }
        const char *sep = strchr(p + 1, '|') ? ", " : " or ";
        for (const char *s = sep; *s && at + 1 < len; s++)
            buf[at++] = *s;
    }
    buf[at] = 0;
    return buf;
}

/* "base or master": the kernel versions' names, from sim/config.c */
static const char *kernel_names(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; cfg_kernel_name(k) && at < len; k++) {
        int n = snprintf(buf + at, len - at, "%s%s", !k ? "" : cfg_kernel_name(k + 1) ? ", " : " or ",
                         cfg_kernel_name(k));
        if (n < 0)
            break;
        at += (size_t)n;
    }
    return buf;
}

static int store(const struct cli_cmd *c, const struct cli_opt *d, void *o, const char *v)
{
    char *f = (char *)o + d->off, why[200], list[256];
    double x = 0;
    switch (d->kind) {
    case CLI_STR: *(const char **)(void *)f = v; return 0;
    case CLI_INT:
    case CLI_U64:
    case CLI_REAL:
        if (number(d, v, &x) != 0) {
            char hi[40] = "";
            if (d->hi < CLI_UNBOUNDED)
                snprintf(hi, sizeof hi, " to %.15g", d->hi);
            return cli_error(c, "%s: expected a%s number from %.15g%s, got '%s'", d->name,
                             d->kind == CLI_REAL ? "" : " whole", d->lo, hi, v);
        }
        if (d->kind == CLI_INT)
            *(int *)(void *)f = (int)x;
        else if (d->kind == CLI_U64)
            *(uint64_t *)(void *)f = (uint64_t)x;
        else
            *(double *)(void *)f = x;
        return 0;
    case CLI_TARGET: {
        const struct target *t = target_by_name(v);
        if (!t)
            return cli_error(c, "%s: expected %s, got '%s'", d->name, target_names(list, sizeof list, ""), v);
        *(const struct target **)(void *)f = t;
        return 0;
    }
    case CLI_KERNEL: {
        int k = cfg_kernel_parse(v);
        if (k < 0)
            return cli_error(c, "%s: expected %s, got '%s'", d->name, kernel_names(list, sizeof list), v);
        *(int *)(void *)f = k;
        return 0;
    }
    case CLI_BOARD: {
        struct ks_config cfg;
        if (cfg_preset(&cfg, v) != 0)
            return cli_error(c, "%s: unknown board '%s' (%s)", d->name, v, cli_boards(list, sizeof list));
        *(const char **)(void *)f = v;
        return 0;
    }
    case CLI_CHOICE: {
        int i = choice(d->choices, v);
        if (i < 0)
            return cli_error(c, "%s: expected %s, got '%s'", d->name, or_list(d->choices, list, sizeof list), v);
        *(int *)(void *)f = i;
        return 0;
    }
    case CLI_VARIANT: {
        const struct target *t = target_default();
        int v2 = t->variant_parse(v);
        if (v2 < 0)
            return cli_error(c, "%s: expected %s, got '%s'", d->name, or_list(t->variants, list, sizeof list), v);
        *(int *)(void *)f = v2;
        return 0;
    }
    default:
        why[0] = 0;
        if (d->fn(o, v, why, sizeof why) != 0)
            return cli_error(c, "%s: %s, got '%s'", d->name, why, v);
        return 0;
    }
}

int cli_parse(const struct cli_cmd *c, void *o, int first, int argc, char **argv)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_usage(stdout, c->usage);
            return 1;
        }
        const struct cli_opt *d = a[0] == '-' && a[1] ? find(c, a) : NULL;
        if (!d && a[0] == '-' && a[1])
            return cli_error(c, "unknown option '%s'", a);
        if (!d) {
            char why[200] = "";
            if (!c->arg)
                return cli_error(c, "takes no files (got '%s')", a);
            if (c->arg(o, a, why, sizeof why) != 0)
                return cli_error(c, "%s", why);
            continue;
        }
        if (d->seen)
            *(bool *)(void *)((char *)o + d->seen) = true;
        if (d->kind == CLI_SET || d->kind == CLI_CLEAR) {
            *(bool *)(void *)((char *)o + d->off) = d->kind == CLI_SET;
            continue;
        }
        if (i + 1 >= argc)
            return cli_error(c, "%s needs a value", a);
        int rc = store(c, d, o, argv[++i]);
        if (rc)
            return rc;
    }
    return 0;
}

int cli_variant(const char *cmd, const struct target *t, const char *given, const char *note, int *variant)
{
    *variant = given ? t->variant_parse(given) : 0;
    if (*variant >= 0)
        return 0;
    fprintf(stderr, "irqsim %s: --fastpath: the %s target's fastpaths are %s, got '%s'%s\n(irqsim %s --help lists the "
                    "options)\n", cmd, t->name, t->variants, given, note, cmd);
    return EXIT_USAGE;
}

const char *cli_boards(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; cfg_preset_name(i); i++) {
        int n = snprintf(buf + at, len - at, "%s%s", i ? " " : "", cfg_preset_name(i));
        if (n < 0 || (size_t)n >= len - at)
            break;
        at += (size_t)n;
    }
    return buf;
}
