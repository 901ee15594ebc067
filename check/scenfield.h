/*
 * scenfield: the scenario format's key=value field tables, public so that a
 * target's own file can declare the fields of its entry's line
 * (`syscall KEYWORD key=value ...`, struct target_line in target.h) as the
 * reader (scenario.c) parses them and the writer (print.c) prints them:
 * one table, both directions.
 */
#ifndef IRQSIM_SCENFIELD_H
#define IRQSIM_SCENFIELD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kstate.h"

/* what a field holds */
enum scen_fkind { SFK_NUM, SFK_BOOL, SFK_ENUM, SFK_REF, SFK_SPECIAL };
/* the object kinds a reference names (a state's arrays) */
enum scen_obj { SCEN_TCB, SCEN_SC, SCEN_NTFN, SCEN_EP, SCEN_REPLY, SCEN_VCPU };

struct scen_field {
    const char *key;
    uint8_t kind;              /* enum scen_fkind */
    uint8_t width;             /* bytes stored */
    size_t off;                /* offset in the record */
    uint64_t max;              /* largest value; SFK_REF: enum scen_obj */
    const char *(*names)(int); /* SFK_ENUM: names of 0..max */
};

#define SF_FLD(T, key, kind, m, max, names) {key, kind, sizeof(((T *)0)->m), offsetof(T, m), max, names}
#define SF_NUM(T, key, m, max) SF_FLD(T, key, SFK_NUM, m, max, NULL)
#define SF_FLAG(T, key, m) SF_FLD(T, key, SFK_BOOL, m, 1, NULL)
#define SF_ENUM(T, key, m, count, names) SF_FLD(T, key, SFK_ENUM, m, (count) - 1, names)
#define SF_REF(T, key, m, k) SF_FLD(T, key, SFK_REF, m, k, NULL)
#define SF_SPECIAL(key) {key, SFK_SPECIAL, 0, 0, 0, NULL}
#define SF_COUNT(tab) (sizeof(tab) / sizeof((tab)[0]))

/* The value of field f of the record at base (a reference sign-extended:
 * KS_NONE stays -1). */
static inline int64_t scen_field_get(const void *base, const struct scen_field *f)
{
    const char *p = (const char *)base + f->off;
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (f->width) { /* as scenario.c's store writes it */
    case 1: memcpy(&b1, p, 1); return f->kind == SFK_REF ? (int64_t)(int8_t)b1 : (int64_t)b1;
    case 2: memcpy(&b2, p, 2); return f->kind == SFK_REF ? (int64_t)(int16_t)b2 : (int64_t)b2;
    case 4: memcpy(&b4, p, 4); return f->kind == SFK_REF ? (int64_t)(int32_t)b4 : (int64_t)b4;
    default: memcpy(&b8, p, 8); return (int64_t)b8;
    }
}

#endif
