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
[ "$((ir / 1000))" -le 150 ]
