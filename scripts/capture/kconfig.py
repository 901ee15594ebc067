#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The version-1 trace header of a kernel build (docs/TRACES.md).

Usage: kconfig.py BUILD_DIR KERNEL_COMMIT [WORKLOAD]

Reads the build's generated configuration (kernel/gen_config/kernel/gen_config.h)
and platform header (kernel/gen_headers/plat/platform_gen.h), derives the
scenario `config` keys irqsim's trace reader passes on, and prints the header
line. Differences from the configuration the version-0 reader assumes for
qemu-arm-virt are printed on stderr; a build irqsim cannot model (SMP is
modelled only as two cores, GICv3 is fine) is named there too.
"""
import json
import os
import re
import sys

V0 = {"timer_hz": 62500000, "wcet_us": 10, "wcet_scale": 1, "precision_us": 0, "overhead_ticks": 0,
      "domains": 1, "max_irq": 159, "gic": 2, "smp": 0, "fpu": 1, "hyp": 0}
ORDER = list(V0)


def die(msg):
    sys.stderr.write("kconfig: error: %s\n" % msg)
    sys.exit(1)


def main():
    if len(sys.argv) < 3:
        die("usage: kconfig.py BUILD_DIR KERNEL_COMMIT [WORKLOAD]")
    bd, commit = sys.argv[1], sys.argv[2]
    workload = sys.argv[3] if len(sys.argv) > 3 else ""
    paths = {"gen_config": os.path.join(bd, "kernel/gen_config/kernel/gen_config.h"),
             "platform_gen": os.path.join(bd, "kernel/gen_headers/plat/platform_gen.h")}
    text = {}
    for k, p in paths.items():
        try:
            text[k] = open(p).read()
        except OSError as e:
            die("cannot read %s: %s" % (p, e))
    gc, pg = text["gen_config"], text["platform_gen"]

    def define(src, name, default=None):
        m = re.search(r"^#define %s\s+(?:ULL_CONST\()?(\w+)\)?" % re.escape(name), src, re.M)
        if m:
            return int(m.group(1).rstrip("uUlL"), 0)
        if re.search(r"disabled: %s\b" % re.escape(name), src) and default is not None:
            return default
        if default is None:
            die("%s not found in the build's headers" % name)
        return default

    m = re.search(r"getKernelWcetUs\(void\)\s*\{\s*return\s+(\d+)u?;", pg)
    if not m:
        die("getKernelWcetUs not found in %s" % paths["platform_gen"])
    m2 = re.search(r"maxIRQ\s*=\s*(\d+)", pg)
    if not m2:
        die("maxIRQ not found in %s" % paths["platform_gen"])
    if define(gc, "CONFIG_IRQ_FASTPATH", 0) != 1:
        die("the build is not CONFIG_IRQ_FASTPATH=1")
    if define(gc, "CONFIG_KERNEL_MCS", 0) != 1:
        die("the build is not MCS")
    cfg = {
        "timer_hz": define(pg, "TIMER_CLOCK_HZ"),
        "wcet_us": int(m.group(1)),
        "wcet_scale": define(gc, "CONFIG_KERNEL_WCET_SCALE", 1),
        "precision_us": define(pg, "TIMER_PRECISION"),
        "overhead_ticks": define(pg, "TIMER_OVERHEAD_TICKS"),
        "domains": define(gc, "CONFIG_NUM_DOMAINS", 1),
        "max_irq": int(m2.group(1)),
        "gic": 3 if define(gc, "CONFIG_ARM_GIC_V3_SUPPORT", 0) else 2,
        "smp": 1 if define(gc, "CONFIG_MAX_NUM_NODES", 1) > 1 else 0,
        "fpu": 1 if define(gc, "CONFIG_HAVE_FPU", 0) else 0,
        "hyp": 1 if define(gc, "CONFIG_ARM_HYPERVISOR_SUPPORT", 0) else 0,
    }
    if cfg["smp"]:
        die("the capture reads one core's state; this build has CONFIG_MAX_NUM_NODES > 1")
    for k in ORDER:
        if cfg[k] != V0[k]:
            sys.stderr.write("kconfig: %s=%s differs from the version-0 qemu-arm-virt assumption %s\n"
                             % (k, cfg[k], V0[k]))
    hdr = {"irqsim_trace": 1, "kernel": commit, "board": "imx8mm",
           "config": " ".join("%s=%d" % (k, cfg[k]) for k in ORDER),
           "platform": "qemu-arm-virt", "workload": workload,
           "debug": define(gc, "CONFIG_DEBUG_BUILD", 0)}
    print(json.dumps(hdr))


if __name__ == "__main__":
    main()
