#!/usr/bin/env python3
"""Read bench/dp.sh's VM log; write the data-path section of RESULTS.md.

  dp-report.py LOG RESULTS.md COMMAND
"""
import re
import statistics
import sys

log, results, command = sys.argv[1:4]
text = open(log, encoding="utf-8", errors="replace").read()
kernel = re.search(r"RESULT kernel (\S+)", text)
rate = {"uvio": [], "ibv": []}
rounds = {}
for m in re.finditer(r"DP ROUND (\d+) (uvio|ibv) (\d+) msgs/s polls (\d+) empty (\d+)", text):
    rate[m.group(2)].append(int(m.group(3)))
    rounds.setdefault(int(m.group(1)), {})[m.group(2)] = int(m.group(3))
insn = {}
for m in re.finditer(r"DP CALLGRIND (uvio|ibv) (post|poll) (\d+) DP INSN \S+ posts (\d+) "
                     r"polls (\d+) completions (\d+)", text):
    lib, fn, ir, posts, polls, done = m.group(1), m.group(2), *map(int, m.groups()[2:])
    insn[(lib, fn)] = (ir, posts if fn == "post" else polls, done)
if not rate["uvio"] or not rate["ibv"] or len(insn) != 4:
    sys.exit("dp-report.py: the log has no complete data-path run")

med = {k: statistics.median(v) for k, v in rate.items()}
wins = sum(1 for r in rounds.values() if r.get("uvio", 0) > r.get("ibv", 0))
spread = {k: (min(v), max(v)) for k, v in rate.items()}
per = {k: v[0] / v[1] for k, v in insn.items()}
per_wc = {lib: insn[(lib, "poll")][0] / insn[(lib, "poll")][2] for lib in ("uvio", "ibv")}
lines = [
    "<!-- dp:begin -->",
    "## The data path: <uvio/dp.h> against rdma-core's rxe provider",
    "",
    f"`{command}` (kernel {kernel.group(1) if kernel else '?'}, rxe, loopback; "
    f"64-byte signaled RDMA WRITEs, 64 in flight, one WR per post call, completions "
    f"polled 16 at a time; {len(rounds)} rounds interleaved ABBA in one process).",
    "",
    "| | this library | libibverbs + rxe provider | ratio |",
    "|---|---|---|---|",
    f"| instructions per post call (doorbell write() included) | {per[('uvio', 'post')]:.1f} "
    f"| {per[('ibv', 'post')]:.1f} | {per[('uvio', 'post')] / per[('ibv', 'post')]:.3f} |",
    f"| instructions per poll call | {per[('uvio', 'poll')]:.1f} | {per[('ibv', 'poll')]:.1f} "
    f"| {per[('uvio', 'poll')] / per[('ibv', 'poll')]:.3f} |",
    f"| poll instructions per completion | {per_wc['uvio']:.1f} | {per_wc['ibv']:.1f} "
    f"| {per_wc['uvio'] / per_wc['ibv']:.3f} |",
    f"| messages per second, median (min-max) | {med['uvio']:.0f} ({spread['uvio'][0]}-"
    f"{spread['uvio'][1]}) | {med['ibv']:.0f} ({spread['ibv'][0]}-{spread['ibv'][1]}) "
    f"| {med['uvio'] / med['ibv']:.3f} |",
    "",
    f"This library was faster in {wins} of {len(rounds)} paired rounds. Instructions are "
    "callgrind's count of everything the post_* and poll_* functions of "
    "`bench/dp_stream.c` executed in user space (2000 writes each; the library, "
    "libibverbs and the provider), divided by the calls.",
    "",
    "```",
    f"ratio dp-post-instructions uvio/ibv {per[('uvio', 'post')] / per[('ibv', 'post')]:.3f}",
    f"ratio dp-poll-instructions uvio/ibv {per[('uvio', 'poll')] / per[('ibv', 'poll')]:.3f}",
    f"ratio dp-poll-instructions-per-completion uvio/ibv {per_wc['uvio'] / per_wc['ibv']:.3f}",
    f"ratio dp-write-messages-per-second uvio/ibv {med['uvio'] / med['ibv']:.3f}",
    "```",
    "<!-- dp:end -->",
]
section = "\n".join(lines) + "\n"
try:
    old = open(results, encoding="utf-8").read()
except FileNotFoundError:
    old = ""
if "<!-- dp:begin -->" in old:
    old = re.sub(r"<!-- dp:begin -->.*?<!-- dp:end -->\n?", lambda _: section, old, flags=re.S)
else:
    old = old.rstrip("\n") + "\n\n" + section
open(results, "w", encoding="utf-8").write(old)
print(section)
