#!/usr/bin/env python3
"""Read bench/provider.sh's VM log; write the provider section of RESULTS.md.

  provider-report.py [--two-guests] LOG RESULTS.md COMMAND LOAD_BEFORE LOAD_AFTER SECONDS

With --two-guests the log is bench/provider-2guests.sh's (UCX and Open MPI
across two guests) and the section is its own.

Every figure is turned into a time (latency, microseconds per QP step, and
for bandwidth the time per byte, i.e. stock bandwidth / provider bandwidth),
so that each ratio below 1 favours this library's provider. Rounds are
paired (the two providers run back to back in each round, the order
reversed every round): a figure is faster or slower beyond the noise when
the 25th-75th percentile range of its per-round ratios lies wholly below or
wholly above 1; the stock provider's own spread between rounds is shown too.
"""
import datetime
import re
import statistics
import sys

args = sys.argv[1:]
two = args[:1] == ["--two-guests"]
where = "rxe across two guests" if two else "rxe0"
if two:
    args = args[1:]
log, results, command, load0, load1, secs = args[:6]
text = open(log, encoding="utf-8", errors="replace").read()
# tests/vm/run-multi.sh prefixes each guest's lines with [gI]
text = re.sub(r"^\[g\d+\] ", "", text, flags=re.M)
kernel = re.search(r"RESULT kernel (\S+)", text)
vals = {}
for m in re.finditer(r"^PROV ROUND (\d+) (uvio|stock) (\S+) ([0-9.]+)\r?$", text, re.M):
    r, cfg, test, v = int(m.group(1)), m.group(2), m.group(3), float(m.group(4))
    vals.setdefault(test, {}).setdefault(cfg, {})[r] = v
if "PROV-END" not in text or not vals:
    sys.exit("provider-report.py: the log has no complete run")

# (test, what it is, is a time: lower is better)
TESTS = [
    ("send_lat_us", "perftest ib_send_lat, 64 B, typical latency (us)", True),
    ("write_bw_MBps", "perftest ib_write_bw, 4 KiB, average bandwidth (MB/s)", False),
    ("qp_create_us", "ibv_create_qp (us)", True),
    ("qp_modify_us", "ibv_modify_qp INIT, RTR, RTS (us, the three)", True),
    ("qp_destroy_us", "ibv_destroy_qp (us)", True),
    ("qp_total_us", "QP create + modify to RTS + destroy (us)", True),
]
if two:
    TESTS = [
        ("ucx_tag_lat_us", "ucx_perftest tag_lat over rc_verbs, 8 B, median latency (us)", True),
        ("ucx_tag_bw_MBps", "ucx_perftest tag_bw over rc_verbs, 64 KiB, overall bandwidth (MB/s)",
         False),
    ] + [(f"mpi_pingpong_{n}_us", f"Open MPI ping-pong over UCX, {label}, round trip (us)", True)
         for n, label in (("8", "8 B"), ("4096", "4 KiB"), ("65536", "64 KiB"),
                          ("262144", "256 KiB"))]


def quartiles(xs):
    xs = sorted(xs)
    if len(xs) < 4:
        return xs[0], xs[-1]
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


rows, ratios, verdicts = [], [], []
for test, label, is_time in TESTS:
    if test not in vals or set(vals[test]) != {"uvio", "stock"}:
        sys.exit(f"provider-report.py: no {test} for both providers")
    u, s = vals[test]["uvio"], vals[test]["stock"]
    mu, ms = statistics.median(u.values()), statistics.median(s.values())
    ratio = mu / ms if is_time else ms / mu
    lo, hi = quartiles(s.values())
    noise = (hi - lo) / ms
    paired = [u[r] / s[r] if is_time else s[r] / u[r] for r in u if r in s]
    wins = sum(1 for p in paired if p < 1)
    plo, phi = quartiles(paired)
    if phi < 1:
        verdict = "faster, beyond the noise"
    elif plo > 1:
        verdict = "SLOWER beyond the noise"
    else:
        verdict = "the same within the noise"
    rows.append(f"| {label} | {mu:.2f} | {ms:.2f} | {ratio:.3f} | {plo:.3f}-{phi:.3f} | "
                f"{noise:.3f} | {wins} of {len(paired)} | {verdict} |")
    what = "time" if is_time else "time per byte: stock bandwidth / provider's"
    ratios.append(f"ratio {label}, {where}, libuverbs-ioctl provider / stock provider ({what}) : "
                  f"{ratio:.3f}")
    verdicts.append((test, verdict))

insn = {m.group(1): int(m.group(2))
        for m in re.finditer(r"^PROV INSN (uvio|stock) qp_cycle_insn (\d+)$", text, re.M)}
insn_lines = []
if len(insn) == 2:
    ir = insn["uvio"] / insn["stock"]
    rows.append(f"| QP create + modify to RTS + destroy, user-space instructions per cycle "
                f"(callgrind) | {insn['uvio']} | {insn['stock']} | {ir:.3f} | exact | exact | | "
                f"{'fewer' if ir < 1 else 'MORE'} |")
    ratios.append(f"ratio QP create + modify to RTS + destroy, rxe0, libuverbs-ioctl provider / "
                  f"stock provider (user-space instructions) : {ir:.3f}")
rounds = max(len(v["uvio"]) for v in vals.values())
slower = [t for t, v in verdicts if v.startswith("SLOWER")]
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
kname = kernel.group(1) if kernel else "(unknown)"
spread = (f"Each round's ratio pairs the two runs of that round; a figure is faster "
          f"(slower) beyond the noise when the 25th-75th percentile range of those ratios "
          f"lies wholly below (above) 1. The stock provider's spread is the same range of its "
          f"own rounds, relative to their median. Host load average before: {load0}; after: "
          f"{load1}; the VM run took {secs} s.")
if two:
    marker = "provider2"
    title = "## UCX and Open MPI across two guests: the libibverbs provider against the stock rxe provider"
    intro = (f"Written by `bench/provider-2guests.sh` on {now} (`{command}`), in one boot of two "
             f"guests of Debian's kernel {kname} (qemu TCG, 2 vCPUs each, one host), rxe on each "
             f"guest's virtio NIC (MTU 9000), joined by qemu's UDP socket network on 127.0.0.1. "
             f"{rounds} rounds, the two providers taking turns and the order reversed every "
             f"round; medians of the rounds. Both sides of every exchange run the same "
             f"unmodified binaries on libibverbs 44, with `RDMAV_DRIVERS` naming this library's "
             f"provider or without it (rdma-core's rxe provider): `ucx_perftest` (UCX 1.13.1, "
             f"`UCX_TLS=rc_v,self`), and Open MPI 4.1.4 (the host's) over UCX running "
             f"`tests/kernel/mpi_check`, one rank per guest, whose ping-pong times 20 round "
             f"trips per size after one unrecorded, every byte checked on arrival (so the larger "
             f"sizes include the checking). A traced run of each program on each provider "
             f"first shows that the plug-in, and only it, created the QPs. " + spread)
    goal = (f"Not slower beyond the noise on any of them: "
            f"{'met' if not slower else 'NOT met (' + ', '.join(slower) + ')'}.")
else:
    marker = "provider"
    title = "## The libibverbs provider against the stock rxe provider"
    intro = (f"Written by `bench/provider.sh` on {now} (`{command}`), in one boot of "
             f"Debian's kernel {kname} (qemu TCG, 2 vCPUs), rxe0, "
             f"both sides of perftest in the one guest; {rounds} rounds, the two providers taking "
             f"turns and the order reversed every round; medians of the rounds. The same unmodified "
             f"binaries run on libibverbs 44 with `RDMAV_DRIVERS` naming this library's provider, or "
             f"without it (rdma-core's rxe provider); `bench/qp_cycle.c` times the QP steps through "
             f"libibverbs' public verbs; callgrind counts the user-space instructions of 50 of its "
             f"cycles (the provider, libibverbs, libc; the kernel's share not counted). " + spread)
    control = dict(verdicts)["qp_total_us"]
    goal = (f"Goal (issue 20): not slower beyond the noise on any of them: "
            f"{'met' if not slower else 'NOT met (' + ', '.join(slower) + ')'}; "
            f"faster on the control path in wall time: "
            f"{'met' if control.startswith('faster') else 'NOT met (' + control + ')'}"
            + (f"; in user-space instructions per QP cycle: {insn['uvio']} against {insn['stock']} "
               f"({'fewer' if insn['uvio'] < insn['stock'] else 'more'})" if len(insn) == 2 else "")
            + ".")
script = "bench/provider-2guests.sh" if two else "bench/provider.sh"
section = "\n".join([
    f"<!-- {marker}:begin ({script}: generated, do not edit by hand) -->",
    title,
    "",
    intro,
    "",
    "| figure | this provider | stock provider | ratio of medians (time) | per-round ratios, 25th-75th | stock spread | rounds this provider won | result |",
    "|---|---|---|---|---|---|---|---|",
    *rows,
    "",
    "```",
    *ratios,
    "```",
    "",
    goal,
    f"<!-- {marker}:end -->",
    "",
])
try:
    old = open(results, encoding="utf-8").read()
except FileNotFoundError:
    old = ""
if f"<!-- {marker}:begin" in old:
    old = re.sub(rf"<!-- {marker}:begin.*?<!-- {marker}:end -->\n?", lambda _: section, old,
                 flags=re.S)
else:
    old = old.rstrip("\n") + "\n\n" + section
open(results, "w", encoding="utf-8").write(old)
print(section)
