#!/bin/bash
# The mlx5 data path, this library against libmlx5, in user-space
# instructions (callgrind in the guest, Debian 12's kernel with the mlx5
# stand-in's emulated ConnectX): one boot runs bench/mlx5_dp three ways
# (bench/guest-mlx5-dp.sh): the library's <uvio/dp.h>; libibverbs +
# libmlx5; the same libibverbs calls served by the library's plug-in
# (libuvio-rdmav34.so, named by RDMAV_DRIVERS). This prints the
# instructions per post_send (SEND 64 B inline; RDMA WRITE 4 KiB), per
# post_recv and per polled completion, and writes them to bench/RESULTS.md
# between its "mlx5dp" markers (the rest of the file is kept). Not run by
# ctest: a boot with three programs under callgrind takes minutes under TCG.
#
#   bench/mlx5-dp.sh [BUILD_DIR [MSGS]]     (build/, 256 of each kind)
#
# Exits 1 when a run failed, 3 when the library or the plug-in needs more
# instructions than libmlx5 for any of them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$(cd "${1:-$top/build}" && pwd)
msgs=${2:-256}
vm=$top/tests/vm
cmake --build "$build" -j2 --target mlx5_dp uvio_ibverbs > /dev/null
prog=$build/bench/mlx5_dp
plugin=$build/providers/ibverbs/libuvio-rdmav34.so
[ -x "$prog" ] || { echo "mlx5-dp.sh: no $prog (libibverbs missing?)"; exit 1; }
[ -f "$plugin" ] || { echo "mlx5-dp.sh: no $plugin"; exit 1; }
kdir=$("$vm/fetch.sh" bookworm kbuild)
ko=$("$top/tests/standin/build.sh" mlx5 "$kdir")
log=$build/bench/mlx5-dp.log
echo "mlx5-dp.sh: load average $(cut -d' ' -f1-3 /proc/loadavg); $msgs SENDs and $msgs WRITEs, three ways"
t0=$SECONDS
UVIO_VM_VALGRIND=1 UVIO_VM_ALL_PROVIDERS=1 UVIO_VM_TAG=mlx5-dp-bench \
UVIO_VM_WITH="$ko $prog $plugin @USERLAND@/usr/bin/ibv_devices" UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-1800} \
	"$vm/run.sh" "$build" bookworm run "$here/guest-mlx5-dp.sh" "$msgs" > "$log" 2>&1 ||
	{ tail -40 "$log"; echo "mlx5-dp.sh: the guest failed (log: $log)"; exit 1; }
echo "mlx5-dp.sh: VM run took $((SECONDS - t0)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
btype=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")
kver=$(sed -n 's/.*kernel \(6\.1\.[0-9.-]*[a-z0-9-]*\).*/\1/p' "$log" | head -n1)
python3 - "$log" "$top/bench/RESULTS.md" "bench/mlx5-dp.sh build $msgs" "$kver" "${btype:-default}" <<'PY'
import re, sys
log, results, cmd, kver, btype = sys.argv[1:6]
insn, calls = {}, {}
for line in open(log, errors="replace"):
    m = re.search(r"MLX5DP INSN (\w+) (\w+)_\w+ (\d+)", line)
    if m:
        insn[(m[1], m[2])] = int(m[3])
    m = re.search(r"MLX5DP (uvio|ibv|plugin) (send .*)", line)
    if m:
        w = m[2].split()
        calls[m[1]] = {w[i]: int(w[i + 1]) for i in range(0, len(w), 2)}
libs = ("uvio", "plugin", "ibv")
for lib in libs:
    if lib not in calls or (lib, "send") not in insn:
        sys.exit(f"mlx5-dp.sh: no counts for {lib} in {log}")
def per(lib):
    c, i = calls[lib], lambda f: insn[(lib, f)]
    empty = i("empty") / c["empty"]
    return {
        "send": i("send") / c["send"],
        "write": i("write") / c["write"],
        "recv": i("recv") / c["recv"],
        "req": (i("poll") - c["pempty"] * empty) / c["completions"],
        "resp": (i("rpoll") - c["rempty"] * empty) / c["rcompletions"],
        "empty": empty,
    }
u, p, b = per("uvio"), per("plugin"), per("ibv")
rows = [("send", "post_send: SEND 64 B inline, signalled"),
        ("write", "post_send: RDMA WRITE 4 KiB (one SGE), signalled"),
        ("recv", "post_recv: one SGE"),
        ("req", "poll, per completion: requester (SEND and WRITE)"),
        ("resp", "poll, per completion: responder (receive)"),
        ("empty", "poll of an empty CQ")]
out = ["<!-- mlx5dp:begin (bench/mlx5-dp.sh: generated, do not edit by hand) -->",
       "## The mlx5 data path: <uvio/dp.h> and the libibverbs plug-in against libmlx5",
       "",
       f"`{cmd}` (kernel {kver or '6.1'}, the mlx5 stand-in's emulated ConnectX on dummy0, "
       "RoCE, GID 0; one process per column, two RC QPs of mlx5_0 against each other, "
       "32 work requests in flight, one per post call, every one signalled; polls of 16; "
       f"the library built {btype}, Debian 12's libibverbs 44 and libmlx5). "
       "The plug-in column runs the libibverbs column's very calls (ibv_post_send, "
       "ibv_post_recv, ibv_poll_cq) with RDMAV_DRIVERS naming the plug-in, which then "
       "serves mlx5_0 in place of libmlx5.",
       "",
       "| user-space instructions | this library (<uvio/dp.h>) | the plug-in (libibverbs) "
       "| libibverbs + libmlx5 | library / libmlx5 | plug-in / libmlx5 |",
       "|---|---|---|---|---|---|"]
worse = []
for k, name in rows:
    r, q = u[k] / b[k], p[k] / b[k]
    out.append(f"| {name} | {u[k]:.1f} | {p[k]:.1f} | {b[k]:.1f} | {r:.3f} | {q:.3f} |")
    if r > 1:
        worse.append("the library: " + name)
    if q > 1:
        worse.append("the plug-in: " + name)
out += ["",
        "Instructions are callgrind's (in the guest, user space only: the kernel and the "
        "emulator's thread are not the process's) of exactly the functions of "
        "`bench/mlx5_dp.c` that make the calls: the library's or libibverbs' entry point and "
        "all below it (the plug-in's conversion of the work request and of the completion "
        "included), libmlx5's BlueFlame copy included; all run with LD_BIND_NOW=1, so that "
        "the dynamic linker's one lookup of a symbol called through the PLT is not counted. A poll that found the CQ empty (the "
        "emulator had not written the CQE yet) costs what a poll of an empty CQ costs (the "
        "last row, measured apart): those are taken out before dividing by the completions. "
        "Calls: " + "; ".join(f"{l}: " + ", ".join(f"{k} {v}" for k, v in calls[l].items())
                             for l in libs) + ".",
        "",
        "```"]
for k, _ in rows:
    out.append(f"ratio mlx5-dp-{k}-instructions uvio/ibv {u[k] / b[k]:.3f}")
for k, _ in rows:
    out.append(f"ratio mlx5-dp-{k}-instructions plugin/ibv {p[k] / b[k]:.3f}")
out += ["```", "<!-- mlx5dp:end -->"]
block = "\n".join(out)
print(block)
text = open(results).read()
m = re.search(r"<!-- mlx5dp:begin.*?<!-- mlx5dp:end -->", text, re.S)
text = text[:m.start()] + block + text[m.end():] if m else text.rstrip("\n") + "\n\n" + block + "\n"
open(results, "w").write(text)
if worse:
    print("mlx5-dp.sh: more instructions than libmlx5 for: " + "; ".join(worse))
    sys.exit(3)
PY
