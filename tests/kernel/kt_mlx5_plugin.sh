#!/bin/sh
# Sourced by kt_mlx5_data.sh (kernel/6.1-mlx5-data, kernel/6.12-mlx5-data)
# in the guest, with its helpers (ok, bad, show, nothing_left, listening,
# elapsed) and variables (B, DEV, TMO, port): Debian's programs, unmodified,
# on the mlx5 stand-in through this library's libibverbs provider plug-in
# (libuvio-rdmav34.so, chosen per process by RDMAV_DRIVERS) instead of the
# stock libmlx5: the commands through libuverbs-ioctl and its mlx5 half,
# the WQEs and CQEs written and read by its data path (providers/mlx5.c).
#  (h) ibv_rc_pingpong (polling, -e, and with MLX5_CQE_SIZE=128 the
#      library's 128-byte CQEs), ibv_uc_pingpong, ibv_ud_pingpong
#      and ibv_srq_pingpong with both sides on the plug-in, rc and srq
#      also with messages of 32 bytes (64 with 128-byte CQEs) that come in
#      the CQE (scatter to CQE) for the library's poll to copy out; ibv_rc_pingpong
#      once with the server on the plug-in and the client on libmlx5, once
#      the other way round; ib_send_lat, ib_write_bw, ib_read_lat and
#      ib_atomic_lat (fetch-and-add and compare-and-swap) with RDMAV_DRIVERS
#      set, which libmlx5 serves all the same: Debian's perftest links
#      libmlx5.so.1, whose provider registers as the program loads, before
#      libibverbs reads RDMAV_DRIVERS, and the first match wins (checked:
#      the program links it, and no command went through the library);
#  (i) ucx_perftest at UCT level over rc_verbs and ud_verbs on the plug-in
#      (rc_mlx5 and ud_mlx5 need libmlx5's mlx5dv: not the plug-in's);
#  (j) an Open MPI job (mpi_check, 2 ranks) over UCX's rc_verbs on the
#      plug-in, every byte checked;
#  (k) ibv_conventions (libibverbs' conventions: QP creation with create
#      flags and send operations, receives in RESET and on a full queue, a
#      parent domain) on the plug-in, libmlx5's answers printed beside.
# Each case: both sides exit 0 and report their iterations; a side on the
# plug-in traced (UVERBS_IOCTL_TRACE=1) its QP created through the library,
# a side on libmlx5 traced nothing (the same variable set: no command of
# its went through the library); nothing is left in `rdma resource`.
PLUGIN=$B/libuvio-rdmav34.so
UVP=${PLUGIN%-rdmav34.so}

# envof uvio|stock: what a side runs under. Both trace: the stock side's
# empty trace shows libmlx5, not the plug-in, served it.
envof() {
	case $1 in
	uvio) echo "env RDMAV_DRIVERS=$UVP UVERBS_IOCTL_TRACE=1" ;;
	*) echo "env UVERBS_IOCTL_TRACE=1" ;;
	esac
}

# plugin_trace CASE SIDE MODE FILE: the side's stderr (FILE) holds the
# library's trace of a QP created (uvio), or no trace line (stock).
plugin_trace() {
	pt_n=$(grep -c "^uverbs-ioctl: [^ ]* [a-z0-9-]*: " "$4")
	if [ "$3" = uvio ]; then
		if grep -q "^uverbs-ioctl: [^ ]* ioctl: QP.CREATE\|^uverbs-ioctl: [^ ]* [a-z-]*: CREATE_QP" "$4"; then
			ok "$1: the $2 sent $pt_n commands through libuverbs-ioctl, QP.CREATE among them"
		else
			bad "$1: the $2 shows no QP created through libuverbs-ioctl ($pt_n commands)"
		fi
	elif [ "$pt_n" = 0 ] && [ "$3" = linked ]; then
		ok "$1: the $2 ran on libmlx5, not the plug-in: the program links libmlx5.so.1, whose provider registers as the program loads, before libibverbs loads RDMAV_DRIVERS' (the first match wins); no command through libuverbs-ioctl"
	elif [ "$pt_n" = 0 ]; then
		ok "$1: the $2 ran on libmlx5 (no command through libuverbs-ioctl)"
	else
		bad "$1: the $2 was to run on libmlx5 but sent $pt_n commands through libuverbs-ioctl"
	fi
}

# links_libmlx5 PROGRAM: the program has libmlx5.so.1 among its libraries
# (perftest, built with mlx5dv): libmlx5 claims mlx5 in it whatever
# RDMAV_DRIVERS says.
links_libmlx5() {
	LD_TRACE_LOADED_OBJECTS=1 "$(command -v "$1")" 2>/dev/null | grep -q 'libmlx5\.so'
}

# ppair NAME ITERS SERVER_MODE CLIENT_MODE PROGRAM ARGS...: as pair in
# kt_mlx5_data.sh, each side under its mode (uvio or stock), stdout and
# stderr (the trace) apart; the CQEs with data scattered to them counted
# (WANT_SCAT as there).
ppair() {
	n=$1 it=$2 sm=$3 cm=$4; shift 4
	port=$((port + 1))
	what="$* (server $sm, client $cm)"
	t0=$(cut -d' ' -f1 /proc/uptime)
	scat_start
	$(envof $sm) timeout $TMO "$@" -p $port > $n.srv 2> $n.srv.err & sp=$!
	t=0
	until listening $port; do
		t=$((t + 1)); [ $t -gt 300 ] && break
		sleep 0.1
	done
	$(envof $cm) timeout $TMO "$@" -p $port 127.0.0.1 > $n.cli 2> $n.cli.err; c=$?
	wait $sp; s=$?
	scat_count
	for f in srv cli; do
		sed "s/^/  [$f] /" $n.$f
		grep -v "^uverbs-ioctl: \|^  " $n.$f.err | tail -n 10 | sed "s/^/  [$f stderr] /"
	done
	case $1 in
	ib_*) want='^ *[0-9]+ +[0-9]+ ' srv=.
	      case $1 in ib_read_lat|ib_atomic_lat) ;; *) srv=$want ;; esac ;;
	*) want="^$it iters in " srv=$want ;;
	esac
	if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -Eq "$srv" $n.srv && grep -Eq "$want" $n.cli &&
	   ! grep -q "invalid data" $n.srv $n.cli && scat_ok; then
		ok "$what: server and client exit 0, $it iterations; $(scat_says) ($(elapsed $t0) s)"
	else
		bad "$what: server exit $s, client exit $c$(grep -q "invalid data" $n.srv $n.cli && echo ', invalid data'); $(scat_says)"
		tail -n 15 $n.srv.err | sed "s/^/  [srv stderr] /"
		tail -n 15 $n.cli.err | sed "s/^/  [cli stderr] /"
	fi
	ts=$sm tc=$cm
	if links_libmlx5 $1; then
		[ $ts = uvio ] && ts=linked
		[ $tc = uvio ] && tc=linked
	fi
	plugin_trace "$what" server $ts $n.srv.err
	plugin_trace "$what" client $tc $n.cli.err
	nothing_left "$1 ($sm/$cm)"
}

# ucx_vpair NAME TL TEST [ARGS...]: ucx_perftest's server and its client
# over TL (rc_verbs, ud_verbs) on $DEV, -n 100, both on the plug-in.
ucx_vpair() {
	n=$1 tl=$2 tst=$3; shift 3
	port=$((port + 1))
	u="$(envof uvio) UCX_NET_DEVICES=$DEV:1 UCX_IB_GID_INDEX=0"
	t0=$(cut -d' ' -f1 /proc/uptime)
	$u timeout $TMO ucx_perftest -p $port > $n.srv 2> $n.srv.err & sp=$!
	t=0
	until listening $port; do
		t=$((t + 1)); [ $t -gt 300 ] && break
		sleep 0.1
	done
	$u timeout $TMO ucx_perftest -p $port -d $DEV:1 -x $tl -t $tst -n 100 "$@" \
		127.0.0.1 > $n.cli 2> $n.cli.err; c=$?
	wait $sp; s=$?
	what="ucx_perftest -x $tl -t $tst $* on the plug-in"
	if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -Eq '^Final: +100 ' $n.cli; then
		ok "$what: server and client exit 0, $(grep '^Final:' $n.cli | tr -s ' ') ($(elapsed $t0) s)"
	else
		bad "$what: server exit $s, client exit $c"
		for f in srv cli; do
			tail -n 15 $n.$f | sed "s/^/  [$f] /"
			grep -v "^uverbs-ioctl: \|^  " $n.$f.err | tail -n 15 | sed "s/^/  [$f stderr] /"
		done
	fi
	plugin_trace "$what" server uvio $n.srv.err
	plugin_trace "$what" client uvio $n.cli.err
	nothing_left "ucx_perftest $tl $tst"
}

if [ ! -f "$PLUGIN" ]; then
	echo "--- SKIP $DRV: no $PLUGIN in the guest (the build has no libibverbs plug-in)"
else
	# (h) Debian's programs through the plug-in
	ppair p-rc 20 uvio uvio ibv_rc_pingpong -d $DEV -g 0 -n 20
	ppair p-rc-events 20 uvio uvio ibv_rc_pingpong -d $DEV -g 0 -n 20 -e
	# 128-byte CQEs on the plug-in: the library's half asks for them, its
	# poll reads each CQE in its entry's second half
	export MLX5_CQE_SIZE=128
	ppair p-rc-cqe128 20 uvio uvio ibv_rc_pingpong -d $DEV -g 0 -n 20 -c -e
	unset MLX5_CQE_SIZE
	if grep -q 'mlx5_create_cq {.*cqe_size = 128' p-rc-cqe128.srv.err &&
		! grep -q 'mlx5_create_cq {.*cqe_size = 64' p-rc-cqe128.srv.err; then
		ok "MLX5_CQE_SIZE=128: the plug-in's CQs were asked with 128-byte CQEs (traced)"
	else
		bad "MLX5_CQE_SIZE=128: the trace shows no CQ of 128-byte CQEs, or one of 64"
		grep 'mlx5_create_cq' p-rc-cqe128.srv.err | cut -c1-200 | sed 's/^/  /'
	fi
	# small messages in the CQE, copied out by the library's poll (to an
	# RQ's and an SRQ's receive; 64 bytes with 128-byte CQEs)
	WANT_SCAT=32
	ppair p-rc-small 20 uvio uvio ibv_rc_pingpong -d $DEV -g 0 -n 20 -s 32 -c
	ppair p-srq-small 20 uvio uvio ibv_srq_pingpong -d $DEV -g 0 -n 20 -q 4 -s 32 -c
	export MLX5_CQE_SIZE=128
	WANT_SCAT=64
	ppair p-rc-small-cqe128 20 uvio uvio ibv_rc_pingpong -d $DEV -g 0 -n 20 -s 64 -c
	WANT_SCAT=
	unset MLX5_CQE_SIZE
	ppair p-uc 20 uvio uvio ibv_uc_pingpong -d $DEV -g 0 -n 20
	ppair p-ud 20 uvio uvio ibv_ud_pingpong -d $DEV -g 0 -n 20 -s 1024
	ppair p-srq 20 uvio uvio ibv_srq_pingpong -d $DEV -g 0 -n 20 -q 4
	ppair p-send_lat 100 uvio uvio ib_send_lat -d $DEV -x 0 -n 100 -F
	ppair p-write_bw 100 uvio uvio ib_write_bw -d $DEV -x 0 -n 100 -F
	ppair p-read_lat 100 uvio uvio ib_read_lat -d $DEV -x 0 -n 100 -F
	ppair p-atomic_fa 100 uvio uvio ib_atomic_lat -d $DEV -x 0 -n 100 -F
	ppair p-atomic_cs 100 uvio uvio ib_atomic_lat -d $DEV -x 0 -n 100 -F -A CMP_AND_SWAP
	# the wire does not care who wrote the WQEs
	ppair p-rc-mix1 20 uvio stock ibv_rc_pingpong -d $DEV -g 0 -n 20 -c
	ppair p-rc-mix2 20 stock uvio ibv_rc_pingpong -d $DEV -g 0 -n 20 -c
	# (i) UCX over the verbs transports
	mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm 2>/dev/null
	export UCX_MODULE_DIR=$B
	ucx_vpair p-ucx-rc-am rc_verbs am_lat
	ucx_vpair p-ucx-rc-put rc_verbs put_bw
	ucx_vpair p-ucx-rc-get rc_verbs get -D bcopy
	ucx_vpair p-ucx-rc-fadd rc_verbs fadd
	ucx_vpair p-ucx-rc-cswap rc_verbs cswap
	ucx_vpair p-ucx-ud-am ud_verbs am_lat
	# (j) Open MPI over UCX's verbs transports, both ranks on the plug-in:
	# as the rc_mlx5 job of kt_mlx5_data.sh, with UCX_TLS=rc_v (rc_verbs,
	# wired up over ud_verbs) and each rank's commands traced.
	if [ ! -x $B/mpi_check ] || [ ! -x /bin/orted ]; then
		echo "--- SKIP $DRV: Open MPI through the plug-in: no Open MPI in the guest"
	else
		t0=$(cut -d' ' -f1 /proc/uptime)
		hostname uvio-mlx5
		timeout 300 mpirun --allow-run-as-root -np 2 --tag-output --mca plm isolated \
			--mca pml ucx --mca btl self -x UCX_MODULE_DIR -x UCX_NET_DEVICES=$DEV:1 \
			-x UCX_TLS=rc_v -x UCX_IB_GID_INDEX=0 -x UCX_LOG_LEVEL=info \
			-x RDMAV_DRIVERS=$UVP -x UVERBS_IOCTL_TRACE=1 $B/mpi_check > p-mpi.out 2>&1; rc=$?
		lanes=0 traced=0
		for r in 0 1; do
			grep -q "^\[1,$r\]<std[a-z]*>:.* ep_cfg\[[0-9]*\]: tag(rc_verbs/$DEV:1)" p-mpi.out &&
				lanes=$((lanes + 1))
			grep -q "^\[1,$r\]<stderr>:uverbs-ioctl: [^ ]* ioctl: QP.CREATE" p-mpi.out &&
				traced=$((traced + 1))
		done
		what="Open MPI over UCX rc_verbs on the plug-in, 2 ranks"
		if [ $rc -eq 0 ] && grep -q "MPI-CHECK PASS ranks 2 " p-mpi.out && [ $lanes -eq 2 ] &&
			[ $traced -eq 2 ]; then
			ok "$what: every byte checked, both ranks' tag lane rc_verbs/$DEV:1, both ranks' QPs made through libuverbs-ioctl ($(elapsed $t0) s)"
		else
			bad "$what: mpirun exit $rc, $lanes of 2 ranks with an rc_verbs tag lane, $traced of 2 with QP.CREATE traced"
			grep -v 'uverbs-ioctl: ' p-mpi.out | tail -n 40 | sed 's/^/  /'
		fi
		nothing_left "mpirun -np 2 on the plug-in"
	fi

	# (k) libibverbs' conventions (tests/kernel/ibv_conventions.c) on
	# mlx5_0: libmlx5's answers for the record, the plug-in's must pass.
	if [ -x $B/ibv_conventions ]; then
		ibv_conventions $DEV 2>&1 | sed 's/^/  [stock] /'
		env RDMAV_DRIVERS=$UVP ibv_conventions $DEV > p-conv.out 2>&1; rc=$?
		sed 's/^/  [plug-in] /' p-conv.out
		if [ $rc -eq 0 ] && grep -q '^PASS ' p-conv.out; then
			ok "ibv_conventions $DEV on the plug-in: $(grep -c '^PASS ' p-conv.out) checks pass"
		else
			bad "ibv_conventions $DEV on the plug-in: exit $rc: $(grep '^FAIL ' p-conv.out | tr '\n' ' ')"
		fi
		nothing_left "ibv_conventions on the plug-in"
	else
		echo "--- SKIP $DRV: ibv_conventions: not built (no libibverbs to link)"
	fi
fi
