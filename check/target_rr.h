/*
 * target_rr: what the reply_recv target's files share (target_rr.c, the
 * descriptor; target_rr_entry.c, its SysReplyRecv entry: the scenario
 * line, the rule its inputs keep, the generator's draw, the enumeration's
 * part, the workload simulator's hooks). Nothing outside the target's
 * files includes it.
 */
#ifndef IRQSIM_TARGET_RR_H
#define IRQSIM_TARGET_RR_H

#include "target.h"

/* `syscall reply_recv cap=K [ep=E] [ntfn=N] [rights=R] reply_cap=C [reply=R] [length=L] [extra_caps=X] [extra_bad=M]` */
extern const struct target_line rr_line;
/* The generator's last step: a SysReplyRecv by the current thread, a
 * server with callers on its SC's call stack, if it can make one, else -1. */
int rr_gen_entry(struct kstate *ks, struct gen_src *src);
struct ks_call;
bool rr_entry_call(const struct ks_call *c);
void rr_set_inputs(struct kstate *ks, const struct ks_call *c);
extern const struct exh_ops rr_exh;

#endif
