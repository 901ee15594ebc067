/*
 * jval: a small reader for one JSON document (a line of a captured trace).
 * Parses into a tree of values held in a caller-owned pool, so a trace of
 * thousands of lines reuses one allocation. Integers keep all 64 bits
 * (kernel times and the timer's UINT64_MAX); a syntax error names the line
 * and column and what was expected. The limits below bound the memory and
 * recursion any input can take (docs/inputs.md).
 */
#ifndef IRQSIM_JVAL_H
#define IRQSIM_JVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum jval_type { JV_NULL, JV_BOOL, JV_INT, JV_REAL, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jval {
    uint8_t type;      /* enum jval_type */
    bool neg;          /* JV_INT: the value is -u */
    uint64_t u;        /* JV_INT magnitude, JV_BOOL 0/1 */
    double real;       /* JV_REAL (and JV_INT as a double) */
    const char *str;   /* JV_STRING (NUL-terminated, in the pool); object member key */
    const char *key;   /* the member's key when this value is in an object */
    int32_t first, next; /* first child, next sibling: indices into the pool, -1 none */
    uint32_t len;      /* JV_ARRAY/OBJECT: members; JV_STRING: bytes */
};

/* Nesting depth (the parser recurses), values per document and bytes per
 * string (after unescaping). A trace line (at most 1 MiB) never reaches the
 * default counts: it holds at most 524,289 values. */
#define JV_MAX_DEPTH 64
#define JV_MAX_VALUES (1u << 20)
#define JV_MAX_STRING (1u << 20)

struct jval_doc {
    struct jval *vals;
    size_t nvals, cap;
    char *text;        /* strings, unescaped */
    size_t ntext, text_cap;
    size_t max_values; /* 0: JV_MAX_VALUES; set after jval_doc_init */
    size_t max_string; /* 0: JV_MAX_STRING */
    /* where the last parse failed (1-based; 0 when it did not), and why */
    size_t err_line, err_col;
    const char *err_what;
};

void jval_doc_init(struct jval_doc *d);
void jval_doc_free(struct jval_doc *d);

/* Parse len bytes. Returns the root value, or NULL with err filled
 * ("line 1, column 6: expected ':'") and err_line, err_col, err_what set.
 * Values of an earlier parse are dropped. */
const struct jval *jval_parse(struct jval_doc *d, const char *s, size_t len, char *err, size_t errlen);

/* Member of an object by key (NULL when absent or v is not an object). */
const struct jval *jval_get(const struct jval_doc *d, const struct jval *v, const char *key);
/* Element i of an array (NULL when out of range). */
const struct jval *jval_at(const struct jval_doc *d, const struct jval *v, uint32_t i);
/* A member's string or number, dflt when absent or of another type (a
 * number as a double: for counts and seconds, not for 64-bit times). */
const char *jval_str(const struct jval_doc *d, const struct jval *o, const char *key, const char *dflt);
double jval_num(const struct jval_doc *d, const struct jval *o, const char *key, double dflt);
/* First child and next sibling, for iterating arrays and objects. */
const struct jval *jval_first(const struct jval_doc *d, const struct jval *v);
const struct jval *jval_next(const struct jval_doc *d, const struct jval *v);

/* Write s as a JSON string literal: quotes, backslashes and control
 * characters escaped, UTF-8 as it is. The one JSON string writer of irqsim
 * (out_string for an output file). A byte that is not part of valid UTF-8
 * (a file name in another encoding) is written as \u00XX, which a reader
 * takes for another character: -1 says so, and out_string refuses the
 * output; 0 otherwise. */
int jval_write_string(FILE *f, const char *s);

#endif
