# Sourced by the scripts that run inside the guests (kt_pingpong.sh,
# kt_rping.sh, kt_provider.sh under tests/vm/run-multi.sh; kt_trace.sh and
# the bench's guest scripts under tests/vm/run.sh): verdicts, the barrier
# between two guests, the check that a case left no kernel object behind,
# the one rule for perftest's clock estimate and the one for siw's stall.
#
# The sourcing script sets: role (loop, server or client), peer (the other
# guest's address), ctl (a TCP port for the barrier), tag (for say), and
# counts pass and fail.
pass=0 fail=0

say() { echo "$tag[$role]: $*"; }
ok() { pass=$((pass + 1)); echo "--- PASS $*"; }
bad() { fail=$((fail + 1)); echo "--- FAIL $*"; }
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
now() { read -r up _ < /proc/uptime; echo "$up"; }	# seconds since boot, to 1/100
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }	# took T0

# Is something listening on TCP port $1 (IPv4 or IPv6)?
listening() {
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}
wait_listen() {	# wait_listen PORT: up to 60 s, saying so when nothing came
	t=0
	until listening "$1"; do
		t=$((t + 1)); [ $t -gt 600 ] && { echo "  nothing listens on port $1"; return 1; }
		sleep 0.1
	done
}

# Meetings of the two guests (barrier, exchange) go through a responder
# that the server's guest keeps on the control port for the whole run: a
# client says "KEY WORD" (its arrival at KEY is kept), and is answered "ok
# WORD" once the server's guest has arrived at KEY too, "wait" before. The
# arrivals stay, so a client whose answer was lost (a guest stopped for
# seconds by a busy host) asks again and gets it again, however far the
# server has gone on; and the server goes on only once the client has
# arrived. A one-shot listener could not promise that: it passed the
# server's guest on a connection whose answer never reached the client, which
# then waited for a meeting that was over. KEY is the meeting's name as a
# file name and how many times this side has met under it before, so a name
# may be met again. The responder answers before it keeps the arrival, so
# that the server's guest, once it sees the arrival, has sent the answer;
# and tests/vm/init-multi lets it go down only once the client's guest has
# stopped asking for 2 s (an answer still on its way when the server's guest
# powered off at the end left the client waiting for its bound).
meet_dir=/tmp/uvio-meet
meet_timeout=300	# seconds a side waits for the other at one meeting
rm -rf $meet_dir && mkdir -p $meet_dir
if [ "${role:-}" = server ]; then
	cat > $meet_dir/serve.sh <<'SERVE'
#!/bin/sh
read -r key word || exit 0
d=/tmp/uvio-meet
case $key in ''|*[!A-Za-z0-9_.]*) echo bad; exit 0 ;; esac
if [ -e "$d/s.$key" ]; then echo "ok $(cat "$d/s.$key")"; else echo wait; fi
[ -e "$d/c.$key" ] || { echo "$word" > "$d/c.$key.$$" && mv "$d/c.$key.$$" "$d/c.$key"; }
touch "$d/last"
SERVE
	chmod +x $meet_dir/serve.sh
	nc -ll -p $ctl -e $meet_dir/serve.sh &
fi
# Their variables are meet_*: the scripts' own (r, t0, k, n...) stay theirs.
meet_key() {	# meet_key NAME: the key of this side's next meeting under NAME
	meet_k=$(printf '%s' "$1" | tr -c 'A-Za-z0-9' '_' | cut -c1-150)
	meet_n=$(cat "$meet_dir/n.$meet_k" 2>/dev/null || echo 0)
	meet_n=$((meet_n + 1)); echo $meet_n > "$meet_dir/n.$meet_k"
	echo "$meet_k.$meet_n"
}
# meet NAME WORD: both guests at NAME; prints the other guest's WORD (one
# word). One guest (loop): its own.
meet() {
	[ "$role" = loop ] && { echo "$2"; return 0; }
	meet_at=$(meet_key "$1") meet_t0=$(now_ms) meet_said=
	if [ "$role" = server ]; then
		echo "$2" > "$meet_dir/s.$meet_at.tmp" && mv "$meet_dir/s.$meet_at.tmp" "$meet_dir/s.$meet_at"
		until [ -e "$meet_dir/c.$meet_at" ]; do
			[ $(( $(now_ms) - meet_t0 )) -gt $((meet_timeout * 1000)) ] &&
				{ say "meeting '$1': the client's guest did not come in $meet_timeout s" >&2; return 1; }
			sleep 0.1
		done
		cat "$meet_dir/c.$meet_at"
		return 0
	fi
	until meet_r=$(echo "$meet_at $2" | timeout 10 nc "$peer" $ctl 2>/dev/null) &&
	      [ "${meet_r%% *}" = ok ]; do
		[ $(( $(now_ms) - meet_t0 )) -gt $((meet_timeout * 1000)) ] &&
			{ say "meeting '$1': the server's guest did not come in $meet_timeout s (last answer '${meet_r:-}')" >&2; return 1; }
		[ -z "$meet_said" ] && [ $(( $(now_ms) - meet_t0 )) -gt 30000 ] &&
			{ meet_said=1; say "meeting '$1': still waiting for the server's guest" >&2; }
		sleep 0.2
	done
	echo "${meet_r#ok }"
}

# Both guests reach the barrier NAME before either goes on.
barrier() { meet "$1" - > /dev/null; }

# perftest ends "Can't produce a report" when its own estimate of the CPU
# clock is too noisy (r^2 < 0.9 against gettimeofday), which a guest under
# TCG on a busy host sometimes is, whatever library or provider runs it.
# A case that ends so runs once more (kt_provider.sh's: three attempts at
# most), announced by retry_line; any other failure, or that one at every
# attempt, stays a failure.
no_report_count() {	# no_report_count FILE...: how many outputs say so (none: 0)
	cat "$@" 2>/dev/null </dev/null | grep -c "Can't produce a report"
}
retry_line() {	# retry_line CASE [ATTEMPT]
	echo "--- RETRY $1: perftest could not estimate the CPU clock (\"Can't produce a report\"); the lines above are attempt ${2:-1}'s"
}

# Open MPI between the guests, which have no SSH: distinct host names (Open
# MPI tells nodes apart by them) and, in the server's guest, the rsh agent's
# listener (tests/kernel/mpi-rsh.sh, busybox nc), its pid in mpi_rsh_pid.
mpi_hosts() {
	hostname uvio-g$UVIO_INDEX
	echo "127.0.0.1 localhost" > /etc/hosts
	i=0
	for a in $(echo "$UVIO_ADDRS $UVIO_PEERS" | tr ' ' '\n' | sed 's,/.*,,' | sort); do
		echo "$a uvio-g$i" >> /etc/hosts; i=$((i + 1))
	done
	mpi_rsh_pid=
	if [ "$role" = server ]; then
		nc -ll -p 2222 -e /opt/uvio/mpi-rsh.sh &
		mpi_rsh_pid=$!
	fi
}

# mpirun_ucx SECONDS MPIRUN_ARGS...: mpirun, bounded, from the client's
# guest, over UCX's rc_verbs on $dev (the link-local RoCE v2 GID, index 0:
# see KERNEL-FACTS on UCX's GID filter), one node per guest.
mpirun_ucx() {
	t=$1; shift
	timeout "$t" mpirun --allow-run-as-root --map-by node \
		--mca plm_rsh_agent /opt/uvio/mpi-rsh.sh --mca plm_rsh_no_tree_spawn 1 \
		--mca oob_tcp_if_include eth0 --mca pml ucx --mca btl self \
		-x UCX_MODULE_DIR -x UCX_NET_DEVICES=$dev:1 -x UCX_TLS=rc_v,self \
		-x UCX_IB_GID_INDEX=0 -x UCX_RNDV_SCHEME=put_zcopy "$@"
}

# siw's passive side (siw_accept(), drivers/infiniband/sw/siw/siw_cm.c, the
# same from 5.10 to 7.2) sends its MPA reply before it hands the socket's
# receive upcall to the QP: a first message from the client that lands in
# between stays in the server's socket, read by nobody (Recv-Q 40 in ss),
# and neither side completes a round; a wider window stalls every
# connection (tests/vm/siw-rping-stall.sh, examples/README.md). A rping
# case runs again when it ended exactly so on siw, announced by
# stall_retry_line, three attempts at most: on a busy host the stall comes
# often enough to meet twice in a row (examples/README.md has the counts).
# Any other failure, or the stall three times, stays a failure.
#
# siw_stall DEV ROLE SERVER_OUT CLIENT_OUT: "yes" when this guest's sides
# ended as that stall does, else "no". On siw, and each side this guest ran
# (ROLE loop: both; server; client) printed no round and ended by its bound
# or by the peer's disconnect (uvio_rping's "no completion within" or
# "DISCONNECT EVENT"; a rping its timeout killed says "UVIO-TIMEOUT" in
# its file), and the server (its -d lines) was connected and completed no
# RDMA READ. The client's first message may still reach the server at the
# end: the disconnect wakes the socket's new upcall, which then reads it,
# and the READ the server posts for it is flushed. (From the programs'
# lines alone a first READ that never completes would look the same; the
# captures have shown only the message left in the socket.)
siw_stall() {
	case $1 in siw*) ;; *) echo no; return ;; esac
	case $2 in loop) set -- "$3" "$4" ;; server) set -- "$3" ;; *) set -- "$4" ;; esac
	for f in "$@"; do
		if grep -q "ping data: rdma-ping-" "$f" ||
		   ! grep -Eq "no completion within|DISCONNECT EVENT|^UVIO-TIMEOUT" "$f"; then
			echo no; return
		fi
	done
	if [ "$role" != client ] && { ! grep -q "ESTABLISHED" "$1" ||
	   grep -Eq "rdma read completion|RDMA_READ status 0 " "$1"; }; then
		echo no; return
	fi
	echo yes
}
stall_retry_line() {	# stall_retry_line CASE ATTEMPT
	echo "--- RETRY $1: no round completed and the server's first RDMA READ never did (siw's accept window); the FAIL lines above are attempt $2's"
}

# exchange NAME WORD: each side gives a word and gets the other's.
exchange() { meet "$1" "$2"; }

# agree NAME yes|no: "yes" when every guest said yes (two guests: the
# answers cross over the control port, as the barrier's; one guest: its own).
agree() {
	theirs=$(exchange "$1" "$2") || { echo no; return; }
	if [ "$2" = yes ] && [ "$theirs" = yes ]; then echo yes; else echo no; fi
}

# wait_cm_listen [PORT]: the connection manager's listener on PORT ($port
# by default), as the kernel lists it (no TCP socket on RoCE); up to 30 s.
wait_cm_listen() {
	t=0
	until rdma resource show cm_id | grep "LISTEN" | grep -q ":${1:-$port} "; do
		t=$((t + 1)); [ $t -gt 300 ] && return 1
		sleep 0.1
	done
}

resources() { rdma resource show | sed "s/^/  /"; }

# running PID: the process is there and not a zombie (kill -0 would count
# an exited child not yet waited for).
running() {
	[ "$(awk '{print $3}' /proc/$1/stat 2>/dev/null)" = Z ] && return 1
	[ -e /proc/$1 ]
}
# hung_dump PID [TAG]: where a process that outlived its bound waits, each
# thread's wchan and kernel stack, and the device's objects, as [TAG] lines
# (hung by default). A timeout(1) wrapper is looked through to its program.
hung_dump() {
	dump_pid=$1 dump_tag=${2:-hung}
	[ "$(cat /proc/$dump_pid/comm 2>/dev/null)" = timeout ] &&
		dump_pid=$(awk '{print $1; exit}' /proc/$dump_pid/task/*/children 2>/dev/null)
	for t in /proc/$dump_pid/task/*; do
		echo "  [$dump_tag] thread ${t##*/}: $(cat $t/comm 2>/dev/null) in $(cat $t/wchan 2>/dev/null)"
		sed "s/^/  [$dump_tag]   /" $t/stack 2>/dev/null
	done
	rdma resource show | sed "s/^/  [$dump_tag] /"
}
# outlives PID SECONDS [SLOW]: waits for PID to end; true, after its [hung]
# lines, when it is still there SECONDS later. With SLOW, one that is still
# there at SLOW seconds shows where it waits once, as [slow] lines.
outlives() {
	outl_w=0
	while running $1 && [ $outl_w -lt $(($2 * 10)) ]; do
		sleep 0.1; outl_w=$((outl_w + 1))
		[ $outl_w = $((${3:-0} * 10)) ] && running $1 && hung_dump $1 slow
	done
	running $1 && hung_dump $1
}
baseline=$(rdma resource show)
check_resources() {	# check_resources CASE: nothing left over
	now=$(rdma resource show)
	# rxe destroys a dead process's objects a moment after it exits.
	t=0
	while [ "$now" != "$baseline" ] && [ $t -lt 20 ]; do
		sleep 0.1; t=$((t + 1)); now=$(rdma resource show)
	done
	if [ "$now" = "$baseline" ]; then ok "$1: rdma resource show as before"; return; fi
	bad "$1: objects left over"
	echo "  before:"; echo "$baseline" | sed "s/^/    /"
	echo "  after:"; echo "$now" | sed "s/^/    /"
	rdma resource show qp; rdma resource show cq; rdma resource show mr
	rdma resource show cm_id
}
