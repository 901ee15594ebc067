/*
 * test_rk_sigmap: rk_sig_of_model, the model's signal entry (kstate.sys)
 * as the bridge's system call. No kernel is loaded: the call is read back
 * as the kernel would read it from the bridge's CSpace (one CNode of 16
 * slots, guard 0 of 60 bits: resolveAddressBits finds slot cptr when the
 * cptr's bits above the low 4 match the guard, i.e. are 0, and fails
 * otherwise), its message info (seL4_MessageInfo, libsel4 shared_types.bf:
 * label 63:12, capsUnwrapped 11:9, extraCaps 8:7, length 6:0) and the IPC
 * buffer's extra cptrs (lookupExtraCaps, src/object/tcb.c: none looked up
 * without a buffer).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "test_rk.h"
#include <stdio.h>
#include <string.h>

#include "rk_sig.h"


/* the slot a cptr names, or NULL when the lookup fails (guard mismatch) */
static const struct hk_irq_cap *resolve(const struct rk_syscall *s, uint64_t cptr)
{
    return cptr >> HK_CSPACE_BITS ? NULL : &s->cspace[cptr];
}

static unsigned mi_extra_caps(uint64_t mi)
{
    return (unsigned)(mi >> 7) & 3;
}

static void entry(struct kstate *ks, int cap, int ntfn, uint64_t badge, int extra, int bad)
{
    memset(ks, 0, sizeof *ks);
    ks->n_ntfns = 3;
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                .entry = ENTRY_SIGNAL, .cap = (uint8_t)cap, .ntfn = (int8_t)ntfn, .ep = KS_NONE, .reply = KS_NONE,
                                .tcb = KS_NONE,
                                .extra_caps = (uint8_t)extra, .extra_bad = (uint8_t)bad, .badge = badge};
}

int main(void)
{
    static struct kstate ks;
    struct rk_syscall s;
    const struct hk_irq_cap *c;

    /* seL4_Signal on a notification cap with the send right: the cap, its
     * object and badge, message info 0, no buffer */
    entry(&ks, SCAP_NTFN, 2, 0x8000000000000001ull, 0, 0);
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    c = resolve(&s, s.cptr);
    CHECK(c && c->type == HK_CAP_Notification && c->can_send == 1 && c->ntfn == 2);
    CHECK(c && c->badge == 0x8000000000000001ull);
    CHECK(s.msginfo == 0 && !s.ipc_buffer);

    /* the caller's x0 is both capRegister and badgeRegister: the cptr */
    entry(&ks, SCAP_NTFN, 0, 0, 0, 0);
    ks.n_tcbs = 2;
    ks.cur_thread = 1;
    ks.tcbs[1].badge_reg = 0x77;
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    CHECK(ks.tcbs[1].badge_reg == s.cptr && ks.tcbs[0].badge_reg == 0);

    /* without the send right: the same cap, can_send clear */
    entry(&ks, SCAP_NTFN_NO_SEND, 0, 7, 0, 0);
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    c = resolve(&s, s.cptr);
    CHECK(c && c->type == HK_CAP_Notification && c->can_send == 0 && c->ntfn == 0 && c->badge == 7);

    /* a null cap: the cptr resolves to an empty slot */
    entry(&ks, SCAP_NULL, KS_NONE, 0, 0, 0);
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    c = resolve(&s, s.cptr);
    CHECK(c && c->type == HK_CAP_Null);

    /* a lookup failure: no slot */
    entry(&ks, SCAP_LOOKUP_FAIL, KS_NONE, 0, 0, 0);
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    CHECK(resolve(&s, s.cptr) == NULL);

    /* three extra caps, the first and third do not resolve: extraCaps 3,
     * nothing else in the message info, a buffer with the three cptrs */
    entry(&ks, SCAP_NTFN, 1, 0, 3, 5);
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    CHECK(mi_extra_caps(s.msginfo) == 3 && (s.msginfo & ~(3ull << 7)) == 0);
    CHECK(s.ipc_buffer);
    CHECK(resolve(&s, s.extra_cptr[0]) == NULL);
    CHECK(resolve(&s, s.extra_cptr[1]) != NULL);
    CHECK(resolve(&s, s.extra_cptr[2]) == NULL);

    /* one extra cap that resolves; a bad bit past extraCaps names nothing */
    entry(&ks, SCAP_NULL, KS_NONE, 0, 1, 2);
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    CHECK(mi_extra_caps(s.msginfo) == 1 && s.ipc_buffer);
    CHECK(resolve(&s, s.extra_cptr[0]) != NULL);
    CHECK(resolve(&s, s.cptr) && resolve(&s, s.cptr)->type == HK_CAP_Null);

    /* not a signal entry; a notification the state does not have; more
     * extra caps than a message can name */
    entry(&ks, SCAP_NTFN, 0, 0, 0, 0);
    ks.sys.entry = ENTRY_IRQ;
    CHECK(rk_sig_of_model(&ks, &s) == -1);
    entry(&ks, SCAP_NTFN, 3, 0, 0, 0);
    CHECK(rk_sig_of_model(&ks, &s) == -1);
    entry(&ks, SCAP_NTFN_NO_SEND, KS_NONE, 0, 0, 0);
    CHECK(rk_sig_of_model(&ks, &s) == -1);
    entry(&ks, SCAP_NTFN, 0, 0, KS_MAX_EXTRA_CAPS + 1, 0);
    CHECK(rk_sig_of_model(&ks, &s) == -1);

    /* VCPU_InjectIRQ: a VCPU cap naming the state's VCPU (its index in the
     * cap's reply field), the message's first word as it is; a VCPU the
     * state does not have does not fit */
    entry(&ks, SCAP_VCPU, KS_NONE, 0, 0, 0);
    ks.n_vcpus = 2;
    ks.sys.vcpu = 1;
    ks.sys.length = 1;
    ks.sys.mr0 = (3ull << 32) | 27;
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    c = resolve(&s, s.cptr);
    CHECK(c && c->type == HK_CAP_VCPU && c->reply == 1);
    CHECK(s.mr0 == ((3ull << 32) | 27) && (s.msginfo & 0x7f) == 1);
    ks.sys.vcpu = 2;
    CHECK(rk_sig_of_model(&ks, &s) == -1);

    /* IRQHandler_SetNotification: the handler cap (its kind the label, its
     * IRQ in the badge field) in the cptr's slot, the notification cap with
     * Send extra cap 0, in another slot; an IRQ beyond the state's table
     * does not fit */
    entry(&ks, SCAP_IRQ_SET, 1, 9, 1, 0);
    ks.n_irqs = 64;
    ks.sys.irq = 40;
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    c = resolve(&s, s.cptr);
    CHECK(c && c->type == HK_CAP_IRQSet && c->badge == 40);
    c = resolve(&s, s.extra_cptr[0]);
    CHECK(s.extra_cptr[0] != s.cptr && c && c->type == HK_CAP_Notification && c->can_send == 1 && c->ntfn == 1 &&
          c->badge == 9);
    ks.sys.irq = 64;
    CHECK(rk_sig_of_model(&ks, &s) == -1);
    entry(&ks, SCAP_IRQ_CLEAR, KS_NONE, 0, 0, 0);
    ks.n_irqs = 64;
    ks.sys.irq = 3;
    CHECK(rk_sig_of_model(&ks, &s) == 0);
    c = resolve(&s, s.cptr);
    CHECK(c && c->type == HK_CAP_IRQClear && c->badge == 3);

    /* IRQControl_Get: the control cap, the IRQ and the destination slot's
     * index and depth in the first three words, the caller's CNode cap
     * extra cap 0. The index names an empty slot of that CNode, a cptr the
     * lookup does not find (lookupTargetSlot fails) or a slot holding a cap
     * (ensureEmptySlot fails); the depth is the whole word (4 bits of radix
     * under a 60-bit guard) */
    entry(&ks, SCAP_IRQ_CONTROL, KS_NONE, 0, 1, 0);
    ks.sys.irq = 700;
    ks.sys.length = 3;
    for (int d = 0; d < IRQD_COUNT; d++) {
        ks.sys.dest = (uint8_t)d;
        CHECK(rk_sig_of_model(&ks, &s) == 0);
        c = resolve(&s, s.cptr);
        CHECK(c && c->type == HK_CAP_IRQControl);
        c = resolve(&s, s.extra_cptr[0]);
        CHECK(c && c->type == HK_CAP_CNode);
        CHECK(s.mr0 == 700 && s.mr2 == 64 && (s.msginfo & 0x7f) == 3);
        c = resolve(&s, s.mr1);
        CHECK(d == IRQD_BAD ? c == NULL : c != NULL);
        CHECK(d != IRQD_EMPTY || (c && c->type == HK_CAP_Null));
        CHECK(d != IRQD_FULL || (c && c->type != HK_CAP_Null));
    }
    ks.sys.dest = IRQD_COUNT;
    CHECK(rk_sig_of_model(&ks, &s) == -1);

    if (rk_test_failures)
        return 1;
    printf("test_rk_sigmap: ok\n");
    return 0;
}
