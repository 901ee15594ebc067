/*
 * rk_sig: the real signal fastpath (fastpath_signal, master's MCS aarch64
 * notification fastpath) against the real syscall slowpath of the same
 * seL4_Send, on generated states: no model in the verdict.
 *
 * A state for an interrupt entry becomes a system call: its current thread
 * (not the idle thread, Running, no scheduler action pending: a thread at
 * user level) sends on a cap in its CSpace. Mostly that cap is the copy of
 * the state's IRQ handler cap (the notification the IRQ would signal) or
 * of a notification of the state; sometimes a lookup that fails, an empty
 * slot, an endpoint, a cap without the send right, or a message naming
 * extra caps in an IPC buffer (one that does not resolve, or one that
 * does). The state's IRQ is not delivered.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_RK_SIG_H
#define IRQSIM_RK_SIG_H

#include <stdbool.h>
#include <stdint.h>

#include "rk_load.h"

/* Why a state cannot make the call (rk_sig_make): */
enum rk_sig_unfit {
    SIG_FIT,
    SIG_UNFIT_IDLE,       /* the current thread is the idle thread */
    SIG_UNFIT_NOT_RUNNING, /* the current thread is not Running */
    SIG_UNFIT_ACTION,     /* a scheduler action is pending (not at user level) */
    SIG_UNFIT_COUNT
};

/* What the call sends on (rk_syscall's slot, cptr, message) */
enum rk_sig_kind {
    SIG_K_NTFN,           /* a notification cap with the send right */
    SIG_K_NO_SEND,        /* a notification cap without it */
    SIG_K_LOOKUP_FAIL,    /* a cptr no slot has (guard mismatch) */
    SIG_K_NULL,           /* an empty slot */
    SIG_K_ENDPOINT,       /* an endpoint cap */
    SIG_K_EXTRA_BAD,      /* notification, message names an extra cap that does not resolve (IPC buffer) */
    SIG_K_EXTRA_OK,       /* notification, message names an extra cap that resolves (IPC buffer) */
    SIG_K_INVOCATION,     /* a DomainSet cap or a thread cap: DomainSet_Set, TCB_SetFlags (half the empty
                             slots; the signal target's gen_invocation draws it) */
    SIG_K_COUNT
};

const char *rk_sig_kind_name(int kind);
const char *rk_sig_unfit_name(int why);

/* From the generated state in: the call (sys) and its kind, with the
 * state's IRQ not delivered (in->active_irq invalid). Returns SIG_FIT or
 * why the state cannot make a system call. */
int rk_sig_make(struct kstate *in, uint64_t seed, struct rk_syscall *sys, int *kind);

/* The model's signal entry (kstate.sys, a state with sys.entry
 * ENTRY_SIGNAL) as the bridge's system call: the cap the cptr resolves to
 * in the caller's one-CNode CSpace (a notification cap in slot
 * RK_SIG_SLOT, with or without the send right; an empty slot; a cptr whose
 * guard does not match), the message info's extraCaps, and an IPC buffer
 * holding the extra caps' cptrs (those in extra_bad fail the lookup, the
 * others name RK_SIG_SLOT) whenever extraCaps is not 0. The caller's
 * badge register is its x0, which holds the cptr at the trap (aarch64
 * capRegister = badgeRegister = X0, registerset.h): ks's is set to it.
 * 0, or -1 when the state has no signal entry or names a notification it
 * does not have. */
int rk_sig_of_model(struct kstate *ks, struct rk_syscall *sys);
/* The same for any system-call entry of the model (a SysSend, a SysCall,
 * a SysReplyRecv): the cap kinds above and an endpoint cap in RK_SIG_SLOT
 * naming the state's endpoint with its rights; the message info's length
 * too; a SysReplyRecv's reply cptr and cap (a reply cap in
 * RK_RR_REPLY_SLOT, an empty slot, a failing cptr). */
int rk_sys_of_model(struct kstate *ks, struct rk_syscall *sys);

/* The bridge's CSpace: the cap sent on, an empty slot, a cptr that fails
 * the lookup (bits above the CNode's 4: its guard, 0, does not match) */
#define RK_SIG_SLOT 1
#define RK_SIG_EMPTY_SLOT 2
#define RK_SIG_BAD_CPTR 0x100
/* a SysReplyRecv's reply cap */
#define RK_RR_REPLY_SLOT 3
/* extra cap 0 of an invocation that reads one: a DomainSet_Set's thread
 * cap, an IRQHandler_SetNotification's notification cap, an
 * IRQControl_Get's CNode cap */
#define RK_SIG_TCB_SLOT 4
/* seL4_MessageInfo (libsel4 shared_types.bf): extraCaps is bits 8:7 */
#define RK_SIG_MI_EXTRA_CAPS(n) ((uint64_t)(n) << 7)

/* One state through both real paths. */
struct rk_sig_result {
    int slow_out, fast_out;     /* enum hk_outcome, -1 the build cannot run it */
    int fastpath_done;          /* 1 finished in the fastpath, 0 fell back, -1 unknown (release) */
    uint32_t fields;            /* DF_* fields in which the outcomes differ (diff normalised) */
    char text[HK_TEXT_LEN];     /* a halting side's kernel text */
};

/* Runs in through RK_SIG_SLOW into slow and RK_SIG_FAST into fast, then
 * compares (rk_verdict, without the interrupt-exit invariants). 0, or -1
 * when the build has no signal fastpath or the state does not fit it. */
int rk_sig_check(struct rk_kernel *k, const struct kstate *in, const struct rk_syscall *sys, struct kstate *slow,
                 struct kstate *fast, struct rk_sig_result *r);

/* rk_sig_check on the states of seeds first..first+n-1 that can make the
 * call (n 0: until seconds have passed; a SIGINT or SIGTERM caught by
 * stop.h ends it early, as either bound); prints the kinds, what the fastpath did and each divergence class
 * (with show: every state and its differing fields). Returns 1 when an
 * expectation argued from the kernel fails (real/rk_signal.c), 0 else;
 * *out (when not NULL): what the run counted. */
struct rk_sig_tally {
    uint64_t ran;      /* calls through both real paths */
    uint64_t diverged; /* of them, those whose outcomes differ */
};
/* Called on each call through both real paths that halted neither: its
 * entry state, its kind (SIG_K_*) and the two outcomes, normalised (NULL:
 * none). */
struct rk_sig_each {
    void (*fn)(void *ctx, const struct kstate *in, int kind, const struct kstate *slow, const struct kstate *fast,
               uint64_t seed);
    void *ctx;
};
int rk_sig_run(struct rk_kernel *k, uint64_t first, uint64_t n, double seconds, bool show, struct rk_sig_tally *out,
               const struct rk_sig_each *each);

#endif
