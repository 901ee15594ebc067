#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Internal consistency of bench/irquser-qemu.json (scripts/bench-qemu.sh).

  bench_qemu_json.py FILE

Checks, without QEMU: the keys and types of every cell; the three kernels
x two GIC versions x two situations present, once each; at least 30
samples; stddev >= 0; a plausible mean (an interrupt's round trip from
user level to user level is more than 50 and less than 100000
instructions); min <= mean <= max; mean and stddev recomputed from the
raw samples where they are given; one unit for all cells; a slowpath
cell for every (gic, situation), and each cell's saving against it;
the kernel-timer cells ("timer_fallback", optional): the same cell checks
and each overhead against the slowpath kernel of its GIC; the variants
of the corrected fastpath ("fix_variants", optional): the same cell
checks and each fix_cost against the corrected kernel.
Prints "ok: N cells" and exits 0, or prints every problem as
"FILE: problem" and exits 1 (2 when the file cannot be read as JSON).
"""
import json
import math
import sys

KERNELS = ("slowpath", "pr1227", "fixed")
SITUATIONS = ("switch", "noswitch")
GICS = (2, 3)


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check_cell(i, c, errs):
    where = f"results[{i}]"
    if not isinstance(c, dict):
        errs.append(f"{where}: not an object")
        return None
    for k in ("kernel", "gic", "situation", "unit", "mean", "stddev", "samples"):
        if k not in c:
            errs.append(f"{where}: missing key '{k}'")
    if any(k not in c for k in ("kernel", "gic", "situation", "unit", "mean", "stddev", "samples")):
        return None
    k, g, s = c["kernel"], c["gic"], c["situation"]
    where = f"results[{i}] ({k}, gic {g}, {s})"
    if not isinstance(k, str) or not (k in KERNELS or k.startswith("fixed-")):
        errs.append(f"{where}: kernel must be one of {KERNELS} or fixed-<variant>")
    if not isinstance(g, int) or isinstance(g, bool) or g not in GICS:
        errs.append(f"{where}: gic must be 2 or 3")
    if s not in SITUATIONS + ("timer",):
        errs.append(f"{where}: situation must be switch, noswitch or timer")
    if not isinstance(c["unit"], str) or not c["unit"]:
        errs.append(f"{where}: unit must be a non-empty string")
    n, m, sd = c["samples"], c["mean"], c["stddev"]
    if not isinstance(n, int) or isinstance(n, bool) or n < 30:
        errs.append(f"{where}: samples must be an integer >= 30")
    if not is_num(m) or not 50 <= m <= 100000:
        errs.append(f"{where}: mean {m!r} is not a plausible interrupt round trip (50..100000)")
    if not is_num(sd) or sd < 0:
        errs.append(f"{where}: stddev must be a number >= 0")
    if "min" in c and "max" in c and is_num(m):
        if not (is_num(c["min"]) and is_num(c["max"]) and c["min"] <= m <= c["max"]):
            errs.append(f"{where}: min <= mean <= max does not hold")
    raw = c.get("raw")
    if raw is not None:
        if not isinstance(raw, list) or not all(is_num(x) for x in raw):
            errs.append(f"{where}: raw must be a list of numbers")
        elif len(raw) != n:
            errs.append(f"{where}: {len(raw)} raw samples, samples says {n}")
        elif n >= 2 and is_num(m) and is_num(sd):
            rm = sum(raw) / n
            rsd = math.sqrt(sum((x - rm) ** 2 for x in raw) / (n - 1))
            if abs(rm - m) > 0.01 or abs(rsd - sd) > 0.01:
                errs.append(f"{where}: mean/stddev {m}/{sd} differ from the raw samples' {rm:.2f}/{rsd:.2f}")
            if "min" in c and (c["min"] != min(raw) or c["max"] != max(raw)):
                errs.append(f"{where}: min/max differ from the raw samples'")
    return (k, g, s)


def check_timer(cells, errs):
    """The kernel timer IRQ cells: same checks, and each overhead against
    the slowpath kernel of its GIC."""
    if not isinstance(cells, list):
        errs.append("timer_fallback must be a list")
        return
    base = {}
    for i, c in enumerate(cells):
        sub = []
        key = check_cell(i, c, sub)
        errs.extend("timer_fallback" + e[len("results"):] for e in sub)
        if key and key[0] == "slowpath":
            base[key[1]] = c["mean"]
    for i, c in enumerate(cells):
        if not isinstance(c, dict) or "overhead" not in c:
            continue
        b = base.get(c.get("gic"))
        if b is None:
            errs.append(f"timer_fallback[{i}]: no slowpath figure for gic {c.get('gic')}")
        elif not is_num(c["overhead"]) or abs(c["overhead"] - (c["mean"] - b)) > 0.01:
            errs.append(f"timer_fallback[{i}]: overhead {c['overhead']} is not mean - slowpath = {c['mean'] - b:.2f}")


def check_variants(cells, base_cells, errs):
    """The corrected fastpath's variants: the same cell checks, and each
    fix_cost = the fixed kernel's mean less the variant's."""
    if not isinstance(cells, list):
        errs.append("fix_variants must be a list")
        return
    fixed = {(c.get("gic"), c.get("situation")): c.get("mean") for c in base_cells
             if isinstance(c, dict) and c.get("kernel") == "fixed"}
    for i, c in enumerate(cells):
        sub = []
        key = check_cell(i, c, sub)
        errs.extend("fix_variants" + e[len("results"):] for e in sub)
        if key is None or "fix_cost" not in c:
            continue
        f = fixed.get((key[1], key[2]))
        if f is None:
            errs.append(f"fix_variants[{i}]: no fixed figure for gic {key[1]} {key[2]}")
        elif not is_num(c["fix_cost"]) or abs(c["fix_cost"] - (f - c["mean"])) > 0.01:
            errs.append(f"fix_variants[{i}]: fix_cost {c['fix_cost']} is not fixed - variant = {f - c['mean']:.2f}")


def main(argv):
    if len(argv) != 1:
        print("usage: bench_qemu_json.py FILE", file=sys.stderr)
        return 2
    path = argv[0]
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"{path}: cannot read as JSON: {e}", file=sys.stderr)
        return 2
    errs = []
    cells = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(cells, list):
        print(f"{path}: no \"results\" list", file=sys.stderr)
        return 1
    seen = {}
    for i, c in enumerate(cells):
        key = check_cell(i, c, errs)
        if key is None:
            continue
        if key[0] not in KERNELS or key[2] not in SITUATIONS:
            errs.append(f"results[{i}]: {key}: the results hold the three kernels and two situations only")
            continue
        if key in seen:
            errs.append(f"results[{i}]: duplicate cell {key} (also results[{seen[key]}])")
        seen[key] = i
    for k in KERNELS:
        for g in GICS:
            for s in SITUATIONS:
                if (k, g, s) not in seen:
                    errs.append(f"missing cell: kernel {k}, gic {g}, {s}")
    units = {c.get("unit") for c in cells if isinstance(c, dict)}
    if len(units) > 1:
        errs.append(f"cells use different units: {sorted(map(str, units))}")
    for (k, g, s), i in seen.items():
        c = cells[i]
        j = seen.get(("slowpath", g, s))
        if j is None:
            errs.append(f"results[{i}] ({k}, gic {g}, {s}): no slowpath figure for this gic and situation")
            continue
        slow = cells[j]["mean"]
        if "slowpath_mean" in c and c["slowpath_mean"] != slow:
            errs.append(f"results[{i}] ({k}, gic {g}, {s}): slowpath_mean {c['slowpath_mean']} is not the slowpath cell's {slow}")
        if "saved_pct" in c and is_num(slow) and is_num(c["mean"]) and slow:
            want = 100.0 * (slow - c["mean"]) / slow
            if not is_num(c["saved_pct"]) or abs(c["saved_pct"] - want) > 0.06:
                errs.append(f"results[{i}] ({k}, gic {g}, {s}): saved_pct {c['saved_pct']} is not {want:.1f}")
    check_timer(doc.get("timer_fallback", []), errs)
    check_variants(doc.get("fix_variants", []), cells + list(doc.get("timer_fallback", [])), errs)
    for e in errs:
        print(f"{path}: {e}")
    if errs:
        return 1
    print(f"ok: {len(cells)} cells")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
