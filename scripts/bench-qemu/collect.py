#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Turn the serial logs of scripts/bench-qemu.sh into bench/irquser-qemu.json.

  collect.py OUT_DIR JSON

Each log OUT_DIR/<kernel>-gic<N>-<situation>.log holds sel4bench's JSON
between "JSON OUTPUT" and "END JSON OUTPUT". Its irquser result set has
five rows; the samples taken are those of the row "With context switch"
(the spinner in another address space: sel4bench's name for the address
space switch, not the situation), raw values after sel4bench dropped the
first 10 runs and subtracted the minimum measurement overhead. For the
switch situation the row "Without context switch" (same address space)
is kept as well, in "same_address_space". Mean and sample standard
deviation are computed here from the raw values (and checked against
sel4bench's own mean).
"""
import json
import math
import os
import re
import sys

NAME = re.compile(r"^(?P<kernel>[a-z0-9-]+)-gic(?P<gic>[23])-(?P<sit>switch|noswitch)\.log$")
UNIT = "instructions (PMCCNTR_EL0 under QEMU -icount shift=0,sleep=off)"


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


def main(argv):
    if len(argv) != 2:
        die("usage: collect.py OUT_DIR JSON")
    outdir, dest = argv
    results, same = [], []
    for f in sorted(os.listdir(outdir)):
        m = NAME.match(f)
        if not m:
            continue
        path = os.path.join(outdir, f)
        rows = irquser_rows(path)
        r = rows["With context switch"]
        mean, sd, n = stats(r["Raw results"], path, r)
        cell = {"kernel": m["kernel"], "gic": int(m["gic"]), "situation": m["sit"], "unit": UNIT,
                "mean": mean, "stddev": sd, "samples": n, "min": min(r["Raw results"]),
                "max": max(r["Raw results"]), "raw": r["Raw results"]}
        results.append(cell)
        if m["sit"] == "switch":
            t = rows["Without context switch"]
            mean, sd, n = stats(t["Raw results"], path, t)
            same.append({"kernel": m["kernel"], "gic": int(m["gic"]), "situation": "switch",
                         "unit": UNIT, "mean": mean, "stddev": sd, "samples": n})
    slow = {(c["gic"], c["situation"]): c["mean"] for c in results if c["kernel"] == "slowpath"}
    for c in results + same:
        s = slow.get((c["gic"], c["situation"])) if c in results else \
            next((x["mean"] for x in same if x["kernel"] == "slowpath" and x["gic"] == c["gic"]), None)
        if s is None:
            die(f"no slowpath figure for gic {c['gic']} {c['situation']}")
        c["slowpath_mean"] = s
        c["saved_pct"] = round(100.0 * (s - c["mean"]) / s, 1)
    order = {"slowpath": 0, "pr1227": 1, "fixed": 2}
    key = lambda c: (c["situation"] != "switch", c["gic"], order.get(c["kernel"], 3), c["kernel"])
    results.sort(key=key)
    same.sort(key=key)
    doc = {"source": "scripts/bench-qemu.sh (seL4 2b302023d, sel4bench 0594cd5c5, qemu-arm-virt cortex-a53, "
                     "aarch64 MCS release)",
           "results": results, "same_address_space": same}
    with open(dest, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
