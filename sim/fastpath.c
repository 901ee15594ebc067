/* fastpath: model of what the system-call fastpaths share. */
#include "fastpath.h"

bool fp_domain_expired(const struct kstate *ks, bool entry_clock)
{
    ticks_t left = ks->domain_time;
    if (entry_clock) {
        ticks_t unread = ks->hw_clock - ks->cur_time;
        left = unread + ks->cfg.min_budget >= left ? 0 : left - unread;
    }
    return ks->cfg.num_domains > 1 && left == 0;
}
