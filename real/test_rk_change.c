/*
 * test_rk_change: rk_change (the change of a tree against a baseline and
 * what a run executed of it) on two small trees this test writes (C of
 * its own, no kernel text), a build's compiled lines and gcov's JSON made
 * by hand. Each expected kind is argued from how the tree is written.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L
#include "test_rk.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rk_change.h"


static void put(const char *dir, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

/* The baseline's x.c; the tree changes lines 5, 7, 10-13 and deletes the
 * code line after 14. */
static const char base_x[] = "/* header */\n"           /* 1 */
                             "#include \"y.h\"\n"       /* 2 */
                             "int f(int a)\n"           /* 3 */
                             "{\n"                      /* 4 */
                             "    int b = a;\n"         /* 5 */
                             "#ifdef NOPE\n"            /* 6 */
                             "    b = 1;\n"             /* 7 */
                             "#endif\n"                 /* 8 */
                             "    g(a,\n"               /* 9 */
                             "      a);\n"              /* 10 */
                             "    /* old */\n"          /* 11 */
                             "#define X 0\n"            /* 12 */
                             "    int c;\n"             /* 13 */
                             "    return b;\n"          /* 14 */
                             "    b++;\n"               /* 15: deleted in the tree */
                             "}\n";                     /* 16 */
static const char tree_x[] = "/* header */\n"           /* 1 */
                             "#include \"y.h\"\n"       /* 2 */
                             "int f(int a)\n"           /* 3 */
                             "{\n"                      /* 4 */
                             "    int b = a + 1;\n"     /* 5: compiled, gcov 3: executed */
                             "#ifdef NOPE\n"            /* 6 */
                             "    b = 2;\n"             /* 7: no token kept, #ifdef above: disabled */
                             "#endif\n"                 /* 8 */
                             "    g(a,\n"               /* 9: compiled, gcov 0 */
                             "      b);\n"              /* 10: no token kept, line 9 above: its tail, not executed */
                             "    /* new \"*/\n"        /* 11: a comment (the quote is inside it) */
                             "#define X 1\n"            /* 12: a preprocessor line */
                             "    long c;\n"            /* 13: compiled, no gcov line: no code of its own */
                             "    return b;\n"          /* 14 */
                             "}\n";                     /* 15 */

int main(void)
{
    char root[] = "/tmp/test_rk_change.XXXXXX";
    if (!mkdtemp(root))
        return 2;
    char tree[600], base[600], build[600], cmd[2000];
    snprintf(tree, sizeof tree, "%s/tree", root);
    snprintf(base, sizeof base, "%s/base", root);
    snprintf(build, sizeof build, "%s/build", root);
    mkdir(tree, 0700);
    mkdir(base, 0700);
    mkdir(build, 0700);
    put(base, "x.c", base_x);
    put(tree, "x.c", tree_x);
    put(base, "z.c", "");
    put(tree, "z.c", "int z;\n");             /* a file the build does not compile: not built */
    put(base, "e.c", "int e(void) { return 0; }\n");
    put(tree, "e.c", "int e(void) { return 1; }\n"); /* replaced by the glue: excluded */
    put(base, "s.bf", "block a { field x 1 }\n");
    put(tree, "s.bf", "block a { field x 2 }\n"); /* not C: listed, not measured */
    put(base, "r.c", "int r;\n");              /* only in the baseline: a removed file */
    /* a call made a line without code: the call deleted, in w, entered */
    put(base, "w.c", "void w(void)\n{\n    g(1);\n}\n");
    put(tree, "w.c", "void w(void)\n{\n    (void)1;\n}\n");
    put(base, "same.c", "int same;\n");
    put(tree, "same.c", "int same;\n");        /* unchanged: not in the change */

    /* the build: compiled ranges, the excluded file, gcov's JSON */
    put(build, "compiled-lines.txt", "x.c\t3-5\nx.c\t9-9\nx.c\t13-15\nsame.c\t1-1\nw.c\t1-4\n");
    char hostall[800];
    snprintf(hostall, sizeof hostall, "/* generated */\n/* excluded %s/e.c: glue replaces it */\n", tree);
    put(build, "host_all.c", hostall);
    char json[2000];
    snprintf(json, sizeof json,
             "{\"files\": [{\"file\": \"%s/x.c\", \"functions\": [{\"name\": \"f\", \"start_line\": 3, \"end_line\": 15, "
             "\"execution_count\": 3}], \"lines\": [{\"line_number\": 5, \"count\": 3, \"branches\": []}, "
             "{\"line_number\": 9, \"count\": 0, \"branches\": []}, {\"line_number\": 14, \"count\": 3, \"branches\": []}]},"
             "{\"file\": \"%s/w.c\", \"functions\": [{\"name\": \"w\", \"start_line\": 1, \"end_line\": 4, "
             "\"execution_count\": 2}], \"lines\": [{\"line_number\": 4, \"count\": 2, \"branches\": []}]}]}",
             tree, tree);

    char why[600];
    struct rk_change c;
    CHECK(rk_change_diff(&c, tree, base, why, sizeof why) == 0);
    /* x.c, z.c, e.c, s.bf, r.c, w.c: six files; same.c is not among them */
    CHECK(c.nfiles == 6);
    CHECK(rk_change_has_c(&c));
    int x = -1;
    for (int i = 0; i < c.nfiles; i++) {
        CHECK(strcmp(c.files[i].path, "same.c") != 0);
        if (!strcmp(c.files[i].path, "x.c"))
            x = i;
        if (!strcmp(c.files[i].path, "s.bf"))
            CHECK(!c.files[i].c_source);
        if (!strcmp(c.files[i].path, "r.c"))
            CHECK(c.files[i].removed);
        if (!strcmp(c.files[i].path, "z.c"))
            CHECK(!c.files[i].added && !c.files[i].removed);
    }
    CHECK(x >= 0);
    /* x.c: 5 -> 5, 7 -> 7, 10-13 -> 10-13 (9 and 14 are the same),
     * and 15 deleted after the tree's 14 */
    if (x >= 0) {
        const struct rk_change_file *f = &c.files[x];
        CHECK(f->nhunks == 4);
        if (f->nhunks == 4) {
            CHECK(f->hunks[0].new_start == 5 && f->hunks[0].new_count == 1);
            CHECK(f->hunks[1].new_start == 7 && f->hunks[1].new_count == 1);
            CHECK(f->hunks[2].new_start == 10 && f->hunks[2].new_count == 4);
            CHECK(f->hunks[3].new_start == 14 && f->hunks[3].new_count == 0 && f->hunks[3].old_start == 15);
        }
    }

    struct cov_data d = {0};
    CHECK(rk_cov_read_gcov(&d, json, tree, NULL, why, sizeof why) == 0);
    /* no call graph here: f was entered, so it is on a path irqsim runs */
    CHECK(d.nfns == 2 && !d.fns[0].on_path);
    rk_cov_mark_entered(&d);
    CHECK(d.nfns == 2 && d.fns[0].on_path);
    struct rk_compiled p;
    CHECK(rk_compiled_read(&p, build, tree, why, sizeof why) == 0);
    CHECK(p.nexcluded == 1 && !strcmp(p.excluded[0], "e.c"));
    char *names[] = {"f"};
    uint64_t states[] = {2};
    struct rk_fn_states s = {names, states, 1};
    struct rk_change_cfg m;
    CHECK(rk_change_measure(&m, &c, &p, &d, &s, 4, why, sizeof why) == 0);

    /* line by line: x.c 5 7 10 11 12 13, the deletion, z.c 1, e.c 1 */
    struct {
        const char *file;
        int line, kind;
        const char *fn;
    } want[] = {
        {"x.c", 5, RL_EXEC, "f"},      {"x.c", 7, RL_DISABLED, "f"},
        {"x.c", 10, RL_UNEXEC, "f"},   {"x.c", 11, RL_COMMENT, NULL}, {"x.c", 12, RL_DIRECTIVE, "f"},
        {"x.c", 13, RL_NOCODE, "f"},   {"x.c", 14, RL_DELETED, "f"}, {"z.c", 1, RL_NOTBUILT, NULL},
        {"e.c", 1, RL_EXCLUDED, NULL}, {"w.c", 3, RL_NOCODE, "w"},
    };
    int nwant = (int)(sizeof want / sizeof want[0]);
    for (int w = 0; w < nwant; w++) {
        int found = 0;
        for (int i = 0; i < m.nlines; i++) {
            const struct rk_change_line *l = &m.lines[i];
            /* w.c:3 is there twice: the line, and the call it took away */
            if (strcmp(c.files[l->file].path, want[w].file) || l->line != want[w].line ||
                (l->kind == RL_DELETED && !strcmp(want[w].file, "w.c")))
                continue;
            found++;
            if (l->kind != want[w].kind)
                fprintf(stderr, "%s:%d: kind %s, want %s\n", want[w].file, want[w].line, rk_line_kind_name(l->kind),
                        rk_line_kind_name(want[w].kind));
            CHECK(l->kind == want[w].kind);
            CHECK(l->count == (l->line == 5 && !strcmp(want[w].file, "x.c") ? 3 : 0)); /* gcov's count of line 5 */
            CHECK(want[w].fn ? l->fn >= 0 && !strcmp(m.fns[l->fn].name, want[w].fn) : l->fn < 0);
        }
        CHECK(found == 1);
    }
    CHECK(m.nlines == nwant + 1);
    int wdel = 0;
    for (int i = 0; i < m.nlines; i++)
        wdel += m.lines[i].kind == RL_DELETED && !strcmp(c.files[m.lines[i].file].path, "w.c") && m.lines[i].line == 3 &&
                m.lines[i].fn >= 0 && !strcmp(m.fns[m.lines[i].fn].name, "w");
    CHECK(wdel == 1);
    /* the counts: code 5 and 10 (executed 5); the deletion in f, entered */
    CHECK(m.code == 2 && m.executed == 1);
    CHECK(m.deleted == 2 && m.deleted_run == 2);
    CHECK(m.other_files == 1 && m.removed_files == 1);
    /* f: the functions come in the diff's file order (w.c before x.c) */
    const struct rk_change_fn *fx = NULL;
    for (int i = 0; i < m.nfns; i++)
        fx = !strcmp(m.fns[i].name, "f") ? &m.fns[i] : fx;
    CHECK(m.nfns == 2 && fx);
    if (fx)
        CHECK(fx->on_path && fx->states == 2 && fx->calls == 3 && fx->code == 2 && fx->executed == 1);

    /* the call graph: r calls a clone gcc made of h (h.constprop.0), which
     * calls g: h and g are on the path from r (a clone's edges are its
     * function's), k is not */
    char json2[1200], ci[600];
    snprintf(json2, sizeof json2,
             "{\"files\": [{\"file\": \"%s/x.c\", \"functions\": ["
             "{\"name\": \"r\", \"start_line\": 1, \"end_line\": 2, \"execution_count\": 1},"
             "{\"name\": \"h\", \"start_line\": 3, \"end_line\": 4, \"execution_count\": 0},"
             "{\"name\": \"g\", \"start_line\": 5, \"end_line\": 6, \"execution_count\": 0},"
             "{\"name\": \"k\", \"start_line\": 7, \"end_line\": 8, \"execution_count\": 0}], \"lines\": []}]}",
             tree);
    snprintf(ci, sizeof ci,
             "edge: { sourcename: \"/b/host_all.c:r\" targetname: \"/b/host_all.c:h.constprop.0\" }\n"
             "edge: { sourcename: \"/b/host_all.c:h.constprop.0\" targetname: \"g\" }\n"
             "edge: { sourcename: \"k\" targetname: \"g\" }\n");
    struct cov_data d2 = {0};
    CHECK(rk_cov_read_gcov(&d2, json2, tree, "", why, sizeof why) == 0);
    FILE *cif = fmemopen(ci, strlen(ci), "r");
    const char *const roots[] = {"r"};
    CHECK(cif && rk_cov_read_graph(&d2, cif, roots, 1, why, sizeof why) == 0);
    if (cif)
        fclose(cif);
    CHECK(d2.nfns == 4 && d2.fns[0].on_path && d2.fns[1].on_path && d2.fns[2].on_path && !d2.fns[3].on_path);
    rk_cov_free(&d2);

    /* bad input: a compiled-lines.txt line that is not FILE<TAB>FIRST-LAST */
    put(build, "compiled-lines.txt", "x.c 3-5\n");
    struct rk_compiled bad;
    CHECK(rk_compiled_read(&bad, build, tree, why, sizeof why) == -1 && strstr(why, "compiled-lines.txt:1"));
    rk_compiled_free(&bad);

    /* a coverage build cached from a copy of the same tree, since gone:
     * gcov names its files there (compiled_source=); they are the tree's
     * as given now, kernel files of it */
    struct cov_data moved = {0};
    char json3[400];
    snprintf(json3, sizeof json3,
             "{\"files\": [{\"file\": \"/gone/copy/x.c\", \"functions\": [{\"name\": \"f\", \"start_line\": 3, "
             "\"end_line\": 15, \"execution_count\": 3}], \"lines\": []}]}");
    CHECK(rk_cov_read_gcov(&moved, json3, tree, "/gone/copy", why, sizeof why) == 0);
    char moved_x[1200];
    snprintf(moved_x, sizeof moved_x, "%s/x.c", tree);
    CHECK(moved.nfiles == 1 && !strcmp(moved.files[0], moved_x) && moved.nfns == 1 && moved.fns[0].kernel);
    rk_cov_free(&moved);
    CHECK(rk_cov_read_gcov(&moved, json3, tree, "", why, sizeof why) == 0); /* not mapped: not the tree's */
    CHECK(moved.nfiles == 1 && !strcmp(moved.files[0], "/gone/copy/x.c") && !moved.fns[0].kernel);
    rk_cov_free(&moved);

    rk_change_cfg_free(&m);
    rk_compiled_free(&p);
    rk_cov_free(&d);
    rk_change_free(&c);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd))
        rk_test_failures++;
    if (rk_test_failures)
        fprintf(stderr, "test_rk_change: %d failure(s)\n", rk_test_failures);
    return rk_test_failures ? 1 : 0;
}
