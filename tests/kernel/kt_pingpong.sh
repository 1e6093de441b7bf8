#!/bin/sh
# Runs inside the guests of tests/vm/run-multi.sh: examples/rc_pingpong
# (libuverbs-ioctl, no libibverbs) against itself and against rdma-core's
# ibv_rc_pingpong in both roles, over rxe.
#
#   kt_pingpong.sh loop      one guest: server and client side by side,
#                            over rxe loopback
#   kt_pingpong.sh server    guest 0 of two: the server of each case
#   kt_pingpong.sh client    guest 1 of two: the client of each case
#
# Every case checks: both programs exit 0, rc_pingpong checked every
# message it received, ibv_rc_pingpong reports its iterations, and
# `rdma resource show` is back to what it was before the case; while an
# rc_pingpong server runs, its maps must hold libuverbs_ioctl and nothing of
# libibverbs. A bit flipped in one message (rc_pingpong --corrupt, either
# side) must stop the run with the message named. Two guests also run the
# benchmark side by side (BENCH lines) and, last, the power-off case: the
# harness stops the server's guest mid-run (UVIO-POWER-OFF) and the client
# must fail with a clear error within the bound.
#
# UVIO_ARGS: ITERS SIZE BENCH_ITERS BENCH_ROUNDS (defaults 200 4096 300 2).
set -u
role=$1
set -- ${UVIO_ARGS:-}
iters=${1:-200} size=${2:-4096} bench_iters=${3:-300} bench_rounds=${4:-2}
dev=rxe0 port=18515 ctl=18600
common="-d $dev -g 1 -m 4096 -s $size"
peer=${UVIO_PEER:-127.0.0.1}
[ "$role" = loop ] && peer=127.0.0.1
tag=pingpong
. /opt/uvio/guest-lib.sh

# rc_pingpong must not have libibverbs mapped: look at a running one.
check_maps() {	# check_maps PID CASE
	if [ ! -r "/proc/$1/maps" ]; then bad "$2: no /proc/$1/maps"; return; fi
	if grep -qi ibverbs "/proc/$1/maps"; then
		bad "$2: rc_pingpong has libibverbs mapped"; grep -i ibverbs "/proc/$1/maps"
	elif ! grep -q libuverbs_ioctl "/proc/$1/maps"; then
		bad "$2: rc_pingpong does not map libuverbs_ioctl"
	else
		ok "$2: rc_pingpong maps libuverbs_ioctl and nothing of libibverbs"
	fi
}

# Judge one side's output. rc_pingpong: exit 0, every message checked.
# ibv_rc_pingpong: exit 0 and its iteration line.
judge() {	# judge CASE PROGRAM RC OUTFILE
	sed "s/^/  [$2] /" "$4"
	if [ "$3" != 0 ]; then bad "$1: $2 exit $3"; return; fi
	case $2 in
	rc_pingpong)
		if grep -q "^$iters of $iters received messages checked" "$4"; then
			ok "$1: rc_pingpong checked $iters of $iters messages"
		else
			bad "$1: rc_pingpong did not check every message"
		fi ;;
	*)
		if grep -q "^$iters iters in" "$4"; then ok "$1: $2 ran $iters iterations"
		else bad "$1: $2 did not report $iters iterations"; fi ;;
	esac
}

server_cmd() {	# server_cmd PROGRAM [ARGS]: the server side of a case
	p=$1; shift
	case $p in
	rc_pingpong) echo "rc_pingpong $common -n $iters -T 60 -W 300 $*" ;;
	*) echo "timeout 300 ibv_rc_pingpong $common -n $iters $*" ;;
	esac
}
client_cmd() {
	p=$1; shift
	case $p in
	rc_pingpong) echo "rc_pingpong $common -n $iters -T 60 $* $peer" ;;
	*) echo "timeout 300 ibv_rc_pingpong $common -n $iters $* $peer" ;;
	esac
}

# One case: SERVER_PROGRAM CLIENT_PROGRAM, each side where its role runs.
run_case() {
	sp=$1 cp=$2 name="$1 server, $2 client"
	echo "=== $name"
	if [ "$role" != client ]; then
		say "\$ $(server_cmd "$sp")"
		$(server_cmd "$sp") > /tmp/server.out 2>&1 &
		spid=$!
		wait_listen $port || { bad "$name: server not listening"; kill $spid; return; }
		[ "$sp" = rc_pingpong ] && check_maps $spid "$name"
	fi
	barrier "$name" || { bad "$name: barrier"; return; }
	if [ "$role" != server ]; then
		say "\$ $(client_cmd "$cp")"
		$(client_cmd "$cp") > /tmp/client.out 2>&1
		crc=$?
		judge "$name" "$cp" $crc /tmp/client.out
	fi
	if [ "$role" != client ]; then
		wait $spid
		judge "$name" "$sp" $? /tmp/server.out
	fi
	barrier "$name: done" || bad "$name: closing barrier"
	check_resources "$name"
}

# A spoiled payload must be caught: one side flips a bit of its message 3,
# the other must stop at message 3 with the difference named; the spoiler
# then waits for a reply that never comes and stops at its -T.
corrupt_case() {	# corrupt_case server|client: who spoils
	name="spoiled message from the $1"
	echo "=== $name"
	s_extra= c_extra=
	[ "$1" = server ] && s_extra="--corrupt 3" || c_extra="--corrupt 3"
	if [ "$role" != client ]; then
		rc_pingpong $common -n $iters -T 5 -W 300 $s_extra > /tmp/server.out 2>&1 &
		spid=$!
		wait_listen $port || { bad "$name: server not listening"; kill $spid; return; }
	fi
	barrier "$name" || { bad "$name: barrier"; return; }
	if [ "$role" != server ]; then
		rc_pingpong $common -n $iters -T 5 $c_extra $peer > /tmp/client.out 2>&1
		echo "client exit $?" >> /tmp/client.out
		sed "s/^/  [client] /" /tmp/client.out
	fi
	if [ "$role" != client ]; then
		wait $spid
		echo "server exit $?" >> /tmp/server.out
		sed "s/^/  [server] /" /tmp/server.out
	fi
	# The side that receives the spoiled message names it; both fail.
	[ "$1" = server ] && judge_side=client || judge_side=server
	for side in server client; do
		[ "$role" = loop ] || [ "$role" = $side ] || continue
		f=/tmp/$side.out
		if grep -q "exit 0$" $f; then
			bad "$name: the $side exited 0"
		elif [ $side = $judge_side ] && ! grep -q "message 3 differs from pattern 3 at byte" $f; then
			bad "$name: the $side did not name the spoiled message"
		else
			ok "$name: the $side failed as it should"
		fi
	done
	barrier "$name: done" || bad "$name: closing barrier"
	check_resources "$name"
}

# Latency and messages/s of both programs, same guests, same sizes,
# alternating (ABBA), and the CPU time (user + system, as time(1) sees it) each
# side spent per round trip. Both programs sleep on the completion channel
# (ibv_rc_pingpong -e). Each side prints a BENCH line per run.
bench_one() {	# bench_one PROGRAM SIZE ROUND
	p=$1 sz=$2 r=$3 name="bench $1 size $2 round $3"
	args="-d $dev -g 1 -m 4096 -s $sz -n $bench_iters"
	# rc_pingpong-write: the same example with the device pinned to
	# write(), its doorbell a plain write() as libibverbs' rxe provider's.
	exe=$p
	[ $p = rc_pingpong-write ] && exe="env UVERBS_IOCTL_PATH=write rc_pingpong"
	case $p in rc_pingpong*) args="$args -T 60" ;; *) args="$args -e" ;; esac
	side=client out=/tmp/bc.out
	# bench/pingpong.sh adds a system call counter (LD_PRELOAD).
	count=
	rm -f /tmp/sc.out
	[ -f /opt/uvio/libppcount.so ] &&
		count="env LD_PRELOAD=/opt/uvio/libppcount.so PP_SYSCOUNT_OUT=/tmp/sc.out"
	if [ "$role" = server ]; then
		side=server out=/tmp/bs.out
		case $p in rc_pingpong*) args="$args -W 300" ;; esac
		busybox time -o /tmp/time.out -p timeout 300 $count $exe $args > $out 2>&1 &
		spid=$!
		wait_listen $port || { bad "$name: no server"; return 1; }
		barrier "$name"
		wait $spid
	else
		barrier "$name"
		busybox time -o /tmp/time.out -p timeout 300 $count $exe $args $peer > $out 2>&1
	fi
	crc=$?
	us=$(sed -n 's/.* = \([0-9.]*\) usec\/iter$/\1/p' $out)
	cpu=$(awk -v n=$bench_iters '$1 == "user" || $1 == "sys" { t += $2 }
		END { printf "%.0f", t * 1e6 / n }' /tmp/time.out)
	sc=
	[ -f /tmp/sc.out ] && sc=" syscalls_per_iter=$(awk -v n=$bench_iters \
		'{ printf "%.2f", ($2 + $4 + $6 + $8 + $10) / n }' /tmp/sc.out)"
	if [ $crc != 0 ] || [ -z "$us" ]; then
		bad "$name: $side exit $crc"; cat $out
	else
		echo "BENCH program=$p size=$sz iters=$bench_iters round=$r side=$side usec_per_iter=$us cpu_us_per_iter=$cpu$sc"
		[ -f /tmp/sc.out ] && echo "  syscalls of $p ($side): $(cat /tmp/sc.out)"
	fi
	barrier "$name: done"
}
bench() {
	for sz in 64 $size; do
		r=0
		while [ $r -lt "$bench_rounds" ]; do
			r=$((r + 1))
			# ABBA: who goes first alternates, so that a drift in
			# the host's load falls on all alike.
			order="rc_pingpong ibv_rc_pingpong rc_pingpong-write"
			[ $((r % 2)) = 0 ] && order="rc_pingpong-write ibv_rc_pingpong rc_pingpong"
			for p in $order; do
				bench_one $p $sz $r || return
			done
		done
	done
	ok "benchmark ran"
}

# The server's guest vanishes in the middle of a long run; the client
# must stop with a clear error within the bound: about 0.5 s of transport
# retries when a send is in flight, -T when it waits for a reply.
bound=10
poweroff_case() {
	name="peer powered off"
	echo "=== $name"
	if [ "$role" = server ]; then
		rc_pingpong $common -n 1000000 -T 60 -W 300 > /tmp/server.out 2>&1 &
		wait_listen $port
		barrier "$name"
		sleep 5
		cat /tmp/server.out
		say "powering off now, mid-run"
		echo "UVIO-EXIT $([ $fail = 0 ] && echo 0 || echo 1)"
		# The harness stops this guest's qemu from outside: no guest
		# code runs on the way down, as if the plug were pulled. (From
		# inside, poweroff -f and sysrq b each once left Debian 6.1 in a
		# soft lockup in the RC sender instead of going down.)
		echo "UVIO-POWER-OFF"
		sleep 60
	fi
	barrier "$name"
	t0=$(now_ms)
	rc_pingpong $common -n 1000000 -T $bound $peer > /tmp/client.out 2>&1
	crc=$?
	t1=$(now_ms)
	sed "s/^/  [rc_pingpong] /" /tmp/client.out
	say "client exit $crc after $((t1 - t0)) ms (peer powered off about 5 s in)"
	if [ $crc = 0 ]; then
		bad "$name: the client did not notice"
	elif ! grep -Eq "transport retry counter exceeded|timed out waiting for a completion" /tmp/client.out; then
		bad "$name: the client's error does not say what happened"
	elif [ $((t1 - t0)) -gt $(( (5 + bound + 10) * 1000 )) ]; then
		bad "$name: the client took $((t1 - t0)) ms"
	else
		ok "$name: clear error $(( (t1 - t0) / 1000 )) s after the start, within 5 + $bound s + 10 s slack"
	fi
	check_resources "$name"
}

say "kernel $(uname -r), $dev on $(rdma link show | sed -n 's/.*netdev \([^ ]*\).*/\1/p'), peer $peer"
resources
[ "$role" = server ] && sleep 0	# nothing to wait for: barriers order the cases
run_case rc_pingpong rc_pingpong
run_case rc_pingpong ibv_rc_pingpong
run_case ibv_rc_pingpong rc_pingpong
corrupt_case client
corrupt_case server
if [ "$role" != loop ]; then
	bench
	poweroff_case
fi
say "$pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
