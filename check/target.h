/*
 * target: the fastpath under check, one descriptor per kernel entry. `irq`
 * is PR #1227's fastpath_irq against handleInterruptEntry (target_irq.c),
 * `signal` is master's fastpath_signal against slowpath(SysSend)
 * (target_signal.c). A state names its entry (kstate sys.entry); everything
 * that differs between the targets (exits, fixes, variants, the two paths,
 * the defects, what the fastpath leaves at user level, the words the
 * reports use, the JSON keys, the generator's and the enumeration's and the
 * workload simulator's hooks) is read from the descriptor, so a caller holds
 * a `const struct target *` and never asks which target it has. Adding a
 * target: docs/layout.md, "Adding a target".
 */
#ifndef IRQSIM_TARGET_H
#define IRQSIM_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kstate.h"

#define TARGET_MAX_EXITS 32

struct defect_info;
struct gen_src;
struct exh_ops;
struct scen_field;

/* The scenario line of a system-call entry, `syscall KEYWORD key=value
 * ...` (docs/scenario-format.md): the fields of its inputs (struct
 * ks_sysin), which scenario.c reads and print.c writes from this one
 * table, and the one rule that says they fit the state, which the reader
 * and the invariant checker both apply. */
struct target_line {
    const char *keyword;             /* "send" */
    const char *required;            /* the key every line names: "cap" */
    const struct scen_field *fields; /* scenfield.h, in the order printed */
    int n_fields;
    /* NULL when ks's entry inputs fit ks (its objects, its capacities),
     * else what is wrong, written into buf */
    const char *(*misfit)(const struct kstate *ks, char *buf, size_t len);
};

/* What the outputs say of a target's entries, where the identifiers of the
 * descriptor do not read as prose. */
struct target_words {
    const char *entry_a;        /* "an interrupt": "the scenario is at ENTRY_A entry" */
    const char *mismatch_hint;  /* appended when a file's entry is not the --target asked for */
    const char *checked_one;    /* "device interrupt": the entry the one-entry check runs at */
    const char *checked_many;   /* "device interrupts" */
    const char *agreed;         /* "first divergence: none (every AGREED agreed)" */
    const char *json_checked;   /* the workload JSON's key for the checked entries */
    const char *by;             /* a system-call entry in a workload: "BY by THREAD" */
    const char *label;          /* irqsim review: "the LABEL target" ("IRQ") */
    const char *slow_short;     /* irqsim review: "the tree's SLOW_SHORT against the baseline's" */
    /* irqsim report: the IRQ comment reviews a pull request, the signal one a
     * function already on master (docs/FINDINGS-signal.md) */
    const char *subject;    /* the heading's "irqsim: SUBJECT (`variant`) against the slowpath" */
    const char *fast_intro; /* "irqsim runs FAST_INTRO and the slowpath (...)" */
    const char *event;      /* what enters the kernel in one check */
    const char *fast_label; /* "**Fastpath (LABEL).**" */
    const char *preface;    /* a paragraph after the introduction, "" for none */
    const char *fuzz_args;  /* what `irqsim fuzz` and `irqsim gen` need to check this target */
    /* irqsim exhaust: what the space varies at the entry, and its verdict's
     * "the VARIANT VERDICT_FAST agrees with VERDICT_SLOW" */
    const char *space;
    const char *verdict_fast;
    const char *verdict_slow;
};

struct ks_call;
struct wl_src;
struct wl_insn;
struct workload;

/* How the workload simulator (check/sim.c, check/workload.c) runs a target. */
struct target_sim {
    /* a device interrupt on the fastpath kernel: the target's fastpath, or
     * NULL for the slowpath (handleInterruptEntry) */
    int (*irq_fast)(struct kstate *ks, int variant);
    /* Whether a thread's system call c (sim/syscall.h) is the target's
     * entry; NULL: its entry is a device interrupt. Its entries are the
     * ones the one-entry check runs at, and take the hooks below. */
    bool (*entry_call)(const struct ks_call *c);
    /* the entry's inputs (kstate sys) for such a call */
    void (*set_inputs)(struct kstate *ks, const struct ks_call *c);
    /* the target's fastpath at such an entry on the fastpath kernel
     * (performed: whether the call happened) */
    int (*sys_fast)(struct kstate *ks, int variant, bool *performed);
    /* The workload generator's draws of the target's own entries
     * (workload.c, drawing with wl_take): a seL4_Signal instruction
     * refined after it is drawn (NULL: left as drawn), and thread i drawn
     * as the target's own kind of thread, if it returns true (NULL: none). */
    void (*draw_insn)(struct wl_src *src, struct wl_insn *in);
    bool (*draw_thread)(struct wl_src *src, struct workload *w, int i);
    /* the fewest threads a generated workload has (0: as drawn): a call
     * needs a server and a client */
    int min_threads;
};

struct target {
    const char *name;            /* "irq", "signal" */
    int entry;                   /* enum ks_entry of its states (kstate sys.entry) */
    bool is_default;             /* the default target: left unnamed in outputs and
                                    JSON, so files written before targets existed
                                    stay as they were */
    const char *fastpath;        /* the fastpath function modelled */
    /* the kernel version whose fastpath the model is (enum ks_kernel),
     * where it is one version's alone; -1: every version modelled */
    int kernel;
    const char *fast_fn;         /* its kernel name alone: "fastpath_signal" */
    const char *slowpath;        /* the slowpath it is checked against */
    int exits;                   /* exit count */
    int first_merged_exit;       /* exits below are the corrected fastpath's own */
    const char *(*exit_name)(int e);
    const char *(*exit_what)(int e);
    bool (*exit_is_fallback)(int e);
    /* why no kernel state reaches exit e (kernel lines named), or NULL;
     * NULL pointer: every exit is reachable */
    const char *(*exit_unreachable)(int e);
    int fixes;                   /* fix count */
    unsigned fix_all;
    const char *(*fix_name)(int bit);
    const char *(*fix_what)(int bit);
    const int *removal_order;    /* fix bits, the order classify drops them */
    const char *variants;        /* "pr1227|fixed" */
    const char *(*variant_name)(int v);
    int (*variant_parse)(const char *s);
    void (*slow)(struct kstate *ks);
    int (*fast_tested)(struct kstate *ks, unsigned fixes, unsigned *tested);
    /* the defects of the fastpath as written (defect.h), and the page
     * that explains them (CTest test_defect holds its headings to them) */
    const struct defect_info *defects;
    int n_defects;
    const char *findings;
    /* what the fastpath as written leaves at user level that the slowpath
     * never does (enum inv_admit bits), admitted at entry on its kernel */
    unsigned admit_as_written;
    /* Whether a configuration builds this fastpath as the kernel's own code
     * beside the fastpath under check (NULL: never), and then what its
     * returns leave at user level for the other entries (enum inv_admit). */
    bool (*built)(const struct ks_config *c);
    void (*set_built)(struct ks_config *c, bool on); /* the generator's draw */
    unsigned admit_built;
    /* the entry is a system call by the current thread (no IRQ taken),
     * checked by invariant.c's system-call entry rules */
    bool syscall_entry;
    /* its scenario line; NULL: the entry has none of its own (an
     * interrupt is the state's `irq N` line) */
    const struct target_line *line;
    /* The generator's last step (gen.c): turn a generated state into an
     * entry of this target; -1 when the state cannot be one (drawn anew). */
    int (*gen_entry)(struct kstate *ks, struct gen_src *src);
    /* Redraw the entry of a state gen_entry made as one of the kernel
     * object invocations the entry can make that no interrupt entry runs
     * (validate --real's system-call pass); -1 when the state's
     * configuration draws none. NULL: the entry makes none. */
    int (*gen_invocation)(struct kstate *ks, struct gen_src *src);
    const struct exh_ops *exh;   /* the bounded enumeration's hooks (exhaust.h) */
    struct target_sim sim;
    struct target_words words;
};

/* Why no kernel state reaches a system-call fastpath's check of the
 * caller's pending fault (the signal, call and reply_recv targets'
 * exit_unreachable), with the kernel lines. */
extern const char target_fault_unreachable[];

/* The registered targets, in order: target_at(0) is the default. NULL past
 * the last. */
const struct target *target_at(int i);
const struct target *target_default(void);
/* The first registered target of an entry kind (enum ks_entry); NULL for
 * an unknown one. */
const struct target *target_get(int entry);
/* The rank-th registered target of an entry kind (0: target_get's); NULL
 * when there is none. Two fastpaths of one entry are told apart by rank. */
const struct target *target_get_rank(int entry, int rank);
/* t's rank among the targets of its entry kind (what a state of t's
 * carries in sys.target), and its place in the registration (target_at). */
int target_rank(const struct target *t);
int target_index(const struct target *t);
/* Make ks an entry of t: its entry kind and its rank (the engines call it
 * after a target's hook has built the entry's inputs). */
void target_mark(const struct target *t, struct kstate *ks);
/* The target of a state: the sys.target-th of its entry kind (the default
 * for a state with none: invariant.c refuses such a state). */
const struct target *target_of(const struct kstate *ks);
/* "irq" or "signal" to its target; NULL when unknown. */
const struct target *target_by_name(const char *s);
/* The target whose scenario line is `syscall KEYWORD` (k of n bytes);
 * NULL when none. */
const struct target *target_by_keyword(const char *k, size_t n);
/* The kernel version a run of t uses when asked for `asked` (enum
 * ks_kernel; -1: none asked), or -1 when t's fastpath is not modelled on
 * that version; the default version when t has none of its own. */
int target_kernel(const struct target *t, int asked, int dflt);
/* "irq or signal" into buf, each name between quote ("" or "\""): the
 * names, for errors. */
const char *target_names(char *buf, size_t len, const char *quote);
/* The fix set of a variant (enum fp_variant; the signal variants share
 * its numbers): none for the fastpath as written, all for fixed. */
unsigned target_variant_fixes(const struct target *t, int v);
/* Run the fastpath of variant v (0: as written, 1: fixed) on ks. */
int target_fast(const struct target *t, struct kstate *ks, int v);
/* What variant v leaves at user level (enum inv_admit bits): the fastpath
 * as written's leftovers, none for the corrected one. */
unsigned target_admit_left_by(const struct target *t, int v);
/* What the fastpaths ks's configuration builds as the kernel's own code
 * leave at user level (enum inv_admit): admitted at every entry, its own
 * entries included (a SysSend after a SysSend through the built
 * fastpath_signal). The generator sets a built flag only for targets
 * other than the one under check (gen.c, gen_built). */
unsigned target_admit_built(const struct kstate *ks);
/* What the fastpaths that a configuration may build beside t (every
 * other target with a built flag) leave at user level (enum inv_admit):
 * what the one-entry generator can draw at t's entries (gen_leftovers). */
unsigned target_admit_beside(const struct target *t);
/* "  never reached: NAME ...\n" over an exit tally (variant v: the fixed
 * fastpath's own exits too), then the exits the target argues no kernel
 * state reaches, with the argument (exit_unreachable), on lines of their
 * own; one argued so but reached is printed as such (a stale argument).
 * Returns how many were never reached and not argued. */
int target_print_unreached(FILE *f, const struct target *t, int v, const uint64_t *exits);

/* The descriptors, one file each; registered in target.c, the one file
 * besides their own that names them: everything else asks for a target
 * above (tests/target_names.sh checks check/, tools/ and fuzz/). */
extern const struct target target_irq, target_signal, target_call, target_reply_recv;
/* test builds with -DIRQSIM_STUB_TARGET=ON only (CTest stub_target) */
extern const struct target target_stub;

#endif
