/*
 * target_call: what the call target's files share (target_call.c, the
 * descriptor; target_call_entry.c, its SysCall entry: the scenario line,
 * the rule its inputs keep, the generator's draw, the enumeration's part,
 * the workload simulator's hooks). Nothing outside the target's files
 * includes it.
 */
#ifndef IRQSIM_TARGET_CALL_H
#define IRQSIM_TARGET_CALL_H

#include "target.h"

/* `syscall call cap=K [ep=E] [rights=R] [badge=B] [length=L] [extra_caps=N]` */
extern const struct target_line call_line;
/* The generator's last step: a SysCall by the current thread on an
 * endpoint a server may wait on, if the thread can make one, else -1. */
int call_gen_entry(struct kstate *ks, struct gen_src *src);
struct ks_call;
bool call_entry_call(const struct ks_call *c);
void call_set_inputs(struct kstate *ks, const struct ks_call *c);
extern const struct exh_ops call_exh;


#endif
