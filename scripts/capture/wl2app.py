#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""wl2app: turn an irqsim workload file (docs/workload-format.md) into a
root task for the irqcov app framework (scripts/capture/app/), so that a
divergence irqsim found in simulation becomes a program that shows it on
the running kernel (docs/TRACES.md, "Applications generated from workload
files").

Usage: scripts/capture/wl2app.py [--offset-us US] [--tail-us US] [--dom-out FILE] FILE.wl OUT.c

The root task does what irqsim's root thread does at time 0 (configure
each SC and bind it to its notification, issue and route each IRQ, set each
thread's priority, SC and timeout endpoint, resume the threads in the
file's order), then arms the device IRQ's first arrival and suspends
itself. Each thread runs its program as straight-line C (wlrt.h).

Mapping (qemu-arm-virt, the kernel of setup.sh):
  ticks          the workload board's timer (8 MHz on imx8mm) -> the
                 62.5 MHz counter (at run time from CNTFRQ_EL0); SC budgets
                 and periods -> microseconds for SchedControl_ConfigureFlags
                 (they must be whole microseconds, at least MIN_BUDGET, 20)
  irq N with arrivals   -> PPI 30, the EL1 physical timer exported to user
                 level (the only interrupt a user-level program can raise
                 on this machine); at most one such irq
  irq N without arrivals -> an unused SPI (issued and routed, never raised)
  compute:D      a busy loop for D ticks of the counter (wall time, not the
                 thread's own time)
  domain_schedule  the kernel's ksDomSchedule (--dom-out FILE, for
                 KernelDomainSchedule; KernelNumDomains is printed as
                 "domains N" on stdout); domain= is DomainSet_Set
Refused (the error names the line): cores 2, spurious, an SC configured
on core 1, a second irq line with arrivals, budgets that
are not whole microseconds or below MIN_BUDGET, timer_irq other than 27.
entry_latency is ignored (the running kernel has its own).
--offset-us US delays every arrival (and the end) by US microseconds: a
system call takes about a thousand instructions on the running kernel (16
us under QEMU's -icount shift=4) where irqsim charges one tick (0.125 us on
imx8mm), so an arrival in the first tens of microseconds can come before
the threads reached the state they had in the simulation.
The run ends (irqcov: done) when every thread finished its program; a loop
or compute stops at the horizon plus --tail-us (default 1000 us), so that
the last interrupt's consequences are seen.
Exit status: 0 written; 2 a workload this cannot generate, or bad input.
"""
import argparse
import os
import re
import sys

BOARD_HZ = {"imx8mm": 8000000, "imx8mq": 8000000, "odroidc4": 24000000,
            "tqma": 8000000, "tx1": 12000000, "zcu106": 100000000}
MIN_BUDGET_US = 20          # 2 x KERNEL_WCET (10 us) on qemu-arm-virt
DEVICE_IRQ = 30             # the exported EL1 physical timer (PPI 30)
SPARE_SPI = 100             # issued-but-never-raised IRQs: 100, 101, ...
SPORADIC = "seL4_SchedContext_Sporadic"


class WlError(Exception):
    pass


def die(path, lineno, msg):
    raise WlError(f"{path}:{lineno}: {msg}")


def keyvals(path, lineno, words, allowed):
    kv = {}
    for w in words:
        if "=" not in w:
            die(path, lineno, f"expected key=value, found '{w}'")
        k, v = w.split("=", 1)
        if k not in allowed:
            die(path, lineno, f"unknown key '{k}' (expected one of {', '.join(allowed)})")
        kv[k] = v
    return kv


def num(path, lineno, s, what):
    if not re.fullmatch(r"[0-9]+", s or ""):
        die(path, lineno, f"{what}: expected a number, found '{s}'")
    return int(s)


def parse(path):
    wl = {"board": "imx8mm", "horizon": 80000000, "ntfns": [], "eps": [], "replies": [],
          "scs": {}, "threads": [], "irqs": [], "notes": []}
    names = {"idle", "root"}
    with open(path) as f:
        lines = f.read().splitlines()
    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        w = line.split()
        kw, rest = w[0], w[1:]

        def name_new():
            if not rest:
                die(path, lineno, f"{kw}: missing name")
            n = rest[0]
            if n in names:
                die(path, lineno, f"name '{n}' declared twice or reserved")
            names.add(n)
            return n
        if kw == "board":
            if not rest or rest[0] not in BOARD_HZ:
                die(path, lineno, f"unknown board (expected one of {', '.join(BOARD_HZ)})")
            wl["board"] = rest[0]
        elif kw == "horizon":
            wl["horizon"] = num(path, lineno, rest[0] if rest else "", "horizon")
        elif kw == "timer_irq":
            if (rest[0] if rest else "") != "27":
                die(path, lineno, "timer_irq must be 27, the kernel timer of qemu-arm-virt")
        elif kw == "entry_latency":
            wl["notes"].append(f"line {lineno}: entry_latency ignored (the running kernel has its own)")
        elif kw == "cores":
            if rest != ["1"]:
                die(path, lineno, "cores 2 cannot be generated: the capture handles one core only")
        elif kw == "domain_schedule":
            if wl["threads"]:
                die(path, lineno, "domain_schedule must come before the thread lines")
            sched = []
            for e in (rest[0] if rest else "").split(","):
                m = re.fullmatch(r"([0-9]+):([0-9]+)", e)
                if not m or int(m.group(2)) == 0:
                    die(path, lineno, f"domain_schedule: expected DOMAIN:MS entries, found '{e}'")
                sched.append((int(m.group(1)), int(m.group(2))))
            wl["domain_schedule"] = sched
        elif kw == "spurious":
            die(path, lineno, "spurious cannot be generated: use capture.sh --inject spurious@N")
        elif kw in ("ntfn", "ep", "reply"):
            wl[{"ntfn": "ntfns", "ep": "eps", "reply": "replies"}[kw]].append(name_new())
        elif kw == "sc":
            n = name_new()
            kv = keyvals(path, lineno, rest[1:], ("budget", "period", "refills", "sporadic", "ntfn", "core"))
            if kv.get("core", "0") != "0":
                die(path, lineno, "an SC on core 1 cannot be generated (one core)")
            if "ntfn" in kv and kv["ntfn"] not in wl["ntfns"]:
                die(path, lineno, f"unknown notification '{kv['ntfn']}'")
            sc = {"name": n, "ntfn": kv.get("ntfn"), "configured": "budget" in kv}
            if sc["configured"]:
                if "period" not in kv:
                    die(path, lineno, "budget without period")
                sc["budget"] = num(path, lineno, kv["budget"], "budget")
                sc["period"] = num(path, lineno, kv["period"], "period")
                sc["refills"] = num(path, lineno, kv.get("refills", "0"), "refills")
                sc["sporadic"] = kv.get("sporadic", "0") == "1"
            wl["scs"][n] = sc
        elif kw == "thread":
            n = name_new()
            kv = keyvals(path, lineno, rest[1:], ("prio", "domain", "sc", "timeout_ep", "prog"))
            dom = num(path, lineno, kv.get("domain", "0"), "domain")
            if dom >= n_domains(wl):
                die(path, lineno, f"domain {dom}: the schedule has {n_domains(wl)} domain(s)")
            t = {"name": n, "prio": num(path, lineno, kv.get("prio", ""), "prio"), "domain": dom,
                 "sc": kv.get("sc"), "timeout_ep": kv.get("timeout_ep"), "prog": [], "line": lineno}
            if t["sc"] is not None and t["sc"] not in wl["scs"]:
                die(path, lineno, f"unknown SC '{t['sc']}'")
            if t["timeout_ep"] is not None and t["timeout_ep"] not in wl["eps"]:
                die(path, lineno, f"unknown endpoint '{t['timeout_ep']}'")
            if "prog" not in kv:
                die(path, lineno, "thread without prog=")
            wl["threads"].append(t)
            # an empty program: the thread suspends itself at once
            t["prog"] = [i.split(":") for i in kv["prog"].split(",")] if kv["prog"] else []
        elif kw == "irq":
            kv = keyvals(path, lineno, rest[1:], ("ntfn", "badge", "at", "start", "period"))
            irq = {"irq": num(path, lineno, rest[0] if rest else "", "irq"), "ntfn": kv.get("ntfn"),
                   "badge": num(path, lineno, kv.get("badge", "0"), "badge"), "at": []}
            if irq["ntfn"] is not None and irq["ntfn"] not in wl["ntfns"]:
                die(path, lineno, f"unknown notification '{irq['ntfn']}'")
            if "at" in kv:
                irq["at"] = [num(path, lineno, a, "at") for a in kv["at"].split(",")]
            if "period" in kv:
                p = num(path, lineno, kv["period"], "period")
                s = num(path, lineno, kv.get("start", kv["period"]), "start")
                irq["periodic"] = (s, p)
            irq["line"] = lineno
            wl["irqs"].append(irq)
        else:
            die(path, lineno, f"unknown line '{kw}'")
    return wl


def n_domains(wl):
    """CONFIG_NUM_DOMAINS: one more than the schedule's highest domain"""
    return 1 + max((d for d, _ in wl.get("domain_schedule", [])), default=0)


def domain_schedule_c(path, wl):
    """the kernel's ksDomSchedule for KernelDomainSchedule (MCS kernels take
    the lengths in ms, as the workload format does)"""
    rows = "\n".join(f"    {{ .domain = {d}, .length = {ms} }}," for d, ms in wl["domain_schedule"])
    return f"""/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Generated by scripts/capture/wl2app.py from {os.path.basename(path)}: its
 * domain_schedule, the kernel's ksDomSchedule (KernelDomainSchedule=this
 * file, KernelNumDomains={n_domains(wl)}; lengths in ms).
 */
#include <config.h>
#include <object/structures.h>
#include <model/statedata.h>

const dschedule_t ksDomSchedule[] = {{
{rows}
}};

const word_t ksDomScheduleLength = sizeof(ksDomSchedule) / sizeof(ksDomSchedule[0]);
"""


def domain_sync(wl):
    """The longest run of schedule entries outside the first entry's domain
    (the root's), cyclically: its length and where it ends in the cycle, in
    us, and the cycle's length. The root finds it as a gap in its counter
    readings and takes time 0 from its end (wlrt.h)."""
    sched = wl.get("domain_schedule", [])
    if not sched:
        return 0, 0, 0
    root = sched[0][0]
    n = len(sched)
    starts = [sum(ms for _, ms in sched[:i]) for i in range(n)]
    cycle = sum(ms for _, ms in sched)
    best = (0, 0)
    for i in range(n):
        if sched[i][0] != root or sched[i - 1][0] == root:
            continue  # i starts a run of the root's domain after a gap
        j, gap = i - 1, 0
        while sched[j % n][0] != root:
            gap += sched[j % n][1]
            j -= 1
        if gap > best[0]:
            best = (gap, starts[i])
    if best[0] == 0:
        raise WlError("a domain schedule with every entry in the first entry's domain cannot be generated: "
                      "the root has no gap to synchronise on")
    return best[0] * 1000, best[1] * 1000, cycle * 1000


def arrivals(wl, irq):
    a = list(irq["at"])
    if "periodic" in irq:
        s, p = irq["periodic"]
        a += list(range(s, wl["horizon"] + 1, p)) if p else []
    return sorted(set(a))


def to_us(path, sc, what, hz):
    t = sc[what]
    if (t * 1000000) % hz:
        raise WlError(f"{path}: sc {sc['name']}: {what} {t} ticks is not a whole number of microseconds "
                      f"at {hz} Hz (SchedControl_ConfigureFlags takes microseconds)")
    us = t * 1000000 // hz
    if us < MIN_BUDGET_US:
        raise WlError(f"{path}: sc {sc['name']}: {what} {us} us is below MIN_BUDGET ({MIN_BUDGET_US} us)")
    return us


def cname(prefix, n):
    return prefix + re.sub(r"[^A-Za-z0-9_]", "_", n)


def gen_insn(wl, t, k, ins, irqmap, out):
    op = ins[0]
    args = ins[1:]
    threads = [x["name"] for x in wl["threads"]]

    def need(n, objs, what):
        if len(args) < n or any(a == "" for a in args[:n]):
            raise WlError(f"thread {t['name']}: instruction {':'.join(ins)}: missing {what}")
        for a in args[:n]:
            if objs is not None and a not in objs:
                raise WlError(f"thread {t['name']}: {':'.join(ins)}: unknown {what} '{a}'")
    if op == "compute":
        need(1, None, "duration")
        out.append(f"    wl_compute({int(args[0])}ull);")
    elif op == "signal":
        need(1, wl["ntfns"], "notification")
        out.append(f"    seL4_Signal({cname('N_', args[0])});")
    elif op == "wait":
        need(1, wl["ntfns"], "notification")
        out.append(f"    seL4_WaitWithMRs({cname('N_', args[0])}, &badge, NULL, NULL, NULL, NULL);")
    elif op == "recv":
        need(1, wl["eps"], "endpoint")
        reply = "seL4_CapNull"
        if len(args) > 1:
            if args[1] not in wl["replies"]:
                raise WlError(f"thread {t['name']}: {':'.join(ins)}: unknown reply '{args[1]}'")
            reply = cname("R_", args[1])
        out.append(f"    seL4_RecvWithMRs({cname('E_', args[0])}, &badge, {reply}, NULL, NULL, NULL, NULL);")
    elif op == "ack":
        need(1, None, "IRQ")
        n = int(args[0])
        if n not in irqmap:
            raise WlError(f"thread {t['name']}: ack:{n}: no irq line {n}")
        out.append(f"    wl_ack(H_{n}, {1 if irqmap[n] == DEVICE_IRQ else 0});")
    elif op == "yield":
        out.append("    seL4_Yield();")
    elif op in ("suspend", "resume"):
        need(1, threads, "thread")
        i = threads.index(args[0])
        out.append(f"    seL4_TCB_{op.capitalize()}(wl_tcb[{i}]);")
    elif op == "prio":
        need(2, None, "thread and priority")
        if args[0] not in threads:
            raise WlError(f"thread {t['name']}: {':'.join(ins)}: unknown thread '{args[0]}'")
        out.append(f"    seL4_TCB_SetPriority(wl_tcb[{threads.index(args[0])}], seL4_CapInitThreadTCB, {int(args[1])});")
    elif op == "unbind":
        need(1, wl["scs"], "SC")
        out.append(f"    seL4_SchedContext_Unbind({cname('S_', args[0])});")
    elif op == "loop":
        target = int(args[0]) if args and args[0] else 0
        out.append(f"    if (!wl_past_end())\n        goto L{target};")
    else:
        raise WlError(f"thread {t['name']}: unknown instruction '{op}'")


def generate(path, wl, tail_us, offset_us):
    hz = BOARD_HZ[wl["board"]]
    with_at = [i for i in wl["irqs"] if arrivals(wl, i)]
    if len(with_at) > 1:
        raise WlError(f"{path}:{with_at[1]['line']}: a second irq with arrivals cannot be generated "
                      f"(one user-level interrupt source, PPI {DEVICE_IRQ})")
    irqmap, spare = {}, SPARE_SPI
    for i in wl["irqs"]:
        if i["irq"] in irqmap:
            raise WlError(f"{path}:{i['line']}: irq {i['irq']} declared twice")
        if arrivals(wl, i):
            irqmap[i["irq"]] = DEVICE_IRQ
        else:
            irqmap[i["irq"]] = spare
            spare += 1
    arr = arrivals(wl, with_at[0]) if with_at else []
    end = max([wl["horizon"]] + arr) + tail_us * hz // 1000000
    base = os.path.basename(path)
    o = []
    o.append("/*\n * SPDX-License-Identifier: BSD-2-Clause\n *")
    o.append(f" * Generated by scripts/capture/wl2app.py from {base}; do not edit.")
    o.append(f" * Board {wl['board']} ({hz} Hz ticks), horizon {wl['horizon']}, run until tick {end}.")
    o.append(f" * Arrivals and the end delayed by {offset_us} us (--offset-us).")
    for i in wl["irqs"]:
        src = f"PPI {DEVICE_IRQ} (EL1 physical timer)" if irqmap[i["irq"]] == DEVICE_IRQ else f"SPI {irqmap[i['irq']]} (never raised)"
        o.append(f" * irq {i['irq']} -> {src}")
    for n in wl["notes"]:
        o.append(f" * {n}")
    o.append(" */")
    o.append(f"#define WL_NAME \"{base}\"")
    o.append(f"#define WL_HZ {hz}ull")
    o.append(f"#define WL_END {end}ull")
    o.append(f"#define WL_OFFSET_US {offset_us}ull")
    o.append(f"#define WL_T0_AT_BOOT {1 if wl.get('domain_schedule') else 0}")
    gap, gap_end, cycle = domain_sync(wl)
    o.append(f"#define WL_DOM_GAP_US {gap}ull      /* the root's domain does not run this long */")
    o.append(f"#define WL_DOM_GAP_END_US {gap_end}ull  /* ... ending this far into the schedule */")
    o.append(f"#define WL_DOM_CYCLE_US {cycle}ull")
    o.append(f"#define WL_N_THREADS {len(wl['threads'])}")
    o.append(f"#define WL_N_ARRIVALS {len(arr)}")
    o.append("#define WL_ARRIVALS {" + ", ".join(f"{a}ull" for a in arr or [0]) + "}")
    o.append('#include "wlrt.h"\n')
    decl = []
    for n in wl["ntfns"]:
        decl.append(cname("N_", n))
    for n in wl["eps"]:
        decl.append(cname("E_", n))
    for n in wl["replies"]:
        decl.append(cname("R_", n))
    for n in wl["scs"]:
        decl.append(cname("S_", n))
    for i in wl["irqs"]:
        decl.append(f"H_{i['irq']}")
    if decl:
        o.append("static seL4_CPtr " + ", ".join(decl) + ";\n")
    if not wl["threads"]:
        raise WlError(f"{path}: no thread")
    for ti, t in enumerate(wl["threads"]):
        if t["prio"] > 254:
            raise WlError(f"{path}:{t['line']}: priority {t['prio']} above 254")
        o.append(f"/* {t['name']}: {','.join(':'.join(x) for x in t['prog'])} */")
        o.append(f"static void {cname('thread_', t['name'])}(void)\n{{")
        o.append("    seL4_Word badge;\n    (void)badge;")
        targets = {int(x[1]) if len(x) > 1 and x[1] else 0 for x in t["prog"] if x[0] == "loop"}
        for k, ins in enumerate(t["prog"]):
            if k in targets:
                o.append(f"L{k}:")
            body = []
            gen_insn(wl, t, k, ins, irqmap, body)
            o += body
        o.append(f"    wl_finish({ti});\n}}\n")
    # the loop targets must exist
    for t in wl["threads"]:
        for ins in t["prog"]:
            if ins[0] == "loop" and len(ins) > 1 and ins[1] and int(ins[1]) >= len(t["prog"]):
                raise WlError(f"thread {t['name']}: loop target {ins[1]} out of range")
    o.append("static void wl_setup(void)\n{")
    for n in wl["ntfns"]:
        o.append(f"    {cname('N_', n)} = wl_make(seL4_NotificationObject, 0);")
    for n in wl["eps"]:
        o.append(f"    {cname('E_', n)} = wl_make(seL4_EndpointObject, 0);")
    for n in wl["replies"]:
        o.append(f"    {cname('R_', n)} = wl_make(seL4_ReplyObject, 0);")
    for n, sc in wl["scs"].items():
        if sc["configured"]:
            b, p = to_us(path, sc, "budget", hz), to_us(path, sc, "period", hz)
            flags = SPORADIC if sc["sporadic"] else "0"
            o.append(f"    {cname('S_', n)} = wl_sc({b}, {p}, {sc['refills']}, {flags}, 1); "
                     f"/* {sc['budget']}/{sc['period']} ticks */")
        else:
            o.append(f"    {cname('S_', n)} = wl_sc(0, 0, 0, 0, 0); /* never configured */")
        if sc["ntfn"]:
            o.append(f"    wl_check(seL4_SchedContext_Bind({cname('S_', n)}, {cname('N_', sc['ntfn'])}), \"sc bind\");")
    for i in wl["irqs"]:
        h = f"H_{i['irq']}"
        o.append(f"    {h} = wl_next_slot++;")
        o.append(f"    wl_check(seL4_IRQControl_Get(seL4_CapIRQControl, {irqmap[i['irq']]}, seL4_CapInitThreadCNode, "
                 f"{h}, seL4_WordBits), \"irq get\");")
        if i["ntfn"]:
            o.append(f"    wl_check(seL4_IRQHandler_SetNotification({h}, wl_mint({cname('N_', i['ntfn'])}, "
                     f"{i['badge']})), \"irq ntfn\");")
    for ti, t in enumerate(wl["threads"]):
        sc = cname("S_", t["sc"]) if t["sc"] else "seL4_CapNull"
        o.append(f"    wl_thread_new({ti}, {t['prio']}, {sc}, {cname('thread_', t['name'])});")
        if t["domain"]:
            o.append(f"    wl_check(seL4_DomainSet_Set(seL4_CapDomain, {t['domain']}, wl_tcb[{ti}]), \"domain\");")
        if t["timeout_ep"]:
            o.append(f"    wl_check(seL4_TCB_SetTimeoutEndpoint(wl_tcb[{ti}], {cname('E_', t['timeout_ep'])}), \"timeout ep\");")
    o.append("}\n")
    o.append("static void wl_resume_all(void)\n{")
    for ti, t in enumerate(wl["threads"]):
        o.append(f"    wl_check(seL4_TCB_Resume(wl_tcb[{ti}]), \"resume\");")
    o.append("}")
    return "\n".join(o) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tail-us", type=int, default=1000)
    ap.add_argument("--offset-us", type=int, default=0)
    ap.add_argument("--dom-out", help="write the workload's domain schedule (kernel table) here")
    ap.add_argument("wl")
    ap.add_argument("out")
    a = ap.parse_args()
    try:
        wl = parse(a.wl)
        text = generate(a.wl, wl, a.tail_us, a.offset_us)
    except (WlError, OSError, ValueError) as e:
        print(f"wl2app: error: {e}", file=sys.stderr)
        return 2
    if wl.get("domain_schedule") and not a.dom_out:
        print(f"wl2app: error: {a.wl} has a domain_schedule: give --dom-out FILE for the kernel's table",
              file=sys.stderr)
        return 2
    with open(a.out, "w") as f:
        f.write(text)
    if a.dom_out:
        with open(a.dom_out, "w") as f:
            f.write(domain_schedule_c(a.wl, wl) if wl.get("domain_schedule") else "")
    print(f"domains {n_domains(wl)}")
    for n in wl["notes"]:
        print(f"wl2app: note: {n}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
