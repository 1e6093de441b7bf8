#!/bin/sh
# Runs in the guests of tests/vm/siw-rping-stall.sh (tests/vm/run-multi.sh):
# RUNS connections, one after the other, of a server and a client over the
# guest's device (siw0 or rxe0), each bounded, the guest's TCP captured for
# every run (tcpdump on every interface: in one guest the connection to the
# guest's own address goes over lo, not over the device's netdev; rxe's
# RoCE v2 packets, UDP 4791, too).
#
#   kt_rping_stall.sh loop      one guest: server and client side by side
#   kt_rping_stall.sh server    guest 0 of two: the server of each run
#   kt_rping_stall.sh client    guest 1 of two: the client of each run
#
# A side whose program did not end within the bound (the client's, from its
# start; the server's, 5 s more), or that exited non-zero, is reported with,
# taken on that guest before anything is killed: both programs' output
# (rping -d: every CM event and completion it saw), every thread's kernel
# stack, ss -tanie (siw's sockets are the kernel's own: their queues),
# rdma resource show, dmesg; then the capture, packet by packet.
#
# rping writes its lines with stdio, which buffers a file fully: a killed
# rping loses them (a client killed in its 20th round says nothing). Here
# libstdbuf.so (coreutils, preloaded) makes stdout line-buffered, as on a
# terminal; the binary is Debian's own.
#
# UVIO_ARGS: RUNS PAIR BOUND COUNT SIZE CAPTURE
#   (defaults 30 rping:rping 15 20 4096 1)
#   PAIR: SERVER:CLIENT, each rping (Debian's) or uvio_rping (this project's)
#   CAPTURE: 1 tcpdump every run, 0 none (to see what the capture changes)
# Each guest prints one line per run ("stall[ROLE]: run N: ok|STALLED|FAILED
# ...") and a last line "stall[ROLE]: RESULT runs R ok O stalled S failed F
# first-stalled 0|1". STALLED: no round completed (the client printed none;
# on the server's guest, the server read none); FAILED: any other failure.
set -u
role=$1
set -- ${UVIO_ARGS:-}
runs=${1:-30} pair=${2:-rping:rping} bound=${3:-15} count=${4:-20} size=${5:-4096}
capture=${6:-1}
# shellcheck disable=SC2034 # ctl (the barrier's port) and tag: guest-lib.sh's
port=7174 ctl=18602 tag=stall
dev=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p' | head -n1)
me=${UVIO_ADDRS%%/*}
peer=${UVIO_PEER:-$me}
srv=$me	# the server's address
[ "$role" = client ] && srv=$peer
[ "$role" = loop ] && peer=$me
. /opt/uvio/guest-lib.sh
sprog=${pair%%:*} cprog=${pair#*:}
stdbuf=/opt/uvio/bin/libstdbuf.so

server_cmd() {
	case $sprog in
	rping) echo "rping -s -a $me -p $port -S $size -v -V -d" ;;
	*) echo "uvio_rping -s -a $me -p $port -S $size -v -d -T $((bound + 15))" ;;
	esac
}
client_cmd() {
	case $cprog in
	rping) echo "rping -c -a $srv -p $port -S $size -C $count -v -V -d" ;;
	*) echo "uvio_rping -c -a $srv -p $port -S $size -C $count -v -d -T $bound" ;;
	esac
}
launch() {	# launch OUTFILE CMD...: in the background, rping line-buffered
	o=$1; shift
	if [ "$1" = rping ]; then
		LD_PRELOAD=$stdbuf _STDBUF_O=L "$@" > "$o" 2>&1 &
	else
		"$@" > "$o" 2>&1 &
	fi
}

stacks() {	# stacks PID...: every thread's kernel stack
	for p in "$@"; do
		for t in /proc/"$p"/task/*; do
			[ -d "$t" ] || continue
			echo "  $(basename "$p")/$(basename "$t") $(cat "$t/comm" 2>/dev/null)" \
				"state $(sed -n 's/^State:\t//p' "$t/status" 2>/dev/null)"
			sed 's/^/      /' "$t/stack" 2>/dev/null
		done
	done
}
kthread_stacks() {	# siw's and iw_cm's threads, and anything in D state
	for t in /proc/[0-9]*; do
		c=$(cat "$t/comm" 2>/dev/null) || continue
		s=$(sed -n 's/^State:\t\(.\).*/\1/p' "$t/status" 2>/dev/null)
		case $c in
		siw*|iw_cm*) ;;
		*) [ "$s" = D ] || continue ;;
		esac
		echo "  $(basename "$t") $c state $s"
		sed 's/^/      /' "$t/stack" 2>/dev/null
	done
}

evidence() {	# evidence RUN: what a stalled run looks like, before the kill
	echo "### run $1: evidence (taken $(took "$t0") after the server started)"
	[ "$role" = client ] || { echo "## server ($sprog) output"; sed 's/^/  /' /tmp/server.out | tail -n 60; }
	[ "$role" = server ] || { echo "## client ($cprog) output"; sed 's/^/  /' /tmp/client.out | tail -n 60; }
	echo "## threads of the server (pid $spid) and the client (pid $cpid)"
	stacks "$spid" "$cpid"
	echo "## kernel threads"; kthread_stacks
	echo "## ss -tanie"; ss -tanie 2>&1 | sed 's/^/  /'
	echo "## rdma resource show, qp, cm_id"
	rdma resource show | sed 's/^/  /'
	rdma resource show qp | sed 's/^/  /'
	rdma resource show cm_id | sed 's/^/  /'
	echo "## dmesg (last 40)"; dmesg | tail -n 40 | sed 's/^/  /'
}

cap_start() {
	rm -f /tmp/cap.pcap /tmp/tcpdump.err
	[ "$capture" = 1 ] || return 0
	# tcpdump drops its privileges to a user it looks up: root, here.
	grep -qs '^root:' /etc/passwd || echo 'root:x:0:0:root:/tmp:/bin/sh' >> /etc/passwd
	# siw's connection is TCP to the port; rxe's traffic is RoCE v2 (UDP 4791).
	tcpdump -Z root -i any -nn -s 256 -U -w /tmp/cap.pcap "tcp port $port or udp port 4791" \
		2> /tmp/tcpdump.err &
	dpid=$!
	t=0
	until grep -q "listening on" /tmp/tcpdump.err 2>/dev/null; do
		t=$((t + 1)); [ $t -gt 100 ] && { echo "  tcpdump did not start"; cat /tmp/tcpdump.err; break; }
		sleep 0.05
	done
}
cap_stop() {
	[ "$capture" = 1 ] || { packets=-; return 0; }
	sleep 0.2	# the last packets
	kill -INT "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null
	packets=$(tcpdump -Z root -r /tmp/cap.pcap -nn 2>/tmp/tcpdump.read | wc -l)
	[ "$packets" -gt 0 ] || { echo "  capture empty:"; cat /tmp/tcpdump.err /tmp/tcpdump.read; ls -l /tmp/cap.pcap; }
}
cap_show() {	# cap_show LINES HEXPACKETS
	[ "$capture" = 1 ] || return 0
	echo "## capture: packets, time since the first (of $packets)"
	tcpdump -Z root -r /tmp/cap.pcap -nn -ttttt 2>/dev/null | head -n "$1" | sed 's/^/  /'
	[ "$2" -gt 0 ] || return 0
	echo "## capture: the first $2 packets in hex (256 bytes each at most)"
	tcpdump -Z root -r /tmp/cap.pcap -nn -ttttt -c "$2" -X 2>/dev/null | sed 's/^/  /'
}

say "kernel $(uname -r), $dev, $me; $runs runs of $sprog server, $cprog client;" \
	"$count rounds of $size bytes, client bound $bound s; capture $capture"
say "server: $(server_cmd)"
say "client: $(client_cmd)"
ok_runs=0 stalled=0 failed=0 first=0 list=
spid='' cpid='' src=- crc=- ms=-
i=1
while [ $i -le "$runs" ]; do
	cap_start
	t0=$(now)
	if [ "$role" != client ]; then
		# shellcheck disable=SC2046
		launch /tmp/server.out $(server_cmd)
		spid=$!
		if ! wait_cm_listen; then
			say "run $i: the server is not listening"; cat /tmp/server.out
			kill -9 "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
		fi
	fi
	barrier "run $i" || { say "run $i: barrier"; break; }
	b0=$(now_ms)
	if [ "$role" != server ]; then
		c0=$(now_ms)
		# shellcheck disable=SC2046
		launch /tmp/client.out $(client_cmd)
		cpid=$!
		while [ $(( $(now_ms) - c0 )) -lt $((bound * 1000)) ]; do
			kill -0 "$cpid" 2>/dev/null || break
			sleep 0.1
		done
		ms=$(( $(now_ms) - c0 ))
		if kill -0 "$cpid" 2>/dev/null; then
			crc=killed
			evidence "$i"
			kill -TERM "$cpid" 2>/dev/null; sleep 1; kill -9 "$cpid" 2>/dev/null
			wait "$cpid" 2>/dev/null
		else
			wait "$cpid"; crc=$?
		fi
	fi
	if [ "$role" != client ]; then
		# The server ends when the client disconnects. On its own guest it
		# gives its evidence 2 s before the client's bound runs out (the
		# client started just after the barrier), while the connection is
		# still there, then waits 7 s more.
		# (Time as the clock says: under a loaded host a sleep takes longer.
		# In one guest the server gets the bound after its client ended.)
		[ "$role" = loop ] && b0=$(now_ms)
		lim=$((bound * 1000)); [ "$role" = server ] && lim=$(( (bound - 2) * 1000 ))
		while kill -0 "$spid" 2>/dev/null && [ $(( $(now_ms) - b0 )) -lt $lim ]; do sleep 0.1; done
		if [ "$role" = server ] && kill -0 "$spid" 2>/dev/null; then
			evidence "$i"
			e0=$(now_ms)
			while kill -0 "$spid" 2>/dev/null && [ $(( $(now_ms) - e0 )) -lt 7000 ]; do sleep 0.1; done
			echo "## server ($sprog) output 7 s later, its last lines"
			sed 's/^/  /' /tmp/server.out | tail -n 8
		fi
		if kill -0 "$spid" 2>/dev/null; then
			kill -TERM "$spid" 2>/dev/null; sleep 1; kill -9 "$spid" 2>/dev/null
			wait "$spid" 2>/dev/null; src=killed
		else
			wait "$spid"; src=$?
		fi
	fi
	cap_stop
	rounds=- srounds=-
	[ "$role" != server ] && rounds=$(grep -c "^ping data: rdma-ping-" /tmp/client.out)
	[ "$role" != client ] && srounds=$(grep -c "^server ping data: rdma-ping-" /tmp/server.out)
	case $role in
	loop) good=$([ "$crc" = 0 ] && [ "$src" = 0 ] && [ "$rounds" = "$count" ] && echo 1)
	      none=$([ "$rounds" = 0 ] && echo 1) ;;
	client) good=$([ "$crc" = 0 ] && [ "$rounds" = "$count" ] && echo 1)
		none=$([ "$rounds" = 0 ] && echo 1) ;;
	server) good=$([ "$src" = 0 ] && [ "$srounds" = "$count" ] && echo 1)
		none=$([ "$srounds" = 0 ] && echo 1) ;;
	esac
	if [ -n "$good" ]; then
		verdict=ok; ok_runs=$((ok_runs + 1))
	elif [ -n "$none" ]; then
		verdict=STALLED; stalled=$((stalled + 1)); list="$list $i"
		[ $i = 1 ] && first=1
	else
		verdict=FAILED; failed=$((failed + 1)); list="$list $i"
	fi
	say "run $i: $verdict client exit $crc after $ms ms, $rounds rounds;" \
		"server exit $src, $srounds reads; $packets packets"
	if [ $verdict != ok ]; then
		if [ "$crc" != killed ] && [ "$src" != killed ]; then
			[ "$role" != client ] && { echo "## server output"; sed 's/^/  /' /tmp/server.out | tail -n 40; }
			[ "$role" != server ] && { echo "## client output"; sed 's/^/  /' /tmp/client.out | tail -n 40; }
		fi
		cap_show 200 16
	elif [ $i = 1 ]; then
		cap_show 40 0	# the first connection of the boot, to compare
	fi
	barrier "run $i: done" || { say "run $i: closing barrier"; break; }
	# What the run made is gone before the next starts (as the suite checks).
	t=0
	# shellcheck disable=SC2154 # baseline: guest-lib.sh's
	while [ "$(rdma resource show)" != "$baseline" ] && [ $t -lt 100 ]; do
		sleep 0.1; t=$((t + 1))
	done
	[ $t -ge 100 ] && { say "run $i: objects left over after 10 s"; rdma resource show; }
	i=$((i + 1))
done
say "RESULT runs $((i - 1)) ok $ok_runs stalled $stalled failed $failed first-stalled $first${list:+ (runs$list)}"
exit 0
