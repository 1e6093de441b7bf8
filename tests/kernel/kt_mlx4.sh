#!/bin/sh
# kernel/6.1-mlx4 and kernel/6.12-mlx4, in the guest (tests/standin/vm-standin.sh boots it): the
# mlx4 stand-in (tests/standin/mlx4) loaded on dummy0, and Debian's libmlx4
# driving it through libibverbs. Each check prints "--- PASS mlx4: ..." or
# "--- FAIL mlx4: ..."; the exit status is the number of failures.
#  (a) the kernel (rdma dev) and libibverbs (ibv_devices) see mlx4_0, uverbs
#      ABI version 4 (mlx4_ib's for a device with user capabilities);
#  (b) Debian's ibv_devinfo -v -d mlx4_0 ends 0, describes it, and does the
#      same under uverbs-trace; mlx4's EX_QUERY_DEVICE answer counts every
#      section libmlx4 has room for (response_length 48);
#  (c) kt_mlx4_witness passes plain, under uverbs-trace (text) and under
#      uverbs-trace --json; the kernel's object list, taken while all of the
#      witness's objects exist, holds them; the JSON trace shows GET_CONTEXT
#      answered and every object it created destroyed; the commands are
#      listed in order;
#  (d) afterwards the kernel holds no object of mlx4_0;
#  (e) every /opt/uvio/bin/kt_mlx4_uvio* the same way (plain, text, JSON,
#      nothing left), and the refusals it provokes (a CQ without mlx4's
#      request, a CQ buffer shorter than mlx4 computes, send queue strides
#      past the device's and below 64 bytes, a QP on an SRQ with receives)
#      answered with mlx4_ib's errno, and two of the library's half (a raw
#      packet QP, 2^22 CQEs), each reported naming the command; its mmaps
#      of the context's pages, and those mlx4_ib refuses, listed;
#  (f) the traces printed between "UVIO-FILE-BEGIN mlx4/NAME" and
#      "UVIO-FILE-END mlx4/NAME" lines; the host copies them to
#      BUILD_DIR/vm/mlx4/NAME (and compares the driver data of the two,
#      tests/standin/compare-mlx4.py);
#  (g) examples/create_cq and uverbs-info on mlx4_0, as a user runs them;
#  (h) kt_mlx4_uvio under memcheck;
#  (i) the stand-in reloaded as a device without user capabilities (uverbs
#      ABI 3, 32-byte CQEs): the witness and kt_mlx4_uvio pass, both asking
#      for the 8-byte v3 context answer.
B=/opt/uvio/bin
T=/tmp/kt_mlx4
DEV=mlx4_0
TMO=120
DRV=mlx4
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1

# --- (a) the device ------------------------------------------------------
ko=$(ls $B/mlx4-*.ko 2>/dev/null | head -n1)
if [ -z "$ko" ] || ! insmod "$ko" netdev=dummy0; then
	bad "insmod ${ko:-(no stand-in module in $B)} netdev=dummy0"
	dmesg | tail -20
	exit 1
fi
# The RoCE GIDs follow the netdev's addresses: wait for 192.0.2.1's.
t=0
until grep -qx '0000:0000:0000:0000:0000:ffff:c000:0201' \
	/sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null; do
	t=$((t + 1)); [ $t -gt 100 ] && break
	sleep 0.05
done
rdma dev > rdma-dev.txt 2>&1
ibv_devices > ibv-devices.txt 2>&1
uv=$(grep -l "^$DEV\$" /sys/class/infiniband_verbs/uverbs*/ibdev 2>/dev/null | head -n1)
abi=$(cat "${uv%/ibdev}/abi_version" 2>/dev/null)
if grep -q " $DEV: " rdma-dev.txt && grep -qw "$DEV" ibv-devices.txt && [ "$abi" = 4 ]; then
	ok "rdma dev and ibv_devices see $DEV, uverbs ABI version $abi"
else
	bad "$DEV not seen (uverbs ABI version '${abi}')"
fi
show rdma-dev.txt ibv-devices.txt

# --- (b) ibv_devinfo ------------------------------------------------------
timeout $TMO ibv_devinfo -v -d $DEV > devinfo.txt 2>&1; rc=$?
timeout $TMO uverbs-trace --json -o devinfo.json ibv_devinfo -v -d $DEV > devinfo.traced 2>&1; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s devinfo.txt devinfo.traced &&
   grep -q "hca_id:[[:space:]]*$DEV" devinfo.txt && grep -q 'vendor_id:[[:space:]]*0x02c9' devinfo.txt &&
   grep -q 'link_layer:[[:space:]]*Ethernet' devinfo.txt && grep -q 'state:[[:space:]]*PORT_ACTIVE' devinfo.txt &&
   got_context devinfo.json; then
	ok "ibv_devinfo -v -d $DEV: exit 0, the same traced, through libmlx4's context"
else
	bad "ibv_devinfo -v -d $DEV: exit $rc, traced $rc2"
	show devinfo.txt devinfo.traced
fi
grep -E 'hca_id|fw_ver|vendor|max_qp:|max_cqe:|state:|link_layer|active_mtu|GID\[' devinfo.txt | sed 's/^/  /'
# mlx4_ib counts the clock offset, the largest inline receive and the RSS
# and TSO sections when the caller has room for them: libmlx4 has (48).
got_len=$(grep -o 'mlx4_uverbs_ex_query_device_resp {comp_mask = 0x0, response_length = [0-9]*' devinfo.json |
	  head -n1 | sed 's/.*= //')
if [ "$got_len" = 48 ]; then
	ok "EX_QUERY_DEVICE: mlx4 response_length $got_len, as mlx4_ib answers libmlx4"
else
	bad "EX_QUERY_DEVICE: mlx4 response_length ${got_len:-none} (want 48)"
	grep -o 'mlx4_uverbs_ex_query_device_resp {[^}]*' devinfo.json | head -n 3
fi

# --- (c) the witness, and (e) the library's own programs --------------------

KT_MLX4_SNAPSHOT="rdma resource show > $T/live.txt && rdma resource show qp > $T/live-qp.txt" \
	timeout $TMO kt_mlx4_witness $DEV > witness.plain 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^kt_mlx4_witness: PASS$' witness.plain; then
	ok "kt_mlx4_witness: $(grep -c '^ok ' witness.plain) steps"
else
	bad "kt_mlx4_witness: exit $rc"
fi
show witness.plain
# The kernel's own list while the witness's objects all existed: PD, two
# CQs, MR, SRQ, four QPs (RC and UD in RTS, the RC on the SRQ and UC in
# INIT), its context.
live=$(grep " $DEV: " live.txt 2>/dev/null)
qps=$(grep "link $DEV/" live-qp.txt 2>/dev/null)
if echo "$live" | grep -q ' pd 1 cq 2 qp 4 cm_id 0 mr 1 ctx 1 srq 1' &&
   [ "$(echo "$qps" | grep -c 'type RC state RTS')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type RC state INIT')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type UC state INIT')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type UD state RTS')" = 1 ]; then
	ok "the kernel's objects while the witness ran: $(echo "$live" | cut -d: -f3 | sed 's/^ *//')"
else
	bad "the kernel's objects while the witness ran"
fi
show live.txt live-qp.txt 2>/dev/null
nothing_left "kt_mlx4_witness"

witness_traced kt_mlx4_witness

# --- (e) the library's mlx4 programs ---------------------------------------
uvio_programs
# The refusals kt_mlx4_uvio provokes: four from the kernel (mlx4_ib's
# errno), two from the library's half, each reported naming the command.
if [ -f kt_mlx4_uvio.out ]; then
	n=$(grep -c '^  refusal: ' kt_mlx4_uvio.out)
	named=$(grep '^  refusal: ' kt_mlx4_uvio.out | grep -cE '(CQ|QP)\.CREATE.*(EFAULT|EINVAL|EOPNOTSUPP)')
	if [ "$n" = 7 ] && [ "$named" = 7 ]; then
		ok "kt_mlx4_uvio: $n refusals, each with mlx4's errno and the command named"
	else
		bad "kt_mlx4_uvio: $n refusal lines, $named naming the command and errno (want 7)"
	fi
	grep -E '^  (refusal:|mmap of) ' kt_mlx4_uvio.out
else
	bad "no output of kt_mlx4_uvio"
fi

# --- (g) the existing programs, with no change of command line --------------
user_programs

# --- (h) memcheck over the library's mlx4 program -----------------------------
uvio_memcheck
hw_race

# --- (i) a device without user capabilities: uverbs ABI 3 ----------------------
# The stand-in again with abi=3, as mlx4_ib registers such a device: the
# context's answer is the 8-byte v3 one and CQEs are 32 bytes. libmlx4 and
# the library both ask for that answer (GET_CONTEXT's UHW_OUT of 8 bytes),
# and the witness and kt_mlx4_uvio pass with the sizes that follow.
if rmmod mlx4_standin && insmod "$ko" netdev=dummy0 abi=3; then
	t=0
	until [ -e /sys/class/infiniband/$DEV ]; do
		t=$((t + 1)); [ $t -gt 100 ] && break
		sleep 0.05
	done
	uv=$(grep -l "^$DEV\$" /sys/class/infiniband_verbs/uverbs*/ibdev 2>/dev/null | head -n1)
	abi=$(cat "${uv%/ibdev}/abi_version" 2>/dev/null)
	# ctx_out8 FILE: the trace's GET_CONTEXT, answered 0, gave 8 bytes of answer space
	ctx_out8() {
		grep '"name":"DEVICE.GET_CONTEXT",' "$1" | grep '"ret":0,' |
			grep -q '"name":"UHW_OUT","kind":"ptr-out","len":8,'
	}
	timeout $TMO uverbs-trace --json -o abi3-witness.json kt_mlx4_witness $DEV > abi3-witness.out 2>&1; r1=$?
	timeout $TMO uverbs-trace --json -o abi3-uvio.json $B/kt_mlx4_uvio $DEV > abi3-uvio.out 2>&1; r2=$?
	if [ "$abi" = 3 ] && [ $r1 -eq 0 ] && [ $r2 -eq 0 ] &&
	   grep -q '^kt_mlx4_witness: PASS$' abi3-witness.out &&
	   grep -q 'uverbs ABI version 3, 32-byte CQEs' abi3-uvio.out &&
	   ctx_out8 abi3-witness.json && ctx_out8 abi3-uvio.json; then
		ok "uverbs ABI 3: kt_mlx4_witness and kt_mlx4_uvio pass, both asking for the 8-byte v3 answer"
	else
		bad "uverbs ABI 3 ('$abi'): kt_mlx4_witness exit $r1, kt_mlx4_uvio exit $r2"
		tail -n 20 abi3-witness.out abi3-uvio.out
	fi
	grep -E 'ABI|CQ' abi3-witness.out abi3-uvio.out | head -8 | sed 's/^/  /'
	nothing_left "uverbs ABI 3"
else
	bad "rmmod mlx4_standin, insmod $ko abi=3"
	dmesg | tail -20
fi

# --- (f) the traces, for the host --------------------------------------------
print_traces

echo "mlx4: $pass passed, $fail failed"
exit $fail
