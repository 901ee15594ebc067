/*
 * hk_domain: the domain schedule, writable. The kernel declares
 * ksDomSchedule/ksDomScheduleLength as extern const (model/statedata.h)
 * and defines them in a configuration file that build-kernel.sh leaves
 * out of the translation unit; defined here, in their own object, the
 * kernel cannot fold them and the bridge can set a state's schedule.
 * Layout of dschedule_t on aarch64: two words (domain, length in ms).
 * The bridge writes them through the functions below, compiled here: the
 * kernel's unit sees the arrays as const, and GCC drops stores made
 * there through a cast (they are undefined behaviour on a const object):
 * the PR head's 3-domain regression read the initial schedule.
 * SPDX-License-Identifier: BSD-2-Clause
 */
struct hk_dschedule {
    unsigned long domain;
    unsigned long length;
};

__attribute__((visibility("hidden"))) struct hk_dschedule ksDomSchedule[16] = {{0, 1}};
__attribute__((visibility("hidden"))) unsigned long ksDomScheduleLength = 1;

__attribute__((visibility("hidden"))) void hk_dom_schedule_set(unsigned long i, unsigned long domain,
                                                                unsigned long length)
{
    ksDomSchedule[i].domain = domain;
    ksDomSchedule[i].length = length;
}

__attribute__((visibility("hidden"))) void hk_dom_schedule_set_length(unsigned long n)
{
    ksDomScheduleLength = n;
}
