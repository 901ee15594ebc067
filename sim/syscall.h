/*
 * syscall: the MCS system-call entry and exit (kernel src/api/syscall.c):
 * handleSyscall with MCS_DO_IF_BUDGET (updateTimestamp, checkBudgetRestart)
 * at entry and schedule() + activateThread() at exit; handleRecv,
 * handleYield, and handleInvocation dispatching to the invocations of
 * schedcontext, tcbops, irqhandler, domain (master) and seL4_Signal (a send on a
 * notification cap). A call names its objects by index; caps, rights and
 * message registers are not modelled (a workload only holds valid caps),
 * but for a send on a notification: there the cap may lack the send right,
 * be null or fail to resolve, and an extra cap of the message info may fail
 * to resolve (the inputs of master's signal fastpath, sim/sig_fast.h).
 */
#ifndef IRQSIM_SYSCALL_H
#define IRQSIM_SYSCALL_H

#include "kstate.h"

enum ks_sys { SYS_Send, SYS_Wait, SYS_Recv, SYS_Yield, SYS_Call, SYS_ReplyRecv, SYS_COUNT };

/* what a SysSend invokes (the cap's object type and the label) */
enum ks_inv {
    CALL_Signal,                       /* ntfn, badge */
    CALL_SchedControl_ConfigureFlags,  /* sc, core, budget, period, extra_refills, badge, flags */
    CALL_SchedContext_Bind,            /* sc, tcb or ntfn */
    CALL_SchedContext_Unbind,          /* sc */
    CALL_SchedContext_UnbindObject,    /* sc, tcb or ntfn */
    CALL_TCB_SetSchedParams,           /* tcb, prio, sc (KS_NONE: null cap) */
    CALL_TCB_SetPriority,              /* tcb, prio */
    CALL_TCB_SetTimeoutEndpoint,       /* tcb, ep (KS_NONE: null cap) */
    CALL_TCB_Suspend,                  /* tcb */
    CALL_TCB_Resume,                   /* tcb */
    CALL_IRQControl_Get,               /* irq, length (3), extra_caps (1: the CNode cap), dest */
    CALL_IRQHandler_SetNotification,   /* irq, ntfn, badge (extra cap 0; extra_caps 0: none) */
    CALL_IRQHandler_Ack,               /* irq */
    CALL_DomainSet_ScheduleConfigure,  /* dom_index, domain, budget (the duration in ticks); master */
    CALL_DomainSet_ScheduleSetStart,   /* dom_index; master */
    CALL_Endpoint,                     /* ep, badge, rights: a send or a call on an endpoint cap */
    CALL_Reply,                        /* reply, reply_cap: SysReplyRecv's reply (then a receive on cap, ep) */
    CALL_VCPU_AckVPPI,                 /* vcpu, irq (hypervisor builds) */
    CALL_DomainSet_Set,                /* tcb (extra cap 0), domain (the first word), length */
    CALL_TCB_SetFlags,                 /* tcb, flags_clear, flags_set, length (master) */
    CALL_VCPU_InjectIRQ,               /* vcpu, length, mr0 (hypervisor builds) */
    CALL_IRQHandler_Clear,             /* irq */
    CALL_COUNT
};

struct ks_call {
    uint8_t sys;       /* enum ks_sys */
    uint8_t inv;       /* enum ks_inv, for SYS_Send */
    int tcb, sc, ntfn, ep, reply, irq, prio;
    int vcpu;          /* CALL_VCPU_AckVPPI, CALL_VCPU_InjectIRQ: the VCPU cap's object */
    int core;          /* the SchedControl cap's core; IRQHandler_Ack: its IRQ's core (0 unless set);
                          IRQControl_GetTriggerCore: the target core */
    ticks_t budget, period;
    unsigned extra_refills, flags;
    uint64_t badge;
    unsigned dom_index, domain; /* a domain schedule entry */
    /* for CALL_Signal (a SysSend on the cap the cptr names, sim/sig_fast.h):
     * what the cptr resolves to, and the message info's extra caps */
    uint8_t cap;       /* enum ks_sys_cap; SCAP_NTFN for a call made by ks_call_new */
    uint8_t extra_caps, extra_bad; /* as struct ks_sysin */
    uint8_t rights;    /* CALL_Endpoint, SysReplyRecv: the cap's rights, EPR() bits */
    uint8_t reply_cap; /* SysReplyRecv: enum ks_reply_cap (reply names the object) */
    uint8_t length;    /* CALL_DomainSet_Set, CALL_TCB_SetFlags, CALL_VCPU_InjectIRQ: the message's length in words */
    uint8_t flags_clear, flags_set; /* CALL_TCB_SetFlags: the message's two words */
    uint64_t mr0;      /* CALL_VCPU_InjectIRQ: the message's first word */
    uint8_t dest;      /* CALL_IRQControl_Get: enum ks_irq_dest */
    uint8_t irq_method, trigger; /* CALL_IRQControl_Get: its label (enum ks_irq_method), the trigger word */
};

/* A call with every object KS_NONE. */
struct ks_call ks_call_new(int sys, int inv);
/* The system call of a system-call entry state (ks->sys): the SysSend of
 * a signal entry, the SysCall of a call entry. */
struct ks_call ks_call_of_entry(const struct kstate *ks);

/* handleSyscall on the current thread; returns whether the call was
 * performed (false: the budget check failed and the thread restarts it) */
bool handleSyscall(struct kstate *ks, const struct ks_call *c);
/* handleInvocation's decode and invoke; returns enum ks_syserr */
int decodeInvocation(struct kstate *ks, const struct ks_call *c);

#endif
