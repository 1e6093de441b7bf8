#!/bin/sh
# Sourced by kt_mlx5_data.sh in the guest (kernel/6.1-mlx5-data and
# 6.12-mlx5-data), with its verdicts and counts, DEV, DEV2, TMO and B: the
# kernel's connection manager over the stand-in's QP1
# (tests/standin/mlx5/mlx5_gsi.c), as over a ConnectX's RoCE port.
#  (j) each device holds the MAD layer's GSI QP (QPN 1) in RTS, and the
#      kernel log since insmod holds no MAD or CM line of failure;
#  (k) rping (librdmacm) on mlx5_0, server and client on 192.0.2.1 (dummy0's
#      address): REQ, REP and RTU, then DREQ and DREP, go as MADs from QP1 to
#      QP1; both exit 0, the client checks (-V) and both print every round;
#  (l) perftest's ib_send_lat -R (its connection made by rdma_cm), server
#      and client on mlx5_0: both exit 0, the client prints its result;
#  (m) QP1 to QP1 across devices: with 198.51.100.1 on dummy1, rping's
#      client bound there (mlx5_1) connects to 192.0.2.1 (mlx5_0): its REQ
#      goes from mlx5_1's QP1 to mlx5_0's by GID, and mlx5_0 answers with
#      a REJ that comes back to mlx5_1 (the stand-in logs both crossings):
#      both addresses are the guest's own, and the listener's check of the
#      path back (the route to 198.51.100.1 leaves by dummy1, not by the
#      dummy0 the REQ came in on) refuses it, as it would two local RoCE
#      devices of any host. A connection across the devices cannot be made
#      in one guest so; the REJ's round trip is the witness.
# after each, nothing of the programs is left on mlx5_0 (and mlx5_1).
cm_port=7174
# cm_listen PORT: the connection manager's listener on PORT, as the kernel
# lists it (RoCE has no TCP socket to wait for); up to 30 s
cm_listen() {
	t=0
	until rdma resource show cm_id 2>/dev/null | grep LISTEN | grep -q ":$1 "; do
		t=$((t + 1)); [ $t -gt 300 ] && return 1
		sleep 0.1
	done
}

# --- (j) QP1 on each device --------------------------------------------------
for d in $DEV $DEV2; do
	q=$(rdma resource show qp 2>/dev/null | grep "link $d/1 lqpn 1 ")
	if echo "$q" | grep -q "type GSI state RTS"; then
		ok "$d: the MAD layer's QP1 ($(echo "$q" | sed 's/^link [^ ]* //'))"
	else
		bad "$d: no GSI QP 1 in RTS: '$q'"
	fi
done
cm_err=$(grep -iE "ib_mad|ib_cm|rdma_cm|mad agent|couldn't (open|create|register)" dmesg.before |
	grep -iE "fail|error|couldn't|unable" | head -5)
if [ -z "$cm_err" ]; then
	ok "the kernel log since insmod holds no MAD or CM failure"
else
	bad "the kernel log: $cm_err"
fi

# --- (k) rping ------------------------------------------------------------------
t0=$(cut -d' ' -f1 /proc/uptime)
cm_port=$((cm_port + 1))
timeout $TMO rping -s -a 192.0.2.1 -p $cm_port -S 1024 -v -V > rping.srv 2>&1 & sp=$!
cm_listen $cm_port || echo "  (no listener on port $cm_port after 30 s)"
timeout $TMO rping -c -a 192.0.2.1 -p $cm_port -S 1024 -C 10 -v -V > rping.cli 2>&1; c=$?
wait $sp; s=$?
cs=$(grep -c "^server ping data: rdma-ping-" rping.srv) cc=$(grep -c "^ping data: rdma-ping-" rping.cli)
if [ $s -eq 0 ] && [ $c -eq 0 ] && [ "$cs" = 10 ] && [ "$cc" = 10 ]; then
	ok "rping -S 1024 -C 10 -V on $DEV (192.0.2.1): server and client exit 0, 10 rounds each ($(elapsed $t0) s)"
else
	bad "rping on $DEV: server exit $s ($cs rounds), client exit $c ($cc rounds)"
	tail -n 8 rping.srv | sed 's/^\(.\{120\}\).*/\1/; s/^/  [server] /'
	tail -n 8 rping.cli | sed 's/^\(.\{120\}\).*/\1/; s/^/  [client] /'
	dmesg | grep "mlx5_standin: QP1" | tail -5 | sed 's/^/  dmesg: /'
fi
nothing_left "rping"

# --- (l) perftest over rdma_cm ------------------------------------------------
t0=$(cut -d' ' -f1 /proc/uptime)
cm_port=$((cm_port + 1))
timeout $TMO ib_send_lat -R -d $DEV -n 100 -F -p $cm_port > send_lat_cm.srv 2>&1 & sp=$!
cm_listen $cm_port || echo "  (no listener on port $cm_port after 30 s)"
timeout $TMO ib_send_lat -R -d $DEV -n 100 -F -p $cm_port 192.0.2.1 > send_lat_cm.cli 2>&1; c=$?
wait $sp; s=$?
if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -Eq '^ *2 +100 ' send_lat_cm.cli; then
	ok "ib_send_lat -R -d $DEV -n 100: server and client exit 0, $(grep -E '^ *2 +100 ' send_lat_cm.cli | tr -s ' ' | cut -d' ' -f2-7) ($(elapsed $t0) s)"
else
	bad "ib_send_lat -R -d $DEV: server exit $s, client exit $c"
	tail -n 8 send_lat_cm.srv | sed 's/^/  [server] /'
	tail -n 8 send_lat_cm.cli | sed 's/^/  [client] /'
fi
nothing_left "ib_send_lat -R"

# --- (m) QP1 to QP1 across the devices --------------------------------------
t0=$(cut -d' ' -f1 /proc/uptime)
cm_port=$((cm_port + 1))
ip addr add 198.51.100.1/24 dev dummy1
t=0	# its IPv4-mapped GID on mlx5_1
until grep -qx '0000:0000:0000:0000:0000:ffff:c633:6401' /sys/class/infiniband/$DEV2/ports/1/gids/* 2>/dev/null; do
	t=$((t + 1)); [ $t -gt 100 ] && break
	sleep 0.05
done
timeout $TMO rping -s -a 192.0.2.1 -p $cm_port -v > rping2.srv 2>&1 & sp=$!
cm_listen $cm_port || echo "  (no listener on port $cm_port after 30 s)"
timeout $TMO rping -c -a 192.0.2.1 -I 198.51.100.1 -p $cm_port -C 1 -v > rping2.cli 2>&1; c=$?
kill $sp 2>/dev/null
wait $sp
# the stand-in logs each MAD that crosses between its devices: CM (class
# 0x07) REQ (0x0010) one way, REJ (0x0012) back
if grep -q "RDMA_CM_EVENT_REJECTED, error" rping2.cli &&
   dmesg | grep -q "mlx5_standin: QP1 of $DEV2 to QP1 of $DEV: MAD class 0x07 attribute 0x0010" &&
   dmesg | grep -q "mlx5_standin: QP1 of $DEV to QP1 of $DEV2: MAD class 0x07 attribute 0x0012"; then
	ok "rping from 198.51.100.1 ($DEV2) to 192.0.2.1 ($DEV): the CM's REQ crossed from $DEV2's QP1 to $DEV's, its REJ came back ($(grep -o 'REJECTED, error [0-9]*' rping2.cli)) ($(elapsed $t0) s)"
else
	bad "rping from 198.51.100.1 ($DEV2) to 192.0.2.1 ($DEV): client exit $c, no REQ and REJ between the QP1s"
	tail -n 8 rping2.cli | sed 's/^/  [client] /'
	dmesg | grep "mlx5_standin: QP1" | tail -5 | sed 's/^/  dmesg: /'
fi
ip addr del 198.51.100.1/24 dev dummy1
nothing_left "rping across the devices"
DEV=$DEV2
nothing_left "rping across the devices"
DEV=mlx5_0
