#!/bin/sh
# Instructions, time and heap allocations per CQ CREATE build (9 attributes),
# and user-space instructions per verb pair, per DEVICE.QUERY and per
# adopt-and-GET_CONTEXT, with
# budgets where a regression would cost every verb.
#   bench/build-cost.sh [BUILD_DIR]
set -eu
b=${1:-build}/bench

# instructions PROGRAM FUNCTION ARGS...: callgrind's count inside FUNCTION
instructions() {
	out=$(mktemp -d)
	prog=$1 fn=$2
	shift 2
	valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect="$fn" \
		"$prog" "$@" >/dev/null 2>"$out/log"
	callgrind_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
	rm -rf "$out"
}

"$b/build_cost" 10000000
ir=$(instructions "$b/build_cost" build_cq_create 1000)
echo "callgrind: $ir instructions in 1000 builds = $((ir / 1000)) per build (budget 150)"
[ "$((ir / 1000))" -le 150 ] || { echo "over budget"; exit 1; }

# A whole verb pair in user space (CQ create + destroy through the library,
# kernel replaced by a stand-in ioctl in verb_cost.c).
if [ -x "$b/verb_cost" ]; then
	ir=$(instructions "$b/verb_cost" run_pairs 1000)
	echo "callgrind: $((ir / 1000)) instructions per CQ create+destroy pair in user space (stand-in kernel included)"
	ir=$(instructions "$b/verb_cost" run_qp 1000 qp)
	echo "callgrind: $((ir / 1000)) instructions per QP bring-up (create, INIT, RTR, RTS, destroy) in user space (stand-in kernel included)"
	# The cheapest verbs show what the path adds to a system call: the
	# bare floor sends DEVICE.QUERY in about 75 instructions.
	for m in query query-ioctl; do
		ir=$(instructions "$b/verb_cost" run_query 1000 $m)
		echo "callgrind: $((ir / 1000)) instructions per DEVICE.QUERY ($m; stand-in kernel and loop included; budget 130)"
		[ "$((ir / 1000))" -le 130 ] || { echo "over budget"; exit 1; }
	done
	# GET_CONTEXT on a fresh fd, as the guest benchmark times it: adopt
	# (here through sysfs's dev/char link, not the reserved numbers),
	# context and async fd, close. 5 883 when names were printf'd.
	ir=$(instructions "$b/verb_cost" run_context 1000 context)
	echo "callgrind: $((ir / 1000)) instructions per adopt, GET_CONTEXT, close (stand-in kernel and loop included; budget 3500)"
	[ "$((ir / 1000))" -le 3500 ] || { echo "over budget"; exit 1; }
fi
