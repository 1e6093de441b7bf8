#!/bin/sh
# Runs in the two guests of bench/provider-2guests.sh (tests/vm/run-multi.sh):
# UCX and Open MPI across the guests over rxe, on libibverbs with this
# library's provider (RDMAV_DRIVERS) and with the stock rxe provider, the two
# taking turns in each round and the order reversed every round. Both sides
# of every exchange run on the same provider.
#
#   guest-provider-2guests.sh server|client    (UVIO_ARGS: ROUNDS ITERS)
#
# Each round and provider: ucx_perftest over UCX's rc_verbs, tag_lat (8 B,
# ITERS round trips, its median latency) and tag_bw (64 KiB, ITERS messages,
# its overall bandwidth); then Open MPI over UCX, one rank per guest,
# tests/kernel/mpi_check's ping-pong (round trips at 8 B, 4, 64 and 256 KiB,
# every byte checked). Before the rounds, one traced run of each on each
# provider shows who served the device. The client prints
# "PROV ROUND r uvio|stock TEST VALUE" lines, then PROV-END.
set -u
role=$1
tag=bench ctl=18603
set -- ${UVIO_ARGS:-}
rounds=${1:-9} iters=${2:-1000}
dev=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p' | head -n1)
me=${UVIO_ADDRS%%/*}
peer=$UVIO_PEER
. /opt/uvio/guest-lib.sh
UVP=/opt/uvio/bin/libuvio
T=/tmp/bench2
rm -rf $T && mkdir -p $T
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm 2>/dev/null	# UCX's shared memory
export UCX_MODULE_DIR=/opt/uvio/bin
[ -f $UVP-rdmav34.so ] || { echo "guest-provider-2guests: no $UVP-rdmav34.so"; exit 1; }
[ -x /opt/uvio/bin/mpi_check ] || { echo "guest-provider-2guests: no mpi_check"; exit 1; }
UCX="UCX_NET_DEVICES=$dev:1 UCX_TLS=rc_v,self UCX_IB_GID_INDEX=0"
envof() { [ "$1" = uvio ] && echo "env RDMAV_DRIVERS=$UVP $UCX" || echo "env $UCX"; }
die() { echo "guest-provider-2guests: $*"; exit 1; }

# ucx CFG TEST SIZE N [TRACE]: one ucx_perftest exchange; the client's
# output in $T/c.out, the server's in $T/s.out. (guest-lib.sh's helpers
# use t and i: not names for this.)
ucx() {
	cfg=$1 what=$2 size=$3 n=$4 tr=${5:+UVERBS_IOCTL_TRACE=1}
	if [ $role = server ]; then
		$(envof $cfg) $tr timeout 150 ucx_perftest -p 13337 > $T/s.out 2>&1 &
		spid=$!
		wait_listen 13337 || { kill $spid; die "no ucx_perftest server"; }
	fi
	barrier "ucx $cfg $what $r" || die "barrier before ucx $cfg $what"
	if [ $role = client ]; then
		$(envof $cfg) $tr timeout 120 ucx_perftest -p 13337 -t $what -n $n -s $size $peer \
			> $T/c.out 2>&1 || { grep -v "^uverbs-ioctl" $T/c.out | tail -n 30; die "ucx_perftest $what on $cfg failed"; }
	else
		wait $spid || { grep -v "^uverbs-ioctl" $T/s.out | tail -n 30; die "ucx_perftest server on $cfg failed"; }
	fi
	barrier "ucx $cfg $what $r done" || die "barrier after ucx $cfg $what"
}

# mpi CFG [TRACE]: mpi_check's ping-pong, rank 0 here (the client), rank 1
# in the server's guest; the output in $T/mpi.out.
mpi() {
	cfg=$1
	barrier "mpi $cfg $r" || die "barrier before mpi $cfg"
	if [ $role = client ]; then
		x=
		[ $cfg = uvio ] && x="-x RDMAV_DRIVERS=$UVP"
		[ -n "${2:-}" ] && x="$x -x UVERBS_IOCTL_TRACE=1"
		mpirun_ucx 300 --tag-output -np 2 --host $me:1,$peer:1 $x /opt/uvio/bin/mpi_check \
			> $T/mpi.out 2>&1 || { tail -n 30 $T/mpi.out; die "mpirun on $cfg failed"; }
		grep -q "MPI-CHECK PASS ranks 2 " $T/mpi.out || die "no MPI-CHECK PASS on $cfg"
	fi
	barrier "mpi $cfg $r done" || die "barrier after mpi $cfg"
}

echo "RESULT kernel $(uname -r)"
mpi_hosts
# UCX addresses the peer by GID 0, its link-local IPv6 address: until
# duplicate address detection is over on both sides, the peer answers no
# neighbour solicitation and the first address handle times out (seen 8 s
# after boot).
t=0
while ip -6 addr show | grep -q tentative && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
barrier "link-local addresses ready" || die "barrier: link-local addresses"
# Who serves the device: the plug-in traces its commands when asked; the
# stock side has none to trace.
r=check
for cfg in uvio stock; do
	ucx $cfg tag_lat 8 100 trace
	out=$T/s.out; [ $role = client ] && out=$T/c.out
	n=$(grep -c "^uverbs-ioctl: [^ ]* ioctl: QP.CREATE" $out)
	if [ $cfg = uvio ]; then
		[ "$n" -ge 1 ] || die "ucx_perftest on the plug-in created no QP through the library"
	else
		[ "$n" = 0 ] || die "ucx_perftest on the stock provider went through the library"
	fi
	mpi $cfg trace
	if [ $role = client ]; then
		for k in 0 1; do
			n=$(grep -c "^\[1,$k\]<stderr>:uverbs-ioctl: [^ ]* ioctl: QP.CREATE" $T/mpi.out)
			if [ $cfg = uvio ]; then
				[ "$n" -ge 1 ] || die "MPI rank $k on the plug-in created no QP through the library"
			else
				[ "$n" = 0 ] || die "MPI rank $k on the stock provider went through the library"
			fi
		done
	fi
done
echo "PROV CHECK ucx_perftest (both sides) and both MPI ranks run on the plug-in under RDMAV_DRIVERS, on the stock provider otherwise"

r=1
while [ $r -le $rounds ]; do
	order="uvio stock"
	[ $((r % 2)) = 0 ] && order="stock uvio"
	for cfg in $order; do
		ucx $cfg tag_lat 8 $iters
		[ $role = client ] && echo "PROV ROUND $r $cfg ucx_tag_lat_us $(awk '$1 == "Final:" { print $3 }' $T/c.out)"
		ucx $cfg tag_bw 65536 $iters
		[ $role = client ] && echo "PROV ROUND $r $cfg ucx_tag_bw_MBps $(awk '$1 == "Final:" { print $7 }' $T/c.out)"
		mpi $cfg
		[ $role = client ] && sed -n 's/.*MPI-CHECK PASS ranks 2 pingpong_us \([0-9: ]*\) allreduce.*/\1/p' \
			$T/mpi.out | tr ' ' '\n' | awk -F: -v r=$r -v c=$cfg \
			'NF == 2 { printf "PROV ROUND %s %s mpi_pingpong_%s_us %s\n", r, c, $1, $2 }'
	done
	r=$((r + 1))
done
[ -n "$mpi_rsh_pid" ] && { kill $mpi_rsh_pid; wait $mpi_rsh_pid 2>/dev/null; }
echo PROV-END
