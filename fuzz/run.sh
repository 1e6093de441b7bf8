#!/bin/sh
# Build the fuzz targets with clang (ASan + UBSan) and run each for SECONDS,
# starting from the seed corpus in the tree (copied: the tree is not written).
#   fuzz/run.sh [SECONDS]      (default 60)
# Prints executions and coverage per target; fails on any finding. Inputs
# named regress_* in the corpus once found a bug, kept so that it stays fixed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
b=$top/build-fuzz
CC=clang cmake -S "$top" -B "$b" -DUVIO_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$b" -j"$(nproc)" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0
for t in decode outputs trace cm; do
	mkdir -p "$work/$t"
	[ -d "$top/fuzz/corpus/$t" ] && cp "$top/fuzz/corpus/$t"/* "$work/$t/"
	if (cd "$work" && "$b/fuzz/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 \
		"$work/$t" > "$work/$t.log" 2>&1); then
		res=ok
	else
		res=FAILED
		rc=1
		grep -E 'ERROR|SUMMARY|runtime error' "$work/$t.log" | head -20
		cp "$work"/crash-* "$work"/leak-* "$top/build-fuzz/" 2>/dev/null || true
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$work/$t.log")
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$work/$t.log" | tail -n1)
	echo "fuzz_$t: $res, ${execs:-?} executions in ${secs} s, $cov"
done
exit $rc
