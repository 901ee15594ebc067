/* exectree_jobs: the tree's roots in child processes (exectree.h,
 * exec_tree_jobs). The roots (entry latency x IPI latency) share no
 * simulator state, so each can be explored in a process of its own; the
 * results come back through a temporary file each and are merged in root
 * order, the order one process explores them in, so that the answers
 * (classes in the order met, the first refusal, the distinct entry states
 * as one set) are that process's. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, nanosleep */
#include "exectree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SLICES 64 /* the units of a root (the command cuts each into EXEC_JOB_SLICES) */
#define MAX_ROOTS (2 * EXEC_LATENCIES * MAX_SLICES) /* the units: roots, or slices of roots */
#define POLL_NS 5000000L /* the parent's look at its children: 5 ms (a slice may take less than 0.1 s, and a new one starts only at a look) */

/* what parent and children share (an anonymous shared mapping): each
 * root's coverage so far, for the parent's progress, and the parent's
 * stop, which the children poll */
struct shared {
    volatile uint64_t covered[MAX_ROOTS];
    volatile int stop;
};

struct child_ctx {
    struct shared *sh;
    unsigned root;        /* the unit: root root / slices, slice root % slices */
    int slices;
    bool (*stop)(void *ctx);
    void *ctx;
};

static void child_progress(void *arg, uint64_t done, uint64_t of)
{
    (void)of;
    struct child_ctx *c = arg;
    c->sh->covered[c->root] = done;
}

/* the parent's stop, or the run's own (--seconds: a child's clock is the parent's) */
static bool child_stop(void *arg)
{
    struct child_ctx *c = arg;
    return c->sh->stop || (c->stop && c->stop(c->ctx));
}

/* r as bytes: the struct, then the distinct entry states' hashes (the
 * child's pointer means nothing to the parent) */
static int result_write(FILE *f, const struct exec_result *r)
{
    if (fwrite(r, sizeof *r, 1, f) != 1)
        return -1;
    for (size_t i = 0; i < r->seen.cap; i++)
        if (r->seen.slot[i] && fwrite(&r->seen.slot[i], sizeof r->seen.slot[i], 1, f) != 1)
            return -1;
    return fflush(f) == 0 ? 0 : -1;
}

static int result_read(FILE *f, struct exec_result *r)
{
    rewind(f);
    if (fread(r, sizeof *r, 1, f) != 1)
        return -1;
    size_t n = r->seen.n;
    r->seen = (struct exec_set){NULL, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t h;
        if (fread(&h, sizeof h, 1, f) != 1)
            return -1;
        exec_set_add(&r->seen, h);
    }
    return 0;
}

/* the child: root i explored, its result written, the process ended
 * (_exit: the parent's buffered output is the parent's to write) */
static void child(const struct exec_opts *o, const struct exec_tree_opts *t, unsigned i, FILE *out,
                  struct child_ctx *c)
{
    struct exec_result *r = calloc(1, sizeof *r);
    if (!r || exec_begin(o, r) != 0)
        _exit(2);
    int rc = exec_tree_unit(o, t, i / (unsigned)c->slices, (int)(i % (unsigned)c->slices), c->slices, r,
                            child_progress, child_stop, c);
    c->sh->covered[i] = r->tree.covered;
    _exit(rc == 0 && result_write(out, r) == 0 ? 0 : 1);
}

struct job {
    pid_t pid;
    FILE *out;
    bool done, failed;
};

static void start(const struct exec_opts *o, const struct exec_tree_opts *t, unsigned i, struct job *j,
                  struct child_ctx *c)
{
    if (!(j->out = tmpfile())) {
        j->done = j->failed = true;
        return;
    }
    fflush(NULL); /* nothing buffered in two processes */
    j->pid = fork();
    if (j->pid == 0)
        child(o, t, i, j->out, c);
    if (j->pid < 0)
        j->done = j->failed = true;
}

/* the children that ended, reaped; the number still running */
static int reap(struct job *jobs, unsigned started)
{
    int running = 0;
    for (unsigned i = 0; i < started; i++) {
        struct job *j = &jobs[i];
        if (j->done)
            continue;
        int status;
        pid_t p = waitpid(j->pid, &status, WNOHANG);
        if (p == 0 || (p < 0 && errno == EINTR)) {
            running++;
            continue;
        }
        j->done = true;
        j->failed = p < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    return running;
}

int exec_tree_jobs(const struct exec_opts *o, const struct exec_tree_opts *t, struct exec_result *r,
                   void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx)
{
    int slices = t->slices > 1 ? (t->slices < MAX_SLICES ? t->slices : MAX_SLICES) : 1;
    unsigned n = exec_tree_roots(o) * (unsigned)slices, started = 0;
    struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        return -1;
    memset((void *)sh, 0, sizeof *sh);
    struct job jobs[MAX_ROOTS] = {{0, NULL, false, false}};
    struct child_ctx cc[MAX_ROOTS];
    for (;;) {
        int running = reap(jobs, started);
        while (running < t->jobs && started < n && !sh->stop) {
            cc[started] = (struct child_ctx){sh, started, slices, stop, ctx};
            start(o, t, started, &jobs[started], &cc[started]);
            started++;
            running++;
        }
        if (running == 0 && (started == n || sh->stop))
            break;
        uint64_t covered = 0;
        for (unsigned i = 0; i < n; i++)
            covered += sh->covered[i];
        if (progress)
            progress(ctx, covered, r->space);
        if (!sh->stop && stop && stop(ctx))
            sh->stop = 1; /* the children see it at their next poll; no root starts after it */
        nanosleep(&(struct timespec){0, POLL_NS}, NULL);
    }
    int rc = 0;
    for (unsigned i = 0; i < started; i++) { /* in root order: one process's answers */
        struct exec_result *x = calloc(1, sizeof *x);
        if (!x || jobs[i].failed || result_read(jobs[i].out, x) != 0) {
            fprintf(stderr, "irqsim: exectree: the child process of unit %u failed\n", i);
            rc = -1;
        } else {
            exec_merge(r, x);
        }
        if (x)
            exec_free(x);
        free(x);
        if (jobs[i].out)
            fclose(jobs[i].out);
    }
    r->tree.cut |= started < n; /* stopped before a root began */
    exec_tree_finish(r);
    munmap((void *)sh, sizeof *sh);
    return rc;
}
