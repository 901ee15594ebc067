/*
 * sched: the MCS scheduler of one core (kernel src/kernel/thread.c,
 * src/object/tcb.c, include/kernel/thread.h): ready queues and their
 * two-level bitmaps, the release queue, thread state changes, the scheduler
 * action, time accounting and budget charging, domains, and the timer.
 * Ready queues are the TCBs' sched links; a queue's head and tail are found
 * from the links, so the state holds no separate head/tail arrays.
 */
#ifndef IRQSIM_SCHED_H
#define IRQSIM_SCHED_H

#include "kstate.h"

#define CUR_CORE 0

int ready_queue_head(const struct kstate *ks, int core, int dom, int prio);
int ready_queue_tail(const struct kstate *ks, int core, int dom, int prio);

bool isRunnable(const struct kstate *ks, int t);
bool isBlocked(const struct kstate *ks, int t);
bool isSchedulable(const struct kstate *ks, int t);
bool isCurDomainExpired(const struct kstate *ks);
int getHighestPrio(struct kstate *ks, int dom);
bool isHighestPrio(struct kstate *ks, int dom, int prio);

void tcbSchedEnqueue(struct kstate *ks, int t);
void tcbSchedAppend(struct kstate *ks, int t);
void tcbSchedDequeue(struct kstate *ks, int t);
void tcbReleaseRemove(struct kstate *ks, int t);
void tcbReleaseEnqueue(struct kstate *ks, int t);
int tcbReleaseDequeue(struct kstate *ks);
/* SCHED_ENQUEUE / SCHED_APPEND: the queue operation plus remoteQueueUpdate */
void sched_enqueue(struct kstate *ks, int t);
void sched_append(struct kstate *ks, int t);

void setThreadState(struct kstate *ks, int t, int ts);
void scheduleTCB(struct kstate *ks, int t);
void rescheduleRequired(struct kstate *ks);
void possibleSwitchTo(struct kstate *ks, int t);
void switchToThread(struct kstate *ks, int t);
/* lazyFPURestore at a switch (master: the switched-to thread takes the FPU) */
void lazyFPURestore(struct kstate *ks, int t);
/* fpuRelease: t's FPU state live on no core */
void fpuRelease(struct kstate *ks, int t);
void switchToIdleThread(struct kstate *ks);
void chooseThread(struct kstate *ks);
void schedule(struct kstate *ks);
void activateThread(struct kstate *ks);

void updateTimestamp(struct kstate *ks);
void commitTime(struct kstate *ks);
void postpone(struct kstate *ks, int sc);
void awaken(struct kstate *ks);
void checkDomainTime(struct kstate *ks);
ticks_t next_interrupt_time(struct kstate *ks);
void setNextInterrupt(struct kstate *ks);
void setDeadline(struct kstate *ks, ticks_t deadline);
/* doMaskReschedule: send the reschedule IPIs this core owes (SMP) */
void doMaskReschedule(struct kstate *ks);

#endif
