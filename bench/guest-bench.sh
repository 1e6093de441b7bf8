#!/bin/sh
# Runs inside the guest in bench mode (tests/vm/run.sh BUILD IMAGE siw bench),
# on every RDMA device: the CQ benchmark (vm_bench), every verb and QP
# bring-up (uverbs_bench), cold start (cold_run), then user-space
# instructions under callgrind; on rxe, the data-path stream (dp_stream).
# Output is parsed by bench/run.sh and bench/dp.sh.
#   guest-bench.sh CQ_ROUNDS,CQ_PAIRS,VERB_ROUNDS,VERB_BATCH,QP_ROUNDS,QP_BATCH,COLD_ROUNDS,INSN_REPEAT[,DP_ROUNDS,DP_MSGS]
# A part whose rounds are 0 is left out (0,0,0,0,0,0,0,10: instructions
# only; 0,0,0,0,0,0,0,0,9,20000: the data-path stream only).
set -- $(echo "${1:-}" | tr , ' ')
cq_rounds=${1:-9} cq_pairs=${2:-3000} v_rounds=${3:-9} v_batch=${4:-100}
q_rounds=${5:-9} q_batch=${6:-50} c_rounds=${7:-21} insn=${8:-10}
dp_rounds=${9:-0} dp_msgs=${10:-20000}
rc=0
echo "guest: kernel $(uname -r)"
echo "guest: $(grep -c ^processor /proc/cpuinfo) vCPUs, $(sed -n 's/^MemTotal: *//p' /proc/meminfo)"
echo "guest: libibverbs providers installed: $(ls /etc/libibverbs.d | wc -l)"
devs=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p')

# The uverbs node of an IB device, and its driver id (the floor knows both).
node_of() {
	for u in /sys/class/infiniband_verbs/uverbs*; do
		[ "$(cat "$u/ibdev" 2>/dev/null)" = "$1" ] && { echo "/dev/infiniband/${u##*/}"; return; }
	done
}
driver_id_of() {
	case $1 in rxe*) echo 14 ;; siw*) echo 18 ;; *) echo 0 ;; esac
}

for dev in $devs; do
	echo
	echo "BENCH-DEVICE $dev"
	[ "$cq_rounds" = 0 ] || vm_bench "$dev" "$cq_rounds" "$cq_pairs" || rc=1
	echo "BENCH-VERBS $dev"
	[ "$v_rounds" = 0 ] || uverbs_bench verbs "$dev" "$v_rounds" "$v_batch" || rc=1
	echo "BENCH-QP $dev"
	[ "$q_rounds" = 0 ] || uverbs_bench qp "$dev" "$q_rounds" "$q_batch" || rc=1
	node=$(node_of "$dev") did=$(driver_id_of "$dev")
	[ "$c_rounds" = 0 ] && continue
	echo "BENCH-COLD $dev cq"
	cold_run "$c_rounds" "$dev" "$node" "$did" cq || rc=1
	case $dev in rxe*)
		echo "BENCH-COLD $dev qp"
		cold_run "$c_rounds" "$dev" "$node" "$did" qp || rc=1 ;;
	esac
done

# Instructions in user space, the real kernel answering (callgrind counts
# the program's instructions, none of the kernel's).
#   profile FILE LABEL: the dump's total; with "split", also by shared object
#   and the functions with at least 1% of it (self cost)
profile() {
	total=$(sed -n 's/^summary: //p' "$1")
	echo "INSN $2 = $total"
	[ "${3:-}" = split ] || return 0
	awk -v label="$2" '
		/^ob=/ { n = split(substr($0, 4), p, "/"); ob = p[n] }
		/^fn=/ { fn = substr($0, 4) }
		/^calls=/ { skip = 1; next }
		/^[0-9+-]/ { if (skip) { skip = 0; next }
			     self[ob "|" fn] += $NF; obj[ob] += $NF; all += $NF }
		END { for (o in obj) print "INSNOBJ " label "|" o "|" obj[o]
		      for (k in self) if (self[k] * 100 >= all)
			      print "INSNFN " label "|" k "|" self[k] }' "$1"
}
# The data path on rxe: messages per second of both libraries, rounds
# interleaved, then the instructions of each post and poll call (callgrind,
# one function counted per run).
if [ "$dp_rounds" != 0 ]; then
	for dev in $devs; do
		case $dev in rxe*) ;; *) continue ;; esac
		echo "BENCH-DP $dev"
		dp_stream "$dev" "$dp_rounds" "$dp_msgs" || rc=1
		command -v valgrind >/dev/null || continue
		for lib in uvio ibv; do
			for fn in post poll; do
				f=/tmp/dp-$lib-$fn
				valgrind --tool=callgrind --collect-atstart=no \
					--compress-strings=no --compress-pos=no \
					--toggle-collect="${fn}_$lib" --callgrind-out-file="$f" \
					dp_stream "$dev" insn "$lib" 2000 > "$f.out" 2> "$f.err" || {
					rc=1; tail -5 "$f.err"; }
				echo "DP CALLGRIND $lib $fn $(sed -n 's/^summary: //p' "$f") $(cat "$f.out")"
				profile "$f" "dp $lib $fn" split
			done
		done
	done
fi

if [ "$insn" = 0 ]; then
	:
elif command -v valgrind >/dev/null; then
	cg="valgrind --tool=callgrind --compress-strings=no --compress-pos=no"
	for dev in $devs; do
		out=/tmp/cg-$dev
		mkdir -p "$out"
		echo "BENCH-INSN $dev"
		# Each region of uverbs_insn is one dump, named by the program.
		$cg --collect-atstart=no --callgrind-out-file="$out/cg" \
			uverbs_insn insn "$dev" "$insn" > "$out/stdout" 2> "$out/stderr" || {
			rc=1; tail -5 "$out/stderr"; }
		grep '^RESULT' "$out/stdout"
		for f in "$out"/cg.*; do
			label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
			[ -n "$label" ] && profile "$f" "$label" split
		done
		# Cold start, whole programs from their first instruction.
		node=$(node_of "$dev") did=$(driver_id_of "$dev")
		modes=cq
		case $dev in rxe*) modes="cq qp" ;; esac
		for m in $modes; do
			$cg --callgrind-out-file="$out/cold-floor-$m" cold_floor 0 "$node" "$did" "$m" >/dev/null 2>&1 &&
				profile "$out/cold-floor-$m" "cold $m floor" split
			$cg --callgrind-out-file="$out/cold-uvio-$m" cold_uvio 0 "$dev" "$m" >/dev/null 2>&1 &&
				profile "$out/cold-uvio-$m" "cold $m uvio" split
			$cg --callgrind-out-file="$out/cold-ibv-$m" cold_ibv 0 "$dev" "$m" >/dev/null 2>&1 &&
				profile "$out/cold-ibv-$m" "cold $m ibv" split
		done
		$cg --callgrind-out-file="$out/cold-exec" cold_floor 0 "$node" "$did" none >/dev/null 2>&1 &&
			profile "$out/cold-exec" "cold none exec" split
	done
else
	echo "BENCH-INSN none: valgrind is not in the guest"
fi
echo "BENCH-END"
exit $rc
