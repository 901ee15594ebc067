/* statefile: what the two exhaust state files share (statefile.h). */
#define _POSIX_C_SOURCE 200809L
#include "statefile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "diff.h"
#include "lineread.h"

int sf_fail(struct sf_err *e, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    e->line = line;
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- writing ---- */

struct out *sf_create(const struct sf_format *fmt, const char *path, const char *run)
{
    struct out *out = out_open(fmt->who, path);
    if (out)
        fprintf(out->f, "%s\nrun %s\n", fmt->magic, run);
    return out;
}

int sf_finish(struct out *out)
{
    fprintf(out->f, "end\n");
    return out_close(out);
}

void sf_put_list(FILE *f, const char *tag, const uint64_t *v, int n)
{
    fprintf(f, "%s", tag);
    for (int i = 0; i < n; i++)
        fprintf(f, " %" PRIu64, v[i]);
    fputc('\n', f);
}

/* ---- reading values ---- */

int sf_read_u64(const char **s, uint64_t *v)
{
    char *end;
    while (**s == ' ')
        (*s)++;
    if (**s < '0' || **s > '9')
        return -1;
    errno = 0;
    *v = strtoull(*s, &end, 10);
    if (errno == ERANGE)
        return -1;
    *s = end;
    return 0;
}

bool sf_at_eol(const char *s)
{
    return s[strspn(s, " \n")] == 0;
}

int sf_read_list(const char *s, uint64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (sf_read_u64(&s, &v[i]) != 0)
            return -1;
    return sf_at_eol(s) ? 0 : -1;
}

int sf_read_elapsed(const char *v, double *elapsed, int lineno, struct sf_err *e)
{
    char *end;
    *elapsed = strtod(v, &end);
    if (end == v || !sf_at_eol(end) || !(*elapsed >= 0 && *elapsed < 1e12))
        return sf_fail(e, lineno, "bad elapsed (seconds, 0 or more)");
    return 0;
}

int sf_run_line(const char *v, const char *want, const char *fields, int width, int lineno, struct sf_err *e)
{
    char got[256];
    snprintf(got, sizeof got, "%s", v);
    got[strcspn(got, "\n")] = 0;
    if (strcmp(want, got) != 0)
        return sf_fail(e, lineno, "is the state of another run (%s'%.*s'; this run: '%.*s')", fields, width, got,
                       width, want);
    return 0;
}

bool sf_cause_ok(const struct target *t, bool as_written, unsigned cause)
{
    if (!as_written)
        return cause == CLASS_NO_FIX || cause == CLASS_KERNEL; /* only the fastpath as written classifies */
    unsigned all = (1u << t->fixes) - 1;
    return cause == CLASS_NO_FIX || cause == CLASS_KERNEL || (cause != 0 && (cause & ~all) == 0);
}

bool sf_fields_ok(uint64_t fields)
{
    uint32_t all = DF_COUNT >= 32 ? UINT32_MAX : (1u << DF_COUNT) - 1;
    return (fields & ~(uint64_t)all) == 0;
}

/* ---- reading a file ---- */

/* the first line: this format's, another format's, or not a state file */
static int first_line(const struct sf_format *fmt, const char *line, struct sf_err *e)
{
    size_t n = strcspn(line, "\n"), m = strlen(fmt->magic);
    if (n == m && strncmp(line, fmt->magic, m) == 0 && line[m] == '\n')
        return 0;
    if (fmt->stem && strncmp(line, fmt->stem, strlen(fmt->stem)) == 0)
        return sf_fail(e, 1, "a state file of another format (%.*s; this irqsim writes %s): %s", (int)n, line,
                       fmt->magic, fmt->stem_why);
    return sf_fail(e, 1, "not an %s state file", fmt->who);
}

/* A once-key's line, and nothing after "end". */
static int key_once(const struct sf_reader *rd, int lineno, const char *key, struct sf_err *e)
{
    int end = 0;
    for (int i = 0; i < rd->n_keys; i++) {
        const struct sf_key *k = &rd->keys[i];
        if (!strcmp(key, k->name)) {
            if (*k->at)
                return sf_fail(e, lineno, "'%s' again (first on line %d)", key, *k->at);
            *k->at = lineno;
        }
        if (!strcmp(k->name, "end"))
            end = *k->at;
    }
    if (end && strcmp(key, "end") != 0)
        return sf_fail(e, lineno, "'%s' after 'end'", key);
    return 0;
}

/* One line after the first: "key values" into the format's reader. */
static int key_line(const struct sf_reader *rd, int lineno, const char *line, struct sf_err *e)
{
    char key[32];
    int n = 0;
    if (sscanf(line, "%31s %n", key, &n) != 1)
        return rd->fmt->strict ? sf_fail(e, lineno, "an empty line") : 0;
    if (key_once(rd, lineno, key, e) != 0)
        return -1;
    return rd->line(rd->ctx, lineno, key, line + n, e);
}

/* One line as line_read (lineread.h) left it: refused, the first, or a
 * "key values" line. */
static int one_line(const struct sf_reader *rd, enum line_status st, int lineno, const char *line, struct sf_err *e)
{
    const struct sf_format *fmt = rd->fmt;
    if (st == LINE_ERROR)
        return sf_fail(e, lineno, "read error: %s", strerror(errno));
    if (st == LINE_LONG)
        return sf_fail(e, lineno, "line longer than %d bytes", fmt->line_max - 2);
    if (st == LINE_NUL)
        return sf_fail(e, lineno, "a NUL byte");
    if (st == LINE_CUT && fmt->strict)
        return sf_fail(e, lineno, "cut short (no end of line: a file not written to its end)");
    if (lineno == 1)
        return first_line(fmt, line, e);
    return key_line(rd, lineno, line, e);
}

static int read_lines(const struct sf_reader *rd, FILE *f, struct sf_err *e)
{
    char *line = malloc((size_t)rd->fmt->line_max);
    if (!line)
        return sf_fail(e, 0, "out of memory");
    int lineno = 0, rc = 0;
    size_t n;
    for (enum line_status st; rc == 0 && (st = line_read(f, line, (size_t)rd->fmt->line_max, &n)) != LINE_EOF;)
        rc = one_line(rd, st, ++lineno, line, e);
    free(line);
    for (int i = 0; rc == 0 && i < rd->n_keys; i++)
        if (rd->keys[i].needed && !*rd->keys[i].at)
            rc = sf_fail(e, lineno ? lineno : 1, "%s", rd->incomplete);
    return rc;
}

int sf_refuse(const struct sf_format *fmt, const char *path, const struct sf_err *e)
{
    fprintf(stderr, "%s: %s:%d: %s\n", fmt->who, path, e->line, e->why);
    return -1;
}

int sf_load(const struct sf_reader *rd, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        fprintf(stderr, "%s: cannot read %s: %s\n", rd->fmt->who, path, strerror(errno));
        return -1;
    }
    struct sf_err e = {0, ""};
    int rc = read_lines(rd, f, &e);
    fclose(f);
    if (rc == 0 && rd->check)
        rc = rd->check(rd->ctx, &e);
    return rc == 0 ? 1 : sf_refuse(rd->fmt, path, &e);
}
