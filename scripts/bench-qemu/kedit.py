#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Build-time edits of an extracted seL4 tree for scripts/bench-qemu.sh.

Nothing of the kernel is stored in irqsim: each edit finds a named
function or line in the tree being built and rewrites it there.

  kedit.py fixed FASTPATH_C HK_FIXED_C [DEFINES...]
      FASTPATH_C (src/fastpath/fastpath.c of a PR #1227 tree): the
      definition of fastpath_irq is renamed fastpath_irq_pr1227 (kept,
      unused), and a fastpath_irq that enters irqsim's corrected fastpath
      (HK_FIXED_C, fastpath_irq_corrected) is appended. DEFINES (NAME or
      NAME=VALUE) are #defined before HK_FIXED_C is included: the
      HK_FIXED_OFF_<FIX> switches of a one-fix-off variant.
  kedit.py gic PLAT_CONFIG_CMAKE
      src/plat/qemu-arm-virt/config.cmake of a tree that builds GICv2
      only: the interrupt controller header and source become
      gic_v2/gic_v3 by the CMake variable IRQSIM_QEMU_GIC (default
      gic_v2, so a build that does not set it is unchanged).
Exit 0 edited (or already edited), 1 the expected text was not found.
"""
import re
import sys


def die(msg):
    print(f"kedit: {msg}", file=sys.stderr)
    sys.exit(1)


def fixed(path, hk_fixed, defines):
    src = open(path).read()
    marker = "/* irqsim bench-qemu: corrected fastpath_irq */"
    if marker in src:
        return
    # the definition, not the declaration: "... fastpath_irq()" followed by "{"
    pat = re.compile(r"^(void NORETURN )fastpath_irq\(\)(\s*\n\{)", re.M)
    if len(pat.findall(src)) != 1:
        die(f"{path}: exactly one definition 'void NORETURN fastpath_irq()' expected")
    src = pat.sub(r"\1fastpath_irq_pr1227(void)\2", src)
    lines = ["", marker, "#ifdef CONFIG_IRQ_FASTPATH"]
    for d in defines:
        name, _, val = d.partition("=")
        lines.append(f"#define {name} {val or 1}")
    lines += [f'#include "{hk_fixed}"',
              "static inline FORCE_INLINE void NORETURN fastpath_irq(void)",
              "{",
              "    fastpath_irq_corrected();",
              "}",
              "#endif", ""]
    open(path, "w").write(src + "\n".join(lines))


def gic(path):
    src = open(path).read()
    if "IRQSIM_QEMU_GIC" in src:
        return
    n_h = src.count("arch/machine/gic_v2.h")
    n_c = src.count("src/arch/arm/machine/gic_v2.c")
    if n_h != 1 or n_c != 1:
        die(f"{path}: one gic_v2.h header and one gic_v2.c source expected, found {n_h} and {n_c}")
    src = src.replace("arch/machine/gic_v2.h", "arch/machine/${IRQSIM_QEMU_GIC}.h")
    src = src.replace("src/arch/arm/machine/gic_v2.c", "src/arch/arm/machine/${IRQSIM_QEMU_GIC}.c")
    head = ("# irqsim bench-qemu: GIC version chosen by IRQSIM_QEMU_GIC\n"
            "if(NOT DEFINED IRQSIM_QEMU_GIC)\n    set(IRQSIM_QEMU_GIC gic_v2)\nendif()\n")
    open(path, "w").write(head + src)


def main(argv):
    if len(argv) >= 3 and argv[0] == "fixed":
        fixed(argv[1], argv[2], argv[3:])
    elif len(argv) == 2 and argv[0] == "gic":
        gic(argv[1])
    else:
        die("usage: kedit.py fixed FASTPATH_C HK_FIXED_C [DEFINES...] | kedit.py gic CONFIG_CMAKE")


if __name__ == "__main__":
    main(sys.argv[1:])
