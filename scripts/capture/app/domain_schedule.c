/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * irqcov's domain schedule for the app-dom build (KernelNumDomains=2,
 * KernelDomainSchedule=this file): domain 0 for 2 ms, then domain 1 for
 * 2 ms (MCS kernels take the lengths in ms). The kernel links this table as
 * ksDomSchedule/ksDomScheduleLength; src/main.c's DOM_MS must match.
 */
#include <config.h>
#include <object/structures.h>
#include <model/statedata.h>

const dschedule_t ksDomSchedule[] = {
    { .domain = 0, .length = 2 },
    { .domain = 1, .length = 2 },
};

const word_t ksDomScheduleLength = sizeof(ksDomSchedule) / sizeof(ksDomSchedule[0]);
