# SPDX-License-Identifier: BSD-2-Clause
# gdb-multiarch Python script: capture the interrupt path of a running seL4
# kernel (aarch64, MCS, one core, debug build) in QEMU as an irqsim trace
# (version 1, docs/TRACES.md): one JSON line per interrupt entry with the
# kernel state at c_handle_interrupt and at the return to user level.
#
# Run by scripts/capture/capture.sh (QEMU started with -gdb tcp::PORT -S):
#   gdb-multiarch -q -batch -x irqcap.py
# Environment:
#   IRQCAP_ELF     kernel.elf of the build (linked at its virtual addresses)
#   IRQCAP_GEN     the build's generated structures_gen.h (bitfield layouts)
#   IRQCAP_SRC     the kernel source tree (checks the breakpoint sites)
#   IRQCAP_OUT     output JSONL file
#   IRQCAP_HEADER  the version-1 header line (JSON), written first
#   IRQCAP_MAX     stop after this many records (default 2000)
#   IRQCAP_SECS    stop after this many wall seconds (default 120)
#   IRQCAP_PORT    gdbstub port (default 1234)
#   IRQCAP_FILTER  which entries become records: "all" (default), "signal"
#                  (only IRQs in state IRQSignal, i.e. not the kernel's
#                  timer), "timer-every=N" (all IRQSignal entries, and every
#                  N-th other one). Entries left out are not snapshotted.
#   IRQCAP_ENTRY_CLOCK  1 (default): read the virtual counter at each entry
#                  by executing one injected "mrs" at c_handle_interrupt
#                  (QEMU's gdbstub does not expose CNTVCT_EL0); 0: do not.
#   IRQCAP_STOP_ON  a regular expression; stop when the serial log
#                  (IRQCAP_SERIAL) matches it (checked once a second at
#                  exits; a guest that halts has no more exits, so
#                  capture.sh also watches the log, creates IRQCAP_STOPFILE
#                  and interrupts gdb)
#   IRQCAP_INJECT  fault injection (off by default): "KIND@N" with KIND
#                  out_of_range, spurious or both (alternating), every N-th
#                  record. The guest CPU itself writes the GICv2
#                  distributor (one injected "str", single-stepped, at the
#                  exit stop: gdb's own memory writes do not reach MMIO in
#                  QEMU): out_of_range makes INTID 160 (> maxIRQ 159, one of
#                  QEMU virt's 288 lines) enabled and pending; spurious makes
#                  INTID 161 enabled and pending, and at the next entry,
#                  before the kernel reads GICC_IAR, disables it and clears
#                  it, so the IAR returns 1023. Records carry "injected".
# Exit: the last line printed is "IRQCAP done ..." or "IRQCAP error: ...";
# capture.sh turns an error into a non-zero status.
import gdb, json, os, re, struct, subprocess, sys, time

ENV = os.environ
ELF = ENV["IRQCAP_ELF"]
GEN = ENV["IRQCAP_GEN"]
SRC = ENV.get("IRQCAP_SRC", "")
OUT = ENV.get("IRQCAP_OUT", "trace.jsonl")
MAX = int(ENV.get("IRQCAP_MAX", "2000"))
SECS = float(ENV.get("IRQCAP_SECS", "120"))
PORT = ENV.get("IRQCAP_PORT", "1234")
FILTER = ENV.get("IRQCAP_FILTER", "all")
ENTRY_CLOCK = ENV.get("IRQCAP_ENTRY_CLOCK", "1") == "1"
STOP_ON = ENV.get("IRQCAP_STOP_ON", "")
SERIAL = ENV.get("IRQCAP_SERIAL", "")
STOPFILE = ENV.get("IRQCAP_STOPFILE", "")
INJECT = ENV.get("IRQCAP_INJECT", "")
U64 = (1 << 64) - 1


class CaptureError(Exception):
    pass


def fail(msg):
    raise CaptureError(msg)


# ---------------------------------------------------------------- bitfields
# Every generated getter of structures_gen.h: (word, mask, direction, shift,
# sign-extend), so the script follows the build's own layouts.
BF = {}
_getter = re.compile(
    r"\n(\w+?)_(?:ptr_)?get_(\w+)\(\w+_t \*?\w+\) \{\n    uint64_t ret;\n"
    r"(?:    assert\([^;]*;\n\n)?"
    r"    ret = \(\w+(?:->|\.)words\[(\d+)\] & (0x[0-9a-f]+)ull\) (<<|>>) (\d+);\n"
    r"    /\* Possibly sign extend \*/\n"
    r"    if \(__builtin_expect\(!!\((\d) &&", re.S)
_tag = re.compile(r"\n(\w+?)_(?:ptr_)?get_(\w+)\(\w+_t \*?\w+\) \{\n"
                  r"    return \(\w+(?:->|\.)words\[(\d+)\] >> (\d+)\) & (0x[0-9a-f]+)ull;")
try:
    _gen = open(GEN).read()
except OSError as e:
    raise SystemExit("IRQCAP error: cannot read %s: %s" % (GEN, e))
for m in _getter.finditer(_gen):
    blk, fld, w, mask, d, sh, sx = m.groups()
    BF[(blk, fld)] = (int(w), int(mask, 16), d, int(sh), sx == "1")
for m in _tag.finditer(_gen):
    blk, fld, w, sh, mask = m.groups()
    BF.setdefault((blk, fld), (int(w), int(mask, 16) << int(sh), ">>", int(sh), False))


def bf(blk, fld, words):
    w, mask, d, sh, sx = BF[(blk, fld)]
    r = words[w] & mask
    r = (r << sh) if d == "<<" else (r >> sh)
    r &= U64
    if sx and (r & (1 << 47)):
        r |= 0xffff000000000000
    return r


NEEDED_BF = [("thread_state", f) for f in ("tsType", "blockingObject", "replyObject", "tcbQueued",
                                           "tcbInReleaseQueue")] + \
    [("notification", f) for f in ("state", "ntfnQueue_head", "ntfnQueue_tail", "ntfnMsgIdentifier",
                                   "ntfnBoundTCB", "ntfnSchedContext")] + \
    [("endpoint", f) for f in ("state", "epQueue_head", "epQueue_tail")] + \
    [("cap_notification_cap", f) for f in ("capNtfnPtr", "capNtfnBadge", "capNtfnCanSend")] + \
    [("cap_vspace_cap", f) for f in ("capVSMappedASID", "capVSBasePtr", "capVSIsMapped")] + \
    [("asid_map", "type"), ("asid_map_asid_map_vspace", "vspace_root"), ("cap", "capType")]
_missing = [b + "_get_" + f for b, f in NEEDED_BF if (b, f) not in BF]
if _missing:
    raise SystemExit("IRQCAP error: %s has no getter %s (another kernel layout?)" % (GEN, ", ".join(_missing)))

# ---------------------------------------------------------------- memory
inf = None


def rd(addr, n):
    return bytes(inf.read_memory(addr, n))


def u64s(addr, n):
    return list(struct.unpack("<%dQ" % n, rd(addr, 8 * n)))


def val(expr):
    return int(gdb.parse_and_eval(expr)) & U64


def h(x):
    return None if not x else "0x%x" % x


class Layout:
    """Byte offsets of (possibly nested) fields of a C struct, from DWARF."""

    def __init__(self, tname):
        self.t = gdb.lookup_type(tname).strip_typedefs()
        self.size = self.t.sizeof
        self.off = {}
        self._walk(self.t, "", 0)

    def _walk(self, t, pfx, base):
        for f in t.fields():
            if f.name is None or not hasattr(f, "bitpos"):
                continue
            o = base + f.bitpos // 8
            ft = f.type.strip_typedefs()
            self.off[pfx + f.name] = (o, ft.sizeof)
            if ft.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
                self._walk(ft, pfx + f.name + ".", o)

    def get(self, buf, name, n=None, base=0):
        if name not in self.off:
            return None
        o, sz = self.off[name]
        o += base
        if n is not None:  # array of u64 words
            return list(struct.unpack_from("<%dQ" % n, buf, o))
        return int.from_bytes(buf[o:o + min(sz, 8)], "little")


def enum_values(tname, prefix=""):
    try:
        t = gdb.lookup_type(tname)
    except gdb.error:
        return {}
    return {f.name: int(f.enumval) for f in t.strip_typedefs().fields() if f.name.startswith(prefix)}


NTFN = ["Idle", "Waiting", "Active"]
IRQS = {0: "Inactive", 1: "Signal", 2: "Timer", 3: "Reserved"}
# Node globals read in one block (the BSS keeps most of them together).
NODE_U64 = ["ksCurThread", "ksIdleThread", "ksSchedulerAction", "ksCurTime", "ksConsumed", "ksCurSC",
            "ksIdleSC", "ksReleaseHead", "ksDomainTime", "ksCurDomain", "ksDomScheduleIdx"]
NODE_PTRS = ("ksCurThread", "ksIdleThread", "ksCurSC", "ksIdleSC", "ksReleaseHead")


class Snap:
    def __init__(self):
        self.L_tcb = Layout("tcb_t")
        self.L_sc = Layout("sched_context_t")
        self.L_refill = Layout("refill_t")
        self.L_dbg = Layout("debug_tcb_t")
        ts = enum_values("enum _thread_state", "ThreadState_")
        if not ts:
            fail("no enum _thread_state in the kernel's DWARF (not a debug build?)")
        self.TS = {v: k.replace("ThreadState_", "") for k, v in ts.items()}
        caps = enum_values("enum cap_tag", "cap_")
        self.CAP_VSPACE = caps.get("cap_vspace_cap", 9)
        self.CAP_NTFN = caps.get("cap_notification_cap", 6)
        self.tcb_bits = 11  # seL4_TCBBits on aarch64
        self.tcb_off = 1 << (self.tcb_bits - 1)  # TCB_OFFSET
        self.cte_size = gdb.lookup_type("cte_t").sizeof
        try:
            self.dbg_slot = val("(int)tcbCNodeEntries")
        except gdb.error:
            self.dbg_slot = 5
        if self.tcb_off + self.L_tcb.size > (1 << self.tcb_bits):
            fail("tcb_t (%d bytes) does not fit the TCB object" % self.L_tcb.size)
        self.maxirq = val("(int)maxIRQ")
        self.numprio = val("sizeof(ksReadyQueues)/sizeof(ksReadyQueues[0])")
        self.g = {}
        for n in NODE_U64 + ["ksReprogram", "ksReadyQueues", "ksReadyQueuesL1Bitmap", "ksReadyQueuesL2Bitmap",
                             "intStateIRQTable", "intStateIRQNode", "ksKernelEntry", "ksDebugTCBs",
                             "armKSASIDTable", "ksDomSchedule", "ksDomScheduleLength"]:
            try:
                self.g[n] = (val("(unsigned long)&%s" % n), val("sizeof(%s)" % n))
            except gdb.error:
                fail("kernel symbol %s not found (not an MCS debug build of aarch64?)" % n)
        self.irqnode_stride = val("sizeof(intStateIRQNode[0])")
        self.irqtab_stride = val("sizeof(intStateIRQTable[0])")
        self.l2_words = val("sizeof(ksReadyQueuesL2Bitmap)") // 8
        # One read per cluster of globals: sorted by address, merged when close.
        spans = sorted((a, a + s, n) for n, (a, s) in self.g.items()
                       if n not in ("ksDomSchedule", "ksDomScheduleLength", "armKSASIDTable"))
        self.blocks = []
        for a, e, n in spans:
            if self.blocks and a - self.blocks[-1][1] < 1024:
                self.blocks[-1][1] = max(self.blocks[-1][1], e)
                self.blocks[-1][2].append(n)
            else:
                self.blocks.append([a, e, [n]])
        # ASID pools: armKSASIDTable[asid >> asidLowBits]->array[asid & mask]
        self.asid_table_n = self.g["armKSASIDTable"][1] // 8
        pool = gdb.lookup_type("asid_pool_t").strip_typedefs()
        arr = [f for f in pool.fields() if f.name == "array"][0]
        self.asid_low_bits = (arr.type.range()[1] + 1).bit_length() - 1
        self.asid_map_words = arr.type.target().sizeof // 8
        self.asid_pool_off = arr.bitpos // 8
        # GICv2 distributor (kernel VA): ISENABLER, ISPENDR, ISACTIVER
        self.gicd = val("(unsigned long)gic_dist")
        self.gic_words = (self.maxirq + 32) // 32
        # The domain schedule is constant: read once.
        n = u64s(self.g["ksDomScheduleLength"][0], 1)[0]
        dl = Layout("dschedule_t")
        b = rd(self.g["ksDomSchedule"][0], dl.size * n) if n else b""
        self.dom_schedule = [[dl.get(b, "domain", base=i * dl.size), dl.get(b, "length", base=i * dl.size)]
                             for i in range(n)]

    def read_globals(self):
        mem = {}
        for a, e, names in self.blocks:
            b = rd(a, e - a)
            for n in names:
                ga, gs = self.g[n]
                mem[n] = b[ga - a:ga - a + gs]
        return mem

    def asid_check(self, asid, base):
        """findMapForASID(asid) as the fastpath uses it: a vspace map whose root is base."""
        hi = asid >> self.asid_low_bits
        if hi >= self.asid_table_n:
            return False, None
        pool = u64s(self.g["armKSASIDTable"][0] + 8 * hi, 1)[0]
        if not pool:
            return False, None
        w = u64s(pool + self.asid_pool_off + 8 * self.asid_map_words * (asid & ((1 << self.asid_low_bits) - 1)),
                 self.asid_map_words)
        if bf("asid_map", "type", w) != 1:  # asid_map_asid_map_vspace
            return False, h(pool)
        return bf("asid_map_asid_map_vspace", "vspace_root", w) == base, h(pool)

    def tcb(self, a):
        L = self.L_tcb
        # CNode slots and tcb_t in one read. TCB_PTR_CTE_PTR masks the TCB
        # pointer; the idle thread's TCB (kernel data) is not at TCB_OFFSET
        # of a 2^seL4_TCBBits-aligned object, and its slots are meaningless.
        base = a & ~((1 << self.tcb_bits) - 1)
        o = a - base
        obj = rd(base, o + L.size)
        if o < 5 * self.cte_size:
            obj = bytes(5 * self.cte_size - o) + obj
            o = 5 * self.cte_size
        ts = L.get(obj, "tcbState.words", 3, base=o)
        per = self.cte_size
        vt = list(struct.unpack_from("<2Q", obj, 1 * per))  # tcbVTable
        to_w0 = struct.unpack_from("<Q", obj, 4 * per)[0]  # tcbTimeoutHandler (MCS)
        dbg = self.dbg_slot * per + self.L_dbg.off["tcbName"][0]
        nm = obj[dbg:dbg + 32].split(b"\0")[0].decode("ascii", "replace") if dbg + 32 <= o else ""
        vtype = vt[0] >> 59
        d = {
            "addr": h(a), "name": nm,
            "state": self.TS.get(bf("thread_state", "tsType", ts), "?"),
            "blocking": h(bf("thread_state", "blockingObject", ts)),
            "reply": h(bf("thread_state", "replyObject", ts)),
            "queued": bf("thread_state", "tcbQueued", ts),
            "in_release": bf("thread_state", "tcbInReleaseQueue", ts),
            "prio": L.get(obj, "tcbPriority", base=o), "mcp": L.get(obj, "tcbMCP", base=o),
            "dom": L.get(obj, "tcbDomain", base=o),
            "sc": h(L.get(obj, "tcbSchedContext", base=o)), "yield_to": h(L.get(obj, "tcbYieldTo", base=o)),
            "bound": h(L.get(obj, "tcbBoundNotification", base=o)),
            "sched_next": h(L.get(obj, "tcbSchedNext", base=o)), "sched_prev": h(L.get(obj, "tcbSchedPrev", base=o)),
            "ep_next": h(L.get(obj, "tcbEPNext", base=o)), "ep_prev": h(L.get(obj, "tcbEPPrev", base=o)),
            "fault": L.get(obj, "tcbFault.words", 2, base=o)[0] & 0xf,
            "badge_x0": struct.unpack_from("<Q", obj, o + L.off["tcbArch.tcbContext.registers"][0])[0],
            "vtable_captype": vtype,
            "timeout_captype": to_w0 >> 59,
        }
        # isValidVTableRoot_fp and findMapForASID, as fastpath_irq checks them
        if vtype == self.CAP_VSPACE:
            mapped = bf("cap_vspace_cap", "capVSIsMapped", vt)
            asid = bf("cap_vspace_cap", "capVSMappedASID", vt)
            root = bf("cap_vspace_cap", "capVSBasePtr", vt)
            ok, pool = self.asid_check(asid, root) if mapped else (False, None)
            d.update(vtable_mapped=mapped, asid=asid, asid_pool=pool, asid_ok=int(ok))
        else:
            d.update(vtable_mapped=0, asid=None, asid_pool=None, asid_ok=0)
        return d

    def sc(self, a):
        L = self.L_sc
        rs = self.L_refill.size
        b = rd(a, L.size + 8 * rs)
        head, tail, mx = L.get(b, "scRefillHead"), L.get(b, "scRefillTail"), L.get(b, "scRefillMax")
        if mx > 8:
            b = rd(a, L.size + mx * rs)
        refills = [list(struct.unpack_from("<QQ", b, L.size + i * rs)) for i in range(mx)]
        d = {"addr": h(a), "refill_max": mx, "head": head, "tail": tail, "refills": refills}
        for k in ["scPeriod", "scConsumed", "scCore", "scTcb", "scReply", "scNotification",
                  "scBadge", "scSporadic", "scYieldFrom"]:
            if k in L.off:
                v = L.get(b, k)
                d[k] = h(v) if k in ("scTcb", "scReply", "scNotification", "scYieldFrom") else v
        return d

    def ntfn(self, a):
        w = u64s(a, 6)
        return {"addr": h(a), "state": NTFN[bf("notification", "state", w)],
                "head": h(bf("notification", "ntfnQueue_head", w)),
                "tail": h(bf("notification", "ntfnQueue_tail", w)),
                "msg": bf("notification", "ntfnMsgIdentifier", w),
                "bound": h(bf("notification", "ntfnBoundTCB", w)),
                "sc": h(bf("notification", "ntfnSchedContext", w))}

    def ep(self, a):
        w = u64s(a, 2)
        return {"addr": h(a), "state": ["Idle", "Send", "Recv", "?"][bf("endpoint", "state", w)],
                "head": h(bf("endpoint", "epQueue_head", w)),
                "tail": h(bf("endpoint", "epQueue_tail", w))}

    def reply(self, a):
        return {"addr": h(a), "tcb": h(u64s(a, 1)[0])}

    def take(self, seed=None):
        t0 = time.time()
        mem = self.read_globals()
        node = {n: struct.unpack_from("<Q", mem[n])[0] for n in NODE_U64}
        node["ksReprogram"] = mem["ksReprogram"][0]
        rq = struct.unpack("<%dQ" % (2 * self.numprio), mem["ksReadyQueues"][:16 * self.numprio])
        ready = {p: [rq[2 * p], rq[2 * p + 1]] for p in range(self.numprio) if rq[2 * p]}
        l1 = struct.unpack_from("<Q", mem["ksReadyQueuesL1Bitmap"])[0]
        l2 = list(struct.unpack_from("<%dQ" % self.l2_words, mem["ksReadyQueuesL2Bitmap"]))
        irqs = {}
        tab, capb = mem["intStateIRQTable"], mem["intStateIRQNode"]
        for i in range(self.maxirq + 1):
            st = int.from_bytes(tab[i * self.irqtab_stride:(i + 1) * self.irqtab_stride], "little")
            if not st:
                continue
            w0, w1 = struct.unpack_from("<2Q", capb, i * self.irqnode_stride)
            e = {"state": IRQS.get(st, st), "captype": w0 >> 59}
            if (w0 >> 59) == self.CAP_NTFN:
                e.update(ntfn=h(bf("cap_notification_cap", "capNtfnPtr", [w0, w1])),
                         badge=bf("cap_notification_cap", "capNtfnBadge", [w0, w1]),
                         send=bf("cap_notification_cap", "capNtfnCanSend", [w0, w1]))
            irqs[i] = e
        gw = self.gic_words
        try:  # side-effect-free distributor reads (never GICC_IAR)
            gic = rd(self.gicd + 0x100, 0x204 + 4 * gw)
            isen = list(struct.unpack_from("<%dI" % gw, gic, 0))
            ispend = list(struct.unpack_from("<%dI" % gw, gic, 0x100))
            isact = list(struct.unpack_from("<%dI" % gw, gic, 0x200))
        except gdb.MemoryError:
            isen = ispend = isact = None
        tcbs, scs, ntfns, eps, replies = {}, {}, {}, {}, {}
        todo_t = [node["ksCurThread"], node["ksIdleThread"], node["ksReleaseHead"]]
        if node["ksSchedulerAction"] > 1:
            todo_t.append(node["ksSchedulerAction"])
        todo_t += [hd for hd, _ in ready.values()]
        # every TCB through the debug list
        t = struct.unpack_from("<Q", mem["ksDebugTCBs"])[0]
        o_dn = self.L_dbg.off["tcbDebugNext"][0]
        n = 0
        while t and n < 1024:
            todo_t.append(t)
            base = t & ~((1 << self.tcb_bits) - 1)
            t = u64s(base + self.dbg_slot * self.cte_size + o_dn, 1)[0]
            n += 1
        todo_s = [node["ksCurSC"], node["ksIdleSC"]]
        todo_n = [int(e["ntfn"], 16) for e in irqs.values() if e.get("ntfn")]
        if seed:  # re-read every object of the entry, so that the exit compares object by object
            todo_t += [int(x["addr"], 16) for x in seed["tcbs"]]
            todo_s += [int(x["addr"], 16) for x in seed["scs"]]
            todo_n += [int(x["addr"], 16) for x in seed["ntfns"]]
        errors = []

        def safe(fn, a):
            try:
                return fn(a)
            except gdb.MemoryError as e:
                errors.append("%s(0x%x): %s" % (fn.__name__, a, e))
                return None

        BLOCKED_IPC = ("BlockedOnReceive", "BlockedOnSend", "BlockedOnReply")
        while todo_t or todo_s or todo_n:
            while todo_t:
                a = todo_t.pop()
                if not a or a in tcbs:
                    continue
                t = tcbs[a] = safe(self.tcb, a)
                if t is None:
                    continue
                # follow links only where they are valid
                if (t["queued"] or t["in_release"]) and t["sched_next"]:
                    todo_t.append(int(t["sched_next"], 16))
                if t["state"] in ("BlockedOnReceive", "BlockedOnSend", "BlockedOnNotification") and t["ep_next"]:
                    todo_t.append(int(t["ep_next"], 16))
                if t["sc"]:
                    todo_s.append(int(t["sc"], 16))
                if t["bound"]:
                    todo_n.append(int(t["bound"], 16))
                if t["state"] == "BlockedOnNotification" and t["blocking"]:
                    todo_n.append(int(t["blocking"], 16))
                elif t["state"] in ("BlockedOnReceive", "BlockedOnSend") and t["blocking"] \
                        and t["blocking"] not in eps:
                    e_ = eps[t["blocking"]] = safe(self.ep, int(t["blocking"], 16))
                    if e_ and e_["state"] != "Idle" and e_["head"]:
                        todo_t.append(int(e_["head"], 16))
                if t["state"] in BLOCKED_IPC and t["reply"] and t["reply"] not in replies:
                    replies[t["reply"]] = safe(self.reply, int(t["reply"], 16))
            while todo_s:
                a = todo_s.pop()
                if not a or a in scs:
                    continue
                s_ = scs[a] = safe(self.sc, a)
                if s_ and s_.get("scTcb"):
                    todo_t.append(int(s_["scTcb"], 16))
            while todo_n:
                a = todo_n.pop()
                if not a or a in ntfns:
                    continue
                n_ = ntfns[a] = safe(self.ntfn, a)
                if n_ is None:
                    continue
                if n_["state"] == "Waiting" and n_["head"]:
                    todo_t.append(int(n_["head"], 16))
                if n_["bound"]:
                    todo_t.append(int(n_["bound"], 16))
                if n_["sc"]:
                    todo_s.append(int(n_["sc"], 16))
        if seed:
            for x in seed.get("eps", []):
                if x["addr"] not in eps:
                    eps[x["addr"]] = safe(self.ep, int(x["addr"], 16))
            for x in seed.get("replies", []):
                if x["addr"] not in replies:
                    replies[x["addr"]] = safe(self.reply, int(x["addr"], 16))
        hw = {}
        for r in ("CNTV_CVAL_EL0", "CNTV_CTL_EL0"):
            try:
                hw[r] = val("$" + r)
            except gdb.error:
                fail("gdb cannot read $%s (QEMU too old?): the timer deadline is needed" % r)
        hw["gicd_isenabler"] = isen
        hw["gicd_ispendr"] = ispend
        hw["gicd_isactiver"] = isact
        node = {k: (h(v) if k in NODE_PTRS else v) for k, v in node.items()}
        if node["ksSchedulerAction"] > 1:
            node["ksSchedulerAction"] = h(node["ksSchedulerAction"])
        node["dom_schedule"] = self.dom_schedule
        return {"node": node, "ready": {str(p): [h(a), h(b)] for p, (a, b) in ready.items()},
                "l1": l1, "l2": l2, "irqs": {str(k): v for k, v in irqs.items()},
                "tcbs": [v for v in tcbs.values() if v], "scs": [v for v in scs.values() if v],
                "ntfns": [v for v in ntfns.values() if v],
                "eps": [v for v in eps.values() if v], "replies": [v for v in replies.values() if v],
                "hw": hw, "errors": errors, "snap_ms": round((time.time() - t0) * 1000, 2)}


# ---------------------------------------------------------------- sites
def sym_addr(s):
    try:
        return val("(unsigned long)&" + s)
    except gdb.error:
        fail("kernel symbol %s not found in %s" % (s, ELF))


def find_sites():
    """Breakpoint sites from the disassembly, each checked against the
    kernel source: exits are the calls of restore_user_context in
    c_handle_interrupt (the inlined fastpath_irq) and slowpath_irq; clock
    sites follow each "mrs xN, cntvct_el0" there and in handleInterruptEntry."""
    fns = ("c_handle_interrupt", "slowpath_irq", "handleInterruptEntry")
    starts = {f: sym_addr(f) for f in fns}
    exits, clk = {}, {}
    p = subprocess.run(["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn", ELF],
                       capture_output=True, text=True)
    if p.returncode:
        fail("aarch64-linux-gnu-objdump failed on %s: %s" % (ELF, p.stderr.strip()))
    fn = None
    for line in p.stdout.splitlines():
        m = re.match(r"^([0-9a-f]+) <(\w+)>:$", line)
        if m:
            fn = m.group(2)
            continue
        if fn not in fns:
            continue
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s+(.*)$", line)
        if not m:
            continue
        a, op, args = int(m.group(1), 16), m.group(2), m.group(3)
        if fn != "handleInterruptEntry" and op in ("b", "bl") and "<restore_user_context>" in args:
            exits[a] = "%s+0x%x" % (fn, a - starts[fn])
        if op == "mrs" and args.replace(" ", "").endswith(",cntvct_el0"):
            clk[a + 4] = (args.split(",")[0].strip(), fn, a)
    # Every exit site must be one of the source's restore_user_context()
    # calls in fastpath_irq or slowpath_irq (the compiler may merge calls).
    report = {"exits": {}, "clock": {}}
    for a, name in sorted(exits.items()):
        sal = gdb.find_pc_line(a)
        f = sal.symtab.filename if sal.symtab else "?"
        where = "%s:%d" % (f, sal.line)
        report["exits"][name] = where
        if SRC:
            try:
                text = open(os.path.join(SRC, f) if not os.path.isabs(f) else f).read().splitlines()
            except OSError:
                fail("exit site %s: cannot read its source %s" % (name, f))
            if not (0 < sal.line <= len(text)) or "restore_user_context" not in text[sal.line - 1]:
                fail("exit site %s maps to %s, which is not a restore_user_context() call" % (name, where))
    for a, (reg, fn, ia) in sorted(clk.items()):
        sal = gdb.find_pc_line(ia)
        report["clock"]["%s+0x%x" % (fn, ia - starts[fn])] = "%s:%d %s" % (
            sal.symtab.filename if sal.symtab else "?", sal.line, reg)
    need = [("c_handle_interrupt", "an exit (fastpath_irq's restore_user_context)", exits),
            ("slowpath_irq", "an exit", exits)]
    for fn, what, d in need:
        if not any(v.startswith(fn + "+") for v in d.values()):
            fail("no %s found in %s: is this a CONFIG_IRQ_FASTPATH kernel?" % (what, fn))
    for fn in ("c_handle_interrupt", "handleInterruptEntry"):
        if not any(v[1] == fn for v in clk.values()):
            fail("no clock read (mrs cntvct_el0) found in %s" % fn)
    return starts, exits, clk, report


# ---------------------------------------------------------------- driver
def main():
    global inf
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("file " + ELF)
    starts, EXITS, CLK, report = find_sites()
    gdb.execute("target remote :" + PORT)
    inf = gdb.selected_inferior()
    A_ENTRY, A_SLOW = starts["c_handle_interrupt"], starts["slowpath_irq"]
    entry_bp = gdb.Breakpoint("*0x%x" % A_ENTRY, internal=True)
    BPS[A_ENTRY] = entry_bp
    for a in [A_SLOW] + list(EXITS) + list(CLK):
        BPS[a] = gdb.Breakpoint("*0x%x" % a, internal=True)
    print("IRQCAP sites " + json.dumps(report))
    sys.stdout.flush()
    every = 0
    if FILTER.startswith("timer-every="):
        every = int(FILTER.split("=", 1)[1])
    elif FILTER not in ("all", "signal"):
        fail("IRQCAP_FILTER: expected all, signal or timer-every=N, got %r" % FILTER)
    snap = None
    cur = None
    count = entries = skipped = missed = nslow = mispredicted = 0
    nonsignal = 0
    start = None
    deltas = []
    t_stop = 0.0
    out = open(OUT, "w")
    if ENV.get("IRQCAP_HEADER"):
        out.write(ENV["IRQCAP_HEADER"].strip() + "\n")
    mrs_word = None
    stop_re = re.compile(STOP_ON) if STOP_ON else None
    last_serial = 0.0
    reason = "max"
    inj_kind, inj_every = parse_inject(INJECT)
    inj_next = None        # what the next entry was injected as
    inj_last = 0           # the record count at the last injection
    spurious_armed = False  # INTID 161 to be withdrawn at the next entry
    injected = {"out_of_range": 0, "spurious": 0}
    try:
        while True:
            try:
                gdb.execute("continue", to_string=True)
            except (KeyboardInterrupt, gdb.error):
                if STOPFILE and os.path.exists(STOPFILE):
                    reason = "serial"
                    break
                raise
            pc = val("$pc")
            if snap is None:
                snap = Snap()
                start = time.time()
                if snap.dom_schedule:
                    report["dom_schedule"] = snap.dom_schedule
            if pc == A_ENTRY:
                if cur is not None:
                    missed += 1  # an entry whose return to user level no exit site saw
                entries += 1
                counter = None
                if ENTRY_CLOCK:
                    counter = read_counter_at(pc, entry_bp)
                if spurious_armed:
                    # before getActiveIRQ reads GICC_IAR: the IRQ goes away
                    gic_write(snap, 0x180 + 4 * (INJ_SPURIOUS // 32), 1 << (INJ_SPURIOUS % 32))
                    gic_write(snap, 0x280 + 4 * (INJ_SPURIOUS // 32), 1 << (INJ_SPURIOUS % 32))
                    spurious_armed = False
                take = True
                is_sig = None
                if FILTER != "all":
                    # IRQSignal or not, from the pending, enabled IRQs (the GIC is not acked yet)
                    irq = pending_irq(snap)
                    is_sig = irq is not None and irq <= snap.maxirq and \
                        intstate(snap, irq) == 1
                    if not is_sig:
                        nonsignal += 1
                        take = FILTER != "signal" and every and nonsignal % every == 0
                cur = {"seq": entries - 1, "slowpath": False, "clock_reads": [],
                       "entry_counter": counter, "take": take, "predicted_signal": is_sig}
                if inj_next:
                    cur["injected"] = inj_next
                    inj_next = None
                if take:
                    cur["entry"] = snap.take()
            elif pc in CLK:
                if cur is not None:
                    cur["clock_reads"].append([h(pc), val("$" + CLK[pc][0])])
            elif pc == A_SLOW:
                if cur is not None:
                    cur["slowpath"] = True
            elif pc in EXITS:
                if cur is not None:
                    irq = val("ksKernelEntry.word")
                    if FILTER != "all" and irq <= snap.maxirq and \
                            (intstate(snap, irq) == 1) != cur["predicted_signal"]:
                        mispredicted += 1
                    cur.pop("predicted_signal")
                    if cur.pop("take"):
                        cur["exit"] = snap.take(seed=cur["entry"])
                        cur["irq"] = irq
                        cur["exit_site"] = EXITS[pc]
                        cur["wall"] = round(time.time() - start, 4)
                        if cur["clock_reads"] and cur["entry_counter"] is not None:
                            deltas.append(cur["clock_reads"][0][1] - cur["entry_counter"])
                        out.write(json.dumps(cur, separators=(",", ":")) + "\n")
                        count += 1
                        nslow += cur["slowpath"]
                    else:
                        skipped += 1
                    cur = None
                    if inj_kind and count % inj_every == 0 and count != inj_last and not inj_next:
                        inj_last = count
                        k = inj_kind
                        if k == "both":
                            k = "spurious" if (count // inj_every) % 2 else "out_of_range"
                        n = INJ_SPURIOUS if k == "spurious" else INJ_RANGE
                        gic_write(snap, 0x100 + 4 * (n // 32), 1 << (n % 32))  # ISENABLER
                        gic_write(snap, 0x200 + 4 * (n // 32), 1 << (n % 32))  # ISPENDR
                        spurious_armed = k == "spurious"
                        inj_next = k
                        injected[k] += 1
                if count >= MAX:
                    break
                if time.time() - start > SECS:
                    reason = "time"
                    break
                if stop_re and SERIAL and time.time() - last_serial > 1:
                    last_serial = time.time()
                    try:
                        if stop_re.search(open(SERIAL, errors="replace").read()):
                            reason = "serial"
                            break
                    except OSError:
                        pass
            elif STOPFILE and os.path.exists(STOPFILE):
                reason = "serial"  # capture.sh saw the end on the serial line and interrupted us
                break
            else:
                fail("unexpected stop at 0x%x" % pc)
    except gdb.error as e:
        reason = "gdb: %s" % e
    finally:
        out.close()
        el = time.time() - start if start else 0
        deltas.sort()
        summary = {"records": count, "entries": entries, "skipped_by_filter": skipped,
                   "missed_exits": missed, "filter_mispredicted": mispredicted, "kernel_slowpath": nslow, "seconds": round(el, 2),
                   "records_per_s": round(count / el, 2) if el else 0,
                   "entries_per_s": round(entries / el, 2) if el else 0, "stopped": reason,
                   "injected": injected,
                   "clock_minus_entry_counter": [deltas[0], deltas[len(deltas) // 2], deltas[-1]] if deltas else None}
        print("IRQCAP summary " + json.dumps(summary))
        try:
            gdb.execute("kill")
        except gdb.error:
            pass
    if missed:
        fail("%d interrupt entries returned to user level through no known exit site" % missed)


def read_counter_at(pc, bp):
    """The virtual counter at this instruction: execute one injected
    "mrs x0, cntvct_el0" in its place, put back the instruction, x0 and the
    pc, then step the original instruction with the breakpoint disabled (a
    second "continue" from here would let host time into the guest clock:
    under -icount QEMU warps the virtual clock on each resume, up to the next
    timer deadline; single steps do not). Each step costs one instruction,
    one tick of the counter at shift=4."""
    orig = rd(pc, 4)
    x0 = val("$x0")
    inf.write_memory(pc, struct.pack("<I", 0xd53be040))  # mrs x0, cntvct_el0
    try:
        gdb.execute("stepi", to_string=True)
        c = val("$x0")
    finally:
        inf.write_memory(pc, orig)
        gdb.execute("set $pc = 0x%x" % pc, to_string=True)
        gdb.execute("set $x0 = 0x%x" % x0, to_string=True)
    bp.enabled = False
    try:
        gdb.execute("stepi", to_string=True)
    finally:
        bp.enabled = True
    return c


INJ_RANGE, INJ_SPURIOUS = 160, 161


def parse_inject(spec):
    if not spec:
        return None, 0
    m = re.match(r"^(out_of_range|spurious|both)@([1-9][0-9]*)$", spec)
    if not m:
        fail("IRQCAP_INJECT: expected out_of_range@N, spurious@N or both@N, got %r" % spec)
    return m.group(1), int(m.group(2))


BPS = {}  # our breakpoints by address


def gic_write(snap, off, value):
    """Write a 32-bit GICv2 distributor register through the guest CPU: one
    injected "str w1, [x0]" at the pc (kernel mode, the kernel's mapping of
    the distributor), single-stepped, then the instruction, x0, x1 and the
    pc put back. Our breakpoint at the pc, if any, is disabled for the step."""
    pc = val("$pc")
    orig = rd(pc, 4)
    x0, x1 = val("$x0"), val("$x1")
    inf.write_memory(pc, struct.pack("<I", 0xb9000001))  # str w1, [x0]
    gdb.execute("set $x0 = 0x%x" % (snap.gicd + off), to_string=True)
    gdb.execute("set $x1 = 0x%x" % value, to_string=True)
    bps = [BPS[pc]] if pc in BPS and BPS[pc].enabled else []
    for b in bps:
        b.enabled = False
    try:
        gdb.execute("stepi", to_string=True)
    finally:
        for b in bps:
            b.enabled = True
        inf.write_memory(pc, orig)
        gdb.execute("set $pc = 0x%x" % pc, to_string=True)
        gdb.execute("set $x0 = 0x%x" % x0, to_string=True)
        gdb.execute("set $x1 = 0x%x" % x1, to_string=True)


def intstate(snap, irq):
    a = snap.g["intStateIRQTable"][0] + irq * snap.irqtab_stride
    return int.from_bytes(rd(a, snap.irqtab_stride), "little")


def pending_irq(snap):
    """The lowest pending and enabled IRQ (the distributor's view)."""
    gw = snap.gic_words
    try:
        b = rd(snap.gicd + 0x100, 0x104 + 4 * gw)
    except gdb.MemoryError:
        return None
    en = struct.unpack_from("<%dI" % gw, b, 0)
    pe = struct.unpack_from("<%dI" % gw, b, 0x100)
    for i in range(gw):
        x = en[i] & pe[i]
        if x:
            return 32 * i + ((x & -x).bit_length() - 1)
    return None


try:
    main()
    print("IRQCAP done")
except CaptureError as e:
    print("IRQCAP error: %s" % e)
except KeyboardInterrupt:
    print("IRQCAP error: interrupted")
