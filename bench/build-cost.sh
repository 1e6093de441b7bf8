#!/bin/sh
# Instructions, time and heap allocations per CQ CREATE build (9 attributes).
#   bench/build-cost.sh [BUILD_DIR]
set -eu
b=${1:-build}/bench/build_cost
"$b" 10000000
out=$(mktemp -d)
valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
	--toggle-collect=build_cq_create "$b" 1000 >/dev/null 2>"$out/log"
ir=$(callgrind_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
echo "callgrind: $ir instructions in 1000 builds = $((ir / 1000)) per build (budget 150)"
rm -rf "$out"
[ "$((ir / 1000))" -le 150 ] || { echo "over budget"; exit 1; }
# A whole verb pair in user space (CQ create + destroy through the library,
# kernel replaced by a stand-in ioctl in verb_cost.c).
vc=${1:-build}/bench/verb_cost
if [ -x "$vc" ]; then
	out=$(mktemp -d)
	valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
		--toggle-collect=run_pairs "$vc" 1000 >/dev/null 2>"$out/log"
	ir=$(callgrind_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
	echo "callgrind: $((ir / 1000)) instructions per CQ create+destroy pair in user space (stand-in kernel included)"
	rm -rf "$out"
fi
