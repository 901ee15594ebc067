/*
 * rk_load: the host side of the real-kernel mode. Opens a host kernel
 * built by real/build-kernel.sh (hostkernel.so + kernel.info), translates
 * irqsim's struct kstate to the kernel's flat hk_state and back, and runs
 * one interrupt through the real slowpath or the real fastpath_irq.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_RK_LOAD_H
#define IRQSIM_RK_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "gen.h"
#include "hostkernel.h"
#include "kstate.h"

struct rk_kernel {
    void *dl;
    char dir[512];
    struct hk_info info;
    struct ks_config cfg;      /* the build's configuration, as the model takes it */
    char board[32];            /* kernel.info board (kernel platform name) */
    char commit[48];
    int kernel;                /* enum ks_kernel the build is of (kernel.info features: kernel_of_features) */
    ks_features model_features;   /* the model's features probed from the tree one by one (kernel.info
                                  model_features, KF bits); 0: not recorded (a build made before them) */
    int (*load)(const struct hk_state *);
    int (*entry)(int, struct hk_extra *);
    int (*save)(struct hk_state *);
    const char *(*error)(void);
    void (*fault)(const char *);
    struct hk_state hin, hout; /* scratch: a state is ~40 KiB */
};

/* What the real kernel shows beyond a kstate, after rk_run. */
struct rk_extra {
    int outcome;               /* enum hk_outcome: user, fastpath, halt */
    int ttbr0_writes;          /* address-space switches */
    int ttbr0_asid;
    int ttbr0_tcb;             /* whose vspace was installed; KS_NONE: the global one */
    int fpu_owner[KS_MAX_CORES]; /* TCB whose FPU state is live per core, KS_NONE */
    int fpu_enabled;           /* last FPU enable/disable write, -1 none */
    int remote_calls;          /* remote calls (e.g. an FPU release) the other core ran */
    int irq_active;            /* the delivered IRQ left active in the GIC (split EOI), -1 none delivered */
    int fastpath_done;         /* a system call the fastpath finished itself: 1, 0 it fell back, -1 unknown */
    char text[HK_TEXT_LEN];    /* kernel output: a failed assertion's text */
};

enum rk_path {
    RK_SLOW = HK_PATH_SLOW,
    RK_FAST = HK_PATH_FAST,
    RK_FIXED = HK_PATH_FIXED,
    RK_SIG_SLOW = HK_PATH_SIG_SLOW, /* rk_run_sys: c_handle_syscall(SysSend) */
    RK_SIG_FAST = HK_PATH_SIG_FAST,  /* rk_run_sys: c_handle_fastpath_signal */
    RK_CALL_SLOW = HK_PATH_CALL_SLOW, /* rk_run_sys: c_handle_syscall(SysCall) */
    RK_CALL_FAST = HK_PATH_CALL_FAST, /* rk_run_sys: c_handle_fastpath_call */
    RK_RR_SLOW = HK_PATH_RR_SLOW,     /* rk_run_sys: c_handle_syscall(SysReplyRecv) */
    RK_RR_FAST = HK_PATH_RR_FAST      /* rk_run_sys: c_handle_fastpath_reply_recv */
};

/* The current thread's seL4_Send (seL4_Signal: msginfo 0) for
 * rk_run_sys: its cptr and message info registers, its CSpace (one CNode
 * of HK_CSPACE_SLOTS slots, cptr i < 16 is slot i, any other cptr fails the
 * lookup) and, with ipc_buffer, an IPC buffer naming the extra caps' cptrs
 * (real/glue/hk_syscall.c); a seL4_ReplyRecv's reply cptr (replyRegister). */
struct rk_syscall {
    uint64_t cptr, msginfo, reply_cptr;
    bool ipc_buffer;
    uint64_t extra_cptr[3];
    struct hk_irq_cap cspace[HK_CSPACE_SLOTS];
    uint64_t mr0, mr1, mr2;     /* the message's first words (hk_state sys_mr0, sys_mr1, sys_mr2) */
    uint64_t mr3, mr4;          /* its fourth and fifth (sys_mr3, sys_mr4) */
    uint8_t irq_method;         /* the IRQ control cap's label (sys_irq_method) */
};

/* Open a build directory; 0, or -1 with a reason in err. */
int rk_open(struct rk_kernel *k, const char *build_dir, char *err, size_t errlen);
/* The model's kernel for k's build, in k->cfg: version `kernel` (enum
 * ks_kernel, the --kernel override: its whole row) when >= 0, else the
 * tree's own features as probed (model_features: a tree between base and
 * master gets exactly its own), else (an older build) its version. */
void rk_model(struct rk_kernel *k, int kernel);
void rk_close(struct rk_kernel *k);

/* kstate <-> hk_state */
void rk_to_hk(const struct kstate *ks, struct hk_state *h);
void rk_from_hk(const struct hk_state *h, struct kstate *ks);

/* Build in the kernel and read straight back: no kernel code runs.
 * 0, or -1 when the state does not fit the build (rk_error). */
int rk_roundtrip(struct rk_kernel *k, const struct kstate *in, struct kstate *out);

/* One interrupt through path (RK_SLOW, RK_FAST); out receives the outcome
 * (a failed kernel assertion halts the kernel: outcome HK_OUT_HALT, out is
 * the state at the halt). Returns the outcome, or -1 when the state does
 * not fit the build. extra may be NULL. */
int rk_run_x(struct rk_kernel *k, const struct kstate *in, int path, struct kstate *out, struct rk_extra *extra);
int rk_run(struct rk_kernel *k, const struct kstate *in, int path, struct kstate *out);
/* The state's current thread makes the system call sys, through path
 * (RK_SIG_SLOW, RK_SIG_FAST); as rk_run_x otherwise (the state's active
 * IRQ is not delivered). -1 also when the build lacks the path. */
int rk_run_sys(struct rk_kernel *k, const struct kstate *in, const struct rk_syscall *sys, int path,
               struct kstate *out, struct rk_extra *extra);
const char *rk_error(struct rk_kernel *k);

/* The kernel platform (build-kernel.sh --board) of a generator board
 * preset (ks_config.board), NULL when none is known. */
const char *rk_platform_of(const char *preset);

/* A generated state the build can hold: the generator with the build's
 * configuration fixed (gen_bounds.config). 0, or -1 when the generator
 * cannot use it (cfg_validate). */
int rk_gen_state(struct rk_kernel *k, struct kstate *ks, uint64_t seed, const struct gen_bounds *b);

#endif
