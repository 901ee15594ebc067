/*
 * smp: what one core's kernel entry does to another core (src/smp/ipi.c,
 * src/object/tcb.c, src/model/smp.c). The model is written from core 0's
 * view (CUR_CORE): smp_swap_core relabels a state so that core c's node
 * state sits in core 0's place, which is how the model runs kernel code
 * on core c (getCurrentCPUIndex() == c). The relabelling is a pure
 * renaming of two cores; applying it again undoes it.
 */
#ifndef IRQSIM_SMP_H
#define IRQSIM_SMP_H

#include "kstate.h"

/* Exchange core 0 and core c everywhere (c == 0: nothing). */
void smp_swap_core(struct kstate *ks, int c);

/* migrateTCB */
void migrateTCB(struct kstate *ks, int t, int core);
/* ipiStallCoreCallback on this core (core 0): irqPath when the core took
 * the remote call as an interrupt (from user level, or while it waits for
 * the lock in c_handle_interrupt with another IRQ acknowledged); else it
 * waits for the lock in a system call, which is then abandoned: the
 * current thread restarts it later (src/smp/ipi.c:22-80). */
void ipiStallCoreCallback(struct kstate *ks, bool irqPath);
/* remoteTCBStall */
void remoteTCBStall(struct kstate *ks, int t);

#endif
