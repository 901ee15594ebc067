#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Turn the serial logs of scripts/bench-qemu.sh into bench/irquser-qemu.json.

  collect.py OUT_DIR JSON
  collect.py --table JSON     (the Markdown tables of docs/results/irquser-qemu.md)

Each log OUT_DIR/<kernel>-gic<N>-<situation>.log holds sel4bench's JSON
between "JSON OUTPUT" and "END JSON OUTPUT". Its irquser result set has
five rows; the samples taken are those of the row "With context switch"
(the spinner in another address space: sel4bench's name for the address
space switch, not the situation), raw values after sel4bench dropped the
first 10 runs and subtracted the minimum measurement overhead. For the
switch situation the row "Without context switch" (same address space)
is kept as well, in "same_address_space". The timer logs (the kernel
timer IRQ under a lone spinner) go to "timer_fallback", each with its
overhead against the slowpath kernel. Kernels other than the three
(fixed-no-<FIX>, fixed-one-clock) go to "fix_variants", each with what
the difference costs against the corrected kernel (fix_cost = fixed -
variant). Mean and sample standard
deviation are computed here from the raw values (and checked against
sel4bench's own mean).
"""
import json
import math
import os
import re
import sys

NAME = re.compile(r"^(?P<kernel>[a-z0-9-]+)-gic(?P<gic>[23])-(?P<sit>switch|noswitch|timer)\.log$")
UNIT = "instructions (PMCCNTR_EL0 / {scale} under QEMU -icount shift={shift},sleep=off)"


def shift_of(path):
    """The icount shift of a run, from the stamp run_one wrote beside its log."""
    try:
        stamp = open(path + ".inputs").read()
    except OSError:
        die(f"{path}.inputs: missing (rerun the run step)")
    m = re.search(r"shift=(\d+)", stamp)
    if not m:
        die(f"{path}.inputs: no shift=N")
    return int(m.group(1))


def die(msg):
    print(f"collect: {msg}", file=sys.stderr)
    sys.exit(2)


def irquser_rows(path):
    text = open(path, errors="replace").read()
    a = text.find("JSON OUTPUT\n")
    b = text.find("END JSON OUTPUT")
    if a < 0 or b < 0:
        die(f"{path}: no JSON OUTPUT block")
    data = json.loads(text[a + len("JSON OUTPUT\n"):b])
    for s in data:
        if s.get("Benchmark") == "IRQ path cycle count (measured from user level)":
            return {r["Type"]: r for r in s["Results"]}
    die(f"{path}: no irquser result set")


def stats(raw, path, row):
    n = len(raw)
    if n < 2:
        die(f"{path}: {row}: {n} samples")
    mean = sum(raw) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in raw) / (n - 1))
    if abs(mean - row["Mean"]) > 0.01 * max(1.0, abs(row["Mean"])):
        die(f"{path}: mean {mean} of the raw values differs from sel4bench's {row['Mean']}")
    return round(mean, 2), round(sd, 2), n


def fmt(c):
    return f"{c['mean']:.0f} ({c['stddev']:.1f})"


def table(path):
    """The PR's layout: one row per fastpath kernel and GIC, the slowpath
    beside it, mean (standard deviation) in instructions."""
    doc = json.load(open(path))
    cell = {(c["kernel"], c["gic"], c["situation"]): c for c in doc["results"]}
    print("| kernel, GIC | switch: slowpath | switch: fastpath | saved | "
          "no switch: slowpath | no switch: fastpath | saved |")
    print("|---|---|---|---|---|---|---|")
    for gic in (2, 3):
        for k in ("pr1227", "fixed"):
            row = [f"{k}, GICv{gic}"]
            for sit in ("switch", "noswitch"):
                slow, fast = cell.get(("slowpath", gic, sit)), cell.get((k, gic, sit))
                if slow is None or fast is None:
                    row += ["-", "-", "-"]
                    continue
                row += [fmt(slow), fmt(fast), f"{fast['saved_pct']:.1f}%"]
            print("| " + " | ".join(row) + " |")
    if doc.get("timer_fallback"):
        print()
        print("| kernel timer IRQ | GICv2 | overhead | GICv3 | overhead |")
        print("|---|---|---|---|---|")
        t = {(c["kernel"], c["gic"]): c for c in doc["timer_fallback"]}
        for k in ("slowpath", "pr1227", "fixed"):
            row = [k]
            for gic in (2, 3):
                c = t.get((k, gic))
                row += ["-", "-"] if c is None else [fmt(c), f"{c['overhead']:+.0f}"]
            print("| " + " | ".join(row) + " |")
    if doc.get("fix_variants"):
        print()
        print("| variant (GICv2) | switch | fix costs | no switch | fix costs | timer | fix costs |")
        print("|---|---|---|---|---|---|---|")
        v = {(c["kernel"], c["situation"]): c for c in doc["fix_variants"]}
        for k in sorted({c["kernel"] for c in doc["fix_variants"]}):
            row = [k]
            for sit in ("switch", "noswitch", "timer"):
                c = v.get((k, sit))
                row += ["-", "-"] if c is None else [fmt(c), f"{c['fix_cost']:+.0f}"]
            print("| " + " | ".join(row) + " |")


def main(argv):
    if len(argv) == 2 and argv[0] == "--table":
        table(argv[1])
        return
    if len(argv) != 2:
        die("usage: collect.py OUT_DIR JSON | collect.py --table JSON")
    outdir, dest = argv
    results, same, timer, variants = [], [], [], []
    for f in sorted(os.listdir(outdir)):
        m = NAME.match(f)
        if not m:
            continue
        path = os.path.join(outdir, f)
        rows = irquser_rows(path)
        shift = shift_of(path)
        scale = 1 << shift
        unit = UNIT.format(scale=scale, shift=shift)
        for row in rows.values():
            if any(x % scale for x in row["Raw results"]):
                die(f"{path}: {row['Type']}: a sample is not a multiple of 2^shift = {scale}")
            row["Raw results"] = [x // scale for x in row["Raw results"]]
            row["Mean"] = row["Mean"] / scale
        r = rows["With context switch"]
        mean, sd, n = stats(r["Raw results"], path, r)
        cell = {"kernel": m["kernel"], "gic": int(m["gic"]), "situation": m["sit"], "unit": unit,
                "mean": mean, "stddev": sd, "samples": n, "min": min(r["Raw results"]),
                "max": max(r["Raw results"]), "raw": r["Raw results"]}
        if m["kernel"] not in ("slowpath", "pr1227", "fixed"):
            del cell["raw"]
            variants.append(cell)
            continue
        if m["sit"] == "timer":
            del cell["raw"]
            timer.append(cell)
            continue
        results.append(cell)
        if m["sit"] == "switch":
            t = rows["Without context switch"]
            mean, sd, n = stats(t["Raw results"], path, t)
            same.append({"kernel": m["kernel"], "gic": int(m["gic"]), "situation": "switch",
                         "unit": unit, "mean": mean, "stddev": sd, "samples": n})
    def against_slowpath(cells, with_pct):
        base = {(c["gic"], c["situation"]): c["mean"] for c in cells if c["kernel"] == "slowpath"}
        for c in cells:
            s = base.get((c["gic"], c["situation"]))
            if s is None:
                die(f"no slowpath figure for gic {c['gic']} {c['situation']}")
            c["slowpath_mean"] = s
            if with_pct:
                c["saved_pct"] = round(100.0 * (s - c["mean"]) / s, 1)
            else:
                c["overhead"] = round(c["mean"] - s, 2)
    against_slowpath(results, True)
    against_slowpath(same, True)
    against_slowpath(timer, False)
    # a variant of the corrected fastpath against the corrected one: what
    # the fix turned off costs (fixed - variant; negative: the fix saves)
    fixed = {(c["gic"], c["situation"]): c["mean"] for c in results + timer if c["kernel"] == "fixed"}
    for c in variants:
        f = fixed.get((c["gic"], c["situation"]))
        if f is None:
            die(f"no fixed figure for {c['kernel']} gic {c['gic']} {c['situation']}")
        c["fixed_mean"] = f
        c["fix_cost"] = round(f - c["mean"], 2)
    order = {"slowpath": 0, "pr1227": 1, "fixed": 2}
    key = lambda c: (c["situation"] != "switch", c["gic"], order.get(c["kernel"], 3), c["kernel"])
    results.sort(key=key)
    same.sort(key=key)
    timer.sort(key=key)
    variants.sort(key=lambda c: (c["kernel"], c["situation"]))
    doc = {"source": "scripts/bench-qemu.sh (seL4 2b302023d, sel4bench 0594cd5c5, qemu-arm-virt cortex-a53, "
                     "aarch64 MCS release)",
           "results": results, "same_address_space": same, "timer_fallback": timer, "fix_variants": variants}
    text = json.dumps(doc, indent=1)
    # the raw samples on one line each
    text = re.sub(r"\[\s*([0-9,\s]+?)\s*\]", lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
    with open(dest, "w") as fh:
        fh.write(text + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
