/*
 * hostkernel.h: the C ABI of hostkernel.so, a seL4 kernel compiled for the
 * host by real/build-kernel.sh. Pure C with no kernel and no irqsim
 * headers: the kernel side (real/glue, compiled inside the kernel's
 * translation unit) and the host side (real/rk_load.c) both include it.
 *
 * A state crosses the boundary as a struct hk_state: a flat image of the
 * kernel state the interrupt path reads and writes, objects by index
 * (HK_NONE for a null pointer). hk_load builds real kernel objects and
 * globals from it, hk_entry runs one interrupt, hk_save reads the kernel
 * objects back into indices.
 *
 * Version 3 adds the GIC's per-IRQ active state (irq_active: set when the
 * kernel acknowledges an IRQ, cleared by its deactivation: the EOIR write,
 * or on a split-EOI GICv3 the ICC_DIR_EL1 write), and one system call: the
 * current thread's CSpace (cspace[], one CNode) and its syscall registers
 * (sys_cptr, sys_msginfo), run through the signal fastpath or the slowpath
 * (HK_PATH_SIG_FAST, HK_PATH_SIG_SLOW).
 *
 * Version 5 adds what a seL4_Call reads and writes: the thread state's
 * IPC fields (blockingIPCBadge, CanGrant, CanGrantReply, IsCall), the
 * MCS call stack (scReply, replyPrev, replyNext with its head bit), an
 * endpoint cap in a CSpace slot naming a state endpoint with its four
 * rights, and the SysCall paths (HK_PATH_CALL_SLOW, HK_PATH_CALL_FAST).
 *
 * Version 6 adds what a seL4_ReplyRecv reads: a reply cap in a CSpace slot
 * (HK_CAP_Reply naming a state reply object, capReplyCanGrant), the reply
 * cptr in the caller's replyRegister (sys_reply_cptr), and the
 * SysReplyRecv paths (HK_PATH_RR_SLOW, HK_PATH_RR_FAST), and a cap fault
 * beside the timeout fault (a caller blocked on the reply its fault
 * handler received).
 *
 * Version 7 adds the hypervisor's interrupt path: VCPU objects bound to
 * threads (vcpuTCB and tcbVCPU, the virtual timer's vppi_masked, the list
 * registers saved in vgic.lr), core 0's armHSCurVCPU and armHSVCPUActive,
 * the VGIC's virtual interface registers the maintenance path reads (list
 * registers, EISR, MISR, the number of list registers), a thread's fault
 * handler cap (tcbFaultHandler, an endpoint of the state) and the VPPIEvent
 * and VGICMaintenance faults.
 *
 * Version 8 adds another core's VCPU: core 1's armHSCurVCPU and
 * armHSVCPUActive (ARCH_NODE_STATE_ON_CORE), on a two-core hypervisor
 * build.
 *
 * Version 9 adds the DomainSet and thread caps of a system call
 * (HK_CAP_Domain, HK_CAP_Thread: DomainSet_Set, TCB_SetFlags).
 *
 * Version 10 adds hk_fault: a host signal of the kernel's own code (a wild
 * pointer) ends the entry as a halt with a text (real/rk_fault.h); a
 * VCPU cap (HK_CAP_VCPU) of a system call, invoked as VCPU_InjectIRQ; and
 * another core's VGIC registers (core_vgic_lr, _eisr, _misr_eoi).
 *
 * Version 11 adds the IRQ handler caps of a system call (HK_CAP_IRQAck,
 * HK_CAP_IRQSet, HK_CAP_IRQClear: IRQHandler_Ack, _SetNotification,
 * _Clear), the IRQ control cap and a CNode cap (HK_CAP_IRQControl,
 * HK_CAP_CNode: IRQControl_Get) and a third message word (sys_mr2), gives
 * each handler slot's cap the slot it was copied from (its MDB parent), so
 * that deleting it finalises nothing, and banks the SGIs' and PPIs' enable
 * and active bits per core (core_ppi_masked, core_ppi_active; an IRQ
 * handler cap's core in its reply field).
 *
 * Version 12 adds each thread's tcbLookupFailure (lookup_fault), and
 * hk_load leaves current_lookup_fault a value no path modelled stores (a
 * depth mismatch), so that a cap fault sent with a lookup fault its path
 * never set shows as HK_LKF_Stale.
 *
 * Version 13 adds the IRQ control cap's other labels (sys_irq_method:
 * IRQControl_GetTrigger, _GetTriggerCore), their fourth and fifth words
 * (sys_mr3, msgRegisters[3]; sys_mr4, word 5 of the IPC buffer) and each
 * IRQ's GIC configuration (irq_cfg: the trigger, an SPI's target core).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_HOSTKERNEL_H
#define IRQSIM_HOSTKERNEL_H

#define HK_ABI_VERSION 13

#define HK_NONE (-1)
#define HK_TTBR_BAD_TAG (-2)
#define HK_MAX_TCBS 64
#define HK_MAX_SCS 64
#define HK_MAX_REFILLS 16
#define HK_MAX_NTFNS 16
#define HK_MAX_EPS 8
#define HK_MAX_REPLIES 16
#define HK_MAX_VCPUS 4
#define HK_VGIC_LRS 16     /* list registers held per VCPU and in the VGIC */
#define HK_MAX_DOMAINS 16
#define HK_MAX_DOM_SCHED 16
#define HK_MAX_CORES 2
#define HK_L2_SIZE 4
#define HK_MAX_IRQS 1024
#define HK_TEXT_LEN 512
#define HK_CSPACE_BITS 4 /* the caller's CNode: 16 slots, cptr = slot, one level */
#define HK_CSPACE_SLOTS (1 << HK_CSPACE_BITS)

/* ksSchedulerAction besides a TCB index */
#define HK_SA_RESUME (-1)
#define HK_SA_CHOOSE (-2)

/* Values below are irqsim's (kstate.h) numbering, which follows the
 * kernel's own enums; the bridge translates where they differ. */
enum hk_ts { HK_TS_Inactive, HK_TS_Running, HK_TS_Restart, HK_TS_BlockedOnReceive, HK_TS_BlockedOnSend,
             HK_TS_BlockedOnReply, HK_TS_BlockedOnNotification, HK_TS_IdleThreadState };
enum hk_irq_state { HK_IRQ_Inactive, HK_IRQ_Signal, HK_IRQ_Timer, HK_IRQ_IPI, HK_IRQ_Reserved };
enum hk_fault { HK_FAULT_None, HK_FAULT_Timeout, HK_FAULT_CapFault, HK_FAULT_VPPIEvent, HK_FAULT_VGICMaintenance };
/* tcbLookupFailure as irqsim holds it (sim/kstate.h enum ks_lookup_fault):
 * None, the zeroed word (lookup_fault_invalid_root) a TCB is made with;
 * Missing, lookup_fault_missing_capability with no bits left; Resolve, a
 * guard mismatch, how a cptr past the CNode (HK_CSPACE_SLOTS, guard 0)
 * fails; Stale, anything else (hk_load's depth mismatch among it) */
enum hk_irq_method { HK_IRQM_Get, HK_IRQM_Trigger, HK_IRQM_TriggerCore };
#define HK_IRQ_EDGE 1u
#define HK_IRQ_CORE_SHIFT 1

enum hk_lookup_fault { HK_LKF_None, HK_LKF_Missing, HK_LKF_Resolve, HK_LKF_Stale };
/* a list register as irqsim holds it: the state (virqType) in bits 1:0, the
 * EOI maintenance request (virqEOIIRQEN) in bit 2 */
#define HK_LR_TYPE 3u
#define HK_LR_EOI 4u
/* HK_CAP_Domain: a DomainSet cap; HK_CAP_Thread: a thread cap (its TCB in
 * the cap's reply field); HK_CAP_VCPU: a VCPU cap (its VCPU in the reply
 * field; a null cap on a build without hypervisor support);
 * HK_CAP_IRQAck, _IRQSet, _IRQClear: an IRQ handler cap (its IRQ in the
 * badge field, the IRQ's core, 0 but for another core's PPI, in the reply
 * field), invoked with that label;
 * HK_CAP_IRQControl: the IRQ control cap (IRQIssueIRQHandler: the IRQ,
 * the slot's index and depth in sys_mr0..2); HK_CAP_CNode: a cap to the
 * caller's own CNode (an IRQControl_Get's extra cap 0) */
enum hk_cap { HK_CAP_Null, HK_CAP_Notification, HK_CAP_Endpoint, HK_CAP_Reply, HK_CAP_Domain, HK_CAP_Thread,
              HK_CAP_VCPU, HK_CAP_IRQAck, HK_CAP_IRQSet, HK_CAP_IRQClear, HK_CAP_IRQControl, HK_CAP_CNode };

/* HK_PATH_SLOW/FAST/FIXED: one interrupt (c_handle_interrupt's prologue,
 * then slowpath_irq, fastpath_irq or the kernel-C corrected fastpath);
 * HK_PATH_SIG_SLOW: c_handle_syscall(cptr, msgInfo, SysSend), the MCS
 * syscall slowpath; HK_PATH_SIG_FAST: c_handle_fastpath_signal(cptr,
 * msgInfo), where the aarch64 vector sends every SysSend on a build with
 * the signal fastpath (src/arch/arm/64/traps.S); HK_PATH_CALL_* and
 * HK_PATH_RR_*: the same for SysCall (c_handle_fastpath_call) and
 * SysReplyRecv (c_handle_fastpath_reply_recv, with the reply cptr) */
enum hk_path { HK_PATH_SLOW, HK_PATH_FAST, HK_PATH_FIXED, HK_PATH_SIG_SLOW, HK_PATH_SIG_FAST, HK_PATH_CALL_SLOW,
               HK_PATH_CALL_FAST, HK_PATH_RR_SLOW, HK_PATH_RR_FAST };

/* how the kernel left: to user level (restore_user_context or
 * fastpath_restore), or halted (a failed assertion or fail(), or wfi) */
enum hk_outcome { HK_OUT_NONE, HK_OUT_USER, HK_OUT_FASTPATH, HK_OUT_HALT };

struct hk_info {
    int abi_version;
    unsigned long long timer_hz; /* TIMER_CLOCK_HZ */
    unsigned wcet_us;            /* getKernelWcetUs() */
    unsigned wcet_scale;         /* CONFIG_KERNEL_WCET_SCALE */
    unsigned precision_us;       /* TIMER_PRECISION */
    unsigned overhead_ticks;     /* TIMER_OVERHEAD_TICKS */
    unsigned max_irq;            /* maxIRQ */
    unsigned gic_version;        /* 2 or 3 */
    unsigned num_domains;        /* CONFIG_NUM_DOMAINS */
    unsigned cores;              /* CONFIG_MAX_NUM_NODES */
    unsigned num_prios;          /* CONFIG_NUM_PRIORITIES */
    unsigned min_refills;        /* MIN_REFILLS */
    unsigned debug, fpu, hyp, irq_fastpath;
    unsigned signal_fastpath;    /* CONFIG_SIGNAL_FASTPATH */
    unsigned call_fastpath;      /* CONFIG_FASTPATH: fastpath_call and fastpath_reply_recv */
    unsigned gic_split_eoi;      /* GICv3 EOImode=1: EOIR drops priority, ICC_DIR_EL1 deactivates */
    unsigned state_size;         /* sizeof(struct hk_state) as the build has it (ABI 10): one
                                  * version's layout changing within a version is caught */
};

struct hk_tcb {
    unsigned char state, prio, domain, affinity;
    signed char blocking, reply;   /* EP or notification by state; reply object */
    unsigned char queued, in_release;
    signed char sc, bound_ntfn;
    signed char sched_next, sched_prev, ep_next, ep_prev;
    unsigned char fault;           /* enum hk_fault */
    unsigned char timeout_handler, vtable_ok, asid_ok, vmid_ok, fpu_live;
    unsigned char ipc_grant, ipc_grant_reply, ipc_call; /* blockingIPCCanGrant, CanGrantReply, IsCall */
    signed char vcpu;              /* tcbVCPU (hypervisor builds) */
    signed char fault_ep;          /* tcbFaultHandler: an endpoint cap to this endpoint; HK_NONE a null cap */
    signed char fault_lr;          /* a VGICMaintenance fault's idx, HK_NONE when not idxValid */
    unsigned char fpu_disabled;    /* tcbFlags' seL4_TCBFlag_fpuDisabled of a user thread (trees with TCB flags) */
    unsigned char lookup_fault;    /* tcbLookupFailure: enum hk_lookup_fault */
    unsigned long long badge_reg;
    unsigned long long ipc_badge;  /* blockingIPCBadge */
};

/* a VCPU object: vcpuTCB, the virtual timer's vppi_masked, vgic.lr */
struct hk_vcpu {
    signed char tcb;
    unsigned char vppi_masked;
    unsigned char lr[HK_VGIC_LRS];
};

struct hk_sc {
    unsigned long long period, consumed, badge;
    unsigned char refill_max, head, tail, sporadic, core;
    signed char tcb, ntfn;
    signed char reply;             /* scReply */
    unsigned long long r_time[HK_MAX_REFILLS], r_amount[HK_MAX_REFILLS];
};

/* a reply object: replyTCB, replyPrev, replyNext (a reply, or with its
 * head bit the SC whose stack it heads: sc_head) */
struct hk_reply {
    signed char tcb, prev, next, sc_head;
};

struct hk_ntfn {
    unsigned char state;
    signed char q_head, q_tail, bound_tcb, sc;
    unsigned long long msg_id;
};

struct hk_ep {
    unsigned char state;
    signed char q_head, q_tail;
};

/* a cap in an IRQ handler slot or a CSpace slot */
struct hk_irq_cap {
    unsigned char type, can_send;
    signed char ntfn;
    /* an endpoint cap's endpoint + 1 (0: the hidden one) and its other
     * rights: 0 where irqsim's struct ks_irq_cap has padding, which the
     * IRQ table is copied with (rk_load.c) */
    unsigned char ep1;
    unsigned char can_recv, can_grant, can_grant_reply; /* can_grant: a reply cap's capReplyCanGrant too */
    signed char reply;            /* a reply cap's reply object, a thread cap's TCB (0 in the IRQ
                                     table: padding there) */
    unsigned long long badge;
};

struct hk_state {
    unsigned long long hw_clock;
    int active_irq;               /* -1: spurious (IAR returns the spurious ID) */
    signed char cur_thread, cur_sc, idle_thread, idle_sc;
    short sched_action;
    unsigned char reprogram;
    unsigned long long cur_time, consumed, deadline;
    signed char release_head[HK_MAX_CORES];
    signed char core_cur[HK_MAX_CORES], core_idle[HK_MAX_CORES];
    unsigned char core_reprogram[HK_MAX_CORES];
    unsigned char ipi_pending;
    unsigned char ipi_sent;       /* cores sent a reschedule IPI (SGI) by the entry; hk_save ORs them in */
    unsigned long long l1[HK_MAX_CORES][HK_MAX_DOMAINS];
    unsigned long long l2[HK_MAX_CORES][HK_MAX_DOMAINS][HK_L2_SIZE];
    unsigned char cur_domain, dom_idx, dom_len;
    unsigned long long domain_time;
    unsigned char dom_domain[HK_MAX_DOM_SCHED];
    unsigned dom_length_ms[HK_MAX_DOM_SCHED];    /* before master: the length in ms */
    unsigned long long dom_ticks[HK_MAX_DOM_SCHED]; /* master: the duration in ticks (0 with domain 0: an end marker) */
    unsigned char dom_start;                        /* master: ksDomScheduleStart */
    unsigned char n_tcbs, n_scs, n_ntfns, n_eps, n_replies;
    struct hk_tcb tcbs[HK_MAX_TCBS];
    struct hk_sc scs[HK_MAX_SCS];
    struct hk_ntfn ntfns[HK_MAX_NTFNS];
    struct hk_ep eps[HK_MAX_EPS];
    struct hk_reply replies[HK_MAX_REPLIES];
    /* hypervisor builds: the VCPUs, core 0's current one and whether it is
     * active, and the VGIC's list registers, EISR (eisr0 in the low word),
     * MISR's EOI bit and gic_vcpu_num_list_regs */
    unsigned char n_vcpus;
    signed char cur_vcpu;
    unsigned char vcpu_active, vgic_num_lr, vgic_misr_eoi;
    unsigned long long vgic_eisr;
    unsigned char vgic_lr[HK_VGIC_LRS];
    /* another core's armHSCurVCPU and armHSVCPUActive (index 0 unused:
     * core 0's are cur_vcpu and vcpu_active), and its VGIC's list
     * registers, EISR and MISR's EOI bit, which a remote call there writes
     * (VCPU_InjectIRQ of the VCPU it has loaded); its virtual timer mask is
     * not loaded: no entry of core 0 reads it */
    signed char core_vcpu[HK_MAX_CORES];
    unsigned char core_vcpu_active[HK_MAX_CORES];
    unsigned char core_vgic_lr[HK_MAX_CORES][HK_VGIC_LRS];
    unsigned long long core_vgic_eisr[HK_MAX_CORES];
    unsigned char core_vgic_misr_eoi[HK_MAX_CORES];
    /* another core's SGIs and PPIs (INTID < 32): bit i masked, active
     * (index 0 unused: core 0's are irq_masked and irq_active) */
    unsigned int core_ppi_masked[HK_MAX_CORES], core_ppi_active[HK_MAX_CORES];
    struct hk_vcpu vcpus[HK_MAX_VCPUS];
    unsigned short n_irqs;
    unsigned char irq_state[HK_MAX_IRQS], irq_masked[HK_MAX_IRQS], irq_acks[HK_MAX_IRQS];
    struct hk_irq_cap irq_cap[HK_MAX_IRQS];
    int oor_irq;                  /* an IRQ above maxIRQ the GIC saw, -1 none */
    unsigned char oor_masked, oor_acks;
    unsigned char irq_active[HK_MAX_IRQS]; /* GIC active state (v3) */
    unsigned char oor_active;
    /* the system call of HK_PATH_SIG_*: made by cur_thread, whose CTable is
     * one CNode of HK_CSPACE_SLOTS slots (guard 0, so cptr i < 16 names
     * slot i and any other cptr fails the lookup); capRegister (x0, the
     * badge register) and msgInfoRegister (x1) hold the arguments. The
     * CSpace and buffer are not read back (a Send changes neither). */
    unsigned char sys_call;       /* 1: load the call's CSpace and registers */
    unsigned char sys_ipc_buffer; /* 1: the caller has an IPC buffer */
    unsigned long long sys_cptr, sys_msginfo;
    unsigned long long sys_reply_cptr; /* replyRegister (x6): SysReplyRecv's reply cap */
    unsigned long long sys_extra_cptr[3]; /* in the IPC buffer: the extra caps' cptrs */
    struct hk_irq_cap cspace[HK_CSPACE_SLOTS];
    /* msgRegisters[0] and [1] (x2, x3), the message's first words: a
     * DomainSet_Set's domain, a TCB_SetFlags' clear and set (a cptr naming
     * a DomainSet cap also gets the label DomainSetSet, one naming a thread
     * cap TCBSetFlags: numbers only the kernel's build knows) */
    unsigned long long sys_mr0, sys_mr1;
    unsigned long long sys_mr2; /* msgRegisters[2] (x4): an IRQControl_Get's depth */
    /* msgRegisters[3] (x5) and getSyscallArg(4)'s word of the IPC buffer:
     * _GetTrigger's depth, _GetTriggerCore's depth and target core */
    unsigned long long sys_mr3, sys_mr4;
    unsigned char sys_irq_method; /* HK_CAP_IRQControl's label: enum hk_irq_method */
    /* the GIC's configuration of each IRQ: HK_IRQ_EDGE, the upper bit of
     * its ICFGR field; an SPI's target core << HK_IRQ_CORE_SHIFT (its
     * GICD_IROUTER on GICv3, GICD_ITARGETSR byte on GICv2) */
    unsigned char irq_cfg[HK_MAX_IRQS];
};

/* What the real kernel shows that irqsim's model keeps only as flags, and
 * how the entry ended. Written by hk_entry. */
struct hk_extra {
    int outcome;                  /* enum hk_outcome */
    int ttbr0_writes;             /* TTBR0 (VTTBR on hyp) writes during the entry */
    unsigned long long ttbr0;     /* the last value written */
    int ttbr0_asid;               /* its ASID field */
    signed char ttbr0_tcb;        /* TCB whose vspace root it installs; HK_NONE: the global one;
                                   * HK_TTBR_BAD_TAG: a TCB's root with a tag (ASID, VMID on hyp)
                                   * that is not the one its ASID has */
    signed char fpu_owner[HK_MAX_CORES]; /* ksActiveFPUState's (master: ksCurFPUOwner's) TCB per core */
    int fpu_enabled;              /* last CPACR write enabled the FPU (-1: none written) */
    int sgi_other;                /* SGIs other than the reschedule IPI (remote calls) seen */
    int remote_calls;             /* remote calls the other core ran (hk_other_core_step) */
    int fastpath_done;            /* a system call: ksKernelEntry.is_fastpath, 1 when the fastpath
                                   * finished it (slowpath() clears it); -1 not tracked (release
                                   * builds), or an interrupt */
    char text[HK_TEXT_LEN];       /* kernel printf output (assertion/fail text in debug builds) */
};

#define HK_API __attribute__((visibility("default")))

HK_API int hk_abi_version(void);
HK_API void hk_info(struct hk_info *out);
/* Build the kernel state; 0, or -1 when the state does not fit the build
 * (hk_error() says why). */
HK_API int hk_load(const struct hk_state *s);
/* One kernel entry on core 0 through the given path (an interrupt, or the
 * state's system call); returns enum hk_outcome, or -1 for a path the
 * build does not have (no IRQ fastpath, no signal fastpath). */
HK_API int hk_entry(int path, struct hk_extra *extra);
/* Read the kernel state back. Fields the kernel does not hold (vmid_ok on
 * non-hyp builds) are left as they are in *s, so pass a copy of the input. */
HK_API int hk_save(struct hk_state *s);
HK_API const char *hk_error(void);
/* Only from a signal handler, during hk_entry (real/rk_fault.h): the
 * kernel's code raised a host signal; text goes to the entry's output and
 * the entry ends as a halt (HK_OUT_HALT). */
HK_API void hk_fault(const char *text);

#endif
