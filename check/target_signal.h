/*
 * target_signal: what the signal target's files share (target_signal.c, the
 * descriptor; target_signal_entry.c, its SysSend entry: the scenario line,
 * the rule its inputs keep, the generator's draw, the enumeration's part).
 * Nothing outside the
 * target's files includes it.
 */
#ifndef IRQSIM_TARGET_SIGNAL_H
#define IRQSIM_TARGET_SIGNAL_H

#include "target.h"

/* `syscall send cap=K [ntfn=N] [badge=B] [extra_caps=E] [extra_bad=M]` */
extern const struct target_line sig_line;
/* The generator's last step: a SysSend by the current thread, if it can
 * make one (gen_syscall_unfit), else -1. */
int sig_gen_entry(struct kstate *ks, struct gen_src *src);
/* Its gen_invocation: the SysSend redrawn as a DomainSet_Set or (trees with
 * TCB flags, an FPU build) a TCB_SetFlags, never of a thread another core
 * runs (domain_set_thread says why). */
int sig_gen_invocation(struct kstate *ks, struct gen_src *src);
/* the workload simulator's: a SysSend on a notification is the entry, and
 * its inputs */
struct ks_call;
bool sig_entry_call(const struct ks_call *c);
void sig_set_inputs(struct kstate *ks, const struct ks_call *c);
/* the workload generator's: seL4_Send with an extra cap, signalling threads */
struct wl_src;
struct wl_insn;
struct workload;
void sig_draw_insn(struct wl_src *src, struct wl_insn *in);
bool sig_draw_thread(struct wl_src *src, struct workload *w, int i);
/* the SysSend's extra caps in the enumeration's plans (exh_plan entry[1]) */
enum sig_extra { XE_NONE, XE_OK, XE_BAD, XE_KINDS };
/* the bounded enumeration's part: the caller, the SysSend's inputs */
extern const struct exh_ops sig_exh;

#endif
