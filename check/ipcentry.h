/*
 * ipcentry: what the IPC targets' system-call entries share (the call and
 * reply_recv targets, check/target_call_entry.c, check/target_rr_entry.c):
 * the rule the inputs of a cptr keep (its cap kind, the endpoint or
 * notification it names, an endpoint cap's rights, the message's extra
 * caps), and those inputs taken from a workload's call.
 */
#ifndef IRQSIM_IPCENTRY_H
#define IRQSIM_IPCENTRY_H

#include <stddef.h>

#include "kstate.h"

struct ks_call;

/* NULL when ks->sys's cptr inputs fit ks, else what is wrong, into buf */
const char *ipc_cptr_misfit(const struct kstate *ks, char *buf, size_t len);
/* ks->sys for a workload's SysCall (entry ENTRY_CALL: the cap's badge) or
 * SysReplyRecv (ENTRY_REPLY_RECV: the reply cptr) */
void ipc_set_inputs(struct kstate *ks, int entry, const struct ks_call *c);

#endif
