/*
 * hk_domain: the domain schedule, writable. The kernel declares
 * ksDomSchedule/ksDomScheduleLength as extern const (model/statedata.h)
 * and defines them in a configuration file that build-kernel.sh leaves
 * out of the translation unit; defined here, in their own object, the
 * kernel cannot fold them and the bridge can set a state's schedule.
 * Layout of dschedule_t on aarch64: two words (domain, length in ms).
 * SPDX-License-Identifier: BSD-2-Clause
 */
struct hk_dschedule {
    unsigned long domain;
    unsigned long length;
};

__attribute__((visibility("hidden"))) struct hk_dschedule ksDomSchedule[16] = {{0, 1}};
__attribute__((visibility("hidden"))) unsigned long ksDomScheduleLength = 1;
