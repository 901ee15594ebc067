/*
 * covrun: a run of a kernel's coverage build (covrun.h).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _GNU_SOURCE /* dladdr */
#include "covrun.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lineread.h"

#ifndef IRQSIM_SOURCE_DIR
#define IRQSIM_SOURCE_DIR "."
#endif

const char *const covrun_roots[COVRUN_ROOTS] = {"slowpath_irq", "fastpath_irq", "c_handle_interrupt",
                                                "c_handle_fastpath_signal", "c_handle_syscall", "c_handle_fastpath_call",
                                                "c_handle_fastpath_reply_recv"};

/* kernel.info's value of key, into out ("" when absent) */
void covrun_info(const char *build, const char *key, char *out, size_t n)
{
    char path[1024], line[1024];
    size_t kl = strlen(key);
    out[0] = 0;
    snprintf(path, sizeof path, "%s/kernel.info", build);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t len;
    enum line_status st;
    /* bounded: rk_open refuses a kernel.info with a longer line or a NUL */
    while ((st = line_read(f, line, sizeof line, &len)) == LINE_OK || st == LINE_CUT)
        if (!strncmp(line, key, kl) && line[kl] == '=') {
            line[strcspn(line, "\n")] = 0;
            snprintf(out, n, "%s", line + kl + 1);
            break;
        }
    fclose(f);
}

/* The coverage build of BUILD's configuration (itself when it is one),
 * into cov; 0, or the exit status to return. */
int covrun_build(const char *prog, const char *build, const char *tree, char *cov, size_t n)
{
    char path[1024], v[1024];
    snprintf(path, sizeof path, "%s/kernel.info", build);
    if (access(path, R_OK)) {
        fprintf(stderr, "%s: %s: no kernel.info (not a directory `irqsim kernel build` printed)\n",
                prog, build);
        return EXIT_USAGE;
    }
    covrun_info(build, "coverage", v, sizeof v);
    if (!strcmp(v, "1")) {
        snprintf(cov, n, "%s", build);
        return 0;
    }
    char src[1024], board[64], dom[16], cores[16], debug[8], defines[1024], cmd[4096];
    covrun_info(build, "source", src, sizeof src);
    /* the tree as given now: a cached build's source= is where the same
     * content was first built, which may be gone */
    if (tree)
        snprintf(src, sizeof src, "%s", tree);
    covrun_info(build, "board", board, sizeof board);
    covrun_info(build, "num_domains", dom, sizeof dom);
    covrun_info(build, "cores", cores, sizeof cores);
    covrun_info(build, "debug", debug, sizeof debug);
    /* the build's -D options (kernel.info defines=, "-DNAME=VALUE ..."):
     * the coverage build is the same kernel (a hypervisor build's VCPU
     * path, say), only instrumented */
    covrun_info(build, "defines", defines, sizeof defines);
    if (!src[0] || !board[0] || !dom[0] || !cores[0]) {
        fprintf(stderr, "%s: %s/kernel.info: no source, board, num_domains or cores\n", prog, build);
        return EXIT_USAGE;
    }
    /* the command line below quotes with ' */
    if (strchr(src, '\'') || strchr(build, '\'') || strchr(board, '\'') || strchr(defines, '\'') ||
        strpbrk(defines, "\"`$\\;|&<>()")) {
        fprintf(stderr, "%s: %s: a path with a ' in it, or a kernel.info defines= with shell characters, is not supported\n", prog, build);
        return EXIT_USAGE;
    }
    /* beside BUILD, in its cache */
    char cache[1024];
    snprintf(cache, sizeof cache, "%s", build);
    char *slash = strrchr(cache, '/');
    if (slash && slash[1] == 0) {
        *slash = 0;
        slash = strrchr(cache, '/');
    }
    if (slash)
        *slash = 0;
    else
        snprintf(cache, sizeof cache, ".");
    snprintf(cmd, sizeof cmd, "'%s/real/build-kernel.sh' --sel4 '%s' --board '%s' --domains '%s' --cores '%s' %s "
             "--cache '%s' --coverage --quiet %s",
             IRQSIM_SOURCE_DIR, src, board, dom, cores, !strcmp(debug, "1") ? "--debug" : "--release", cache, defines);
    FILE *p = popen(cmd, "r");
    if (!p)
        return EXIT_DIVERGE;
    cov[0] = 0;
    char line[1024];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(cov, n, "%s", line);
    }
    int st = pclose(p);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_DIVERGE;
    if (rc || !cov[0]) {
        fprintf(stderr, "%s: the coverage build of %s failed (build-kernel.sh, above)\n", prog, build);
        return rc ? rc : EXIT_DIVERGE; /* the script's status: 3 cannot build here */
    }
    return 0;
}

/* the directory under dir holding host_all.gcda (GCOV_PREFIX puts it
 * under the build's whole path), into out */
bool covrun_find_gcda(const char *dir, char *out, size_t n, int depth)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/host_all.gcda", dir);
    if (!access(p, R_OK)) {
        snprintf(out, n, "%s", dir);
        return true;
    }
    DIR *d = depth < 32 ? opendir(dir) : NULL;
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (!lstat(p, &st) && S_ISDIR(st.st_mode))
            found = covrun_find_gcda(p, out, n, depth + 1);
    }
    closedir(d);
    return found;
}

/* gcov's JSON of the run (the build's notes beside the run's counters) */
char *covrun_gcov_json(const char *cov, const char *dir)
{
    char notes[4096], link[4096], cmd[8192];
    /* a path too long for the buffers is refused, not cut */
    int nn = snprintf(notes, sizeof notes, "%s/host_all.gcno", cov);
    int nl = snprintf(link, sizeof link, "%s/host_all.gcno", dir);
    int nc = snprintf(cmd, sizeof cmd, "cd '%s' && gcov -b -j -t -o . host_all.gcda 2>/dev/null", dir);
    if (nn < 0 || (size_t)nn >= sizeof notes || nl < 0 || (size_t)nl >= sizeof link || nc < 0 ||
        (size_t)nc >= sizeof cmd)
        return NULL;
    if (symlink(notes, link) && errno != EEXIST)
        return NULL;
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 65536 > cap) {
            char *g = realloc(buf, cap *= 2);
            if (!g) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, p);
        if (!r)
            break;
        n += r;
    }
    int st = pclose(p);
    if (buf)
        buf[n] = 0;
    if (buf && (!WIFEXITED(st) || WEXITSTATUS(st) || !n)) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

void covrun_rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        char p[4096];
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (!lstat(p, &st) && S_ISDIR(st.st_mode))
                covrun_rm_tree(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

int covrun_fork(const char *prog, const char *tmp, int (*child)(void *arg, void *res), void *arg, void *res,
                size_t res_len)
{
    int fd[2];
    if (pipe(fd))
        return EXIT_DIVERGE;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return EXIT_DIVERGE;
    if (pid == 0) {
        close(fd[0]);
        setenv("GCOV_PREFIX", tmp, 1);
        setenv("GCOV_PREFIX_STRIP", "0", 1);
        int rc = child(arg, res);
        if (write(fd[1], res, res_len) != (ssize_t)res_len)
            rc = EXIT_DIVERGE;
        exit(rc); /* exit, not _exit: gcov writes its counters at exit */
    }
    close(fd[1]);
    ssize_t got = read(fd[0], res, res_len);
    close(fd[0]);
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return EXIT_DIVERGE;
    if (!WIFEXITED(st) || WEXITSTATUS(st) || got != (ssize_t)res_len) {
        if (WIFSIGNALED(st))
            fprintf(stderr, "%s: the run ended by signal %d\n", prog, WTERMSIG(st));
        return WIFEXITED(st) && WEXITSTATUS(st) == EXIT_USAGE ? EXIT_USAGE : EXIT_DIVERGE;
    }
    return 0;
}

/* ---- the states per function ---- */

static int fns_add(struct covrun_fns *f, const char *name, const unsigned char *at, size_t size)
{
    int n = f->n + 1;
    char **names = realloc(f->names, (size_t)n * sizeof *names);
    if (names)
        f->names = names;
    const unsigned char **ctr = realloc(f->ctr, (size_t)n * sizeof *ctr);
    if (ctr)
        f->ctr = ctr;
    size_t *sz = realloc(f->size, (size_t)n * sizeof *sz);
    if (sz)
        f->size = sz;
    unsigned char **seen = realloc(f->seen, (size_t)n * sizeof *seen);
    if (seen)
        f->seen = seen;
    uint64_t *st = realloc(f->states, (size_t)n * sizeof *st);
    if (st)
        f->states = st;
    if (!names || !ctr || !sz || !seen || !st)
        return -1;
    f->names[f->n] = strdup(name);
    f->seen[f->n] = malloc(size);
    if (!f->names[f->n] || !f->seen[f->n]) {
        free(f->names[f->n]);
        free(f->seen[f->n]);
        return -1;
    }
    memcpy(f->seen[f->n], at, size);
    f->ctr[f->n] = at;
    f->size[f->n] = size;
    f->states[f->n] = 0;
    f->n = n;
    return 0;
}

int covrun_fns_open(struct covrun_fns *f, const struct rk_kernel *k)
{
    memset(f, 0, sizeof *f);
    Dl_info dl;
    void *in_so;
    memcpy(&in_so, &k->load, sizeof in_so); /* a function's address, to find where the object is */
    if (!dladdr(in_so, &dl) || !dl.dli_fbase || strchr(k->dir, '\''))
        return -1;
    char cmd[1200], line[1024];
    snprintf(cmd, sizeof cmd, "nm -S --defined-only '%s/hostkernel.so' 2>/dev/null", k->dir);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int rc = 0;
    /* "OFFSET SIZE b __gcov0.NAME": gcc's counters of function NAME */
    while (!rc && fgets(line, sizeof line, p)) {
        unsigned long long off, size;
        char type, name[800];
        if (sscanf(line, "%llx %llx %c %799s", &off, &size, &type, name) != 4 || strncmp(name, "__gcov0.", 8) ||
            !size)
            continue;
        rc = fns_add(f, name + 8, (const unsigned char *)dl.dli_fbase + off, (size_t)size);
    }
    pclose(p);
    return rc || !f->n ? -1 : 0;
}

void covrun_fns_state(struct covrun_fns *f)
{
    for (int i = 0; i < f->n; i++)
        if (memcmp(f->seen[i], f->ctr[i], f->size[i])) {
            memcpy(f->seen[i], f->ctr[i], f->size[i]);
            f->states[i]++;
        }
}

int covrun_fns_write(const struct covrun_fns *f, const char *path)
{
    FILE *o = fopen(path, "w");
    if (!o)
        return -1;
    for (int i = 0; i < f->n; i++)
        if (f->states[i])
            fprintf(o, "%s %llu\n", f->names[i], (unsigned long long)f->states[i]);
    return fclose(o) ? -1 : 0;
}

void covrun_fns_free(struct covrun_fns *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->names[i]);
        free(f->seen[i]);
    }
    free(f->names);
    free(f->ctr);
    free(f->size);
    free(f->seen);
    free(f->states);
    memset(f, 0, sizeof *f);
}

int covrun_fns_read(struct rk_fn_states *s, const char *path)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024], name[1000];
    unsigned long long n;
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%999s %llu", name, &n) != 2)
            continue;
        char **names = realloc(s->names, (size_t)(s->n + 1) * sizeof *names);
        uint64_t *st = names ? realloc(s->states, (size_t)(s->n + 1) * sizeof *st) : NULL;
        if (names)
            s->names = names;
        if (st)
            s->states = st;
        if (!names || !st || !(s->names[s->n] = strdup(name))) {
            rc = -1;
            break;
        }
        s->states[s->n++] = n;
    }
    fclose(f);
    return rc;
}

void covrun_fn_states_free(struct rk_fn_states *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    free(s->states);
    memset(s, 0, sizeof *s);
}
