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

# Both guests reach the barrier NAME before either goes on: the server's
# guest serves NAME once on the control port, the client's guest polls it.
barrier() {
	case $role in
	loop) return 0 ;;
	server)
		got=$(echo "$1" | timeout 300 nc -l -p $ctl) || { say "barrier $1: no client"; return 1; } ;;
	client)
		t=0
		until [ "$(timeout 5 nc -w 2 "$peer" $ctl </dev/null 2>/dev/null)" = "$1" ]; do
			t=$((t + 1)); [ $t -gt 1500 ] && { say "barrier $1: no server"; return 1; }
			sleep 0.2
		done ;;
	esac
	return 0
}

# perftest ends "Can't produce a report" when its own estimate of the CPU
# clock is too noisy (r^2 < 0.9 against gettimeofday), which a guest under
# TCG on a busy host sometimes is, whatever library or provider runs it.
# A case that ends so runs once more, announced by retry_line; any other
# failure, or that one twice, stays a failure.
no_report_count() {	# no_report_count FILE...: how many outputs say so (none: 0)
	cat "$@" 2>/dev/null </dev/null | grep -c "Can't produce a report"
}
retry_line() {	# retry_line CASE
	echo "--- RETRY $*: perftest could not estimate the CPU clock (\"Can't produce a report\"); the lines above are the first attempt's"
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
# connection (tests/vm/siw-rping-stall.sh, examples/README.md). The rping
# cases run once more when a siw case ended exactly so, announced by
# stall_retry_line; any other failure, or that one twice, stays a failure.
#
# siw_stall DEV ROLE SERVER_OUT CLIENT_OUT: "yes" when this guest's sides
# ended as that stall does, else "no". On siw, and each side this guest ran
# (ROLE loop: both; server; client) printed no round and ended by its bound
# or by the peer's disconnect (uvio_rping's "no completion within" or
# "DISCONNECT EVENT"; a rping killed by timeout 124 says "UVIO-TIMEOUT" in
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
stall_retry_line() {	# stall_retry_line CASE
	echo "--- RETRY $*: no round completed and the server's first RDMA READ never did (siw's accept window); the FAIL lines above are the first attempt's"
}

# exchange NAME WORD: each side gives a word and gets the other's (the
# server listens, the client connects and retries until the server is there).
exchange() {
	case $role in
	loop) echo "$2" ;;
	server)
		got=$(echo "$1 $2" | timeout 300 nc -l -p $ctl) || return 1
		echo "${got##* }" ;;
	client)
		t=0
		until r=$(echo "$1 $2" | timeout 5 nc -w 2 "$peer" $ctl 2>/dev/null) &&
		      [ "${r% *}" = "$1" ]; do
			t=$((t + 1)); [ $t -gt 1500 ] && return 1
			sleep 0.2
		done
		echo "${r##* }" ;;
	esac
}

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
