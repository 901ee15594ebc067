/* jval: recursive-descent reader into a pool of values (jval.h). */
#include "jval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
    struct jval_doc *d;
    const char *s;
    size_t len, pos;
    int depth;
    char *err;
    size_t errlen;
    bool failed;
};

void jval_doc_init(struct jval_doc *d)
{
    memset(d, 0, sizeof *d);
}

void jval_doc_free(struct jval_doc *d)
{
    size_t mv = d->max_values, ms = d->max_string;
    free(d->vals);
    free(d->text);
    jval_doc_init(d);
    d->max_values = mv;
    d->max_string = ms;
}

/* "line L, column C: what" (1-based, columns in bytes) */
static int fail(struct jp *p, const char *what)
{
    size_t line = 1, col = 1;
    for (size_t i = 0; i < p->pos && i < p->len; i++, col++)
        if (p->s[i] == '\n') {
            line++;
            col = 0;
        }
    if (!p->failed) {
        snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
        p->d->err_line = line;
        p->d->err_col = col;
        p->d->err_what = what;
    }
    p->failed = true;
    return -1;
}

static int grow(void **buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    void *b = realloc(*buf, n * size);
    if (!b)
        return -1;
    *buf = b;
    *cap = n;
    return 0;
}

static int new_val(struct jp *p, int type)
{
    struct jval_doc *d = p->d;
    if (d->nvals >= (d->max_values ? d->max_values : JV_MAX_VALUES))
        return fail(p, "too many values");
    if (grow((void **)&d->vals, &d->cap, d->nvals + 1, sizeof *d->vals))
        return fail(p, "out of memory");
    struct jval *v = &d->vals[d->nvals];
    memset(v, 0, sizeof *v);
    v->type = (uint8_t)type;
    v->first = v->next = -1;
    return (int)d->nvals++;
}

static void skip_ws(struct jp *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
        p->pos++;
}

static bool eat(struct jp *p, char ch)
{
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ch) {
        p->pos++;
        return true;
    }
    return false;
}

static bool word(struct jp *p, const char *w)
{
    size_t n = strlen(w);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0)
        return false;
    p->pos += n;
    return true;
}

/* Text offsets, not pointers, while parsing: the text pool may move. */
static int put_char(struct jp *p, char ch)
{
    struct jval_doc *d = p->d;
    if (grow((void **)&d->text, &d->text_cap, d->ntext + 1, 1))
        return fail(p, "out of memory");
    d->text[d->ntext++] = ch;
    return 0;
}

static int hex4(struct jp *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++, p->pos++) {
        char ch = p->pos < p->len ? p->s[p->pos] : 0;
        int x = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (x < 0)
            return fail(p, "bad \\u escape");
        v = v * 16 + (unsigned)x;
    }
    *out = v;
    return 0;
}

/* UTF-8 of a \u escape (surrogates are kept as their own code units: the
 * traces hold only ASCII names) */
static int put_code(struct jp *p, unsigned c)
{
    if (c < 0x80)
        return put_char(p, (char)c);
    if (c < 0x800)
        return put_char(p, (char)(0xc0 | (c >> 6))) || put_char(p, (char)(0x80 | (c & 0x3f)));
    return put_char(p, (char)(0xe0 | (c >> 12))) || put_char(p, (char)(0x80 | ((c >> 6) & 0x3f))) ||
           put_char(p, (char)(0x80 | (c & 0x3f)));
}

static int escape(struct jp *p)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    char ch = p->pos < p->len ? p->s[p->pos++] : 0;
    const char *at = ch ? strchr(from, ch) : NULL;
    if (at)
        return put_char(p, to[at - from]);
    if (ch != 'u')
        return fail(p, "bad escape in string");
    unsigned c = 0; /* hex4 sets it on success (initialised for gcc -O2 -Wmaybe-uninitialized) */
    return hex4(p, &c) || put_code(p, c);
}

/* A string into the text pool; *off is where it starts. */
static int string_body(struct jp *p, size_t *off)
{
    if (!eat(p, '"'))
        return fail(p, "expected '\"'");
    *off = p->d->ntext;
    size_t max = p->d->max_string ? p->d->max_string : JV_MAX_STRING;
    for (;;) {
        if (p->pos >= p->len)
            return fail(p, "unterminated string");
        char ch = p->s[p->pos++];
        if (ch == '"')
            return put_char(p, 0);
        if ((unsigned char)ch < 0x20)
            return fail(p, "control character in string");
        if (ch == '\\' ? escape(p) : put_char(p, ch))
            return -1;
        if (p->d->ntext - *off > max)
            return fail(p, "string too long");
    }
}

static int number(struct jp *p, int v)
{
    size_t start = p->pos;
    bool neg = p->s[p->pos] == '-';
    p->pos += neg;
    uint64_t u = 0;
    bool over = false, digits = false;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
        unsigned dg = (unsigned)(p->s[p->pos++] - '0');
        over |= u > (UINT64_MAX - dg) / 10;
        u = u * 10 + dg;
        digits = true;
    }
    if (!digits)
        return fail(p, "expected a value");
    bool real = false;
    while (p->pos < p->len && strchr(".eE+-0123456789", p->s[p->pos]) && p->s[p->pos]) {
        real = true;
        p->pos++;
    }
    char buf[64];
    size_t n = p->pos - start < sizeof buf - 1 ? p->pos - start : sizeof buf - 1;
    memcpy(buf, p->s + start, n);
    buf[n] = 0;
    struct jval *jv = &p->d->vals[v];
    jv->real = strtod(buf, NULL);
    if (real || over) {
        jv->type = JV_REAL;
        return 0;
    }
    jv->type = JV_INT;
    jv->u = u;
    jv->neg = neg && u != 0;
    return 0;
}

static int value(struct jp *p);

/* Append child c to parent v's list; *last tracks the tail. */
static void link_child(struct jp *p, int v, int c, int *last)
{
    struct jval *vals = p->d->vals;
    if (*last < 0)
        vals[v].first = c;
    else
        vals[*last].next = c;
    *last = c;
    vals[v].len++;
}

static int array(struct jp *p, int v)
{
    int last = -1;
    if (eat(p, ']'))
        return 0;
    do {
        int c = value(p);
        if (c < 0)
            return -1;
        link_child(p, v, c, &last);
    } while (eat(p, ','));
    return eat(p, ']') ? 0 : fail(p, "expected ',' or ']'");
}

static int object(struct jp *p, int v)
{
    int last = -1;
    if (eat(p, '}'))
        return 0;
    do {
        size_t key = 0; /* set by string_body on success */
        if (string_body(p, &key))
            return -1;
        if (!eat(p, ':'))
            return fail(p, "expected ':'");
        int c = value(p);
        if (c < 0)
            return -1;
        p->d->vals[c].key = (const char *)(uintptr_t)(key + 1); /* offset + 1, fixed up after */
        link_child(p, v, c, &last);
    } while (eat(p, ','));
    return eat(p, '}') ? 0 : fail(p, "expected ',' or '}'");
}

static int value(struct jp *p)
{
    skip_ws(p);
    if (p->pos >= p->len)
        return fail(p, "expected a value");
    if (++p->depth > JV_MAX_DEPTH)
        return fail(p, "nested too deeply");
    char ch = p->s[p->pos];
    int v = new_val(p, JV_NULL), rc = 0;
    if (v < 0)
        return -1;
    if (ch == '{' || ch == '[') {
        p->pos++;
        p->d->vals[v].type = ch == '{' ? JV_OBJECT : JV_ARRAY;
        rc = ch == '{' ? object(p, v) : array(p, v);
    } else if (ch == '"') {
        size_t off = 0; /* set by string_body on success */
        rc = string_body(p, &off);
        p->d->vals[v].type = JV_STRING;
        p->d->vals[v].str = (const char *)(uintptr_t)(off + 1);
        p->d->vals[v].len = (uint32_t)(p->d->ntext - off - 1);
    } else if (word(p, "true") || word(p, "false")) {
        p->d->vals[v].type = JV_BOOL;
        p->d->vals[v].u = ch == 't';
    } else if (!word(p, "null")) {
        rc = number(p, v);
    }
    p->depth--;
    return rc ? -1 : v;
}

/* Offsets become pointers once the text pool no longer moves. */
static void fix_strings(struct jval_doc *d)
{
    for (size_t i = 0; i < d->nvals; i++) {
        struct jval *v = &d->vals[i];
        if (v->key)
            v->key = d->text + ((uintptr_t)v->key - 1);
        if (v->str)
            v->str = d->text + ((uintptr_t)v->str - 1);
    }
}

const struct jval *jval_parse(struct jval_doc *d, const char *s, size_t len, char *err, size_t errlen)
{
    struct jp p = {.d = d, .s = s, .len = len, .err = err, .errlen = errlen};
    d->nvals = d->ntext = 0;
    d->err_line = d->err_col = 0;
    d->err_what = NULL;
    int root = value(&p);
    skip_ws(&p);
    if (root >= 0 && p.pos < len)
        root = fail(&p, "text after the value");
    if (root < 0)
        return NULL;
    fix_strings(d);
    return &d->vals[root];
}

const struct jval *jval_first(const struct jval_doc *d, const struct jval *v)
{
    return v && v->first >= 0 ? &d->vals[v->first] : NULL;
}

const struct jval *jval_next(const struct jval_doc *d, const struct jval *v)
{
    return v && v->next >= 0 ? &d->vals[v->next] : NULL;
}

const struct jval *jval_get(const struct jval_doc *d, const struct jval *v, const char *key)
{
    if (!v || v->type != JV_OBJECT)
        return NULL;
    for (const struct jval *c = jval_first(d, v); c; c = jval_next(d, c))
        if (strcmp(c->key, key) == 0)
            return c;
    return NULL;
}

const struct jval *jval_at(const struct jval_doc *d, const struct jval *v, uint32_t i)
{
    if (!v || v->type != JV_ARRAY || i >= v->len)
        return NULL;
    const struct jval *c = jval_first(d, v);
    while (i-- > 0)
        c = jval_next(d, c);
    return c;
}

const char *jval_str(const struct jval_doc *d, const struct jval *o, const char *key, const char *dflt)
{
    const struct jval *v = jval_get(d, o, key);
    return v && v->type == JV_STRING ? v->str : dflt;
}

double jval_num(const struct jval_doc *d, const struct jval *o, const char *key, double dflt)
{
    const struct jval *v = jval_get(d, o, key);
    if (!v || (v->type != JV_INT && v->type != JV_REAL))
        return dflt;
    return v->type == JV_INT ? (v->neg ? -(double)v->u : (double)v->u) : v->real;
}

/* The length of the UTF-8 sequence at s (RFC 3629: shortest form, no
 * surrogates, at most U+10FFFF), 0 when it is none. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
            : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

int jval_write_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    int rc = 0;
    fputc('"', f);
    while (*s) {
        int n = utf8_len(s);
        if (*s == '"' || *s == '\\') {
            fputc('\\', f);
            fputc(*s, f);
        } else if (*s == '\n') {
            fputs("\\n", f);
        } else if (*s == '\t') {
            fputs("\\t", f);
        } else if (*s < 0x20 || *s == 0x7f || !n) {
            /* a byte that is no UTF-8 is written as the code point of its
             * value, so the document stays valid, and reported */
            fprintf(f, "\\u%04x", *s);
            rc |= !n ? -1 : 0;
            n = 1;
        } else {
            fwrite(s, 1, (size_t)n, f);
        }
        s += n ? n : 1;
    }
    fputc('"', f);
    return rc;
}
