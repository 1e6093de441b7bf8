#!/bin/bash
# The benchmark, end to end, written to bench/RESULTS.md and bench/results.png.
#   bench/run.sh [BUILD_DIR]      (UVIO_BENCH_ARGS=ROUNDS,PAIRS, default 9,3000)
# 1. on the host: instructions (callgrind), ns and heap allocations per
#    CQ CREATE build;
# 2. in the VM (Debian's 6.1 kernel, rxe and siw): CQ create+destroy pairs/s
#    for the bare ioctl floor, this library's ioctl and write() paths,
#    libibverbs' command layer and its public verbs, interleaved rounds;
#    syscalls and heap allocations per verb; discovery cost; 1-8 threads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$(cd "${1:-$top/build}" && pwd)
out=$here/RESULTS.md
log=$(mktemp)
trap 'rm -f "$log"' EXIT

cmake --build "$build" -j"$(nproc)" >/dev/null
echo "bench: host build cost"
host=$("$here/build-cost.sh" "$build")
echo "$host"
echo "bench: VM run"
UVIO_BENCH_ARGS=${UVIO_BENCH_ARGS:-9,3000} \
	"$top/tests/vm/run.sh" "$build" linux-image-amd64 siw bench > "$log" 2>&1 ||
	{ tail -30 "$log"; exit 1; }
grep -E '^(round|RESULT)|BENCH-DEVICE' "$log"

# RESULT lines per device into shell-friendly "dev key value" triples.
triples=$(awk 'match($0, /BENCH-DEVICE [^ ]+/) { dev = substr($0, RSTART + 13, RLENGTH - 13) }
	       /^RESULT/ { print dev, $2, $3 }' "$log")
get() { echo "$triples" | awk -v d="$1" -v k="$2" '$1 == d && $2 == k { print $3 }'; }
devices=$(echo "$triples" | awk '{ print $1 }' | uniq)
kver=$(sed -n 's/^guest: kernel //p; s/^kernel \([^:]*\):.*/\1/p' "$log" | head -n1)
[ -n "$kver" ] || kver=$(ls "$build"/vm-cache | sed -n 's/^kernel-//p' | head -n1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
qemu=$(qemu-system-x86_64 --version | head -n1)
ok() { [ -n "$1" ] || { echo "not measured"; return; }
       awk -v v="$1" -v lim="$2" 'BEGIN { print (v <= lim) ? "met" : "NOT met" }'; }

{
	echo "# Benchmark results"
	echo
	echo "Written by \`bench/run.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand."
	echo
	echo "Machine: $cpu, $(nproc) cores; guest: Debian kernel $kver under $qemu"
	echo "(TCG, no KVM), 2 vCPUs. Rounds x pairs: ${UVIO_BENCH_ARGS:-9,3000}."
	echo
	echo "User and kernel time per pair come from getrusage(2), which samples at the"
	echo "scheduler tick: read them as a split of the time, not to the last digit."
	echo
	echo "## Building a CQ CREATE command (host)"
	echo
	echo '```'
	echo "$host"
	echo '```'
	for d in $devices; do
		echo
		echo "## CQ create+destroy on $d (medians of interleaved rounds)"
		echo
		echo "| way | pairs/s | user us/pair | kernel us/pair | syscalls per verb | heap allocations per verb |"
		echo "|---|---|---|---|---|---|"
		echo "| bare ioctl, no library (floor) | $(get "$d" pairs_per_s_floor) | $(get "$d" user_us_per_pair_floor) | $(get "$d" sys_us_per_pair_floor) | 1 | 0 |"
		for w in ioctl write ibvcmd ibv; do
			case $w in
			ioctl) label="libuverbs-ioctl, ioctl path" ;;
			write) label="libuverbs-ioctl, write() path" ;;
			ibvcmd) label="libibverbs ibv_cmd_create_cq/ibv_cmd_destroy_cq" ;;
			ibv) label="libibverbs ibv_create_cq/ibv_destroy_cq" ;;
			esac
			echo "| $label | $(get "$d" "pairs_per_s_$w") | $(get "$d" "user_us_per_pair_$w") | $(get "$d" "sys_us_per_pair_$w") | $(get "$d" "syscalls_per_verb_$w") | $(get "$d" "heap_allocs_per_verb_$w") |"
		done
		rf=$(get "$d" ratio_ioctl_to_floor)
		rc=$(get "$d" ratio_ioctl_to_ibvcmd)
		echo
		echo "- time ratio, library ioctl path / floor: **$rf** (goal <= 1.10: $(ok "$rf" 1.10))"
		echo "- time ratio, library ioctl path / libibverbs command layer: **$rc** (goal <= 0.95: $(ok "$rc" 0.95))"
		echo "- discovery under a filter that refuses the verbs ioctl: $(get "$d" discovery_ioctls) refused ioctl and $(get "$d" discovery_writes) write() calls for $(get "$d" discovery_commands) commands on a fresh device"
		echo "- threads sharing one device handle (ioctl path), pairs/s: 1: $(get "$d" threads_1_pairs_per_s), 2: $(get "$d" threads_2_pairs_per_s), 4: $(get "$d" threads_4_pairs_per_s), 8: $(get "$d" threads_8_pairs_per_s)"
		echo
		echo "Rounds (pairs/s each way, and the two ratios of that round):"
		echo
		echo '```'
		awk -v d="$d" 'match($0, /BENCH-DEVICE [^ ]+/) {
			on = (substr($0, RSTART + 13, RLENGTH - 13) == d) } on && /^round/' "$log"
		echo '```'
	done
	echo
	echo "![throughput](results.png)"
} > "$out"

# The plot: pairs/s per way and per thread count, one group per device.
data=$(mktemp)
for d in $devices; do
	printf '%s %s %s %s %s %s %s %s %s %s\n' "$d" \
		"$(get "$d" pairs_per_s_floor)" "$(get "$d" pairs_per_s_ioctl)" \
		"$(get "$d" pairs_per_s_write)" "$(get "$d" pairs_per_s_ibvcmd)" \
		"$(get "$d" pairs_per_s_ibv)" "$(get "$d" threads_1_pairs_per_s)" \
		"$(get "$d" threads_2_pairs_per_s)" "$(get "$d" threads_4_pairs_per_s)" \
		"$(get "$d" threads_8_pairs_per_s)"
done > "$data"
gnuplot <<GP
set terminal pngcairo size 1100,520 font ",10" noenhanced
set output "$here/results.png"
set multiplot layout 1,2 title "CQ create+destroy pairs/s, Debian $kver under qemu TCG"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
set grid ytics
set key below
set title "per command path"
plot "$data" using 2:xtic(1) title "bare ioctl (floor)", '' using 3 title "libuverbs-ioctl ioctl", \
     '' using 4 title "libuverbs-ioctl write()", '' using 5 title "libibverbs ibv_cmd_*", \
     '' using 6 title "libibverbs ibv_*_cq"
set title "libuverbs-ioctl ioctl path, threads on one handle"
plot "$data" using 7:xtic(1) title "1 thread", '' using 8 title "2", '' using 9 title "4", \
     '' using 10 title "8"
unset multiplot
GP
rm -f "$data"
echo "bench: wrote $out and $here/results.png"
