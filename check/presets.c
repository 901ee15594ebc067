/* presets: hand-built benchmark states. */
#include "presets.h"

#include "build.h"

/* Common shape: a running spinner, a handler blocked on the IRQ's
 * notification, the IRQ in state IRQSignal with a sendable cap. */
static int bench_state(struct kstate *ks, const char *board, int handler_prio, int spin_prio,
                       uint64_t slice_us)
{
    if (ks_init(ks, board) != 0)
        return -1;
    ticks_t slice = cfg_us_to_ticks(&ks->cfg, slice_us);
    ticks_t used = slice / 4;
    ks->cur_time = PRESET_T0;
    ks->hw_clock = PRESET_T0 + cfg_us_to_ticks(&ks->cfg, PRESET_RUN_US);
    int spin = build_thread(ks, "spinner", spin_prio, 0);
    int sc_s = build_sc(ks, "sc_spin", spin, slice, 0, 0);
    /* round robin: the head holds what is left, the tail what was used */
    ks->scs[sc_s].refills[0].amount = slice - used;
    ks->scs[sc_s].refills[1].amount = used;
    int h = build_thread(ks, "handler", handler_prio, 0);
    build_sc(ks, "sc_handler", h, slice, 0, 0);
    int n = build_ntfn(ks, "irq_ntfn");
    build_wait_ntfn(ks, h, n);
    build_irq_signal(ks, PRESET_IRQ, n, 1, true);
    ks->active_irq = PRESET_IRQ;
    build_run(ks, spin);
    build_deadline(ks);
    return 0;
}

int preset_irquser(struct kstate *ks, const char *board)
{
    return bench_state(ks, board, 254, 253, 5000);
}

int preset_noswitch(struct kstate *ks, const char *board)
{
    return bench_state(ks, board, 253, 254, 5000000);
}
