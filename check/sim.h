/*
 * sim: the workload simulator. Runs one workload on two kernels side by
 * side, one whose interrupts take the slowpath, one whose interrupts take
 * the fastpath under test (or, for the signal target, whose SysSends on a
 * notification take master's signal fastpath), with time advancing as the kernel's would: the
 * timer fires at the programmed deadline, device interrupts arrive at
 * their times and wait while masked, threads compute, call the kernel and
 * block. Every kernel entry's state goes through the invariant checker;
 * at every device interrupt before the first divergence the one-entry
 * differential check (diff_run) runs on the fastpath kernel's state.
 */
#ifndef IRQSIM_SIM_H
#define IRQSIM_SIM_H

#include <stdio.h>

#include "classify.h"
#include "diff.h"
#include "situation.h"
#include "target.h"
#include "workload.h"

/* kernel entries: the timer, a device interrupt, a system call, a
 * reschedule IPI from the other core */
enum sim_entry { SE_TIMER, SE_DEVICE, SE_SYSCALL, SE_IPI, SE_COUNT };

struct sim_seg {
    ticks_t t0, t1;
    int8_t tcb, sc; /* running thread and ksCurSC */
    uint8_t core;
};

struct sim_mark {
    ticks_t t;
    uint8_t kind;     /* enum sim_entry */
    int16_t irq;
    ticks_t deadline; /* the timer deadline after the entry */
    uint8_t core;
};

#define SIM_MAX_REFUSED 8

/* The interrupt lines of a run: the workload's irqs[] (devices, the
 * spurious line, a vtimer per core), and on a hypervisor build the VGIC
 * maintenance PPI, line SIM_Q_MAINT, which no arrival drives: each core's
 * VGIC raises its own while its loaded VCPU is enabled and MISR.EOI is set
 * (sim.c, line_pending). A device line (an SPI) is core 0's: the
 * simulator routes every SPI there. */
#define SIM_Q_MAINT WL_MAX_IRQS
/* An interrupt storm: a level-triggered reserved PPI taken this many
 * times in a row without its handler sending its fault (VPPIEvent for the
 * virtual timer, VGICMaintenance for the maintenance line). A deferral
 * normally ends at the thread's next refill or dequeue; a VCPU thread on
 * a round-robin SC of budget MIN_BUDGET is round-robined by every entry's
 * budget check, so the PPI is deferred and taken again at once, for ever.
 * The simulator stops that kernel there and says so (sim_stormed). */
#define SIM_STORM_DEFERRALS 1000u
#define SIM_LINES (WL_MAX_IRQS + 1)

struct sim_refusal {
    ticks_t t;
    uint8_t kind;
    int inv;                 /* enum inv_id */
    char msg[200];
};

struct sim_kernel {
    struct kstate ks;
    bool fast;
    ticks_t now;
    bool done;
    int pc[KS_MAX_TCBS];
    ticks_t left[KS_MAX_TCBS];
    size_t at_idx[WL_MAX_IRQS];
    ticks_t next_periodic[WL_MAX_IRQS];
    bool pending[SIM_LINES];
    /* per vtimer line, the VCPU whose virtual timer its pending PPI is
     * (the one loaded on the line's core when it fired): the line is
     * raised only while that VCPU is loaded there, as the timer's
     * registers are its (vcpu_save, vcpu_restore) */
    int8_t vtimer_vcpu[WL_MAX_IRQS];
    uint32_t vtimer_dropped;        /* vtimer arrivals with no VCPU loaded: no guest timer to fire */
    /* a reserved PPI (the virtual timer's, a VGIC maintenance) taken
     * since its handler last ended one, each time sending nothing and the
     * level-triggered line raised again (a storm: SIM_STORM_DEFERRALS ends
     * the run; storm_t says when, storm_q which line) */
    uint32_t vppi_deferred;
    ticks_t storm_t;
    int storm_q;
    size_t last_seg[KS_MAX_CORES];  /* 1 + index of the core's last segment (0: none) */
    /* the last kernel entry: its core and when it began (it ends at now) */
    uint8_t entry_core;
    ticks_t entry_t0;
    /* a device IRQ its core (core 0; a vtimer line's own) acknowledged
     * while another core held the big lock (-1: none): handled before
     * anything else (sim.c, peek) */
    int acked_q;
    uint32_t lock_waits;            /* device IRQs taken so */
    /* when the reschedule IPI now in flight to each core was sent (the
     * end of the entry that sent it): its core can take it from
     * ipi_at + the workload's ipi_latency */
    ticks_t ipi_at[KS_MAX_CORES];
    uint32_t ipi_raced;             /* kernel entries a core made with a reschedule IPI to it in
                                       flight (sent, not yet taken: ipi_latency, or the GIC's
                                       order took another interrupt first) */
    /* interrupts the GIC chose among several pending at once (the
     * workload's gic_order decided): 0, and another order would run
     * the same */
    uint32_t gic_choices;
    ticks_t pending_since[SIM_LINES];
    uint32_t delivered[SIM_LINES], arrived[SIM_LINES], coalesced[SIM_LINES];
    uint32_t entries[SE_COUNT];
    uint32_t checked, refused, asserts;
    struct sim_refusal refusals[SIM_MAX_REFUSED];
    struct sim_seg *segs;
    size_t n_segs, cap_segs;
    struct sim_mark *marks;
    size_t n_marks, cap_marks;
};

/* a divergence class reached at a device interrupt of the slowpath kernel
 * (the sweep: every one of its entry states is checked, see sim_init) */
#define SIM_MAX_FOUND 32

struct sim_found {
    struct dclass cl;
    ticks_t t;      /* first time */
    int irq;        /* the IRQ target: the interrupt */
    uint32_t hits;
    int caller;     /* the signal target: the workload thread that signalled */
};

/* an event of a kernel's run: a device interrupt goes to core 0 (the
 * GIC's boot target) */
enum sim_ev_kind { EV_TIMER, EV_DEVICE, EV_ARRIVAL, EV_USER, EV_IPI, EV_END };

/* 16 bytes, so that it is passed and returned in two registers: peek
 * and gic_pick hand it on by value, and a larger one went through the
 * stack field by field and was read back whole, a store-forwarding stall
 * each time (perf: a tenth of exhaust --executions on two cores) */
struct sim_ev {
    ticks_t t;
    int8_t kind; /* enum sim_ev_kind */
    int16_t q;   /* an interrupt line (SIM_LINES), -1 none */
    int8_t core; /* where it happens */
    bool choice; /* an interrupt the GIC chose among several pending at once */
};
_Static_assert(sizeof(struct sim_ev) == 16, "struct sim_ev is two words");

struct sim {
    const struct workload *w;
    const struct target *target; /* the fastpath on the fastpath kernel (the workload's) */
    int variant;                /* of that target (target.h) */
    int tcb_of[WL_MAX_THREADS]; /* workload thread -> TCB index */
    int sc_of[WL_MAX_SCS];
    struct sim_kernel k[2];     /* [0] slowpath kernel, [1] fastpath kernel */
    uint32_t max_events;
    /* the first divergence */
    bool diverged, drift;
    ticks_t div_time;
    int div_irq;
    int div_caller;             /* the signal target: the workload thread */
    struct diff_verdict div_verdict;
    struct dclass div_class;
    char drift_msg[200];
    /* a setup call the kernel refused (bad workload) */
    char setup_error[200];
    /* the sweep: the one-entry differential check on the slowpath
     * kernel's state at every device interrupt (states the unmodified
     * kernel reached), classified; on unless sim_init's caller clears it */
    bool sweep;
    uint32_t sweep_checks, sweep_diverged, n_found, found_dropped;
    uint64_t sweep_exits[TARGET_MAX_EXITS]; /* the fastpath's exits at the swept entries */
    uint64_t sits[SIT_COUNT];   /* the situations of the swept entry states (situation.h) */
    /* called at every swept entry with its state and verdict (NULL: none;
     * the enumeration of executions, check/executions.c) */
    void (*on_sweep)(void *ctx, const struct kstate *in, const struct diff_verdict *v, const struct dclass *cl);
    void *on_sweep_ctx;
    struct sim_found found[SIM_MAX_FOUND];
    /* the entry state of the first divergence (the lockstep one, else the
     * sweep's first), as the one-entry check saw it; NULL when none */
    struct kstate *div_state;
    /* The enumeration's (check/executions.c): bit i, workload thread i's
     * program is open, its instruction at n_prog not decided yet (a
     * thread stops there until sim_decided); no_record, no timeline,
     * marks or divergent state kept (sim_copy copies none); the events
     * run (max_events bounds them) */
    uint32_t open;
    bool no_record;
    uint32_t events;
    /* no_record's: k[1] is k[0] but for fast and its refusals, and the
     * steps that run the same code on both ran on k[0] only (sim.c,
     * mirrored); k[1] as stored is stale until sim_sync */
    bool shadow;
    /* the timeline picture's window (span 0: chosen by sim_svg) */
    ticks_t svg_from, svg_span;
};

/* Build both kernels' initial state: boot (idle thread, a root thread at
 * priority 255 with a round-robin SC, the timer IRQ) and the root's setup
 * calls (configure SCs, bind, route IRQs, set priorities, resume the
 * threads, suspend itself). Returns 0, or -1 with s->setup_error set.
 * The fastpath kernel runs the workload's target's fastpaths of that
 * variant (target.h, struct target_sim): for the signal target it is a
 * KernelSignalFastpath kernel (no IRQ fastpath) whose SysSends on a
 * notification go through fastpath_signal, and the one-entry check
 * (lockstep and sweep) runs at each such SysSend. */
int sim_init(struct sim *s, const struct workload *w, int variant);
/* Run to the horizon. */
void sim_run(struct sim *s);
/* sim_run one step at a time: what the next step does (false: the run is
 * over, at the horizon or the event limit), then that step. A plan steps
 * a (the slowpath kernel's next event), b (the fastpath kernel's), both in
 * lockstep, or neither (drift: the two next events differ, said and the
 * lockstep ends). */
struct sim_plan {
    struct sim_ev a, b;
    bool lockstep, drift, step_a, step_b;
};
bool sim_plan(const struct sim *s, struct sim_plan *p);
void sim_apply(struct sim *s, const struct sim_plan *p);
/* An open thread (s->open) current on a core of a running kernel with
 * its next instruction undecided: its index, else -1. Before the next
 * plan the caller decides it (appends it to the thread's program in the
 * workload, or closes the program with a loop) and calls sim_decided
 * with the slot it filled. */
int sim_undecided(const struct sim *s);
void sim_decided(struct sim *s, int thread, int slot);
/* The shadowed fastpath kernel made a kernel of its own again (nothing
 * when there is no shadow): before reading s->k[1] directly. */
void sim_sync(struct sim *s);
/* kernel j as it is (k[0] for a shadowed k[1]) */
const struct sim_kernel *sim_kernel_of(const struct sim *s, int j);
/* src into dst (dst->w stays src's: point it at a copy when the copy's
 * workload will differ); src must be no_record. */
void sim_copy(struct sim *dst, const struct sim *src);
void sim_free(struct sim *s);

/* The report a reviewer reads; the JSON summary; the timeline picture. */
void sim_report(FILE *out, const struct sim *s);
/* sim_json: -1 when a thread name is not UTF-8 (jval_write_string: the
 * file should not be kept), else 0 */
int sim_json(FILE *out, const struct sim *s);
void sim_svg(FILE *out, const struct sim *s);

/* The run reached no entry of its target (a workload with no device
 * interrupt, --target signal on one with no SysSend on a notification):
 * "every one agreed" would be a claim about nothing. */
bool sim_checked_none(const struct sim *s);
/* a kernel of the run ended in a storm of a reserved PPI
 * (SIM_STORM_DEFERRALS) */
bool sim_stormed(const struct sim *s);
bool sim_kernel_stormed(const struct sim_kernel *k);
/* the virtual timer's events kernel k took (the vtimer line's deliveries) */
uint32_t sim_vtimer_taken(const struct sim *s, const struct sim_kernel *k);
/* the run stopped before the horizon (the event limit, a storm): what
 * came after is not checked */
bool sim_cut(const struct sim *s);

/* Every state reached at a kernel entry passed the checker, on both kernels. */
bool sim_all_admitted(const struct sim *s);

/* What the first divergence became by the horizon, fastpath kernel
 * against slowpath kernel (the report's figures, for the fuzzer). */
struct sim_conseq {
    int never_runs;      /* threads that run on the slowpath kernel after it, never on the fastpath one */
    int late;            /* threads whose first run after it is later on the fastpath kernel */
    ticks_t max_late;
    int masked;          /* IRQs masked at the horizon on the fastpath kernel only */
    int over_budget;     /* SCs over budget in some window of one period on the fastpath kernel only */
    long extra_timer;    /* timer entries, fastpath kernel minus slowpath kernel */
    uint32_t device;     /* device entries of the slowpath kernel */
};
void sim_consequences(const struct sim *s, struct sim_conseq *c);

/* The sweep found class cl (same exit and cause); its index or -1. */
int sim_found_class(const struct sim *s, const struct dclass *cl);

#endif
