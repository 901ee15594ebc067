/*
 * hk_syscall: one system call of the state's current thread, the caller of
 * seL4_Signal / seL4_Send. Appended to the kernel's translation unit after
 * hk_glue.c, before hk_bridge.c.
 *
 * What the call needs that an interrupt does not: the caller's CSpace (one
 * CNode of HK_CSPACE_SLOTS slots, guard 0 and guard size 64 - 4, so a cptr
 * below 16 names that slot and any other cptr fails the lookup, in
 * lookup_fp as in resolveAddressBits), its syscall registers (capRegister
 * x0 and msgInfoRegister x1, where the trap stores them), and optionally an
 * IPC buffer holding the extra caps' cptrs (a read-write frame cap in the
 * TCB's buffer slot over host memory; lookupIPCBuffer,
 * src/arch/arm/64/kernel/vspace.c). A SysReplyRecv's reply cptr is in
 * replyRegister (x6) and names a reply cap in the same CNode. No other
 * caps: no fault handler (a cap fault makes the caller Inactive,
 * handleNoFaultHandler).
 *
 * The entries are the kernel's own C entry points for the syscall vector
 * (src/arch/arm/c_traps.c): c_handle_fastpath_signal, where the aarch64
 * vector sends every SysSend on a build with the signal fastpath
 * (src/arch/arm/64/traps.S), and c_handle_syscall(.., SysSend), where it
 * sends it without. Own code; no kernel source.
 * SPDX-License-Identifier: BSD-2-Clause
 */

static cte_t hk_cnode[HK_CSPACE_SLOTS] ALIGN(BIT(HK_CSPACE_BITS + seL4_SlotBits));
static word_t hk_ipc_buffer[BIT(seL4_PageBits) / sizeof(word_t)] ALIGN(BIT(seL4_PageBits));

_Static_assert(seL4_MsgMaxLength + 2 + seL4_MsgMaxExtraCaps <= BIT(seL4_PageBits) / sizeof(word_t),
               "the extra caps' cptrs lie in the buffer page");

static syscall_t hk_syscall_of_path(int path)
{
    if (path >= HK_PATH_RR_SLOW)
        return SysReplyRecv;
    return path >= HK_PATH_CALL_SLOW ? SysCall : SysSend;
}

static void hk_run_syscall(int path)
{
    tcb_t *t = NODE_STATE(ksCurThread);
    word_t cptr = getRegister(t, capRegister), info = getRegister(t, msgInfoRegister);
#ifdef CONFIG_SIGNAL_FASTPATH
    if (path == HK_PATH_SIG_FAST)
        c_handle_fastpath_signal(cptr, info);
#endif
#ifdef CONFIG_FASTPATH
    /* the aarch64 vector sends every SysCall there (traps.S) */
    if (path == HK_PATH_CALL_FAST)
        c_handle_fastpath_call(cptr, info);
    /* and every SysReplyRecv, with x6 (replyRegister) as its third argument */
    if (path == HK_PATH_RR_FAST)
        c_handle_fastpath_reply_recv(cptr, info, getRegister(t, replyRegister));
#endif
    c_handle_syscall(cptr, info, hk_syscall_of_path(path));
    UNREACHABLE();
}

/* the IRQ control cap's label of the state's method (enum hk_irq_method):
 * IRQIssueIRQHandler, ARMIRQIssueIRQHandlerTrigger, or on SMP builds
 * ARMIRQIssueIRQHandlerTriggerCore */
static word_t hk_irq_control_label(unsigned char method)
{
#ifdef ENABLE_SMP_SUPPORT
    if (method == HK_IRQM_TriggerCore) /* a label of SMP builds only */
        return ARMIRQIssueIRQHandlerTriggerCore;
#endif
    return method == HK_IRQM_Trigger ? ARMIRQIssueIRQHandlerTrigger : IRQIssueIRQHandler;
}

/* The invocation label the cptr's cap is invoked with, a number only the
 * kernel's build knows: DomainSetSet on a DomainSet cap, TCBSetFlags on a
 * thread cap (trees with TCB flags), ARMVCPUInjectIRQ on a VCPU cap
 * (hypervisor builds), the label an IRQ handler cap's kind names; 0 keeps
 * the message's own. */
static word_t hk_label_of(const struct hk_state *s)
{
    if (s->sys_cptr >= HK_CSPACE_SLOTS)
        return 0;
    switch (s->cspace[s->sys_cptr].type) {
    case HK_CAP_Domain:
        return DomainSetSet;
#ifdef HK_TCB_FLAGS
    case HK_CAP_Thread:
        return TCBSetFlags;
#endif
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
    case HK_CAP_VCPU:
        return ARMVCPUInjectIRQ;
#endif
    case HK_CAP_IRQAck:
        return IRQAckIRQ;
    case HK_CAP_IRQSet:
        return IRQSetIRQHandler;
    case HK_CAP_IRQClear:
        return IRQClearIRQHandler;
    case HK_CAP_IRQControl:
        return hk_irq_control_label(s->sys_irq_method);
    default:
        return 0;
    }
}

/* the IRQ the loaded system call names, when its cap is an IRQ handler
 * cap (the cap's) or the IRQ control cap (the first word's), and the IRQ
 * is one of the table's (up to maxIRQ); else -1. The load notes its table
 * entry and hk_save reads the entry and its mask back (the state's sys_*
 * fields are not copied to the state saved). */
static int hk_sys_irq = -1;

static int hk_sys_irq_of(const struct hk_state *s)
{
    if (s->sys_cptr >= HK_CSPACE_SLOTS)
        return -1;
    const struct hk_irq_cap *c = &s->cspace[s->sys_cptr];
    bool_t handler = c->type == HK_CAP_IRQAck || c->type == HK_CAP_IRQSet || c->type == HK_CAP_IRQClear;
    word_t irq = c->type == HK_CAP_IRQControl ? s->sys_mr0 : c->badge;
    bool_t core0 = c->type == HK_CAP_IRQControl || c->reply <= 0; /* another core's PPI: its bits, hk_save_irqs */
    return (handler || c->type == HK_CAP_IRQControl) && core0 && irq <= maxIRQ ? (int)irq : -1;
}

/* The caller's CSpace, registers and IPC buffer (hk_load, after the TCBs
 * and before anything reads them). */
static void hk_load_syscall(const struct hk_state *s, cap_t (*cap_of)(const struct hk_irq_cap *))
{
    hk_sys_irq = -1;
    if (!s->sys_call || s->cur_thread < 0)
        return;
    hk_sys_irq = hk_sys_irq_of(s);
    for (int i = 0; i < HK_CSPACE_SLOTS; i++) {
        memzero(&hk_cnode[i], sizeof(cte_t));
        hk_cnode[i].cap = cap_of(&s->cspace[i]);
    }
    tcb_t *t = NODE_STATE(ksCurThread);
    cte_t *slots = TCB_PTR_CTE_PTR(t, 0);
    slots[tcbCTable].cap = cap_cnode_cap_new(HK_CSPACE_BITS, wordBits - HK_CSPACE_BITS, 0, (word_t)hk_cnode);
    setRegister(t, capRegister, s->sys_cptr);
    word_t info = s->sys_msginfo, label = hk_label_of(s);
    if (label) {
        seL4_MessageInfo_t mi = messageInfoFromWord_raw(info);
        info = wordFromMessageInfo(seL4_MessageInfo_new(label, seL4_MessageInfo_get_capsUnwrapped(mi),
                                                        seL4_MessageInfo_get_extraCaps(mi),
                                                        seL4_MessageInfo_get_length(mi)));
    }
    setRegister(t, msgInfoRegister, info);
    setRegister(t, msgRegisters[0], s->sys_mr0);
    setRegister(t, msgRegisters[1], s->sys_mr1);
    setRegister(t, msgRegisters[2], s->sys_mr2);
    setRegister(t, msgRegisters[3], s->sys_mr3);
    setRegister(t, replyRegister, s->sys_reply_cptr);
    if (!s->sys_ipc_buffer)
        return;
    t->tcbIPCBuffer = 0; /* the buffer at offset 0 of its frame */
    slots[tcbBuffer].cap = cap_frame_cap_new(0, (word_t)hk_ipc_buffer, ARMSmallPage, 0, VMReadWrite, 0);
    /* getExtraCPtr (src/object/tcb.c): extra cap i's cptr is word
     * seL4_MsgMaxLength + 2 + i of the buffer */
    for (word_t i = 0; i < seL4_MsgMaxExtraCaps; i++)
        hk_ipc_buffer[seL4_MsgMaxLength + 2 + i] = s->sys_extra_cptr[i];
    /* the first word beyond the message registers, getSyscallArg(4, buffer)
     * (include/api/syscall.h: ipc_buffer[i + 1]) */
    hk_ipc_buffer[n_msgRegisters + 1] = s->sys_mr4;
}
