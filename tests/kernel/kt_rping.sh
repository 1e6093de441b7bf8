#!/bin/sh
# Runs inside the guests of tests/vm/run-multi.sh: examples/uvio_rping
# (libuverbs-ioctl alone: no librdmacm, no libibverbs) against itself and
# against librdmacm's rping in both roles, through the connection manager,
# on the guest's device (rxe0 or siw0, UVIO_VM_DEV of run-multi.sh).
#
#   kt_rping.sh loop      one guest: server and client side by side
#   kt_rping.sh server    guest 0 of two: the server of each case
#   kt_rping.sh client    guest 1 of two: the client of each case
#
# Every case checks: both sides exit 0; each side that prints the rounds
# printed every one (uvio_rping compares every payload itself: the server
# what it read against round N's pattern, the client what came back against
# what it sent; rping -V compares on its client); while a uvio_rping runs,
# its maps hold libuverbs_ioctl and nothing of libibverbs or librdmacm; and
# `rdma resource show` (cm_ids included) is back to what it was. Then a
# peer that goes away mid-run: killed (the other side must report the
# disconnect and stop within the bound) and, across two guests, powered off
# (the client must fail with a clear error within the bound).
#
# UVIO_ARGS: COUNT SIZE (defaults 20 and 4096).
set -u
role=$1
set -- ${UVIO_ARGS:-}
count=${1:-20} size=${2:-4096}
port=7174 ctl=18601
tag=rping
dev=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p' | head -n1)
me=${UVIO_ADDRS%%/*}
peer=${UVIO_PEER:-$me}
[ "$role" = loop ] && peer=$me
. /opt/uvio/guest-lib.sh

check_maps() {	# check_maps PID CASE
	if [ ! -r "/proc/$1/maps" ]; then bad "$2: no /proc/$1/maps"; return; fi
	if grep -qiE "ibverbs|rdmacm" "/proc/$1/maps"; then
		bad "$2: uvio_rping has libibverbs or librdmacm mapped"
		grep -iE "ibverbs|rdmacm" "/proc/$1/maps"
	elif ! grep -q libuverbs_ioctl "/proc/$1/maps"; then
		bad "$2: uvio_rping does not map libuverbs_ioctl"
	else
		ok "$2: uvio_rping maps libuverbs_ioctl and nothing of libibverbs or librdmacm"
	fi
}

# Debian's rping writes its lines with stdio, which buffers a file fully:
# one that its timeout kills would lose them, and with them what judge and
# siw_stall read (a server that was connected looked like one that never
# was). coreutils' libstdbuf, put in /opt/uvio/bin by the test's
# registration where the host has it, makes them line-buffered, as on a
# terminal. rping has no bound of its own; 60 s is twenty times what its
# 20 rounds take here.
rping="timeout 60 rping"
[ -f /opt/uvio/bin/libstdbuf.so ] &&
	rping="timeout 60 env LD_PRELOAD=/opt/uvio/bin/libstdbuf.so _STDBUF_O=L rping"
server_cmd() {
	case $1 in
	uvio_rping) echo "uvio_rping -s -a $me -p $port -S $size -v -d -T 30" ;;
	*) echo "$rping -s -a $me -p $port -S $size -v -V -d" ;;
	esac
}
client_cmd() {
	case $1 in
	uvio_rping) echo "uvio_rping -c -a $peer -p $port -S $size -C $count -v -T 30" ;;
	*) echo "$rping -c -a $peer -p $port -S $size -C $count -v -V" ;;
	esac
}

# show TAG: a program's lines, indented and tagged; a round's payload line
# (-v: the whole -S bytes) cut to its first 160 characters.
show() { sed -e 's/^\(.\{160\}\).\{1,\}$/\1 [...]/' -e "s/^/  [$1] /"; }

# judge CASE SIDE PROGRAM RC OUTFILE: exit 0 and every round printed. A
# rping that its timeout killed is marked so in its file (siw_stall reads
# it): busybox's timeout exits with the killed program's status, 143 (TERM),
# coreutils' with 124.
jfail=0
judge() {
	case $4 in 124|143) echo "UVIO-TIMEOUT: killed after its bound" >> "$5" ;; esac
	jbad=$fail
	lines=$(grep -c "ping data: rdma-ping-" "$5")
	grep -v "completion wr_id" "$5" | head -n 12 | show "$2 $3"
	[ "$4" = 0 ] && [ "$lines" = "$count" ] || { echo "  [...]"; tail -n 12 "$5" | show "$2 $3"; }
	if [ "$4" != 0 ]; then
		bad "$1: the $2 ($3) exited $4"
	elif [ "$lines" != "$count" ]; then
		bad "$1: the $2 ($3) printed $lines of $count rounds"
	else
		ok "$1: the $2 ($3) ran $count rounds of $size bytes"
	fi
	jfail=$((jfail + fail - jbad))
}

# siw's accept window (guest-lib.sh, siw_stall): a siw case that ended as
# that stall does (no round, the server's first RDMA READ never completed,
# each side out of time or told of the disconnect), and in which nothing but
# the two programs' verdicts failed, is run again, saying so
# (stall_retry_line), three attempts at most; any other failure, or that
# one three times, stays a failure. Across two guests both must see it
# (agree), and they retry together.
retries=0
run_case() {	# run_case SERVER_PROGRAM CLIENT_PROGRAM [ATTEMPT]
	name="$1 server, $2 client"
	attempt=${3:-1}
	[ "$attempt" = 1 ] || name="$name (attempt $attempt)"
	before=$fail jbefore=$jfail
	echo "=== $name"
	if [ "$role" != client ]; then
		say "\$ $(server_cmd "$1")"
		$(server_cmd "$1") > /tmp/server.out 2>&1 &
		spid=$!
		wait_cm_listen || { bad "$name: the server is not listening"; kill $spid; return; }
		[ "$1" = uvio_rping ] && check_maps $spid "$name"
	fi
	barrier "$name" || { bad "$name: barrier"; return; }
	if [ "$role" != server ]; then
		say "\$ $(client_cmd "$2")"
		$(client_cmd "$2") > /tmp/client.out 2>&1
		judge "$name" client "$2" $? /tmp/client.out
	fi
	if [ "$role" != client ]; then
		wait $spid
		judge "$name" server "$1" $? /tmp/server.out
	fi
	barrier "$name: done" || bad "$name: closing barrier"
	check_resources "$name"
	[ "$attempt" -lt 3 ] || return
	stall=no
	[ $fail -gt $before ] && [ $((fail - before)) = $((jfail - jbefore)) ] &&
		stall=$(siw_stall "$dev" "$role" /tmp/server.out /tmp/client.out)
	if [ "$(agree "$name: siw stall" $stall)" = yes ]; then
		retries=$((retries + 1))
		stall_retry_line "$name" "$attempt"
		fail=$before
		run_case "$1" "$2" $((attempt + 1))
	fi
}

# One side is killed (SIGKILL) 3 s into an endless run; the other must see
# the disconnect and stop within the bound: the kernel destroys the dead
# side's id, which disconnects the connection.
bound=15
kill_case() {	# kill_case server|client: who dies
	name="$1 killed mid-run"
	echo "=== $name"
	[ "$role" = loop ] || { say "$name: one guest only"; return; }
	uvio_rping -s -a $me -p $port -S $size -T $bound > /tmp/server.out 2>&1 &
	spid=$!
	wait_cm_listen || { bad "$name: the server is not listening"; kill $spid; return; }
	uvio_rping -c -a $peer -p $port -S $size -C 0 -T $bound > /tmp/client.out 2>&1 &
	cpid=$!
	sleep 3
	t0=$(now_ms)
	if [ "$1" = server ]; then
		kill -9 $spid; wait $spid
		victim=client vpid=$cpid out=/tmp/client.out
	else
		kill -9 $cpid; wait $cpid
		victim=server vpid=$spid out=/tmp/server.out
	fi
	wait $vpid
	rc=$?
	t1=$(now_ms)
	tail -n 4 $out | show "$victim"
	say "the $victim exited $rc after $((t1 - t0)) ms"
	if ! grep -q "DISCONNECT EVENT" $out; then
		bad "$name: the $victim did not report the disconnect"
	elif [ "$victim" = client ] && [ $rc = 0 ]; then
		bad "$name: the client exited 0 although its rounds did not end"
	elif [ $((t1 - t0)) -gt $((bound * 1000)) ]; then
		bad "$name: the $victim took $((t1 - t0)) ms"
	else
		ok "$name: the $victim reported the disconnect after $((t1 - t0)) ms"
	fi
	check_resources "$name"
}

# The server's guest vanishes mid-run (run-multi.sh stops its qemu); the
# client must stop with a clear error within its -T bound and slack: 60 s
# from its start, of which the server's guest waits up to 30 s for the
# connection and 2 s of rounds, -T is 5 s, and 20 s are TCG's.
poweroff_case() {
	name="peer powered off"
	echo "=== $name"
	if [ "$role" = server ]; then
		uvio_rping -s -a $me -p $port -S $size -v -T 60 > /tmp/server.out 2>&1 &
		wait_cm_listen
		barrier "$name"
		# Off once the client is mid-run (a round done here, then 2 s
		# more), not at a fixed time: a client that a busy host kept from
		# connecting would meet a vanished peer in the connection's setup
		# instead (siw connects its TCP socket in the connect command
		# itself).
		t0=$(now_ms)
		until grep -q "ping data: " /tmp/server.out; do
			[ $(( $(now_ms) - t0 )) -gt 30000 ] && break
			sleep 0.1
		done
		sleep 2
		say "powering off now, mid-run"
		echo "UVIO-EXIT $([ $fail = 0 ] && echo 0 || echo 1)"
		echo "UVIO-POWER-OFF"
		sleep 120
	fi
	barrier "$name" || { bad "$name: barrier"; return; }
	say "the server's guest powers off 2 s into the rounds"
	t0=$(now_ms)
	uvio_rping -c -a $peer -p $port -S $size -C 0 -T 5 > /tmp/client.out 2>&1 &
	cpid=$!
	# Its verdict's bound is 60 s; one still running at 75 s is hung, and
	# where its threads wait goes to the log before it is killed (a
	# two-guest siw run on 5.10, under a loaded host, once went silent in
	# this case until the guest's own timeout); at 20 s, once, as [slow].
	outlives $cpid 75 20 && kill -9 $cpid
	wait $cpid
	rc=$?
	t1=$(now_ms)
	tail -n 4 /tmp/client.out | show client
	say "client exit $rc after $((t1 - t0)) ms (peer powered off 2 s into the rounds)"
	if [ $rc = 0 ]; then
		bad "$name: the client did not notice"
	elif ! grep -Eq "completion error|no completion within|DISCONNECT" /tmp/client.out; then
		bad "$name: the client's error does not say what happened"
	elif [ $((t1 - t0)) -gt $(( (30 + 2 + 5 + 20) * 1000 )) ]; then
		bad "$name: the client took $((t1 - t0)) ms"
	else
		ok "$name: clear error $(( (t1 - t0) / 1000 )) s after the start"
	fi
	check_resources "$name"
}

say "kernel $(uname -r), $dev, me $me, peer $peer"
resources
run_case uvio_rping uvio_rping
run_case uvio_rping rping
run_case rping uvio_rping
kill_case client
kill_case server
[ "$role" != loop ] && poweroff_case
say "$pass passed, $fail failed, $retries siw attempt(s) run again after a stall"
[ $fail = 0 ] && [ $pass -gt 0 ]
