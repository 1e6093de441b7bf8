#!/bin/sh
# Runs in the guest (bench/provider.sh, through scripts/vm-run.sh): the same
# unmodified programs on libibverbs with this library's provider
# (RDMAV_DRIVERS) and with the stock rxe provider, rounds interleaved (the
# order reversed every round), on rxe0, both sides in this guest.
#   guest-provider.sh ROUNDS ITERS CYCLES
# Each round and side: ib_send_lat (64 B, ITERS round trips, t_typical),
# ib_write_bw (4 KiB, ITERS writes, BW average), qp_cycle (CYCLES QPs
# created, brought to RTS and destroyed: microseconds per cycle); then, with
# valgrind in the guest, the user-space instructions of 50 such cycles.
# Output: "PROV ROUND r uvio|stock TEST VALUE" and "PROV INSN uvio|stock
# qp_cycle_insn N" lines, then PROV-END.
set -u
rounds=${1:-9} iters=${2:-1000} cycles=${3:-40} icycles=50
dev=rxe0 addr=192.0.2.1
UVP=/opt/uvio/bin/libuvio
[ -f $UVP-rdmav34.so ] || { echo "guest-provider: no $UVP-rdmav34.so"; exit 1; }
envof() { [ "$1" = uvio ] && echo "env RDMAV_DRIVERS=$UVP" || echo env; }

. /opt/uvio/guest-lib.sh	# wait_listen

# perftest CFG PROGRAM ARGS...: the client's result line, both sides checked.
perftest() {
	cfg=$1 p=$2; shift 2
	$(envof $cfg) timeout 120 $p -d $dev -x 1 "$@" > /tmp/s.out 2>&1 &
	spid=$!
	wait_listen 18515 || { echo "guest-provider: $p does not listen"; kill $spid; return 1; }
	$(envof $cfg) timeout 120 $p -d $dev -x 1 "$@" $addr > /tmp/c.out 2>&1
	crc=$?
	wait $spid; src=$?
	[ $crc = 0 ] && [ $src = 0 ] ||
		{ echo "guest-provider: $p on $cfg: exit $src/$crc"; cat /tmp/c.out; return 1; }
	awk '/#bytes/ { getline; print; exit }' /tmp/c.out
}

# The provider serves the device when asked, and only then.
n=$(env RDMAV_DRIVERS=$UVP UVERBS_IOCTL_TRACE=1 qp_cycle $dev 1 2>&1 | grep -c "QP.CREATE")
[ "$n" -ge 1 ] || { echo "guest-provider: the provider did not create the QP"; exit 1; }
n=$(env UVERBS_IOCTL_TRACE=1 qp_cycle $dev 1 2>&1 | grep -c "^uverbs-ioctl: ")
[ "$n" = 0 ] || { echo "guest-provider: the stock side went through the library"; exit 1; }
echo "PROV CHECK the provider creates the QP under RDMAV_DRIVERS, the stock provider otherwise"

r=1
while [ $r -le $rounds ]; do
	order="uvio stock"
	[ $((r % 2)) = 0 ] && order="stock uvio"
	for cfg in $order; do
		l=$(perftest $cfg ib_send_lat -s 64 -n $iters) || exit 1
		echo "PROV ROUND $r $cfg send_lat_us $(echo "$l" | awk '{ print $5 }')"
		l=$(perftest $cfg ib_write_bw -s 4096 -n $iters) || exit 1
		echo "PROV ROUND $r $cfg write_bw_MBps $(echo "$l" | awk '{ print $4 }')"
		l=$($(envof $cfg) qp_cycle $dev $cycles) || { echo "$l"; exit 1; }
		echo "$l" | awk -v r=$r -v c=$cfg '{ for (i = 4; i < NF; i += 2)
			printf "PROV ROUND %s %s qp_%s %s\n", r, c, $i, $(i + 1) }'
	done
	r=$((r + 1))
done

# User-space instructions of the same cycles (callgrind; the kernel's share
# not counted): the provider, libibverbs and libc, per QP cycle.
if command -v valgrind > /dev/null; then
	for cfg in uvio stock; do
		$(envof $cfg) valgrind --tool=callgrind --collect-atstart=no --toggle-collect=run_cycles \
			--callgrind-out-file=/tmp/cg.$cfg qp_cycle $dev $icycles > /tmp/cg.out 2>&1 ||
			{ cat /tmp/cg.out; exit 1; }
		ir=$(sed -n 's/^summary: //p' /tmp/cg.$cfg)
		echo "PROV INSN $cfg qp_cycle_insn $((ir / icycles))"
	done
fi
echo PROV-END
