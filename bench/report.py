#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn the guest's benchmark log into bench/RESULTS.md and the plots.

Called by bench/run.sh. Only the part between the markers of RESULTS.md is
written; what others keep in that file (before or after it) stays. The plots
are drawn by gnuplot, one per family of measurements.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

BEGIN = "<!-- BEGIN bench/run.sh: generated, do not edit by hand -->"
END = "<!-- END bench/run.sh -->"
TEXT_GOAL = 128 * 1024
COLD_GOAL = 0.25
VERB_GOAL = 1.05

WAY_LABEL = {
    "floor": "bare floor (no library)",
    "floor_write": "bare floor, write()",
    "ioctl": "libuverbs-ioctl, ioctl path",
    "write": "libuverbs-ioctl, write() path",
    "ibvcmd": "libibverbs ibv_cmd_* (command layer)",
    "ibv": "libibverbs public verbs",
    "exec": "exec of an empty program",
    "uvio": "libuverbs-ioctl",
}


def parse_log(path):
    """The guest's console, in sections per device and measurement."""
    d = {"devices": [], "guest": {}}
    sec = None
    dev = None
    for raw in open(path, errors="replace"):
        line = raw.rstrip("\n")
        m = re.search(r"guest: kernel (\S+)", line)
        if m:
            d["guest"]["kernel"] = m.group(1)
            continue
        m = re.search(r"guest: (\d+) vCPUs, (\d+) kB", line)
        if m:
            d["guest"]["cpus"], d["guest"]["mem_kb"] = m.group(1), int(m.group(2))
            continue
        m = re.search(r"guest: libibverbs providers installed: (\d+)", line)
        if m:
            d["guest"]["providers"] = m.group(1)
            continue
        m = re.match(r"BENCH-(DEVICE|VERBS|QP|COLD|INSN) (\S+)(?: (\S+))?", line)
        if m:
            kind, dev = m.group(1).lower(), m.group(2)
            if dev not in d:
                d[dev] = {"cq": {}, "cq_rounds": [], "verbs": [], "verb_cmd": {},
                          "verb_floor_sig": {}, "verb_sys": {}, "verb_skip": [],
                          "probe": [], "not_run": [], "qp": {}, "qp_rounds": [],
                          "qp_skip": None, "cold": {}, "cold_rounds": {}, "insn": {},
                          "insnobj": {}, "insnfn": {}, "insn_skip": []}
                d["devices"].append(dev)
            sec = (kind if kind != "device" else "cq", m.group(3))
            continue
        if line == "BENCH-END":
            sec = None
            continue
        if not sec or dev not in d:
            continue
        dd = d[dev]
        kind, mode = sec
        if line.startswith("round "):
            if kind == "cq":
                dd["cq_rounds"].append(line)
            elif kind == "qp":
                dd["qp_rounds"].append(line)
            elif kind == "cold":
                dd["cold_rounds"].setdefault(mode, []).append(line)
            continue
        if line.startswith("INSN "):
            m = re.match(r"INSN (.*) = (\d+)$", line)
            if m:
                dd["insn"][m.group(1)] = int(m.group(2))
            continue
        if line.startswith("INSNOBJ "):
            label, obj, n = line[8:].rsplit("|", 2)
            dd["insnobj"].setdefault(label, {})[obj] = int(n)
            continue
        if line.startswith("INSNFN "):
            label, obj, fn, n = line[7:].rsplit("|", 3)
            dd["insnfn"].setdefault(label, []).append((obj, fn, int(n)))
            continue
        if not line.startswith("RESULT "):
            continue
        f = line.split()
        key = f[1]
        if kind == "cq" and len(f) == 3:
            dd["cq"][key] = f[2]
        elif key == "verb":
            dd["verbs"].append({"name": f[2], "path": f[3], "lib": float(f[4]),
                                "floor": float(f[5]), "ratio": float(f[6]),
                                "q1": float(f[7]), "q3": float(f[8])})
        elif key == "verb_cmd":
            dd["verb_cmd"][(f[2], f[3])] = (f[4], " ".join(f[5:]))
        elif key == "verb_cmd_floor":
            dd["verb_floor_sig"][(f[2], f[3])] = " ".join(f[4:])
        elif key == "verb_syscalls":
            dd["verb_sys"][(f[2], f[3])] = (int(f[4]), int(f[5]))
        elif key == "verb_skip":
            dd["verb_skip"].append((f[2], f[3], " ".join(f[4:])))
        elif key == "verb_probe":
            dd["probe"].append((f[2], f[3], f[4]))
        elif key == "verb_not_run":
            dd["not_run"].append(" ".join(f[2:]))
        elif key == "qp_skip":
            dd["qp_skip"] = " ".join(f[2:])
        elif kind == "qp":
            dd["qp"][key] = float(f[2])
        elif kind == "cold":
            dd["cold"][key] = float(f[2])
        elif key == "insn_skip":
            dd["insn_skip"].append(" ".join(f[2:]))
    return d


def insn_per(dd, label_prefix):
    """Instructions per run of the region whose label starts so."""
    for label, total in dd["insn"].items():
        if label.startswith(label_prefix + " /"):
            rep = int(label.rsplit("/", 1)[1])
            return total / rep, label
    return None, None


def fmt(v, nd=0):
    if v is None:
        return "n/a"
    return f"{v:,.{nd}f}".replace(",", " ")


def ok(v, lim):
    if v is None:
        return "not measured"
    return "met" if v <= lim else "NOT met"


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def size_info(size_txt, objects_txt):
    text = total_code = None
    for line in open(size_txt):
        f = line.split()
        if len(f) >= 2 and f[0] == ".text":
            text = int(f[1])
    per = {}
    member = None
    for line in open(objects_txt):
        m = re.match(r"(\S+)\s+\(ex .*\):", line)
        if m:
            member = m.group(1)
            continue
        f = line.split()
        if member and len(f) >= 2 and f[0] == ".text":
            per[member] = per.get(member, 0) + int(f[1])
    return text, per


def main():
    ap = argparse.ArgumentParser()
    for a in ("log", "host", "size", "size-objects", "insns", "so", "args", "load-start",
              "load-before",
              "load-after", "cpu", "cores", "host-kernel", "qemu", "clean", "results",
              "plots"):
        ap.add_argument("--" + a, required=True)
    o = ap.parse_args()
    d = parse_log(o.log)
    devs = d["devices"]
    g = d["guest"]
    text, per_obj = size_info(o.size, o.size_objects)
    insns = int(o.insns)
    # Quiet: nothing else running when we started, and at the end no more
    # than our own VM (2 vCPUs) adds.
    quiet = float(o.load_start.split()[0]) < 1.5 and float(o.load_after.split()[0]) < 3.5
    out = []
    ratios = []

    def w(s=""):
        out.append(s)

    def details(rounds):
        """The rounds behind a median, folded away."""
        if rounds:
            out.extend(["<details><summary>rounds</summary>", "", "```"] + rounds +
                       ["```", "</details>", ""])

    def ratio(text_, v):
        if v is not None:
            ratios.append(f"ratio {text_} : {v:.3f}")

    w(BEGIN)
    w("# Benchmark results")
    w()
    w(f"Written by `bench/run.sh` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}."
      " Rerun everything from a clean build with `bench/run.sh --clean` (downloaded"
      " kernels and packages stay in the VM cache, `~/.cache/uvio`).")
    w()
    w(f"- Host: {o.cpu}, {o.cores} cores, Linux {o.host_kernel}; {o.qemu}, TCG (no KVM).")
    w(f"- Guest: Debian kernel {g.get('kernel', '?')}, {g.get('cpus', '?')} vCPUs, "
      f"{g.get('mem_kb', 0) // 1024} MiB; rxe and siw on a dummy netdev; libibverbs 44"
      f" (Debian's) with all {g.get('providers', '?')} providers of ibverbs-providers"
      " installed, as on a Debian system.")
    w(f"- Load average (1, 5, 15 min) at the start: {o.load_start}; after building, before"
      f" the VM run: {o.load_before}; after it (its own 2 vCPUs included): {o.load_after}. " + ("The machine was quiet." if quiet else
                             "**Taken under load: the wall-time numbers are contaminated by "
                             "other work on the machine; instruction counts are not.**"))
    w(f"- Sizes (`UVIO_BENCH_ARGS`): {o.args} = CQ rounds, CQ pairs, verb rounds, verb batch,"
      " QP rounds, QP batch, cold-start rounds, callgrind repeats.")
    w("- Commands: `bench/run.sh [--clean] [BUILD_DIR]` runs `bench/build-cost.sh` on the host"
      " and `tests/vm/run.sh BUILD linux-image-amd64 siw bench` (which runs"
      " `bench/guest-bench.sh` in the guest: `vm_bench`, `uverbs_bench verbs|qp`,"
      " `cold_run`, and `uverbs_insn insn` and the cold-start programs under"
      " `valgrind --tool=callgrind`), then `bench/report.py`. The guest's whole log is left"
      " in `BUILD/bench/vm-bench.log`.")
    w()
    w("Everything in the VM runs under TCG: a verb costs 4 to 150 microseconds, and"
      " code run for the first time is translated first, so cold starts weigh the amount of"
      " code a program touches far more than real hardware does. Instruction counts come"
      " from callgrind in the guest, with the real kernel answering; they count user space"
      " only and do not depend on the load.")
    w()

    # ---------------- goals ----------------
    goals = []
    cold_ratio = {dev: d[dev]["cold"].get("ratio_cold_cq_uvio_to_ibv") for dev in devs}
    verbs_all = [(dev, v) for dev in devs for v in d[dev]["verbs"]]
    verbs_miss = [(dev, v) for dev, v in verbs_all if v["ratio"] > VERB_GOAL]
    rxe = next((x for x in devs if x.startswith("rxe")), devs[0] if devs else None)
    ins = {}
    for dev in devs:
        for seq in ("CQ.CREATE+DESTROY", "QP.BRINGUP"):
            for way in ("lib ioctl", "lib write", "floor ioctl", "floor write", "ibvcmd -",
                        "ibv -"):
                ins[(dev, seq, way)] = insn_per(d[dev], f"seq {seq} {way}")[0]

    w("## Goals (issues 16 and 22)")
    w()
    w("| goal | measured | result |")
    w("|---|---|---|")
    for dev in devs:
        r = cold_ratio[dev]
        miss = f" (by {r / COLD_GOAL:.1f}x)" if r is not None and r > COLD_GOAL else ""
        c = d[dev]["cold"]
        a, b = d[dev]["insn"].get("cold cq uvio"), d[dev]["insn"].get("cold cq ibv")
        extra = (f"; above an empty program's exec {fmt(c.get('ratio_cold_cq_uvio_to_ibv_above_exec'), 3)};"
                 f" instructions {a / b:.3f}" if a and b else "")
        w(f"| cold start to the first CQ <= 1/4 of libibverbs, {dev} | {fmt(r, 3)} of"
          f" libibverbs (wall time from exec{extra}) | {ok(r, COLD_GOAL)}{miss} |")
        above = c.get("ratio_cold_cq_uvio_to_ibv_above_exec")
        w(f"| what the library adds to an empty program's start <= 1/4 of what libibverbs"
          f" adds, first CQ, {dev} (issue 22) | {fmt(above, 3)} | {ok(above, COLD_GOAL)} |")
    n_ok = len(verbs_all) - len(verbs_miss)
    if verbs_all:
        ratio(f"verb/path/device cases within 5% of the bare floor, share of {len(verbs_all)}"
              " (time)", n_ok / len(verbs_all))
        ratio("verbs, median over every verb/path/device case, library / floor (time)",
              statistics.median(v["ratio"] for _, v in verbs_all))
    w(f"| every verb within 5% of the bare floor (wall time) | {n_ok} of {len(verbs_all)}"
      f" verb/path/device cases at <= {VERB_GOAL:.2f} | "
      f"{'met' if verbs_all and not verbs_miss else 'NOT met'} |")
    sys_bad = [(dev, k, v) for dev in devs for k, v in d[dev]["verb_sys"].items()
               if k[0] != "DEVICE.GET_CONTEXT" and (v[0] != 1 or v[1] != 0)]
    n_sys = sum(1 for dev in devs for k in d[dev]["verb_sys"] if k[0] != "DEVICE.GET_CONTEXT")
    w(f"| after discovery one syscall per verb, no heap allocation | {n_sys - len(sys_bad)} of"
      f" {n_sys} verb/path/device cases (GET_CONTEXT apart, see below) |"
      f" {'met' if n_sys and not sys_bad else 'NOT met'} |")
    for seq, name in (("CQ.CREATE+DESTROY", "CQ create+destroy"),
                      ("QP.BRINGUP", "QP bring-up")):
        a, b = ins.get((rxe, seq, "lib ioctl")), ins.get((rxe, seq, "ibvcmd -"))
        r = a / b if a and b else None
        miss = f" (by {100 * (r - 1):.0f}%)" if r and r >= 1 else ""
        w(f"| fewer user-space instructions than libibverbs' command layer: {name} ({rxe}) |"
          f" {fmt(a)} vs {fmt(b)} | {'met' if r and r < 1 else 'NOT met' if r else 'not measured'}"
          f"{miss} |")
    w(f"| text of the shared object <= 128 KiB | {fmt(text)} bytes ({text / 1024:.1f} KiB) |"
      f" {ok(text, TEXT_GOAL)} |")
    w()

    # ---------------- ratios, collected below and printed here ----------------
    ratio_pos = len(out)
    w()

    # ---------------- cold start ----------------
    w("## Cold start")
    w()
    w("From `execve` to the first CQ (and, on rxe, to an RC QP in RTS): each way a program"
      " of its own (`bench/cold_*.c`), started afresh every round by `cold_run`, the ways in"
      " an order that rotates; medians. The clock is read by the parent just before"
      " `execve` and by the program when its object exists. The memory is the program's"
      " at that moment (`/proc/self/status`, `/proc/self/maps`). The instructions are the"
      " whole program's under callgrind, from its first instruction (the dynamic linker's)"
      " to its exit.")
    w()
    w("- exec: `cold_floor ... none`, which reports at once: exec and libc start alone.")
    w("- floor: opens the known `/dev/infiniband/uverbsN` and issues the library's commands"
      " by hand (GET_CONTEXT, ASYNC_EVENT/ALLOC, PD over INVOKE_WRITE, CQ CREATE; QP: GID"
      " entry, QP CREATE, 3 MODIFY_QP); libc only.")
    w("- libuverbs-ioctl: `uvio_device_open` by name (RDMA netlink discovery, its answers parsed by libnl),"
      " `uvio_get_context`, `uvio_alloc_pd`, `uvio_create_cq`; QP: `uvio_query_gid_entry`,"
      " `uvio_create_qp`, 3 `uvio_modify_qp`.")
    w("- libibverbs: `ibv_get_device_list` (which loads every installed provider),"
      " `ibv_open_device`, `ibv_alloc_pd`, `ibv_create_cq`; QP: `ibv_query_gid`,"
      " `ibv_create_qp`, 3 `ibv_modify_qp`.")
    w()
    cold_rows = []
    for dev in devs:
        for mode in ("cq", "qp"):
            c = d[dev]["cold"]
            if f"cold_{mode}_uvio_us" not in c:
                continue
            what = "first CQ" if mode == "cq" else "QP in RTS"
            w(f"### {dev}: exec to the {what}")
            w()
            w("| way | median ms | VmSize MiB | RSS MiB | mapped MiB | shared objects |"
              " instructions |")
            w("|---|---|---|---|---|---|---|")
            for way in ("exec", "floor", "uvio", "ibv"):
                k = f"cold_{mode}_{way}_"
                label = "cold none exec" if way == "exec" else f"cold {mode} {way}"
                n = d[dev]["insn"].get(label)
                w(f"| {WAY_LABEL[way]} | {c.get(k + 'us', 0) / 1000:.1f} |"
                  f" {c.get(k + 'vmsize_kb', 0) / 1024:.1f} | {c.get(k + 'rss_kb', 0) / 1024:.2f} |"
                  f" {c.get(k + 'maps_kb', 0) / 1024:.1f} | {c.get(k + 'objects', 0):.0f} |"
                  f" {fmt(n)} |")
            cold_rows.append((f"{dev} {what}", [c.get(f"cold_{mode}_{x}_us", 0) / 1000
                                                for x in ("exec", "floor", "uvio", "ibv")]))
            r_ibv = c.get(f"ratio_cold_{mode}_uvio_to_ibv")
            r_fl = c.get(f"ratio_cold_{mode}_uvio_to_floor")
            r_add = c.get(f"ratio_cold_{mode}_uvio_to_ibv_above_exec")
            ratio(f"cold start to the {what}, {dev}, libuverbs-ioctl / libibverbs (time)", r_ibv)
            ratio(f"cold start to the {what}, {dev}, libuverbs-ioctl / libibverbs (time above"
                  " an empty program's exec)", r_add)
            ratio(f"cold start to the {what}, {dev}, libuverbs-ioctl / floor (time)", r_fl)
            a = d[dev]["insn"].get(f"cold {mode} uvio")
            b = d[dev]["insn"].get(f"cold {mode} ibv")
            if a and b:
                ratio(f"cold start to the {what}, {dev}, libuverbs-ioctl / libibverbs"
                      " (instructions)", a / b)
            w()
            w(f"Median of the per-round ratios, library / libibverbs: {fmt(r_ibv, 3)};"
              f" library / floor: {fmt(r_fl, 3)}; what the library adds to an empty"
              f" program's start / what libibverbs adds: {fmt(r_add, 3)}.")
            w()
            objs = {}
            for way in ("uvio", "ibv"):
                objs[way] = d[dev]["insnobj"].get(f"cold {mode} {way}", {})
            if objs["uvio"] and objs["ibv"]:
                w("Where the instructions go (callgrind, by shared object):")
                w()
                for way in ("uvio", "ibv"):
                    parts = sorted(objs[way].items(), key=lambda x: -x[1])
                    w(f"- {WAY_LABEL[way]}: " + ", ".join(f"{k} {fmt(v)}" for k, v in parts[:8]))
                w()
            rounds = d[dev]["cold_rounds"].get(mode, [])
            details(rounds)
    w("![cold start](cold-start.png)")
    w()

    # ---------------- QP bring-up ----------------
    w("## QP bring-up per second")
    w()
    w("Create an RC QP, INIT, RTR (connected to itself through the port's RoCE v2 GID),"
      " RTS, destroy; the six ways take turns sequence by sequence (the order rotating),"
      " each sequence timed; per round the median sequence of each way, then the median"
      " over the rounds. The floor sends the library's commands by hand (QP CREATE and"
      " DESTROY as methods, MODIFY_QP over INVOKE_WRITE; or all as write()). libibverbs'"
      " command layer is `ibv_cmd_create_qp`, `ibv_cmd_modify_qp`, `ibv_cmd_destroy_qp` on"
      " a context it opened; its public verbs also map and unmap the rings (rxe).")
    w()
    qp_rows = []
    for dev in devs:
        q = d[dev]["qp"]
        if d[dev]["qp_skip"] or not q:
            w(f"- {dev}: not measured: {d[dev]['qp_skip'] or 'no result'}"
              " (siw is iWARP: its QPs reach RTS through the connection manager only).")
            continue
        w(f"### {dev}")
        w()
        w("| way | bring-ups/s |")
        w("|---|---|")
        for way in ("floor", "floor_write", "ioctl", "write", "ibvcmd", "ibv"):
            w(f"| {WAY_LABEL[way]} | {fmt(q.get('qp_per_s_' + way))} |")
            qp_rows.append((WAY_LABEL[way], q.get("qp_per_s_" + way, 0)))
        w()
        for k, t in (("ratio_qp_ioctl_to_floor", "library ioctl path / floor (time)"),
                     ("ratio_qp_write_to_floor_write", "library write() path / floor write() (time)"),
                     ("ratio_qp_ioctl_to_ibvcmd", "library ioctl path / libibverbs ibv_cmd_* (time)"),
                     ("ratio_qp_ioctl_to_ibv", "library ioctl path / libibverbs public (time)")):
            ratio(f"QP bring-up, {dev}, {t}", q.get(k))
            w(f"- {t}: {fmt(q.get(k), 3)}")
        w()
        details(d[dev]["qp_rounds"])
    w("![QP bring-up](qp-bringup.png)")
    w()

    # ---------------- every verb ----------------
    w("## Every verb against the bare floor")
    w()
    w("Each verb that rxe or siw answers, as this library calls it and as the bare floor"
      " (`bench/floor.h`, `bench/verbs.c`) sends the same command by hand, on the same"
      " device context: the ioctl path (the native method where the library uses one, else"
      " INVOKE_WRITE) and the write() path. Before timing, each verb runs once both ways"
      " with `ioctl()` and `write()` interposed: the commands (object, method, attribute ids"
      " and lengths; write() command and word counts) must be the same, and the library's"
      " system calls and heap allocations are counted. Then, every round, a batch of calls"
      " each way, library and floor taking turns call by call (who goes first alternating),"
      " each call timed: the round's time per call is the median call of each way; the"
      " table gives the median over the rounds, and the median of the per-round ratios with"
      " their 25th and 75th percentiles, which show the noise. Creating verbs fill a batch"
      " of objects that the destroying verb then destroys; verbs that change an object"
      " (resize, modify, rereg) alternate its state, so that every call changes it. GET_CONTEXT is timed as open, context, close (both"
      " ways), so its library side includes `uvio_device_adopt` and `uvio_device_close`;"
      " on the ioctl path it is two commands (ASYNC_EVENT/ALLOC gives the async fd).")
    w()
    w("Instructions per call are callgrind's in the guest (library and floor, same"
      " commands; for a create/destroy pair both together).")
    w()
    verb_plot = {}
    for dev in devs:
        dd = d[dev]
        w(f"### {dev}")
        w()
        w("| verb | path | library us | floor us | ratio | p25-p75 | same command |"
          " syscalls, heap allocs | instructions library / floor |")
        w("|---|---|---|---|---|---|---|---|---|")
        pair_of = {}
        for v in dd["verbs"]:
            key = (v["name"], v["path"])
            same = dd["verb_cmd"].get(key, ("?", ""))[0]
            sc = dd["verb_sys"].get(key)
            il = fl = None
            for label in dd["insn"]:
                m = re.match(r"verb (\S+) (lib|floor) (\S+) /(\d+)$", label)
                if m and m.group(3) == v["path"] and v["name"] in m.group(1).split("+"):
                    val = dd["insn"][label] / int(m.group(4))
                    if m.group(2) == "lib":
                        il = val
                    else:
                        fl = val
                    pair_of[key] = m.group(1)
            pair = pair_of.get(key, v["name"])
            itxt = f"{fmt(il)} / {fmt(fl)}" + (" (pair)" if "+" in pair else "")
            mark = "" if v["ratio"] <= VERB_GOAL else " **"
            w(f"| {v['name']} | {v['path']} | {v['lib']:.2f} | {v['floor']:.2f} |"
              f" {v['ratio']:.3f}{mark} | {v['q1']:.3f}-{v['q3']:.3f} | {same} |"
              f" {sc[0] if sc else '?'}, {sc[1] if sc else '?'} | {itxt} |")
            ratio(f"{v['name']} {v['path']} path, {dev}, library / floor (time)", v["ratio"])
            verb_plot.setdefault(dev, {}).setdefault(v["name"], {})[v["path"]] = v["ratio"]
        w()
        diff = [k for k, s in dd["verb_cmd"].items() if s[0] != "same"]
        if diff:
            w("Commands that differ between library and floor (a benchmark bug to fix):")
            for k in diff:
                w(f"- {k[0]} {k[1]}: library `{dd['verb_cmd'][k][1]}`, floor"
                  f" `{dd['verb_floor_sig'].get(k, '?')}`")
            w()
        if dd["verb_skip"]:
            w("Not timed on " + dev + ":")
            w()
            seen = set()
            for name, path, why in dd["verb_skip"]:
                w(f"- {name} ({path}): {why}")
                seen.add(name)
            w()
        if dd["probe"]:
            w("Verbs of the library this device does not implement (called once, the answer"
              " recorded): " + "; ".join(f"{n} {p}: {a}" for n, p, a in dd["probe"]) + ".")
            w()
    if devs and d[devs[0]]["not_run"]:
        w("Not run at all, for want of an object neither device can make: " +
          "; ".join(d[devs[0]]["not_run"]) + ".")
        w()
    w("![every verb](verbs.png)")
    w()

    # ---------------- instructions ----------------
    w("## User-space instructions per sequence")
    w()
    w("Counted by callgrind in the guest (`uverbs_insn`, the same code as `uverbs_bench`"
      " without the interposed `ioctl()`/`write()`), with the real kernel answering: each"
      " sequence runs once uncounted, then its instructions are collected over the"
      " repeats and divided. Everything the calling thread executes in user space counts:"
      " the caller's own code that fills the verb's arguments, the library, libc's syscall"
      " wrappers.")
    w()
    insn_rows = []
    for dev in devs:
        w(f"### {dev}")
        w()
        w("| sequence | floor ioctl | floor write | library ioctl | library write |"
          " libibverbs ibv_cmd_* | libibverbs public |")
        w("|---|---|---|---|---|---|---|")
        for seq, name in (("CQ.CREATE+DESTROY", "CQ create+destroy"),
                          ("QP.BRINGUP", "QP bring-up (create, INIT, RTR, RTS, destroy)")):
            vals = [ins.get((dev, seq, x)) for x in ("floor ioctl", "floor write", "lib ioctl",
                                                      "lib write", "ibvcmd -", "ibv -")]
            if not any(vals):
                continue
            w(f"| {name} | " + " | ".join(fmt(x) for x in vals) + " |")
            if dev == rxe:
                insn_rows.append((name.split(" (")[0], vals))
            a, b = ins.get((dev, seq, "lib ioctl")), ins.get((dev, seq, "ibvcmd -"))
            if a and b:
                ratio(f"instructions, {name.split(' (')[0]}, {dev}, library ioctl path /"
                      " libibverbs ibv_cmd_*", a / b)
            a = ins.get((dev, seq, "lib write"))
            if a and b:
                ratio(f"instructions, {name.split(' (')[0]}, {dev}, library write() path /"
                      " libibverbs ibv_cmd_*", a / b)
            a, f2 = ins.get((dev, seq, "lib ioctl")), ins.get((dev, seq, "floor ioctl"))
            if a and f2:
                ratio(f"instructions, {name.split(' (')[0]}, {dev}, library ioctl path /"
                      " floor", a / f2)
        w()
        if d[dev]["insn_skip"]:
            w("Not counted: " + "; ".join(d[dev]["insn_skip"]) + ".")
            w()
    # the profile: rxe only (siw's are the same code)
    if rxe:
        w(f"### Where the instructions go ({rxe})")
        w()
        for seq in ("CQ.CREATE+DESTROY", "QP.BRINGUP"):
            for way in ("lib ioctl", "ibvcmd -"):
                _, label = insn_per(d[rxe], f"seq {seq} {way}")
                if not label:
                    continue
                rep = int(label.rsplit("/", 1)[1])
                objs = sorted(d[rxe]["insnobj"].get(label, {}).items(), key=lambda x: -x[1])
                fns = sorted(d[rxe]["insnfn"].get(label, []), key=lambda x: -x[2])
                who = "library, ioctl path" if way == "lib ioctl" else "libibverbs ibv_cmd_*"
                w(f"**{seq}, {who}** (per sequence): by object "
                  + ", ".join(f"{k} {v / rep:.0f}" for k, v in objs)
                  + "; functions (self): "
                  + ", ".join(f"{fn} {n / rep:.0f}" for _, fn, n in fns[:14]) + ".")
                w()
        for name in ("DEVICE.QUERY", "QP.MODIFY", "CQ.CREATE+CQ.DESTROY"):
            for path in ("ioctl", "write"):
                _, label = insn_per(d[rxe], f"verb {name} lib {path}")
                _, flabel = insn_per(d[rxe], f"verb {name} floor {path}")
                if not label or not flabel:
                    continue
                rep = int(label.rsplit("/", 1)[1])
                fns = sorted(d[rxe]["insnfn"].get(label, []), key=lambda x: -x[2])
                w(f"**{name}, library, {path} path**: {d[rxe]['insn'][label] / rep:.0f}"
                  f" instructions (floor {d[rxe]['insn'][flabel] / rep:.0f}); functions (self): "
                  + ", ".join(f"{fn} {n / rep:.0f}" for _, fn, n in fns[:12]) + ".")
                w()
    w("![instructions](instructions.png)")
    w()

    # ---------------- size ----------------
    w("## Library size")
    w()
    w(f"`size -A {o.so}`: .text {fmt(text)} bytes ({text / 1024:.1f} KiB, goal 128 KiB:"
      f" {ok(text, TEXT_GOAL)}), {fmt(insns)} machine instructions in it (`objdump -d`)."
      " Largest objects by .text (`size -A` of the static library):")
    w()
    top = sorted(per_obj.items(), key=lambda x: -x[1])
    w(", ".join(f"{k} {fmt(v)}" for k, v in top[:12]) + ".")
    w()
    ratio("shared object .text / 128 KiB", text / TEXT_GOAL)

    # ---------------- CQ throughput (vm_bench) ----------------
    w("## CQ create+destroy throughput (vm_bench)")
    w()
    w("CQ create+destroy pairs per second, five ways interleaved in one process; user and"
      " kernel time per pair from getrusage(2), which samples at the scheduler tick (read"
      " them as a split, not to the last digit).")
    w()
    w("### Building a CQ CREATE command (host)")
    w()
    w("```")
    out.extend(open(o.host).read().rstrip("\n").split("\n"))
    w("```")
    w()
    cq_rows = []
    for dev in devs:
        c = d[dev]["cq"]
        if not c:
            continue
        w(f"### {dev}")
        w()
        w("| way | pairs/s | user us/pair | kernel us/pair | syscalls per verb |"
          " heap allocations per verb |")
        w("|---|---|---|---|---|---|")
        w(f"| bare ioctl, no library (floor) | {c.get('pairs_per_s_floor')} |"
          f" {c.get('user_us_per_pair_floor')} | {c.get('sys_us_per_pair_floor')} | 1 | 0 |")
        for way, label in (("ioctl", "libuverbs-ioctl, ioctl path"),
                           ("write", "libuverbs-ioctl, write() path"),
                           ("ibvcmd", "libibverbs ibv_cmd_create_cq/ibv_cmd_destroy_cq"),
                           ("ibv", "libibverbs ibv_create_cq/ibv_destroy_cq")):
            w(f"| {label} | {c.get('pairs_per_s_' + way)} | {c.get('user_us_per_pair_' + way)} |"
              f" {c.get('sys_us_per_pair_' + way)} | {c.get('syscalls_per_verb_' + way)} |"
              f" {c.get('heap_allocs_per_verb_' + way)} |")
        w()
        rf, rc = c.get("ratio_ioctl_to_floor"), c.get("ratio_ioctl_to_ibvcmd")
        ratio(f"CQ create+destroy, {dev}, library ioctl path / floor (time)",
              float(rf) if rf else None)
        ratio(f"CQ create+destroy, {dev}, library ioctl path / libibverbs ibv_cmd_* (time)",
              float(rc) if rc else None)
        w(f"- discovery under a filter that refuses the verbs ioctl: {c.get('discovery_ioctls')}"
          f" refused ioctl and {c.get('discovery_writes')} write() calls for"
          f" {c.get('discovery_commands')} commands on a fresh device")
        w(f"- threads sharing one device handle (ioctl path), pairs/s: 1:"
          f" {c.get('threads_1_pairs_per_s')}, 2: {c.get('threads_2_pairs_per_s')}, 4:"
          f" {c.get('threads_4_pairs_per_s')}, 8: {c.get('threads_8_pairs_per_s')}")
        w()
        details(d[dev]["cq_rounds"])
        cq_rows.append((dev, [float(c.get(f"pairs_per_s_{x}", 0)) for x in
                              ("floor", "ioctl", "write", "ibvcmd", "ibv")],
                        [float(c.get(f"threads_{n}_pairs_per_s", 0)) for n in (1, 2, 4, 8)]))
    w("![CQ throughput](cq-throughput.png)")
    w(END)

    out[ratio_pos:ratio_pos] = (["## Ratios", "",
                                 "Each ratio below 1 favours the library (or the floor it is"
                                 " compared with, where named first).", "", "```"]
                                + ratios + ["```"])

    # ---------------- RESULTS.md: only our part ----------------
    old = open(o.results).read() if os.path.exists(o.results) else ""
    if BEGIN in old and END in old:
        before = old[:old.index(BEGIN)]
        after = old[old.index(END) + len(END):]
    else:
        # The file of the earlier run.sh, all generated: keep what others
        # appended after its last line.
        before = ""
        tail = "![throughput](results.png)"
        after = old[old.index(tail) + len(tail):] if tail in old else ""
    with open(o.results, "w") as f:
        f.write(before + "\n".join(out) + ("\n" if not after.startswith("\n") else "") + after)

    # ---------------- plots ----------------
    tmp = tempfile.mkdtemp()
    head = ('set terminal pngcairo size 1100,560 font ",10" noenhanced\n'
            "set style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.85 border -1\nset grid ytics\nset key top left\n"
            "set yrange [0:*]\n")
    kv = g.get("kernel", "")

    if cold_rows:
        p = os.path.join(tmp, "cold.dat")
        with open(p, "w") as f:
            for name, vals in cold_rows:
                f.write(f'"{name}" ' + " ".join(f"{v:.2f}" for v in vals) + "\n")
        mem = os.path.join(tmp, "mem.dat")
        with open(mem, "w") as f:
            c = d[rxe]["cold"] if rxe else {}
            for way, short in (("floor", "floor"), ("uvio", "libuverbs-ioctl"),
                               ("ibv", "libibverbs")):
                f.write(f'"{short}" {c.get(f"cold_cq_{way}_rss_kb", 0) / 1024:.2f}'
                        f' {c.get(f"cold_cq_{way}_maps_kb", 0) / 1024:.2f}\n')
        gnuplot(head + f'set output "{o.plots}/cold-start.png"\n'
                f'set multiplot layout 1,2 title "Cold start (Debian {kv}, qemu TCG)'
                f'{"" if quiet else ", TAKEN UNDER LOAD"}"\n'
                'set title "exec to first CQ / QP in RTS, median ms (lower is better)"\n'
                f'plot "{p}" using 2:xtic(1) title "exec alone", "" using 3 title "bare floor",'
                ' "" using 4 title "libuverbs-ioctl", "" using 5 title "libibverbs"\n'
                f'set title "memory at the first CQ ({rxe}), MiB"\n'
                f'plot "{mem}" using 2:xtic(1) title "resident (RSS)", "" using 3 title "mapped"\n'
                "unset multiplot\n")
    if qp_rows:
        p = os.path.join(tmp, "qp.dat")
        with open(p, "w") as f:
            for name, v in qp_rows:
                f.write(f'"{name}" {v:.0f}\n')
        gnuplot(head + f'set output "{o.plots}/qp-bringup.png"\nset key off\n'
                f'set title "QP bring-ups per second on {rxe} (create, INIT, RTR, RTS, destroy;'
                f' higher is better; {kv}, qemu TCG{"" if quiet else ", UNDER LOAD"})"\n'
                "set xtics rotate by -20\n"
                f'plot "{p}" using 2:xtic(1) lc rgb "#4477aa"\n')
    if verb_plot:
        lines = [head, 'set terminal pngcairo size 1400,900 font ",9" noenhanced\n',
                 f'set output "{o.plots}/verbs.png"\n',
                 f'set multiplot layout {len(verb_plot)},1 title "Every verb: time per call,'
                 f' library / bare floor (goal <= {VERB_GOAL}; {kv}, qemu TCG'
                 f'{"" if quiet else ", UNDER LOAD"})"\n',
                 "set xtics rotate by -35\nset yrange [0.5:2]\nset key outside right top\n"
                 "set label 1 \"bars above 2 are cut (GET_CONTEXT includes open, adopt and"
                 " close)\" at graph 0.12, graph 0.93\n"]
        for dev, verbs in verb_plot.items():
            p = os.path.join(tmp, f"verbs-{dev}.dat")
            with open(p, "w") as f:
                for name, paths in verbs.items():
                    f.write(f'"{name}" {paths.get("ioctl", "NaN")} {paths.get("write", "NaN")}\n')
            lines.append(f'set title "{dev}"\n')
            lines.append(f'plot "{p}" using 2:xtic(1) title "ioctl path", "" using 3 title'
                         f' "write() path", {VERB_GOAL} with lines lw 2 lc rgb "red"'
                         ' title "goal 1.05", 1 with lines lc rgb "black" notitle\n')
        lines.append("unset multiplot\n")
        gnuplot("".join(lines))
    if insn_rows:
        p = os.path.join(tmp, "insn.dat")
        with open(p, "w") as f:
            for name, vals in insn_rows:
                f.write(f'"{name}" ' + " ".join("NaN" if v is None else f"{v:.0f}"
                                                  for v in vals) + "\n")
        cold_i = os.path.join(tmp, "cold-insn.dat")
        n_cold = 0
        with open(cold_i, "w") as f:
            for mode, what in (("cq", "first CQ"), ("qp", "QP in RTS")):
                vals = [d[rxe]["insn"].get(f"cold {mode} {w2}") for w2 in ("floor", "uvio", "ibv")]
                if all(vals):
                    n_cold += 1
                    f.write(f'"{what}" ' + " ".join(f"{v / 1e6:.3f}" for v in vals) + "\n")
        script = (head + f'set output "{o.plots}/instructions.png"\n'
                  f'set multiplot layout 1,{2 if n_cold else 1} title "User-space instructions,'
                  f' callgrind in the guest ({rxe}, real kernel; lower is better)"\n'
                  'set title "per sequence"\n'
                  f'plot "{p}" using 2:xtic(1) title "floor ioctl", "" using 3 title'
                  ' "floor write()", "" using 4 title "library ioctl", "" using 5 title'
                  ' "library write()", "" using 6 title "ibv_cmd_*", "" using 7 title'
                  ' "ibv public"\n')
        if n_cold:
            script += ('set title "cold start, whole program, millions"\n'
                       f'plot "{cold_i}" using 2:xtic(1) title "floor", "" using 3 title'
                       ' "libuverbs-ioctl", "" using 4 title "libibverbs"\n')
        gnuplot(script + "unset multiplot\n")
    if cq_rows:
        p = os.path.join(tmp, "cq.dat")
        with open(p, "w") as f:
            for dev, a, t in cq_rows:
                f.write(f'"{dev}" ' + " ".join(f"{v:.0f}" for v in a + t) + "\n")
        gnuplot(head + f'set output "{o.plots}/cq-throughput.png"\n'
                f'set multiplot layout 1,2 title "CQ create+destroy pairs/s (higher is better;'
                f' {kv}, qemu TCG{"" if quiet else ", UNDER LOAD"})"\n'
                "set key below\nset title \"per command path\"\n"
                f'plot "{p}" using 2:xtic(1) title "bare ioctl (floor)", "" using 3 title'
                ' "libuverbs-ioctl ioctl", "" using 4 title "libuverbs-ioctl write()", "" using'
                ' 5 title "libibverbs ibv_cmd_*", "" using 6 title "libibverbs ibv_*_cq"\n'
                'set title "libuverbs-ioctl ioctl path, threads on one handle"\n'
                f'plot "{p}" using 7:xtic(1) title "1 thread", "" using 8 title "2", "" using 9'
                ' title "4", "" using 10 title "8"\n'
                "unset multiplot\n")


if __name__ == "__main__":
    main()
