#!/bin/bash
# Round-trip latency and messages per second of examples/rc_pingpong
# (libuverbs-ioctl, rxe rings of its own), of the same with its device pinned
# to write() (rc_pingpong-write: every command, the doorbell included, a plain
# write(), as libibverbs' rxe provider rings it) and of rdma-core's
# ibv_rc_pingpong (libibverbs and its rxe provider), side by side in one
# two-guest run.
#
#   bench/pingpong.sh BUILD_DIR [ITERS [ROUNDS]]
#
# Boots two guests with tests/vm/run-multi.sh and runs
# tests/kernel/kt_pingpong.sh there (its checks first, with 50 iterations);
# then, for 64-byte and 4096-byte messages, ROUNDS rounds (default 5) of
# ITERS round trips (default 1000) of each program, alternating (each round
# reverses who goes first), and prints
# a Markdown table of the medians. All of them sleep on the completion
# channel (ibv_rc_pingpong -e), as rc_pingpong always does.
set -euo pipefail
build=$(cd "$1" && pwd) iters=${2:-1000} rounds=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$log" "$tmp"' EXIT
# A system call counter for both programs (LD_PRELOAD in the guests).
cc -shared -fPIC -O2 -Wall -Werror -o "$tmp/libppcount.so" "$here/pp_syscount.c" -Wl,--as-needed -ldl

load=$(cut -d' ' -f1-3 /proc/loadavg)
cmd="UVIO_VM_ARGS=50,4096,$iters,$rounds tests/vm/run-multi.sh BUILD linux-image-amd64 2 BUILD/tests/kernel/kt_pingpong.sh server client -- libppcount.so"
UVIO_VM_ARGS=50,4096,$iters,$rounds "$here/../tests/vm/run-multi.sh" "$build" linux-image-amd64 2 \
	"$build/tests/kernel/kt_pingpong.sh" server client -- "$tmp/libppcount.so" > "$log" 2>&1 || {
	tail -40 "$log"; echo "pingpong.sh: the run failed"; exit 1; }

kernel=$(sed -n 's/.*pingpong\[server\]: kernel \([^ ,]*\).*/\1/p' "$log" | head -n1)
echo "Two guests (qemu TCG, 2 vCPUs each, one host), Debian $kernel, rxe over virtio-net"
echo "(MTU 9000, path MTU 4096), qemu UDP socket network on 127.0.0.1. $rounds rounds of"
echo "$iters round trips per program and size, alternating (ABBA); medians of the rounds. A round"
echo "trip is one message each way; messages/s counts both. CPU: user + system time of"
echo "each side's process (time(1), 10 ms ticks) per round trip; system calls: ioctl, write,"
echo "read, poll and clock reads counted by LD_PRELOAD (bench/pp_syscount.c), setup included."
echo "All sleep on the completion channel (ibv_rc_pingpong -e). Host load average"
echo "at the start: $load."
echo
echo "Command: \`$cmd\` (or \`bench/pingpong.sh BUILD $iters $rounds\`)"
echo
echo "| program | size (bytes) | round trip (us) | messages/s | CPU per round trip, client + server (us) | system calls per round trip, client + server | round trips, each round (us) |"
echo "|---|---|---|---|---|---|---|"
sed -n 's/^\[g[01]\] BENCH //p' "$log" |
awk '
function median(arr, m,    a, b, t, s) {
	for (a = 1; a <= m; a++) s[a] = arr[a]
	for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
		if (s[b] + 0 < s[a] + 0) { t = s[a]; s[a] = s[b]; s[b] = t }
	return (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
}
{
	delete f
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	k = f["program"] " " f["size"]
	if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
	if (f["side"] == "client") lat[k, ++nl[k]] = f["usec_per_iter"]
	cpu[k, f["round"], f["side"]] = f["cpu_us_per_iter"]
	sys[k, f["round"], f["side"]] = f["syscalls_per_iter"]
	rounds[k, f["round"]] = 1
}
END {
	for (j = 1; j <= nk; j++) {
		k = order[j]; m = nl[k]; all = ""
		delete L; delete C
		for (a = 1; a <= m; a++) { L[a] = lat[k, a]; all = all (a > 1 ? ", " : "") lat[k, a] }
		nc = 0; delete S
		for (r = 1; (k, r) in rounds; r++) {
			C[++nc] = cpu[k, r, "client"] + cpu[k, r, "server"]
			S[nc] = sys[k, r, "client"] + sys[k, r, "server"]
		}
		med = median(L, m)
		split(k, pk, " ")
		printf "| %s | %s | %.0f | %.0f | %.0f | %.2f | %s |\n", pk[1], pk[2], med, 2e6 / med,
			median(C, nc), median(S, nc), all
	}
}'
fails=$(grep -c -- '--- FAIL' "$log" || true)
[ "$fails" = 0 ] || { echo; echo "pingpong.sh: $fails check(s) failed in the run:"; grep -- '--- FAIL' "$log"; exit 1; }
