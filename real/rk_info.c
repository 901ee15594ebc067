/*
 * rk_info: print a host kernel's build constants as key=value lines, as
 * the compiled kernel sees them (build-kernel.sh writes kernel.info from it).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <dlfcn.h>
#include <stdio.h>

#include "hostkernel.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rk_info hostkernel.so\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "rk_info: %s\n", dlerror());
        return 1;
    }
    void (*info)(struct hk_info *) = (void (*)(struct hk_info *))dlsym(h, "hk_info");
    if (!info) {
        fprintf(stderr, "rk_info: no hk_info in %s\n", argv[1]);
        return 1;
    }
    struct hk_info i;
    info(&i);
    printf("abi_version=%d\ntimer_hz=%llu\nwcet_us=%u\nwcet_scale=%u\nprecision_us=%u\n"
           "overhead_ticks=%u\nmax_irq=%u\ngic_version=%u\nnum_domains=%u\ncores=%u\n"
           "num_prios=%u\nmin_refills=%u\ndebug=%u\nfpu=%u\nhyp=%u\nirq_fastpath=%u\nsignal_fastpath=%u\n"
           "gic_split_eoi=%u\n",
           i.abi_version, i.timer_hz, i.wcet_us, i.wcet_scale, i.precision_us, i.overhead_ticks, i.max_irq,
           i.gic_version, i.num_domains, i.cores, i.num_prios, i.min_refills, i.debug, i.fpu, i.hyp,
           i.irq_fastpath, i.signal_fastpath, i.gic_split_eoi);
    return 0;
}
