/* out: every file irqsim writes, written whole or not at all (out.h). */
#define _XOPEN_SOURCE 700
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jval.h"
#include "print.h"
#include "workload.h"

/* Temporaries that keep failing with EEXIST (stale ones of a killed run
 * with the same process id) are tried under this many other names. */
#define TMP_TRIES 64

static void fail(const char *who, const char *path, const char *why)
{
    fprintf(stderr, "%s: cannot write %s: %s\n", who, path, why);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* The folder of path, with its trailing slash ("" for a bare name). */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* A temporary in the destination's folder (so the rename is atomic), named
 * by the process and by o's address: unique among the outputs open at
 * once, in every thread, without a shared counter. Created 0666 less the
 * umask, as fopen would. */
static int open_tmp(struct out *o)
{
    size_t d = dir_len(o->path), n = d + 64;
    o->tmp = malloc(n);
    if (!o->tmp)
        return -1;
    for (int i = 0; i < TMP_TRIES; i++) {
        snprintf(o->tmp, n, "%.*s.irqsim-%ld-%" PRIxPTR "-%d.tmp", (int)d, o->path, (long)getpid(),
                 (uintptr_t)o, i);
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* A destination that exists and is no regular file (a device, a FIFO) is
 * written in place: renaming onto /dev/null would replace the device. A
 * link to a regular file is followed, so the link stays a link. */
static int resolve(struct out *o)
{
    struct stat st;
    if (stat(o->path, &st) != 0)
        return 0; /* a new file (a dangling link is replaced) */
    if (!S_ISREG(st.st_mode))
        return 1;
    if (lstat(o->path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(o->path, NULL);
        if (!real)
            return -1;
        free(o->path);
        o->path = real;
    }
    return 0;
}

/* The temporary takes the mode of the file it replaces: a 0600 output
 * stays 0600 (a new file gets 0666 less the umask). Its owner and its
 * hard links are not kept: docs/inputs.md, "Outputs". */
static void keep_mode(const char *path, int fd)
{
    struct stat st;
    /* the permission bits only (no set-id bit on a file rewritten); an
     * fchmod of the file just created fails only where its writes would */
    if (stat(path, &st) == 0)
        (void)fchmod(fd, st.st_mode & 0777);
}

struct out *out_open(const char *who, const char *path)
{
    struct out *o = calloc(1, sizeof *o);
    if (!o || !(o->path = dup_str(path))) {
        fail(who, path, strerror(ENOMEM));
        free(o);
        return NULL;
    }
    o->who = who;
    errno = 0;
    int in_place = resolve(o), fd = -1;
    if (in_place == 0 && (fd = open_tmp(o)) >= 0)
        keep_mode(o->path, fd);
    else if (in_place == 1)
        fd = open(o->path, O_WRONLY | O_TRUNC);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno ? errno : ENOMEM;
        fail(who, path, strerror(e));
        if (fd >= 0)
            close(fd);
        if (fd >= 0 && o->tmp)
            unlink(o->tmp);
        free(o->tmp);
        free(o->path);
        free(o);
        return NULL;
    }
    if (in_place == 1) {
        free(o->tmp);
        o->tmp = NULL;
    }
    return o;
}

static void out_free(struct out *o)
{
    free(o->tmp);
    free(o->path);
    free(o);
}

int out_close(struct out *o)
{
    if (!o)
        return -1;
    int e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    if (!e && !o->why && o->tmp && rename(o->tmp, o->path) != 0)
        e = errno;
    if (e || o->why) {
        fail(o->who, o->path, o->why ? o->why : strerror(e));
        if (o->tmp)
            unlink(o->tmp);
        out_free(o);
        return -1;
    }
    out_free(o);
    return 0;
}

void out_discard(struct out *o)
{
    if (!o)
        return;
    fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    out_free(o);
}

void out_string(struct out *o, const char *s)
{
    if (jval_write_string(o->f, s) != 0 && !o->why)
        o->why = "a string for it is not UTF-8 (a file name?): JSON cannot hold it";
}

int out_text(const char *who, const char *path, const char *text)
{
    struct out *o = out_open(who, path);
    if (!o)
        return -1;
    fputs(text, o->f);
    return out_close(o);
}

void out_commented(FILE *f, const char *text)
{
    fputs("# ", f);
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fputs("# ", f);
    }
    /* a text without a final newline must not run into what follows (the
     * scenario's own "# irqsim scenario" line was joined to the verdict) */
    size_t n = strlen(text);
    if (!n || text[n - 1] != '\n')
        fputc('\n', f);
}

int out_reproducer(const char *who, const char *path, const char *verdict, const struct kstate *ks,
                   const struct workload *w)
{
    struct out *o = out_open(who, path);
    if (!o)
        return -1;
    if (verdict)
        out_commented(o->f, verdict);
    if (ks)
        ks_print(o->f, ks);
    else
        workload_print(o->f, w);
    return out_close(o);
}

char *out_join(const char *dir, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t d = strlen(dir), len = d + 1 + (size_t)(n < 0 ? 0 : n) + 1;
    char *path = n < 0 ? NULL : malloc(len);
    if (!path) {
        fprintf(stderr, "irqsim: out of memory for a path in %s\n", dir);
        return NULL;
    }
    memcpy(path, dir, d);
    path[d] = '/';
    va_start(ap, fmt);
    vsnprintf(path + d + 1, len - d - 1, fmt, ap);
    va_end(ap);
    return path;
}

int out_dir(const char *who, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0)
        return 0;
    int e = errno;
    if (e == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    fprintf(stderr, "%s: cannot create the folder %s: %s\n", who, dir,
            e == EEXIST ? "a file of that name exists, not a folder" : strerror(e));
    return -1;
}

int out_stdout_open(const char *who)
{
    if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF)
        return 0;
    fprintf(stderr, "%s: cannot write standard output: it is closed\n", who);
    return -1;
}

int out_stdout_close(const char *who, int rc)
{
    /* a write that failed while the command ran left the error flag, not
     * its errno (overwritten since): its reason is not known */
    const char *why = ferror(stdout) ? "a write to it failed" : NULL;
    errno = 0;
    if (fflush(stdout) != 0 && !why)
        why = strerror(errno ? errno : EIO);
    errno = 0;
    if (fclose(stdout) != 0 && !why)
        why = strerror(errno ? errno : EIO);
    if (!why)
        return rc;
    fprintf(stderr, "%s: cannot write standard output: %s\n", who, why);
    return rc == 2 || rc == 3 ? rc : OUT_FAILED;
}

/* out and in name the same file: by inode when both exist (a device or a
 * FIFO excepted), else by the path as given. */
static bool same_file(const char *out, const char *in)
{
    struct stat so, si;
    if (stat(out, &so) != 0 || stat(in, &si) != 0)
        return !strcmp(out, in);
    return S_ISREG(so.st_mode) && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
}

int out_not_input(const char *who, const char *const *outs, int n_outs, const char *const *ins, int n_ins)
{
    for (int o = 0; o < n_outs; o++)
        for (int i = 0; outs[o] && i < n_ins; i++) {
            if (!ins[i] || !strcmp(ins[i], "-") || !same_file(outs[o], ins[i]))
                continue;
            fprintf(stderr, "%s: %s is also an input (%s): not written over\n", who, outs[o], ins[i]);
            return -1;
        }
    return 0;
}
