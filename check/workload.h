/*
 * workload: a system over time, as the workload simulator (sim.h) runs it:
 * threads with small user-level programs, scheduling contexts, IPC
 * objects, and device interrupts arriving at given times. The text format
 * (docs/workload-format.md) is line oriented; workload_print() writes the
 * canonical form, which workload_parse() reads back into an identical
 * struct (print then parse is the identity).
 */
#ifndef IRQSIM_WORKLOAD_H
#define IRQSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kstate.h"

struct target;

#define WL_MAX_THREADS 16
#define WL_MAX_SCS 16
#define WL_MAX_NTFNS 8
#define WL_MAX_EPS 4
#define WL_MAX_REPLIES 8
#define WL_MAX_IRQS 4
#define WL_MAX_PROG 16
#define WL_MAX_AT 16
/* the ID the GIC's acknowledge register reads when no interrupt is pending
 * (IRQ_NONE, include/arch/arm/arch/machine/gic_common.h); IDs from
 * SPECIAL_IRQ_START (1020) up are not interrupt lines. A wl_irq with this
 * number is the `spurious` line. */
#define WL_SPURIOUS_ID 1023
/* the kernel timer's IRQ on a hypervisor build: KERNEL_TIMER_IRQ is the
 * arm,armv8-timer's interrupt 3 there, the EL2 physical timer, PPI 10
 * (tools/hardware.yml, sel_macro CONFIG_ARM_HYPERVISOR_SUPPORT; interrupt
 * 2, PPI 11 = 27, without) */
#define WL_HYP_TIMER_IRQ 26
#define WL_SPECIAL_ID_START 1020

/* user-level instructions; every one but compute and loop is a system call */
enum wl_op {
    OP_COMPUTE, OP_SIGNAL, OP_WAIT, OP_RECV, OP_ACK, OP_YIELD, OP_LOOP, OP_UNBIND,
    OP_SUSPEND, OP_RESUME, OP_PRIO, /* TCB invocations on a thread (a), prio n */
    OP_SEND,       /* seL4_Send on a notification (a) with one extra cap; n 1: it does not resolve */
    OP_CALL,       /* seL4_Call on an endpoint (a) */
    OP_REPLY_RECV, /* seL4_ReplyRecv on an endpoint (a) with a reply object (b) */
    OP_ACK_VPPI,   /* seL4_ARM_VCPU_AckVPPI on thread a's VCPU, the virtual timer's IRQ (hyp) */
    OP_VEOI,       /* the guest takes and EOIs the virtual IRQ of list register n: user
                      level, no kernel entry (hyp; sim.c, guest_eoi) */
    OP_COUNT
};

/* No implicit padding (as in sim/kstate.h): the shrinker compares a
 * workload with its parsed-back text byte by byte (wlfuzz.c, well_formed),
 * and compound literals leave implicit padding indeterminate. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wpadded"
struct wl_insn {
    uint8_t op;
    int8_t a, b;   /* objects: signal/wait/send ntfn; recv ep, reply (or -1); unbind sc;
                      suspend/resume/prio: the thread */
    uint8_t pad0[5];
    ticks_t n;     /* compute: ticks; ack: the IRQ number; loop: the target;
                      prio: the priority; send: 1 when the extra cap does not resolve */
};

struct wl_thread {
    char name[KS_NAME_LEN];
    uint8_t prio;
    uint8_t domain;     /* tcbDomain (DomainSet_Set while inactive) */
    int8_t sc;          /* bound SC (-1: passive) */
    int8_t timeout_ep;  /* timeout handler endpoint (-1: none) */
    uint8_t n_prog;
    /* hypervisor workloads (workload.hyp): a VCPU bound to the thread by
     * VCPU_SetTCB at setup, with list registers lr[0..n_lr-1] written by
     * VCPU_InjectIRQ before (VGIC_LR_* bits); the fault handler endpoint
     * (-1: none), the cap TCB_SetSpace puts in its tcbFaultHandler slot */
    bool vcpu;
    int8_t fault_ep;
    uint8_t n_lr;
    uint8_t pad0[4];
    uint8_t lr[KS_VGIC_MAX_LRS];
    struct wl_insn prog[WL_MAX_PROG];
};

struct wl_sc {
    char name[KS_NAME_LEN];
    uint8_t pad0[4];
    ticks_t budget, period; /* budget == period: round robin; both 0: never configured */
    uint8_t extra_refills;
    bool sporadic;
    int8_t ntfn;            /* bound to this notification (-1: none) */
    uint8_t core;           /* configured with this core's SchedControl cap */
    uint8_t pad1[4];
};

struct wl_irq {
    uint16_t irq;           /* WL_SPURIOUS_ID: the spurious line */
    int8_t ntfn;            /* -1: the handler cap's slot stays empty */
    bool vtimer;            /* the `vtimer` line (irq INTERRUPT_VTIMER_EVENT, hyp) */
    uint8_t core;           /* a vtimer line's core (the PPI is banked per core); 0 for the rest */
    uint8_t pad0[3];
    uint64_t badge;
    uint8_t n_at;
    uint8_t pad1[7];
    ticks_t at[WL_MAX_AT];  /* single arrivals */
    ticks_t start, period;  /* periodic arrivals from start (period 0: none) */
};

struct wl_name {
    char name[KS_NAME_LEN];
};

struct wl_dom {
    uint8_t domain;
    uint8_t pad0[3];
    uint32_t ms;            /* length in milliseconds, as ksDomSchedule */
};

/* the interrupts a core can find pending at once (workload.gic_rank) */
enum wl_gic_kind { WL_GIC_TIMER, WL_GIC_DEVICE, WL_GIC_IPI, WL_GIC_KINDS };

struct workload {
    char board[16];
    uint8_t kernel;         /* enum ks_kernel the kernels run: the kernel line, or irqsim sim --kernel; base by default */
    uint8_t pad0[7];
    const struct target *target; /* whose fastpath the fastpath kernel runs: the target
                               line, or irqsim sim --target; the default target's by default */
    ticks_t horizon;
    uint8_t cores;          /* 1 or 2 (an SMP kernel) */
    /* KernelSignalFastpath beside the target's fastpath (ks_config
     * signal_fastpath): both kernels take SysSends on a notification
     * through the kernel's own fastpath_signal, as written */
    bool signal_fastpath;
    uint16_t timer_irq;
    /* CONFIG_ARM_HYPERVISOR_SUPPORT: the VGIC maintenance and virtual
     * timer PPIs reserved at boot, VCPU threads, the `vtimer` line (an
     * irqs[] entry of IRQ INTERRUPT_VTIMER_EVENT: the guest's virtual timer
     * of the VCPU loaded when it fires), the kernel's timer the
     * hypervisor timer's PPI (WL_HYP_TIMER_IRQ) */
    bool hyp;
    uint8_t pad1[3];
    /* ticks from an interrupt or system call to the kernel's clock read
     * (updateTimestamp) and from there to the return to user level */
    ticks_t entry_latency;
    /* ticks from the entry that sends a reschedule IPI (doMaskReschedule)
     * to the moment its core can take it: until then the core runs on and
     * may enter the kernel another way with the IPI in flight (the GIC's
     * delivery is not immediate) */
    ticks_t ipi_latency;
    /* The order the GIC gives interrupts pending at once. The kernel
     * programs one priority for all it uses (GICv2: 0 for the SPIs and
     * SGIs 0-3, gic_v2.c:75-81,116-125, the timer's PPI left at its reset
     * value; GICv3: GIC_PRI_IRQ for every SPI, SGI and PPI,
     * gic_v3.c:158-162,246-250), and among equal priorities the GIC's
     * choice is the implementation's: any order is one a board may take. gic_rank[kind] is each kind's place (0 first);
     * the default is timer, device, IPI. gic_devices_reversed: among
     * device lines, the last declared first. */
    uint8_t gic_rank[WL_GIC_KINDS];
    bool gic_devices_reversed;
    uint8_t n_dom;          /* 0: one domain (the kernel's default) */
    uint8_t pad2[3];
    struct wl_dom dom[KS_MAX_DOM_SCHED];
    uint8_t n_threads, n_scs, n_ntfns, n_eps, n_replies, n_irqs;
    uint8_t pad3[2];
    struct wl_thread threads[WL_MAX_THREADS];
    struct wl_sc scs[WL_MAX_SCS];
    struct wl_name ntfns[WL_MAX_NTFNS], eps[WL_MAX_EPS], replies[WL_MAX_REPLIES];
    struct wl_irq irqs[WL_MAX_IRQS];
};
#pragma GCC diagnostic pop

/* CONFIG_NUM_DOMAINS for the workload: one more than the highest domain
 * of the domain schedule (1 without one). */
int wl_num_domains(const struct workload *w);

/* true when w's GIC takes pending interrupts in the default order */
bool wl_gic_default(const struct workload *w);
/* w's GIC order reversed: every pair of kinds, and of devices, the other way */
void wl_gic_reverse(struct workload *w);

/* An empty workload on imx8mm: horizon 80,000,000 ticks, timer IRQ 27. */
void workload_init(struct workload *w);
const char *wl_op_name(int op);

/* Parse len bytes; 0, or -1 with *err filled as the scenario reader does. */
struct scen_error;
int workload_parse(const char *text, size_t len, const char *filename, struct workload *w,
                   struct scen_error *err);
int workload_load(const char *path, struct workload *w, struct scen_error *err);
void workload_print(FILE *out, const struct workload *w);
/* Print w, parse it into back (scratch), print again: true when the two
 * texts are the same, else false with the problem written to err (the
 * identity docs/workload-format.md promises; the fuzz targets check it). */
bool workload_round_trips(const struct workload *w, struct workload *back, FILE *err);

/* A valid workload for target on `cores` cores (1 or 2) generated from
 * bytes (the workload fuzzer); returns 0. A target draws its own entries
 * too (target.h, target_sim's draw_insn and draw_thread: the signal
 * target's signalling threads and seL4_Send with an extra cap). */
/* The generator's fixed shares of the configuration's edges: one workload
 * in this many has an SC of budget MIN_BUDGET, and one in this many a
 * device IRQ at an edge of the valid range (gen_irq_edge, check/gen.h). */
#define WL_GEN_MIN_BUDGET_ONE_IN 8
#define WL_GEN_IRQ_EDGE_ONE_IN 8
/* ... and one in this many names a GIC order of its own (gic_order,
 * gic_devices; drawn from all of them, the default included) */
#define WL_GEN_GIC_ORDER_ONE_IN 3
/* The IPC targets' workload draw (target_sim draw_thread): thread i as a
 * passive server on ep0 (seL4_Recv, then seL4_ReplyRecv with reply r0) or
 * a client that makes it passive and calls it in a loop; false: drawn as
 * any other thread. */
struct wl_src;
bool wl_draw_ipc_thread(struct wl_src *src, struct workload *w, int i);
/* vcpus: a hypervisor build with VCPU threads on one core (gen_hyp; no
 * draw of its own otherwise, and never on two cores) */
int workload_from_bytes(const uint8_t *data, size_t len, int cores, const struct target *target, bool vcpus,
                        struct workload *w);

/* What a target's draws (target_sim) take from the generator's source: a
 * choice in [0, bound), and instruction pc of thread self drawn as every
 * thread's are. */
struct wl_src;
unsigned wl_take(struct wl_src *s, unsigned bound);
void wl_draw_insn(struct wl_src *src, const struct workload *w, struct wl_insn *in, int pc, int self);

#endif
