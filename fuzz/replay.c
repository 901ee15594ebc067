/* replay: a plain driver for a fuzz target, without libFuzzer. Runs every
 * file named on the command line, and every regular file in each directory
 * named (recursively, in name order), through LLVMFuzzerTestOneInput once.
 * Linked with one target per binary (replay_diff, replay_scenario) and
 * registered in CTest over the committed corpora. A target reports a
 * finding by aborting: the driver then names the input that did it.
 *
 *   replay_diff [-v] fuzz/corpus/diff crash-1234...
 *
 * Prints "replay: N passed, 0 failed" at the end; exits 1 when an argument
 * cannot be read or names no input at all. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (16u * 1024u * 1024u)

static char current[4096];
static int verbose;
static unsigned long passed, failed;

/* A target that aborts or traps leaves this line as its last words (the
 * sanitizers' own reports name no input: rerun with -v to see each one). */
static void on_abort(int sig)
{
    static const char pre[] = "replay: input that aborted: ";
    ssize_t w = write(2, pre, sizeof pre - 1);
    w = write(2, current, strlen(current));
    w = write(2, "\n", 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        failed++;
        return -1;
    }
    uint8_t *buf = malloc(MAX_INPUT);
    if (!buf) {
        fclose(f);
        fprintf(stderr, "replay: out of memory\n");
        exit(2);
    }
    size_t n = fread(buf, 1, MAX_INPUT, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "replay: %s: read error\n", path);
        free(buf);
        failed++;
        return -1;
    }
    /* an exact-size copy, so the sanitizers see reads past the input */
    uint8_t *in = malloc(n ? n : 1);
    if (!in) {
        free(buf);
        exit(2);
    }
    memcpy(in, buf, n);
    free(buf);
    snprintf(current, sizeof current, "%s", path);
    if (verbose)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(in, n);
    free(in);
    passed++;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path);

static int run_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        failed++;
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ., .., and hidden files such as .gitkeep */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                exit(2);
            names = grown;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            exit(2);
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (run_path(names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        failed++;
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return run_dir(path);
    if (!S_ISREG(st.st_mode))
        return 0;
    return run_file(path);
}

int main(int argc, char **argv)
{
    signal(SIGABRT, on_abort);
    signal(SIGILL, on_abort); /* __builtin_trap */
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        verbose = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++)
        run_path(argv[i]);
    printf("replay: %lu passed, %lu failed\n", passed, failed);
    if (!passed && !failed)
        fprintf(stderr, "replay: no input found\n");
    return failed || !passed ? 1 : 0;
}
