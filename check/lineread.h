/* lineread: one line of a text file, bounded before it is held. */
#ifndef IRQSIM_LINEREAD_H
#define IRQSIM_LINEREAD_H

#include <stddef.h>
#include <stdio.h>

enum line_status {
    LINE_OK,    /* a whole line, its '\n' last */
    LINE_EOF,   /* nothing left */
    LINE_LONG,  /* more than cap - 2 bytes before its '\n': the rest is left unread */
    LINE_NUL,   /* a NUL byte (text has none): the rest is left unread */
    LINE_CUT,   /* the last line, without its '\n' */
    LINE_ERROR, /* a read error (errno says which) */
};

/* Reads one line of f into buf (cap bytes, at least 2), NUL-terminated,
 * its length in *len. It reads at most cap - 1 bytes, so an endless line
 * (/dev/zero, a file with no newline) costs cap bytes, not the file:
 * getline grows its buffer to the whole line first. */
enum line_status line_read(FILE *f, char *buf, size_t cap, size_t *len);

#endif
