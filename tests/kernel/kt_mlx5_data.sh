#!/bin/sh
# kernel/6.1-mlx5-data and 6.12-mlx5-data, in the guest (tests/kernel/mlx5-data.sh boots it):
# the mlx5 stand-in's engine (tests/standin/mlx5/mlx5_engine.c) moving data
# for Debian's programs on the stock libmlx5, unmodified. Each check prints
# "--- PASS mlx5-data: ..." or "--- FAIL mlx5-data: ..."; the exit status is
# the number of failures.
#  (a) the stand-in on dummy0 and dummy1, mlx5_0 and mlx5_1 seen;
#  (b) kt_mlx5_data: two RC QPs of one process, every opcode of the
#      engine (atomics too), ring wrap, unsignalled WQEs, a completion
#      event, its error paths as a ConnectX gives them (status, vendor_err,
#      the responder's event; READ past the remote MR, bad local keys),
#      a memory window bound, written through and invalidated by a SEND,
#      RNR (a late receive, rnr_retry 0) and the
#      asynchronous events (SRQ limit, last WQE reached, CQ overrun);
#      the kernel log names the fields it refused;
#  (b2) kt_mlx5_soak: two processes, four threads each on four RC QPs,
#      SENDs and RDMA WRITEs for 8 s, every byte and sequence number checked;
#  (c) ibv_rc_pingpong -g 0 -n 20, server and client in this guest
#      (polling, then -e: completion events), ibv_uc_pingpong, and the
#      others of the list (ibv_srq_pingpong, perftest's send, write, read
#      and atomic tests; ibv_ud_pingpong: the address vector, the GRH):
#      both sides exit 0 and report their iterations; messages of 32 bytes
#      (RC, UC, SRQ) and of 64 with 128-byte CQEs come in the CQE (scatter
#      to CQE), which the engine's record shows, and libmlx5 copies them;
#      each program's count of such CQEs is shown (UCX's and Open MPI's too);
#  (d) a second device, mlx5_1 on dummy1: ibv_rc_pingpong (-c, the data
#      checked), ibv_ud_pingpong, ibv_uc_pingpong, ibv_srq_pingpong,
#      ib_send_lat, ib_write_bw, ib_read_lat and ib_atomic_lat with the
#      server on mlx5_0 and the client on mlx5_1, each on its own GID 0 (the
#      engine routes by GID);
#  (e) UCX: the device's sysfs parent has ConnectX-5's PCI ids, ucx_info -d
#      lists rc_mlx5 and ud_mlx5 for mlx5_0, ucx_perftest at UCT level over
#      rc_mlx5 (am_lat, put_bw, get, fadd, cswap; UCX's defaults, and
#      am_lat again with the settings that avoid DEVX and BlueFlame); at
#      UCP level with UCX_TLS=rc_x, tag_lat (its endpoints wired up through
#      ud_mlx5, seen in UCX's debug log) and tag_bw, the tag lane rc_mlx5 on
#      both sides; an Open MPI job of two ranks (tests/kernel/mpi_check.c,
#      every byte of its ping-pongs, allreduce and broadcast checked) over
#      UCX's pml on rc_mlx5; UCX's warnings and errors shown;
#  (f) a pingpong killed mid-transfer: nothing left in rdma resource;
#  (g) after each program nothing is left on mlx5_0; at the end the module
#      unloads and the kernel log holds no warning.
B=/opt/uvio/bin
T=/tmp/kt_mlx5_data
DEV=mlx5_0
TMO=90
DRV=mlx5-data
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1
t00=$(cut -d' ' -f1 /proc/uptime)

# two devices: mlx5_0 on dummy0, mlx5_1 on dummy1 (the second netdev made here)
DEV2=mlx5_1
ip link show dummy1 >/dev/null 2>&1 || ip link add dummy1 type dummy
ip link set dummy1 up
ko=$(ls $B/mlx5-*.ko 2>/dev/null | head -n1)
if [ -z "$ko" ] || ! insmod "$ko" netdev=dummy0,dummy1; then
	bad "insmod ${ko:-(no stand-in module in $B)} netdev=dummy0,dummy1"
	dmesg | tail -20
	exit 1
fi
# each port's GID 0 (the link-local address) in place
wait_gid0 $DEV $DEV2
if ibv_devices 2>&1 | grep -qw $DEV && ibv_devices 2>&1 | grep -qw $DEV2; then
	ok "ibv_devices sees $DEV and $DEV2"
else
	bad "no $DEV or no $DEV2"
fi
dmesg > dmesg.before

# Is something listening on TCP port $1?
listening() {
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}
elapsed() { awk -v a="$1" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }'; }

# Scatter to CQE: the engine's record (debugfs mlx5_standin/record,
# tests/standin/mlx5/mlx5_record.c) on around one program, then the CQEs it
# wrote with data in them: op_own is the last byte of a C line's hex, 0x04
# the 32-byte form, 0x08 the 64-byte form. scat_start; ...; scat_count
# sets s32 and s64 ("?" without the record) and clears the record. With
# WANT_SCAT set to 32 or 64 the caller needs that form seen, set to none
# it needs no data in any CQE.
R=/sys/kernel/debug/mlx5_standin
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
scat_start() { [ -w $R/enable ] && echo clear > $R/record && echo 1 > $R/enable; }
scat_count() {
	s32=? s64=?
	[ -w $R/enable ] || return 0
	echo 0 > $R/enable
	sc=$(awk '$1 == "C" { d = substr($NF, length($NF), 1)
			      if (d ~ /[4-7]/) a++; else if (d ~ /[89ab]/) b++ }
		  END { printf "%d %d", a, b }' $R/record)
	echo clear > $R/record
	s32=${sc% *} s64=${sc#* }
}
# scat_ok: the form WANT_SCAT names was seen (or none was wanted)
scat_ok() {
	case ${WANT_SCAT:-} in
	32) [ "$s32" != ? ] && [ "$s32" -gt 0 ] ;;
	64) [ "$s64" != ? ] && [ "$s64" -gt 0 ] ;;
	none) [ "$s32" = 0 ] && [ "$s64" = 0 ] ;;
	*) true ;;
	esac
}
scat_says() {
	case ${WANT_SCAT:-} in
	32|64) w=" (wanted: the $WANT_SCAT-byte form)" ;;
	none) w=" (wanted: none)" ;;
	*) w= ;;
	esac
	echo "CQEs with data scattered to them: $s32 of 32 bytes, $s64 of 64$w"
}

# --- (b) the engine's own checks ------------------------------------------
t0=$(cut -d' ' -f1 /proc/uptime)
timeout $TMO kt_mlx5_data $DEV > data.out 2>&1; rc=$?
show data.out
if [ $rc -eq 0 ] && grep -q '^kt_mlx5_data: PASS$' data.out; then
	ok "kt_mlx5_data: $(grep -c '^ok ' data.out) steps ($(elapsed $t0) s)"
else
	bad "kt_mlx5_data: exit $rc, $(grep -c '^not ok ' data.out) steps failed"
fi
nothing_left "kt_mlx5_data"
# the refusals were logged with the field they name
if dmesg | grep -q "mlx5_standin: QP 0x[0-9a-f]* send WQE 0x[0-9a-f]* (opcode 0x0a): data segment 0: lkey"; then
	ok "the kernel log names the refused data segment and its lkey"
else
	bad "no kernel log line names the refused lkey"
fi
if dmesg | grep -q "mlx5_standin: QP 0x[0-9a-f]* send WQE 0x0000 (opcode 0x0a): index field 0x0005, expected 0x0000"; then
	ok "the kernel log names the WQE's wrong index field"
else
	bad "no kernel log line names the wrong index field"
fi
dmesg | grep -E 'mlx5_standin: (QP|CQ)' | sed 's/^/  dmesg: /'

# --- (b2) the soak: two processes, four RC QPs each, SOAK seconds ----------
SOAK=8
t0=$(cut -d' ' -f1 /proc/uptime)
timeout $((TMO + SOAK)) kt_mlx5_soak $DEV $SOAK > soak.out 2>&1; rc=$?
show soak.out
if [ $rc -eq 0 ] && grep -q '^kt_mlx5_soak: PASS$' soak.out; then
	ok "kt_mlx5_soak $SOAK s: $(grep -o '[0-9]* QPs, .* checked' soak.out), nothing lost or doubled ($(elapsed $t0) s)"
else
	bad "kt_mlx5_soak $SOAK s: exit $rc"
fi
nothing_left "kt_mlx5_soak"

# --- (c) Debian's programs ------------------------------------------------
port=18600
# pair NAME ITERS SERVER_COMMAND...: the server, then the same command with
# 127.0.0.1 as the client; both exit 0 and print "ITERS iters in"
# (perftest: its result table) and nothing is left.
# With CDEV set, the client runs on device CDEV instead of $DEV.
pair() {
	n=$1 it=$2; shift 2
	port=$((port + 1))
	cli=$(echo "$*" | sed "s/-d $DEV /-d ${CDEV:-$DEV} /")
	t0=$(cut -d' ' -f1 /proc/uptime)
	scat_start
	timeout $TMO "$@" -p $port > $n.srv 2>&1 & sp=$!
	t=0
	until listening $port; do
		t=$((t + 1)); [ $t -gt 300 ] && break
		sleep 0.1
	done
	timeout $TMO $cli -p $port 127.0.0.1 > $n.cli 2>&1; c=$?
	wait $sp; s=$?
	scat_count
	sed "s/^/  [server] /" $n.srv; sed "s/^/  [client] /" $n.cli
	# perftest: the client prints the result table (the server of a
	# READ test is passive and prints none)
	case $1 in
	ib_*) want='^ *[0-9]+ +[0-9]+ ' srv=.
	      case $1 in ib_read_lat|ib_atomic_lat) ;; *) srv=$want ;; esac ;;
	*) want="^$it iters in " srv=$want ;;
	esac
	# -c (ibv_*_pingpong): the server says "invalid data" when the first
	# byte of a page did not arrive (it exits 0 all the same)
	if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -Eq "$srv" $n.srv && grep -Eq "$want" $n.cli &&
	   ! grep -q "invalid data" $n.srv $n.cli && scat_ok; then
		ok "$*${CDEV:+ against $CDEV}: server and client exit 0, $it iterations; $(scat_says) ($(elapsed $t0) s)"
	else
		bad "$*${CDEV:+ against $CDEV}: server exit $s, client exit $c$(grep -q "invalid data" $n.srv $n.cli && echo ', invalid data'); $(scat_says)"
	fi
	nothing_left "$1"
}
pair rc 20 ibv_rc_pingpong -d $DEV -g 0 -n 20
pair rc-events 20 ibv_rc_pingpong -d $DEV -g 0 -n 20 -e
# Messages of 32 bytes or less come in the receive's CQE (scatter to CQE,
# libmlx5 asks for it at every QP create): libmlx5 copies them out, to an
# RQ's and to an SRQ's receive (-c: the server checks the first byte).
WANT_SCAT=32
pair rc-small 20 ibv_rc_pingpong -d $DEV -g 0 -n 20 -s 32 -c
WANT_SCAT=
# 128-byte CQEs (libmlx5 asks for them when MLX5_CQE_SIZE=128): the engine
# writes each CQE in its entry's second half, where libmlx5 reads it, and
# up to 64 bytes of data in the first half.
export MLX5_CQE_SIZE=128
pair rc-cqe128 20 ibv_rc_pingpong -d $DEV -g 0 -n 20 -c
WANT_SCAT=64
pair rc-small-cqe128 20 ibv_rc_pingpong -d $DEV -g 0 -n 20 -s 64 -c
WANT_SCAT=
unset MLX5_CQE_SIZE
pair uc 20 ibv_uc_pingpong -d $DEV -g 0 -n 20
WANT_SCAT=32
pair uc-small 20 ibv_uc_pingpong -d $DEV -g 0 -n 20 -s 32 -c
WANT_SCAT=
pair srq 20 ibv_srq_pingpong -d $DEV -g 0 -n 20 -q 4
WANT_SCAT=32
pair srq-small 20 ibv_srq_pingpong -d $DEV -g 0 -n 20 -q 4 -s 32 -c
WANT_SCAT=
pair ud 20 ibv_ud_pingpong -d $DEV -g 0 -n 20 -s 1024
pair send_lat 100 ib_send_lat -d $DEV -x 0 -n 100 -F
pair write_bw 100 ib_write_bw -d $DEV -x 0 -n 100 -F
pair read_lat 100 ib_read_lat -d $DEV -x 0 -n 100 -F
pair atomic_fa 100 ib_atomic_lat -d $DEV -x 0 -n 100 -F
pair atomic_cs 100 ib_atomic_lat -d $DEV -x 0 -n 100 -F -A CMP_AND_SWAP

# --- (d) a second device: mlx5_1 on dummy1, reached from mlx5_0 by GID ------
# The server on mlx5_0, the client on mlx5_1, each with its own GID 0: the
# engine sends each message to the device whose GID table holds the
# destination GID (both QPs are QPN 2, each on its own device).
CDEV=$DEV2
pair rc-2dev 20 ibv_rc_pingpong -d $DEV -g 0 -n 20 -c
pair ud-2dev 20 ibv_ud_pingpong -d $DEV -g 0 -n 20 -s 1024
pair uc-2dev 20 ibv_uc_pingpong -d $DEV -g 0 -n 20
pair srq-2dev 20 ibv_srq_pingpong -d $DEV -g 0 -n 20 -q 4
pair send_lat-2dev 100 ib_send_lat -d $DEV -x 0 -n 100 -F
pair write_bw-2dev 100 ib_write_bw -d $DEV -x 0 -n 100 -F
pair read_lat-2dev 100 ib_read_lat -d $DEV -x 0 -n 100 -F
pair atomic_fa-2dev 100 ib_atomic_lat -d $DEV -x 0 -n 100 -F
CDEV=
DEV=$DEV2
nothing_left "the two-device pingpongs"
DEV=mlx5_0

# --- (e) UCX (Debian's 1.13) on the stand-in as on a ConnectX --------------
# UCX knows an mlx5 device by the PCI ids of its sysfs parent; then it runs
# its own WQE writer (rc_mlx5, ud_mlx5) on the rings libmlx5 set up.
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm 2>/dev/null	# UCX's shared memory
export UCX_MODULE_DIR=$B	# UCX's transports, copied beside the programs
ids="$(cat /sys/class/infiniband/$DEV/device/vendor):$(cat /sys/class/infiniband/$DEV/device/device)"
if [ "$ids" = 0x15b3:0x1017 ]; then
	ok "$DEV's parent in sysfs says $ids (ConnectX-5)"
else
	bad "$DEV's parent in sysfs says '$ids', not 0x15b3:0x1017"
fi
t0=$(cut -d' ' -f1 /proc/uptime)
UCX_NET_DEVICES=$DEV:1 timeout $TMO ucx_info -d > ucx_info.out 2>&1; rc=$?
tls=$(awk -v md="# Memory domain: $DEV" '/# Memory domain:/ { in_md = ($0 == md) }
	in_md && /Transport:/ { printf "%s ", $3 }' ucx_info.out)
case " $tls" in
*" rc_mlx5 "*" ud_mlx5 "*|*" ud_mlx5 "*" rc_mlx5 "*)
	ok "ucx_info -d: exit $rc, $DEV has $tls($(elapsed $t0) s)" ;;
*)	bad "ucx_info -d: exit $rc, $DEV has transports '$tls', not rc_mlx5 and ud_mlx5"
	grep -E "Memory domain|Transport|ERROR|WARN" ucx_info.out | sed 's/^/  /' ;;
esac
# ucx_pair NAME TEST [ARGS...]: ucx_perftest's server, and its client over
# rc_mlx5 on $DEV, -n 100; both exit 0, the client prints its Final line.
# The variables in UCX_SETTINGS (VAR=VALUE ...) go to both.
ucx_pair() {
	n=$1 tst=$2; shift 2
	port=$((port + 1))
	t0=$(cut -d' ' -f1 /proc/uptime)
	scat_start
	env $UCX_SETTINGS timeout $TMO ucx_perftest -p $port > $n.srv 2>&1 & sp=$!
	t=0
	until listening $port; do
		t=$((t + 1)); [ $t -gt 300 ] && break
		sleep 0.1
	done
	env $UCX_SETTINGS timeout $TMO ucx_perftest -p $port -d $DEV:1 -x rc_mlx5 -t $tst -n 100 "$@" \
		127.0.0.1 > $n.cli 2>&1; c=$?
	wait $sp; s=$?
	scat_count
	what="ucx_perftest -x rc_mlx5 -t $tst $*${UCX_SETTINGS:+ with $UCX_SETTINGS}"
	if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -Eq '^Final: +100 ' $n.cli && scat_ok; then
		ok "$what: server and client exit 0, $(grep '^Final:' $n.cli | tr -s ' '); $(scat_says) ($(elapsed $t0) s)"
	else
		bad "$what: server exit $s, client exit $c; $(scat_says)"
		tail -n 15 $n.srv | sed "s/^/  [server] /"; tail -n 15 $n.cli | sed "s/^/  [client] /"
	fi
	nothing_left "ucx_perftest $tst"
}
UCX_SETTINGS=
# UCX's defaults make 128-byte CQEs and ask for scatter to CQE both ways
# (the requester side with MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE, its QPs
# not signalling every WR): small active messages (responder) and get,
# fadd and cswap responses (requester) come in the CQE, where UCX reads
# them itself
WANT_SCAT=64
ucx_pair ucx-am am_lat
WANT_SCAT=
ucx_pair ucx-put put_bw
WANT_SCAT=64
ucx_pair ucx-get get -D bcopy
ucx_pair ucx-fadd fadd
ucx_pair ucx-cswap cswap
WANT_SCAT=
# the settings that keep UCX off DEVX, BlueFlame, inline scatter to CQEs and
# device memory: not needed here, the other way through still checked
UCX_SETTINGS="UCX_IB_MLX5_DEVX=n UCX_RC_MLX5_MMIO_MODE=db UCX_RC_MLX5_RX_INLINE=0 UCX_RC_MLX5_TX_INLINE_RESP=0 UCX_RC_MLX5_DM_COUNT=0"
# (RX_INLINE=0 makes UCX disable scatter to CQE at create, TX_INLINE_RESP=0
# clear sq_sig_all: no data in any CQE)
WANT_SCAT=none
ucx_pair ucx-am-db am_lat
WANT_SCAT=
UCX_SETTINGS=
# UCP level over UCX_TLS=rc_x: UCX 1.13's alias for rc_mlx5 carrying the
# data with ud_mlx5 as the auxiliary transport that wires the RC endpoints
# up (ucx_perftest's address exchange gives only the worker address, so
# the RC QPs are connected through UD messages). UCX_LOG_LEVEL=info makes
# each side print its endpoint's lanes: the tag lane must be rc_mlx5 on
# $DEV, wire-up on ud_mlx5. ucp_pair NAME TEST [ARGS...]: as ucx_pair.
ucp_pair() {
	n=$1 tst=$2; shift 2
	port=$((port + 1))
	t0=$(cut -d' ' -f1 /proc/uptime)
	set -- UCX_TLS=rc_x UCX_NET_DEVICES=$DEV:1 UCX_LOG_LEVEL=${UCP_LOG:-info} timeout $TMO ucx_perftest -p $port -t $tst -n 100 "$@"
	scat_start
	env "$@" > $n.srv 2>&1 & sp=$!
	t=0
	until listening $port; do
		t=$((t + 1)); [ $t -gt 300 ] && break
		sleep 0.1
	done
	env "$@" 127.0.0.1 > $n.cli 2>&1; c=$?
	wait $sp; s=$?
	scat_count
	what="ucx_perftest -t $tst $(echo "$@" | sed 's/.* -n 100 *//') with UCX_TLS=rc_x"
	if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -Eq '^Final: +100 ' $n.cli &&
	   grep -q "tag(rc_mlx5/$DEV:1)" $n.cli && grep -q "tag(rc_mlx5/$DEV:1)" $n.srv && scat_ok; then
		ok "$what: server and client exit 0, tag lane rc_mlx5/$DEV:1, $(grep '^Final:' $n.cli | tr -s ' '); $(scat_says) ($(elapsed $t0) s)"
	else
		bad "$what: server exit $s, client exit $c$(grep -q "tag(rc_mlx5/$DEV:1)" $n.cli || echo ', no rc_mlx5 tag lane'); $(scat_says)"
		tail -n 25 $n.srv | sed "s/^/  [server] /"; tail -n 25 $n.cli | sed "s/^/  [client] /"
	fi
	grep -h 'ep_cfg\[' $n.cli | head -n 3 | sed 's/^/  [client] /'
	grep -h 'UCX  \(WARN\|ERROR\)' $n.srv $n.cli | head -n 10 | sed 's/^/  /'
	# with UCP_LOG=debug: the endpoint was wired up through ud_mlx5
	if [ "${UCP_LOG:-}" = debug ]; then
		if grep -q "created aux_ep .* using ud_mlx5/$DEV:1" $n.cli $n.srv; then
			ok "$what: wired up through ud_mlx5/$DEV:1 ($(cat $n.cli $n.srv | grep -c "created aux_ep .* using ud_mlx5/$DEV:1") auxiliary endpoints)"
		else
			bad "$what: no auxiliary endpoint on ud_mlx5/$DEV:1 in the debug log"
			grep -h 'aux_ep\|wireup' $n.cli $n.srv | head -n 10 | sed 's/^/  /'
		fi
	fi
	nothing_left "ucx_perftest $tst"
}
ucp_log=$(dmesg | wc -l)
WANT_SCAT=64
UCP_LOG=debug ucp_pair ucp-tag-lat tag_lat
WANT_SCAT=
ucp_pair ucp-tag-bw tag_bw -s 65536
# Open MPI (Debian's 4.1, its runtime from the host: mlx5-data.sh) over UCX
# on rc_mlx5: two ranks in this guest, mpi_check's ping-pongs (8 B to
# 256 KiB, every byte compared), allreduce and broadcast. --mca pml ucx
# --mca btl self leaves MPI no other way (no shared memory, no TCP), and
# UCX_TLS=rc_x keeps UCX itself off its shared memory transports (posix,
# sysv, cma) and self, so the two ranks talk through the engine alone.
# The lanes (UCX_LOG_LEVEL=info) name rc_mlx5. Open MPI's own needs here:
# plm isolated, as the job is on this node alone and the guest has no ssh
# or rsh (the default rsh launcher stops mpirun: "plm_rsh_agent ... could
# not be found"); a host name, as it refuses the guest's "(none)".
mpi=mpi
if [ ! -x $B/mpi_check ] || [ ! -x /bin/orted ]; then
	echo "--- SKIP $DRV: Open MPI over rc_mlx5: no Open MPI in the guest (openmpi-bin and libopenmpi-dev on the host)"
else
	t0=$(cut -d' ' -f1 /proc/uptime)
	hostname uvio-mlx5
	scat_start
	timeout 300 mpirun --allow-run-as-root -np 2 --tag-output --mca plm isolated \
		--mca pml ucx --mca btl self -x UCX_MODULE_DIR -x UCX_NET_DEVICES=$DEV:1 \
		-x UCX_TLS=rc_x -x UCX_LOG_LEVEL=info $B/mpi_check > $mpi.out 2>&1; rc=$?
	scat_count
	# each rank's endpoint to the other (--tag-output: "[1,RANK]" first)
	lanes=0
	for r in 0 1; do
		grep -q "^\[1,$r\]<std[a-z]*>:.* ep_cfg\[[0-9]*\]: tag(rc_mlx5/$DEV:1)" $mpi.out &&
			lanes=$((lanes + 1))
	done
	WANT_SCAT=64	# UCX's defaults, as above
	if [ $rc -eq 0 ] && grep -q "MPI-CHECK PASS ranks 2 " $mpi.out && [ $lanes -eq 2 ] &&
	   scat_ok; then
		ok "Open MPI over UCX rc_mlx5, 2 ranks: every byte checked, both ranks' tag lane rc_mlx5/$DEV:1; $(scat_says) ($(elapsed $t0) s)"
		grep -h "MPI-CHECK" $mpi.out | sed 's/^/  /'
		grep -h 'UCX  \(WARN\|ERROR\)' $mpi.out | head -n 10 | sed 's/^/  /'
	else
		bad "Open MPI over UCX rc_mlx5, 2 ranks: mpirun exit $rc, $lanes of 2 ranks with an rc_mlx5 tag lane; $(scat_says)"
		tail -n 40 $mpi.out | sed 's/^/  /'
	fi
	WANT_SCAT=
	nothing_left "mpirun -np 2 over rc_mlx5"
fi
# what the engine logged meanwhile (a refused WQE, a dropped UD message)
dmesg | tail -n +$((ucp_log + 1)) | grep 'mlx5_standin: ' | sed 's/^/  dmesg: /'

# --- (f) killed mid-transfer ----------------------------------------------
port=$((port + 1))
timeout $TMO ibv_rc_pingpong -d $DEV -g 0 -n 1000000 -p $port > kill.srv 2>&1 & sp=$!
t=0
until listening $port; do t=$((t + 1)); [ $t -gt 300 ] && break; sleep 0.1; done
timeout $TMO ibv_rc_pingpong -d $DEV -g 0 -n 1000000 -p $port 127.0.0.1 > kill.cli 2>&1 & cp=$!
t=0
until rdma resource show qp 2>/dev/null | grep -q "link $DEV/.*state RTS.*pid"; do
	t=$((t + 1)); [ $t -gt 300 ] && break; sleep 0.1
done
sleep 1
rdma resource show qp | grep "link $DEV/" | sed 's/^/  /'
kill -9 $cp $sp 2>/dev/null
wait $cp $sp 2>/dev/null
nothing_left "two ibv_rc_pingpong killed (SIGKILL) mid-transfer"

# --- (h), (i) the same programs through this library's libibverbs plug-in ---
. $B/kt_mlx5_plugin.sh

. $B/kt_mlx5_cm.sh	# (j)-(l): rping and perftest -R, the kernel's CM over QP1
# --- (g) unload, and the kernel log ----------------------------------------
if rmmod mlx5_standin; then ok "rmmod mlx5_standin"; else bad "rmmod mlx5_standin"; fi
dmesg > dmesg.after
new=$(tail -n +$(($(wc -l < dmesg.before) + 1)) dmesg.after)
warn=$(echo "$new" | grep -E 'WARNING|BUG|Oops|general protection|refcount_t|leak|Call Trace|INFO: task' | head -20)
if [ -z "$warn" ]; then
	ok "the kernel log since insmod holds no warning ($(echo "$new" | grep -c .) lines)"
else
	bad "the kernel log warns:"
	echo "$warn" | sed 's/^/  /'
fi

echo "mlx5-data: $pass passed, $fail failed ($(elapsed $t00) s in the guest)"
exit $fail
