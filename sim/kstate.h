/*
 * kstate: the whole kernel state the aarch64 MCS interrupt path reads and
 * writes, as plain data. Objects live in bounded arrays and refer to each
 * other by index (KS_NONE for a null pointer), so a state copies with
 * memcpy, compares field by field, prints and reads back. Also owns the
 * record of failed kernel assertions: a model `assert` notes the failure
 * in the state and the path goes on, so a failure is a finding, not a crash.
 */
#ifndef IRQSIM_KSTATE_H
#define IRQSIM_KSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define KS_NONE (-1)

#define KS_MAX_TCBS 64
#define KS_MAX_SCS 64
#define KS_MAX_REFILLS 16
#define KS_MAX_NTFNS 16
#define KS_MAX_EPS 8
#define KS_MAX_REPLIES 16
#define KS_MAX_DOMAINS 16
#define KS_MAX_DOM_SCHED 16
#define KS_MAX_CORES 2
#define KS_NUM_PRIOS 256
#define KS_MAX_IRQS 1024
#define KS_WORD_BITS 64
#define KS_L2_SIZE ((KS_NUM_PRIOS + KS_WORD_BITS - 1) / KS_WORD_BITS)
#define KS_MAX_ASSERTS 8
#define KS_NAME_LEN 12
#define KS_MAX_VCPUS 4
/* the list registers the model holds per VCPU and in the VGIC: GICv3's
 * most (ICH_VTR_EL2.ListRegs is 4 bits); the kernel's array is 64, GICv2's
 * most (GIC_VCPU_MAX_NUM_LR) */
#define KS_VGIC_MAX_LRS 16

/* thread_state tsType */
enum ks_ts {
    TS_Inactive,
    TS_Running,
    TS_Restart,
    TS_BlockedOnReceive,
    TS_BlockedOnSend,
    TS_BlockedOnReply,
    TS_BlockedOnNotification,
    TS_IdleThreadState,
    TS_COUNT
};

enum ks_ntfn_state { NTFN_Idle, NTFN_Waiting, NTFN_Active, NTFN_COUNT };
enum ks_ep_state { EP_Idle, EP_Send, EP_Recv, EP_COUNT };
enum ks_irq_state { IRQ_Inactive, IRQ_Signal, IRQ_Timer, IRQ_IPI, IRQ_Reserved, IRQ_STATE_COUNT };
enum ks_cap_type { CAP_Null, CAP_Notification, CAP_Endpoint, CAP_TYPE_COUNT };
/* tcbFault's type: none, a timeout fault (handleTimeout), a cap fault
 * (handleFault of a failed lookup; the generator draws it only in a caller
 * blocked on the reply its fault handler received, the donating fault IPC
 * of sendFaultIPC, faulthandler.c:28-44), and the two faults of the
 * hypervisor's interrupt path (VPPIEvent, VGICMaintenance: sim/vcpu.h) */
enum ks_fault { FAULT_None, FAULT_Timeout, FAULT_CapFault, FAULT_VPPIEvent, FAULT_VGICMaintenance, FAULT_COUNT };

/* A thread's tcbLookupFailure, the lookup fault its last cap fault sent
 * to a handler carried (sendFaultIPC), as far as the paths modelled set
 * it: none, a TCB's value as created (lookup_fault_invalid_root, the
 * zeroed word); missing, lookup_fault_missing_capability(0), which
 * handleRecv and lookupReply set for a cap of the wrong kind
 * (src/api/syscall.c:400-406, 468-516 at 1326364bc); resolve, what
 * resolveAddressBits set for a cptr that does not resolve (the model's
 * SCAP_LOOKUP_FAIL, RCAP_LOOKUP_FAIL and bad extra caps). Any other value
 * is stale: left in current_lookup_fault by an earlier lookup, which no
 * path modelled stores. */
enum ks_lookup_fault { LKF_NONE, LKF_MISSING, LKF_RESOLVE, LKF_STALE, LKF_COUNT };

/* The kernel entry a state is at: an interrupt (the IRQ path), a
 * SysSend (seL4_Send, seL4_Signal) by the current thread, the entry of
 * master's signal fastpath (sim/sig_fast.h), or a SysCall (seL4_Call), the
 * entry of fastpath_call (sim/call_fast.h). */
enum ks_entry { ENTRY_IRQ, ENTRY_SIGNAL, ENTRY_CALL, ENTRY_REPLY_RECV, ENTRY_COUNT };
/* What the SysSend's cptr resolves to in the caller's CSpace (lookup_fp and
 * lookupCapAndSlot agree on it): a notification cap with or without the
 * send right, a null cap (an empty slot), or no slot (a lookup failure).
 * An endpoint cap is not modelled: both paths take sendIPC then, the
 * fastpath before touching anything (docs/FINDINGS-signal.md). A DomainSet
 * cap (SysSend only): the message's first word the domain, its extra cap 0
 * a thread cap (decodeDomainInvocation, master src/object/domain.c). A
 * thread cap (SysSend only): TCB_SetFlags, its two words clear and set
 * (decodeSetFlags, master src/object/tcb.c:826-842). A VCPU cap (SysSend
 * only, hypervisor builds): VCPU_InjectIRQ, its first word the virtual
 * IRQ and the list register (decodeVCPUInjectIRQ, sim/vcpu.h). An IRQ
 * handler cap (SysSend only) of IRQ `irq`, invoked with one of its three
 * labels (decodeIRQHandlerInvocation, src/object/interrupt.c:84-130):
 * IRQHandler_Ack, IRQHandler_SetNotification (its extra cap 0 a
 * notification cap with Send: ntfn and badge), IRQHandler_Clear. The IRQ
 * control cap (SysSend only): IRQControl_Get of IRQ `irq`, its extra cap 0
 * a CNode cap and the destination slot it names `dest` (enum ks_irq_dest;
 * decodeIRQControlInvocation, interrupt.c:23-73). */
enum ks_sys_cap { SCAP_NTFN, SCAP_NTFN_NO_SEND, SCAP_NULL, SCAP_LOOKUP_FAIL, SCAP_EP, SCAP_DOMAIN, SCAP_TCB, SCAP_VCPU,
                  SCAP_IRQ_ACK, SCAP_IRQ_SET, SCAP_IRQ_CLEAR, SCAP_IRQ_CONTROL, SCAP_COUNT };
/* IRQControl_Get's destination slot (lookupTargetSlot, ensureEmptySlot):
 * an empty slot, one the lookup does not find, one that holds a cap */
enum ks_irq_dest { IRQD_EMPTY, IRQD_BAD, IRQD_FULL, IRQD_COUNT };
/* the IRQ control cap's invocation (its label): IRQIssueIRQHandler
 * (seL4_IRQControl_Get), ARMIRQIssueIRQHandlerTrigger (_GetTrigger: the
 * trigger too) and, on SMP only, ARMIRQIssueIRQHandlerTriggerCore
 * (_GetTriggerCore: the trigger and the target core) */
enum ks_irq_method { IRQM_GET, IRQM_TRIGGER, IRQM_TRIGGER_CORE, IRQM_COUNT };
/* the IRQ handler cap's kinds, one per label, and those with the IRQ
 * control cap's (one comparison each: no branch the coverage gate would
 * ask both ways of) */
static inline bool scap_is_irq_handler(int cap) { return (unsigned)(cap - SCAP_IRQ_ACK) <= SCAP_IRQ_CLEAR - SCAP_IRQ_ACK; }
static inline bool scap_is_irq(int cap) { return (unsigned)(cap - SCAP_IRQ_ACK) <= SCAP_IRQ_CONTROL - SCAP_IRQ_ACK; }
/* the kinds a SysSend entry's cptr resolves to that the enumeration walks:
 * an endpoint cap is not modelled there (the signal target), and the
 * DomainSet, thread and VCPU caps (SCAP_DOMAIN, SCAP_TCB, SCAP_VCPU) are
 * the generator's only */
#define SCAP_SEND_KINDS SCAP_EP
/* What a SysReplyRecv's reply cptr resolves to: a reply cap, a null cap,
 * nothing (a lookup failure) */
enum ks_reply_cap { RCAP_REPLY, RCAP_NULL, RCAP_LOOKUP_FAIL, RCAP_COUNT };
/* An endpoint cap's rights (capCanSend, capCanReceive, capCanGrant,
 * capCanGrantReply): struct ks_sysin rights bits */
enum ks_ep_right { EPR_SEND, EPR_RECV, EPR_GRANT, EPR_GRANT_REPLY, EPR_COUNT };
#define EPR(r) (1u << (r))
#define KS_MSG_REGISTERS 4    /* n_msgRegisters (aarch64) */
#define KS_NUM_PPI 32         /* NUM_PPI: the SGIs and PPIs, banked per core (gic_common.h) */
#define KS_NUM_SGI 16         /* PPI_START: below it HW_IRQ_IS_SGI (gic_common.h) */
#define KS_MSG_MAX_LENGTH 120 /* seL4_MsgMaxLength */
#define KS_MAX_EXTRA_CAPS 3 /* seL4_MsgMaxExtraCaps */

/* ksSchedulerAction: ResumeCurrentThread, ChooseNewThread, or a TCB index */
#define KS_SA_RESUME (-1)
#define KS_SA_CHOOSE (-2)

/* struct kstate irq_cfg: edge-triggered, and an SPI's target core */
#define KS_IRQ_EDGE 1u
#define KS_IRQ_CORE_SHIFT 1
static inline unsigned ks_irq_core(uint8_t cfg) { return cfg >> KS_IRQ_CORE_SHIFT; }

/* the active IRQ is irqInvalid (spurious) */
#define KS_IRQ_INVALID (-1)

/* irq_remote_call_ipi and irq_reschedule_ipi (aarch64 mode/machine.h): the
 * only IRQs the kernel puts in state IRQIPI, at boot (arm/kernel/boot.c) */
#define KS_IRQ_REMOTE_CALL_IPI 0
#define KS_IRQ_RESCHEDULE_IPI 1

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wpadded"
/* explicit padding in every struct of the state: see struct ks_config */
struct ks_refill {
    ticks_t time;   /* rTime */
    ticks_t amount; /* rAmount */
};

struct ks_tcb {
    char name[KS_NAME_LEN];
    uint8_t state;       /* enum ks_ts */
    uint8_t prio;        /* tcbPriority */
    uint8_t domain;      /* tcbDomain */
    uint8_t affinity;    /* tcbAffinity (core) */
    int8_t blocking;     /* blockingObject: EP or notification index */
    int8_t reply;        /* replyObject */
    bool queued;         /* tcbQueued */
    bool in_release;     /* tcbInReleaseQueue */
    int8_t sc;           /* tcbSchedContext */
    int8_t bound_ntfn;   /* tcbBoundNotification */
    int8_t sched_next, sched_prev; /* ready/release queue links */
    int8_t ep_next, ep_prev;       /* endpoint/notification queue links */
    uint8_t fault;       /* enum ks_fault */
    bool timeout_handler;          /* validTimeoutHandler() */
    int8_t timeout_ep;   /* the endpoint of the tcbTimeoutHandler cap; KS_NONE:
                            not in the state (handleTimeout then blocks the
                            thread sending on no endpoint, the abstraction
                            generated states use) */
    bool vtable_ok;      /* isValidVTableRoot_fp(): a mapped vspace cap */
    bool asid_ok;        /* the ASID map still points at that vspace */
    bool vmid_ok;        /* stored VMID valid (hypervisor builds) */
    bool fpu_live;       /* a core's FPU owner (ksActiveFPUState) is this thread's
                            FPU state: nativeThreadUsingFPU() while that core is
                            its affinity */
    /* what a thread blocked sending holds in its thread state for the
     * receiver (sendIPC, endpoint.c:34-45); stale in other states, as the
     * kernel leaves them */
    bool ipc_grant;       /* blockingIPCCanGrant */
    bool ipc_grant_reply; /* blockingIPCCanGrantReply */
    bool ipc_call;        /* blockingIPCIsCall */
    int8_t vcpu;         /* tcbArch.tcbVCPU (hypervisor builds, sim/vcpu.h) */
    int8_t fault_ep;     /* the endpoint of the tcbFaultHandler cap; KS_NONE: a
                            null cap (handleFault then makes the thread
                            Inactive: handleNoFaultHandler) */
    int8_t fault_lr;     /* a VGICMaintenance fault's idx, KS_NONE when its
                            idxValid is 0; stale in other states */
    bool fpu_disabled;   /* tcbFlags' seL4_TCBFlag_fpuDisabled (TCB_FLAGS trees)
                            of a user thread; the idle threads' flag
                            (configureIdleThread) is implied, not stored */
    uint8_t lookup_fault; /* tcbLookupFailure: enum ks_lookup_fault */
    uint8_t pad0[7];
    uint64_t badge_reg;  /* badgeRegister */
    uint64_t ipc_badge;  /* blockingIPCBadge */
};

struct ks_sc {
    char name[KS_NAME_LEN];
    uint8_t pad0[4];
    ticks_t period;      /* scPeriod: 0 means round robin */
    ticks_t budget;      /* configured budget: what the refills sum to
                            (the kernel keeps it only as that sum) */
    ticks_t consumed;    /* scConsumed */
    uint64_t badge;      /* scBadge */
    uint8_t refill_max;  /* scRefillMax: 0 means not configured */
    uint8_t head, tail;  /* scRefillHead, scRefillTail */
    bool sporadic;       /* scSporadic */
    uint8_t core;        /* scCore */
    int8_t tcb;          /* scTcb */
    int8_t ntfn;         /* scNotification */
    int8_t reply;        /* scReply: the head of its call stack */
    struct ks_refill refills[KS_MAX_REFILLS];
};

struct ks_ntfn {
    char name[KS_NAME_LEN];
    uint8_t state;       /* enum ks_ntfn_state */
    int8_t q_head, q_tail;
    int8_t bound_tcb;    /* ntfnBoundTCB */
    int8_t sc;           /* ntfnSchedContext */
    uint8_t pad0[7];
    uint64_t msg_id;     /* ntfnMsgIdentifier */
};

struct ks_ep {
    char name[KS_NAME_LEN];
    uint8_t state;       /* enum ks_ep_state */
    int8_t q_head, q_tail;
};

/* A reply object. Its call-stack links are the kernel's call_stack_t
 * words: replyPrev names a reply; replyNext names a reply, or, with its
 * isHead bit, the SC whose stack this reply heads (sc_head here, so that
 * next and sc_head are never both set). */
struct ks_reply {
    char name[KS_NAME_LEN];
    int8_t tcb;          /* replyTCB */
    int8_t prev;         /* replyPrev */
    int8_t next;         /* replyNext, isHead clear */
    int8_t sc_head;      /* replyNext, isHead set */
};

/* A VCPU object (vcpu_t, include/arch/arm/arch/object/vcpu.h): its
 * thread, the masked state of its one virtual PPI (n_VPPIEventIRQ is 1: the
 * virtual timer) and the VGIC list registers it saves (vgic.lr); the
 * registers of the guest are not modelled. A list register is the
 * bits of virq_t the maintenance path reads and writes: VGIC_LR_*. */
#define VGIC_LR_TYPE 3u  /* virqType: 0 invalid, 1 pending, 2 active, 3 pending and active */
#define VGIC_LR_ACTIVE 2u /* virq_virq_active */
#define VGIC_LR_EOI 4u   /* virqEOIIRQEN: a maintenance interrupt at its EOI */
struct ks_vcpu {
    char name[KS_NAME_LEN];
    int8_t tcb;          /* vcpuTCB */
    bool vppi_masked;    /* vppi_masked[VPPIEventIRQ_VTimer] */
    uint8_t pad0[2];
    uint8_t lr[KS_VGIC_MAX_LRS]; /* vgic.lr */
};

/* The cap in an IRQ's handler slot (intStateIRQNode[irq].cap). */
struct ks_irq_cap {
    uint8_t type;        /* enum ks_cap_type */
    bool can_send;       /* capNtfnCanSend */
    int8_t ntfn;         /* capNtfnPtr */
    uint8_t pad0[5];
    uint64_t badge;      /* capNtfnBadge */
};

/* A domain schedule entry as master's dschedule_t (include/object/domain.h,
 * 27a52ddd4): the domain in the top 8 bits, the duration in ticks below;
 * 0 is an end marker. sim/domain.h has the schedule's invocations. */
#define DSCHED_DOMAIN_BITS 8
#define DSCHED_DOMAIN_SHIFT (64 - DSCHED_DOMAIN_BITS)
#define DSCHED_MAX_DURATION (UINT64_MAX >> DSCHED_DOMAIN_BITS)
/* CONFIG_NUM_DOMAIN_SCHEDULES (config.cmake default 100): the kernel's
 * array; the model stores the first KS_MAX_DOM_SCHED entries */
#define KS_NUM_DOMAIN_SCHEDULES 100

/* dschedule_make */
static inline uint64_t dschedule_make(unsigned domain, ticks_t duration)
{
    return ((uint64_t)domain << DSCHED_DOMAIN_SHIFT) | duration;
}

/* dschedule_domain */
static inline unsigned dschedule_domain(uint64_t e) { return (unsigned)(e >> DSCHED_DOMAIN_SHIFT); }

/* dschedule_duration */
static inline ticks_t dschedule_duration(uint64_t e) { return e & DSCHED_MAX_DURATION; }

/* The inputs of a SysSend entry: the registers (capRegister, msgInfoRegister)
 * and what the lookups they start find. */
struct ks_sysin {
    uint8_t entry;       /* enum ks_entry; ENTRY_IRQ leaves the rest unused but target */
    uint8_t cap;         /* enum ks_sys_cap: what the cptr resolves to */
    int8_t ntfn;         /* capNtfnPtr of a notification cap */
    uint8_t extra_caps;  /* seL4_MessageInfo extraCaps, 0..KS_MAX_EXTRA_CAPS */
    uint8_t extra_bad;   /* bit i: extra cap i's cptr (in the IPC buffer) fails
                            lookupSlot; an absent IPC buffer is all clear
                            (lookupExtraCaps looks nothing up then) */
    uint8_t target;      /* which fastpath under check the state is an entry
                            of, among those of its entry kind (check/target.h,
                            target_of): 0 the first registered; the model
                            never reads it */
    int8_t ep;           /* capEPPtr of an endpoint cap (SCAP_EP) */
    uint8_t rights;      /* an endpoint cap's rights: EPR() bits */
    uint64_t badge;      /* capNtfnBadge, capEPBadge */
    uint8_t length;      /* seL4_MessageInfo length, 0..KS_MSG_MAX_LENGTH */
    uint8_t reply_cap;   /* SysReplyRecv: enum ks_reply_cap of the reply cptr */
    int8_t reply;        /* the reply object of a reply cap (RCAP_REPLY) */
    int8_t tcb;          /* SCAP_DOMAIN: the thread cap's TCB (extra cap 0); SCAP_TCB: the cap's */
    uint8_t domain;      /* SCAP_DOMAIN: the message's first word */
    uint8_t flags_clear, flags_set; /* SCAP_TCB: the message's two words */
    int8_t vcpu;         /* SCAP_VCPU: the cap's VCPU */
    int16_t irq;         /* SCAP_IRQ_ACK .. _CLEAR: the IRQ handler cap's IRQ (capIRQ); SCAP_IRQ_CONTROL: the IRQ asked for */
    uint8_t dest;        /* SCAP_IRQ_CONTROL: enum ks_irq_dest */
    uint8_t irq_core;    /* SCAP_IRQ_ACK: the core of a PPI's handler cap (IRQControl_GetTriggerCore): 0, or
                            another core's PPI (two cores); SCAP_IRQ_CONTROL with IRQM_TRIGGER_CORE: the
                            target core asked for (the message's fifth word) */
    uint8_t irq_method;  /* SCAP_IRQ_CONTROL: enum ks_irq_method */
    uint8_t trigger;     /* SCAP_IRQ_CONTROL with IRQM_TRIGGER or _CORE: 1 edge, 0 level (the second word) */
    uint8_t pad0[2];
    uint64_t mr0;        /* SCAP_VCPU: the message's first word */
};

struct ks_assert {
    uint16_t id;         /* enum in kassert.h */
    uint8_t path;        /* which path was running: enum ks_path */
    uint8_t pad0;
};

enum ks_path { PATH_NONE, PATH_SLOW, PATH_FAST, PATH_NORM };

struct cost_rec;

struct kstate {
    struct ks_config cfg;

    /* hardware: the clock getCurrentTime() returns, the active IRQ */
    ticks_t hw_clock;
    int32_t active_irq;  /* getActiveIRQ(): KS_IRQ_INVALID or an IRQ number */

    /* node state of the core taking the interrupt (core 0) */
    int8_t cur_thread, cur_sc, idle_thread, idle_sc;
    int8_t vspace;       /* TTBR0 (armv_contextSwitch): the thread whose vspace
                            root it holds, KS_NONE for the global user vspace
                            (armKSGlobalUserVSpace); set by switches only
                            (sim/vspace.h) */
    uint8_t pad0;
    int16_t sched_action;
    bool reprogram;      /* ksReprogram */
    uint8_t pad1[3];
    ticks_t cur_time;    /* ksCurTime */
    ticks_t consumed;    /* ksConsumed */
    ticks_t deadline;    /* the timer compare value last programmed */
    uint32_t deadline_writes; /* setDeadline() calls: whether the timer was written;
                                 not part of the compared outcome */
    uint8_t pad2[4];
    struct cost_rec *cost; /* cost recorder (cost.h), NULL when not counting;
                              not kernel state: ks_same skips it, ks_copy
                              leaves the copy without one */

    /* ksReleaseHead of each core */
    int8_t release_head[KS_MAX_CORES];

    /* other cores (SMP): their current thread, idle thread and reprogram
     * flag; index 0 is unused (core 0 is the node state above) */
    int8_t core_cur[KS_MAX_CORES];
    int8_t core_idle[KS_MAX_CORES];
    bool core_reprogram[KS_MAX_CORES];
    /* the rest of another core's node state, which that core's own
     * kernel entries use (sim/smp.h): ksCurSC, ksIdleSC, TTBR0,
     * ksSchedulerAction, ksCurTime, ksConsumed and its timer's compare
     * value; a state whose other core never enters the kernel leaves them
     * at their ks_init values (no SC, ResumeCurrentThread, 0, never) */
    int8_t core_sc[KS_MAX_CORES], core_idle_sc[KS_MAX_CORES], core_vspace[KS_MAX_CORES];
    int16_t core_action[KS_MAX_CORES];
    uint8_t pad3[6];
    ticks_t core_time[KS_MAX_CORES], core_consumed[KS_MAX_CORES], core_deadline[KS_MAX_CORES];
    uint8_t ipi_pending; /* ipiReschedulePending (a node state: core 0's) */
    uint8_t ipi_sent;    /* cores sent a reschedule IPI by doMaskReschedule */
    /* another core's ipiReschedulePending (index 0 unused): 0 whenever
     * that core is at user level, but that master's signal fastpath
     * returns to user level with its own set (fastpath.c:711-712) */
    uint8_t core_ipi_pending[KS_MAX_CORES];
    /* another core's private interrupts (INTID below KS_NUM_PPI: its SGIs
     * and PPIs, IRQ_IS_PPI), whose enable and active bits are that core's
     * own (the redistributor's, or GICv2's banked distributor registers,
     * and the CPU interface's): bit i is INTID i masked, or active (index 0
     * unused: core 0's are irq_masked and irq_active). An IRQHandler_Ack
     * of such a PPI from core 0 reaches them by a remote call
     * (invokeIRQHandler_AckIRQ, src/object/interrupt.c:146-157 at
     * 1326364bc). The virtual timer's mask is core_vtimer_masked; the
     * kernel's IRQ table entries of those PPIs are not held (the ack does
     * not read them). */
    uint32_t core_ppi_masked[KS_MAX_CORES], core_ppi_active[KS_MAX_CORES];

    /* what the GIC saw for an IRQ number above maxIRQ, which has no entry
     * in the kernel's IRQ table: KS_IRQ_INVALID when none */
    int32_t oor_irq;
    bool oor_masked;
    uint8_t oor_acks;
    bool oor_active;     /* the GIC's active state of that IRQ (irq_active) */
    uint8_t pad4[5];

    /* hypervisor builds (sim/vcpu.h): core 0's armHSCurVCPU and
     * armHSVCPUActive, and its VGIC's virtual interface control registers
     * the maintenance path reads: the list registers, GICH_EISR0/1 as one
     * word, GICH_MISR's EOI bit, and the number of list registers
     * (gic_vcpu_num_list_regs). The hardware computes EISR and MISR from
     * the list registers; the kernel does not trust that (VGICMaintenance),
     * so the state holds them as read. */
    int8_t cur_vcpu;
    bool vcpu_active;
    uint8_t vgic_num_lr;
    bool vgic_misr_eoi;
    uint8_t n_vcpus;
    uint8_t pad5a[3];
    uint64_t vgic_eisr;
    uint8_t vgic_lr[KS_VGIC_MAX_LRS];
    /* the same of another core (index 0 unused: core 0's are the fields
     * above), which that core's own kernel entries use (sim/smp.h swaps
     * them in): armHSCurVCPU and armHSVCPUActive are node state
     * (NODE_STATE_DECLARE, include/arch/arm/arch/model/statedata.h:20-21),
     * the VGIC's virtual interface is banked per CPU (the GICH frame,
     * ICH_*_EL2), and so is the virtual timer's PPI, whose mask is the
     * core's own (CORE_IRQ_TO_IRQT(CURRENT_CPU_INDEX(), ...), IRQT_TO_IDX,
     * include/arch/arm/arch/machine/gic_common.h:45-48); core 0's is
     * irq_masked[INTERRUPT_VTIMER_EVENT]. gic_vcpu_num_list_regs is one
     * kernel global (vgic_num_lr above). A core that never ran a VCPU
     * leaves them as vcpu_boot_init does (none loaded, none active). */
    int8_t core_vcpu[KS_MAX_CORES];
    bool core_vcpu_active[KS_MAX_CORES];
    bool core_vgic_misr_eoi[KS_MAX_CORES];
    bool core_vtimer_masked[KS_MAX_CORES];
    uint64_t core_vgic_eisr[KS_MAX_CORES];
    uint8_t core_vgic_lr[KS_MAX_CORES][KS_VGIC_MAX_LRS];
    struct ks_vcpu vcpus[KS_MAX_VCPUS];

    /* the system-call entry's inputs (sys.entry == ENTRY_SIGNAL) */
    struct ks_sysin sys;

    /* ready-queue bitmaps per core and domain (queues are TCB links) */
    uint64_t l1[KS_MAX_CORES][KS_MAX_DOMAINS];
    uint64_t l2[KS_MAX_CORES][KS_MAX_DOMAINS][KS_L2_SIZE];

    /* domains: ksDomSchedule entries as master's dschedule_t (domain in
     * the top 8 bits, duration in ticks below: sim/domain.h), on base too
     * (base's entries in ms convert on load); entries from dom_len on are
     * end markers (0), as the kernel's array is zero past what was set */
    uint8_t cur_domain;
    uint8_t pad5[7];
    ticks_t domain_time;
    uint8_t dom_idx, dom_len;
    uint8_t dom_start;   /* ksDomScheduleStart (master; 0 on base) */
    uint8_t pad6[5];
    uint64_t dom_sched[KS_MAX_DOM_SCHED];

    /* objects */
    uint8_t n_tcbs, n_scs, n_ntfns, n_eps, n_replies;
    uint8_t pad7[3];
    struct ks_tcb tcbs[KS_MAX_TCBS];
    struct ks_sc scs[KS_MAX_SCS];
    struct ks_ntfn ntfns[KS_MAX_NTFNS];
    struct ks_ep eps[KS_MAX_EPS];
    struct ks_reply replies[KS_MAX_REPLIES];

    /* IRQ table and interrupt controller, for IRQs 0..n_irqs-1 */
    uint16_t n_irqs;
    uint8_t irq_state[KS_MAX_IRQS];
    bool irq_masked[KS_MAX_IRQS];
    uint8_t irq_acks[KS_MAX_IRQS];
    /* the GIC's configuration of the IRQ that IRQControl_GetTrigger and
     * _GetTriggerCore write: KS_IRQ_EDGE (setIRQTrigger: the upper bit of
     * its GICD_ICFGR field) and, on two cores, an SPI's target core in the
     * bits above (setIRQTarget: GICD_IROUTER, GICD_ITARGETSR); 0 is the
     * boot's (level, core 0) */
    uint8_t irq_cfg[KS_MAX_IRQS];
    /* the GIC's active state: set by the IAR read that takes the IRQ,
     * cleared by its deactivation (the EOI write, or ICC_DIR under split
     * EOI); an active IRQ is not signalled again until deactivated */
    bool irq_active[KS_MAX_IRQS];
    uint8_t pad8[6];
    struct ks_irq_cap irq_cap[KS_MAX_IRQS];

    /* failed kernel assertions, first KS_MAX_ASSERTS kept */
    uint8_t path;        /* enum ks_path, tags new assertion records */
    uint8_t n_asserts;
    struct ks_assert asserts[KS_MAX_ASSERTS];
    uint8_t pad9[6];
};
#pragma GCC diagnostic pop

/* the cores of the configuration (CONFIG_MAX_NUM_NODES): two on SMP */
static inline int ks_cores(const struct kstate *ks)
{
    return ks->cfg.smp ? KS_MAX_CORES : 1;
}

/* entry index of the domain schedule: 0 (an end marker) past the stored
 * entries, as the kernel's array is zero past what was set */
static inline uint64_t dschedule_entry(const struct kstate *ks, unsigned index)
{
    return index < ks->dom_len ? ks->dom_sched[index] : 0;
}

/* dschedule_is_end_marker */
static inline bool dschedule_is_end_marker(const struct kstate *ks, unsigned index)
{
    return dschedule_entry(ks, index) == 0;
}

/* System-call inputs naming nothing: every field 0 but the object
 * references of the kinds a line may leave out (endpoint, reply), none. */
void ks_sysin_clear(struct ks_sysin *s);

/* An empty state: config from a preset, idle thread and idle SC only. */
int ks_init(struct kstate *ks, const char *board);
void ks_copy(struct kstate *dst, const struct kstate *src);

int ks_add_tcb(struct kstate *ks, const char *name);
int ks_add_sc(struct kstate *ks, const char *name);
int ks_add_ntfn(struct kstate *ks, const char *name);
int ks_add_ep(struct kstate *ks, const char *name);
int ks_add_reply(struct kstate *ks, const char *name);
int ks_add_vcpu(struct kstate *ks, const char *name);
/* whether thread t is a core's idle thread */
bool ks_is_idle(const struct kstate *ks, int t);

static inline struct ks_tcb *ks_tcb(struct kstate *ks, int i) { return &ks->tcbs[i]; }
static inline struct ks_sc *ks_sc(struct kstate *ks, int i) { return &ks->scs[i]; }

/* Delete object i of a kind. References to it become KS_NONE and later
 * indices shift down by one: callers detach the object first. */
enum ks_kind { KIND_TCB, KIND_SC, KIND_NTFN, KIND_EP, KIND_REPLY, KIND_VCPU };
void ks_remove(struct kstate *ks, enum ks_kind kind, int i);

/* Make IRQ irq part of the modelled table (entries past n_irqs are an
 * inactive, unmasked, unacked, not active IRQ with a null cap). */
void ks_irq_touch(struct kstate *ks, int irq);

/* Same kernel state: every field but the report-only ones (deadline
 * write count, cost recorder, running path). States must come from
 * ks_init/ks_add_*. */
bool ks_same(const struct kstate *a, const struct kstate *b);

/* Record a failed kernel assertion; returns cond so callers may branch. */
bool ks_check(struct kstate *ks, bool cond, int id);
#define KASSERT(ks, cond, id) ((void)ks_check((ks), (cond), (id)))

const char *ks_ts_name(int ts);
const char *ks_ntfn_state_name(int s);
const char *ks_ep_state_name(int s);
const char *ks_irq_state_name(int s);
const char *ks_cap_type_name(int t);
const char *ks_fault_name(int f);
const char *ks_lookup_fault_name(int f);
const char *ks_path_name(int p);
const char *ks_entry_name(int e);
const char *ks_sys_cap_name(int c);
/* what a SysSend or SysCall on that kind of cap invokes (decodeInvocation):
 * "" where nothing is (a notification cap without the send right is
 * refused, a null cap too, a failed lookup faults) */
const char *ks_sys_cap_invocation(int c);
const char *ks_reply_cap_name(int c);
const char *ks_irq_dest_name(int d);
const char *ks_irq_method_name(int m);

/* The names of the set bits of mask (below count) joined by '+', into buf;
 * "none" when no bit is set. */
const char *ks_bits_text(uint32_t mask, int count, const char *(*name)(int), char *buf, size_t len);

/* Name of object i of a kind ("-" for KS_NONE), into buf. */
const char *ks_tcb_name(const struct kstate *ks, int i);
const char *ks_sc_name(const struct kstate *ks, int i);
const char *ks_ntfn_name(const struct kstate *ks, int i);
const char *ks_ep_name(const struct kstate *ks, int i);
const char *ks_reply_name(const struct kstate *ks, int i);
const char *ks_vcpu_name(const struct kstate *ks, int i);

#endif
