#!/bin/sh
# kernel/6.1-bnxt_re and kernel/6.12-bnxt_re, in the guest
# (tests/standin/vm-standin.sh boots it): the bnxt_re stand-in
# (tests/standin/bnxt_re, built for that kernel's rules) loaded on dummy0,
# and Debian's libbnxt_re driving it through libibverbs. Each check prints
# "--- PASS bnxt_re: ..." or "--- FAIL bnxt_re: ..."; the exit status is the
# number of failures.
#  (a) the kernel (rdma dev) and libibverbs (ibv_devices) see bnxt_re0,
#      uverbs ABI version 1 (bnxt_re's);
#  (b) Debian's ibv_devinfo -v -d bnxt_re0 ends 0, describes it (Broadcom's
#      vendor id), and does the same under uverbs-trace, through libbnxt_re's
#      context; its GET_CONTEXT answer is bnxt_re's 48 bytes;
#  (c) kt_bnxt_re_witness passes plain, under uverbs-trace (text) and under
#      uverbs-trace --json; the kernel's object list, taken while all of the
#      witness's objects exist, holds them; the JSON trace shows GET_CONTEXT
#      answered and every object it created destroyed; the commands are
#      listed in order;
#  (d) afterwards the kernel holds no object of bnxt_re0;
#  (e) every /opt/uvio/bin/kt_bnxt_re_uvio* the same way (plain, text, JSON,
#      nothing left), and the refusals it provokes, each reported naming the
#      command and bnxt_re's errno;
#  (f) the traces printed between "UVIO-FILE-BEGIN bnxt_re/NAME" and
#      "UVIO-FILE-END bnxt_re/NAME" lines; the host copies them to
#      BUILD_DIR/vm/bnxt_re/NAME (and compares the driver data of the two,
#      tests/standin/compare-bnxt_re.py);
#  (g) examples/create_cq and uverbs-info on bnxt_re0, as a user runs them;
#  (h) kt_bnxt_re_uvio under memcheck.
B=/opt/uvio/bin
T=/tmp/kt_bnxt_re
DEV=bnxt_re0
TMO=120
DRV=bnxt_re
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1

# --- (a) the device ------------------------------------------------------
ko=$(ls $B/bnxt_re-*.ko 2>/dev/null | head -n1)
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
if grep -q " $DEV: " rdma-dev.txt && grep -qw "$DEV" ibv-devices.txt && [ "$abi" = 1 ]; then
	ok "rdma dev and ibv_devices see $DEV, uverbs ABI version $abi"
else
	bad "$DEV not seen (uverbs ABI version '${abi}')"
fi
show rdma-dev.txt ibv-devices.txt

# --- (b) ibv_devinfo ------------------------------------------------------
timeout $TMO ibv_devinfo -v -d $DEV > devinfo.txt 2>&1; rc=$?
timeout $TMO uverbs-trace --json -o devinfo.json ibv_devinfo -v -d $DEV > devinfo.traced 2>&1; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s devinfo.txt devinfo.traced &&
   grep -q "hca_id:[[:space:]]*$DEV" devinfo.txt && grep -q 'vendor_id:[[:space:]]*0x14e4' devinfo.txt &&
   grep -q 'link_layer:[[:space:]]*Ethernet' devinfo.txt && grep -q 'state:[[:space:]]*PORT_ACTIVE' devinfo.txt &&
   got_context devinfo.json; then
	ok "ibv_devinfo -v -d $DEV: exit 0, the same traced, through libbnxt_re's context"
else
	bad "ibv_devinfo -v -d $DEV: exit $rc, traced $rc2"
	show devinfo.txt devinfo.traced
fi
grep -E 'hca_id|fw_ver|vendor|max_qp:|max_cqe:|state:|link_layer|active_mtu|GID\[' devinfo.txt | sed 's/^/  /'
# bnxt_re's context answer: bnxt_re_uctx_resp, 48 bytes, libbnxt_re's room.
if grep '"name":"DEVICE.GET_CONTEXT",' devinfo.json | grep '"ret":0,' |
	grep -q '"name":"UHW_OUT","kind":"ptr-out","len":48,'; then
	ok "GET_CONTEXT: bnxt_re's 48-byte answer, as libbnxt_re asks for it"
else
	bad "GET_CONTEXT: no 48-byte driver answer in the trace"
	grep '"name":"DEVICE.GET_CONTEXT",' devinfo.json | head -n 2
fi

# --- (c) the witness, and (e) the library's own programs --------------------

KT_BNXT_RE_SNAPSHOT="rdma resource show > $T/live.txt && rdma resource show qp > $T/live-qp.txt" \
	timeout $TMO kt_bnxt_re_witness $DEV > witness.plain 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^kt_bnxt_re_witness: PASS$' witness.plain; then
	ok "kt_bnxt_re_witness: $(grep -c '^ok ' witness.plain) steps"
else
	bad "kt_bnxt_re_witness: exit $rc"
fi
show witness.plain
# The kernel's own list while the witness's objects all existed: PD, CQ,
# MR, SRQ, three QPs (RC and UD in RTS, the RC on the SRQ in INIT), its
# context.
live=$(grep " $DEV: " live.txt 2>/dev/null)
qps=$(grep "link $DEV/" live-qp.txt 2>/dev/null)
if echo "$live" | grep -q ' pd 1 cq 1 qp 3 cm_id 0 mr 1 ctx 1 srq 1' &&
   [ "$(echo "$qps" | grep -c 'type RC state RTS')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type RC state INIT')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type UD state RTS')" = 1 ]; then
	ok "the kernel's objects while the witness ran: $(echo "$live" | cut -d: -f3 | sed 's/^ *//')"
else
	bad "the kernel's objects while the witness ran"
fi
show live.txt live-qp.txt 2>/dev/null
nothing_left "kt_bnxt_re_witness"

witness_traced kt_bnxt_re_witness

# --- (e) the library's bnxt_re programs ---------------------------------------
uvio_programs
# The refusals kt_bnxt_re_uvio provokes (bnxt_re's errno, and the
# library's half's own), each reported naming the command: the program
# prints how many it made ("refusals: N").
if [ -f kt_bnxt_re_uvio.out ]; then
	want=$(sed -n 's/^refusals: \([0-9]*\)$/\1/p' kt_bnxt_re_uvio.out)
	n=$(grep -c '^  refusal: ' kt_bnxt_re_uvio.out)
	named=$(grep '^  refusal: ' kt_bnxt_re_uvio.out |
		grep -cE '(CQ|QP|SRQ|PD|MR|AH)\.[A-Z_]+.*(EFAULT|EINVAL|EOPNOTSUPP|ENOMEM|EBUSY)')
	if [ -n "$want" ] && [ "$want" -gt 0 ] && [ "$n" = "$want" ] && [ "$named" = "$want" ]; then
		ok "kt_bnxt_re_uvio: $n refusals, each with bnxt_re's errno and the command named"
	else
		bad "kt_bnxt_re_uvio: $n refusal lines, $named naming the command and errno (want ${want:-?})"
	fi
	grep -E '^  (refusal:|mmap of|SRQ answer|6\.12 ) ' kt_bnxt_re_uvio.out
else
	bad "no output of kt_bnxt_re_uvio"
fi

# --- (g) the existing programs, with no change of command line --------------
user_programs

# --- (h) memcheck over the library's bnxt_re program -----------------------------
uvio_memcheck
hw_race

# --- (f) the traces, for the host --------------------------------------------
print_traces

echo "bnxt_re: $pass passed, $fail failed"
exit $fail
