#!/bin/sh
# A stress of one case of kt_provider.sh: Debian's rping, server and client
# in one guest, the client killed (SIGKILL) mid-run; the server must end
# within a bound. Each round runs it on the plug-in and on the stock
# provider (both sides on the same provider), in turns, in the same boot, so
# that a hang can be told the plug-in's or rping's own.
#
#   scripts/vm-run.sh --dev rxe|siw tests/kernel/kt_rping_kill.sh [ROUNDS [BOUND]]
#     with UVIO_VM_WITH="build/providers/ibverbs/libuvio-rdmav34.so
#       @USERLAND@/usr/bin/rping /usr/libexec/coreutils/libstdbuf.so
#       tests/kernel/guest-lib.sh @USERLAND@/*lib/x86_64-linux-gnu/libgcc_s.so.1"
#     (libgcc_s: rping's threads end with pthread_exit, which loads it)
#
# The client is killed after its first round plus a random 0-1.9 s, or,
# one round in four, 0-1.9 s after it started. A server still there BOUND
# seconds (default 20) after its client died is counted as hung (as
# "listening" instead when no connection request had reached it), and, before
# it is killed, shows: every thread's state, wait channel, system call and
# kernel stack; its last lines (rping -d, line-buffered by coreutils'
# libstdbuf: every CM event and completion it saw); the device's QPs, CQs
# and cm_ids. Last line: "kill[loop]: RESULT rounds N uvio hung H1 of N stock
# hung H2 of N".
set -u
rounds=${1:-20} bound=${2:-20}
role=loop tag=kill ctl=18603 port=7174
. /opt/uvio/bin/guest-lib.sh
dev=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p' | head -n1)
me=192.0.2.1
UVP=/opt/uvio/bin/libuvio
stdbuf=/opt/uvio/bin/libstdbuf.so
T=/tmp/kt_rping_kill
rm -rf $T && mkdir -p $T
[ -f $UVP-rdmav34.so ] || { echo "no $UVP-rdmav34.so in the guest"; exit 1; }
[ -f $stdbuf ] || { echo "no $stdbuf in the guest"; exit 1; }

# rnd N: a number from 0 to N-1 (busybox sh has $RANDOM).
rnd() { echo $((RANDOM % $1)); }

launch() {	# launch uvio|stock OUT ARGS...: rping in the background, line-buffered
	p=$1 o=$2; shift 2
	if [ "$p" = uvio ]; then
		env RDMAV_DRIVERS=$UVP LD_PRELOAD=$stdbuf _STDBUF_O=L rping "$@" > "$o" 2>&1 &
	else
		env LD_PRELOAD=$stdbuf _STDBUF_O=L rping "$@" > "$o" 2>&1 &
	fi
}

dump() {	# dump PID: where a hung server waits
	for t in /proc/$1/task/*; do
		echo "  [hung] thread ${t##*/}: state $(sed -n 's/^State:\t//p' $t/status)," \
			"wchan $(cat $t/wchan 2>/dev/null), syscall $(cat $t/syscall 2>/dev/null)"
		sed "s/^/  [hung]     /" $t/stack 2>/dev/null
	done
	echo "  [hung] its fds:"
	ls -l /proc/$1/fd 2>/dev/null | sed -n 's/.* \([0-9]* -> .*\)/  [hung]   \1/p'
	echo "  [hung] its last lines:"
	tail -n 25 $T/server.out | sed 's/^/  [hung]   /'
	for o in qp cq cm_id; do rdma resource show $o | sed "s/^/  [hung] $o: /"; done
}

# one PROVIDER ROUND: one server, one client killed; sets verdict
one() {
	p=$1 r=$2
	rm -f $T/server.out $T/client.out
	launch $p $T/server.out -s -a $me -p $port -S 4096 -v -d
	spid=$!
	if ! wait_cm_listen; then
		verdict=nolisten; kill -9 $spid; wait $spid 2>/dev/null; return
	fi
	launch $p $T/client.out -c -a $me -p $port -S 4096 -C 100000 -v
	cpid=$!
	early=$(( $(rnd 4) == 0 ))
	if [ $early = 1 ]; then
		# Anywhere in its first 2 s: connecting, or its first rounds.
		sleep "$(rnd 2).$(rnd 10)"
	else
		t=0
		until grep -q "^ping data: " $T/client.out; do
			t=$((t + 1)); [ $t -gt 300 ] && break
			sleep 0.1
		done
		sleep "$(rnd 2).$(rnd 10)"
	fi
	kill -9 $cpid; wait $cpid 2>/dev/null
	crounds=$(grep -c "^ping data: " $T/client.out)
	t0=$(now_ms)
	w=0
	while running $spid && [ $w -lt $((bound * 10)) ]; do sleep 0.1; w=$((w + 1)); done
	ms=$(( $(now_ms) - t0 ))
	if running $spid && ! grep -q "CONNECT_REQUEST" $T/server.out; then
		# Killed before its connection request reached the server, which
		# listens on, as rping does: not this stress's question.
		verdict=listening
		kill -9 $spid; wait $spid 2>/dev/null
	elif running $spid; then
		verdict=HUNG
		echo "### $p round $r: the server is still there $ms ms after its client died" \
			"(client: $crounds rounds$([ $early = 1 ] && echo ", killed early"))"
		dump $spid
		kill -9 $spid; wait $spid 2>/dev/null
	else
		wait $spid; src=$?
		verdict="exit $src after $ms ms"
	fi
	last=$(grep -v "completion\|^server ping data\|posted\|received\|rdma write from\|RDMA addr" \
		$T/server.out | tail -n 2 | tr '\n' '|')
	say "$p round $r: client $crounds rounds$([ $early = 1 ] && echo " (early)"); server $verdict; last: $last"
	# What the round made is gone before the next (rxe destroys a dead
	# process's objects a moment after it exits).
	t=0
	while [ "$(rdma resource show)" != "$baseline" ] && [ $t -lt 100 ]; do
		sleep 0.1; t=$((t + 1))
	done
	[ $t -ge 100 ] && { say "round $r: objects left over after 10 s"; rdma resource show; }
}

say "kernel $(uname -r), $dev, $rounds rounds, bound $bound s"
hung_uvio=0 hung_stock=0 list=
r=1
while [ $r -le "$rounds" ]; do
	# Which provider goes first alternates.
	if [ $((r % 2)) = 1 ]; then order="uvio stock"; else order="stock uvio"; fi
	for p in $order; do
		one $p $r
		if [ "$verdict" = HUNG ]; then
			eval "hung_$p=\$((hung_$p + 1))"; list="$list $p:$r"
		fi
	done
	r=$((r + 1))
done
say "RESULT rounds $rounds uvio hung $hung_uvio of $rounds stock hung $hung_stock of $rounds${list:+ (hung:$list)}"
exit 0
