#!/bin/sh
# kernel/6.1-efa and kernel/6.12-efa, in the guest (tests/standin/vm-standin.sh boots it): the efa
# stand-in (tests/standin/efa) loaded, and Debian's libefa driving it through
# libibverbs and efadv. Each check prints "--- PASS efa: ..." or
# "--- FAIL efa: ..."; the exit status is the number of failures.
#  (a) the kernel (rdma dev) and libibverbs (ibv_devices) see efa_0, uverbs
#      ABI version 1 (EFA_UVERBS_ABI_VERSION);
#  (b) Debian's ibv_devinfo -v -d efa_0 ends 0, describes it (Amazon's
#      vendor id, link layer unspecified, the port active, the GID), the same
#      under uverbs-trace, and the trace shows libefa's context and efa's
#      EX_QUERY_DEVICE driver data;
#  (c) kt_efa_witness passes plain, under uverbs-trace (text) and under
#      uverbs-trace --json; the kernel's object list, taken while all of the
#      witness's objects exist, holds them (a UD and a DRIVER QP in RTS); the
#      JSON trace shows GET_CONTEXT answered and every object it created
#      destroyed; the commands are listed in order;
#  (d) afterwards the kernel holds no object of efa_0;
#  (e) every /opt/uvio/bin/kt_efa_uvio* the same way (plain, text, JSON,
#      nothing left);
#  (f) the traces printed between "UVIO-FILE-BEGIN efa/NAME" and
#      "UVIO-FILE-END efa/NAME" lines; the host copies them to
#      BUILD_DIR/vm/efa/NAME and compares the driver data of the two
#      (tests/standin/compare-efa.py);
#  (g) examples/create_cq and uverbs-info on efa_0, as a user runs them;
#  (h) refusals: what efa refuses, sent by kt_efa_uvio with its own driver
#      data, refused by the stand-in with efa's errno, and the library's
#      message naming the command (kt_efa_uvio prints "refused: ...");
#  (i) kt_efa_uvio under memcheck (the mappings and objects of the half
#      freed, at destroy and at close).
B=/opt/uvio/bin
T=/tmp/kt_efa
DEV=efa_0
TMO=120
DRV=efa
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1

# --- (a) the device ------------------------------------------------------
standin_device 1

# --- (b) ibv_devinfo ------------------------------------------------------
timeout $TMO ibv_devinfo -v -d $DEV > devinfo.txt 2>&1; rc=$?
timeout $TMO uverbs-trace --json -o devinfo.json ibv_devinfo -v -d $DEV > devinfo.traced 2>&1; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s devinfo.txt devinfo.traced &&
   grep -q "hca_id:[[:space:]]*$DEV" devinfo.txt && grep -q 'vendor_id:[[:space:]]*0x1d0f' devinfo.txt &&
   grep -q 'link_layer:[[:space:]]*Unspecified' devinfo.txt && grep -q 'state:[[:space:]]*PORT_ACTIVE' devinfo.txt &&
   grep -q 'GID\[  0\]:[[:space:]]*fe80:0000:0000:0000:1d0f:efa1:0000:0001' devinfo.txt &&
   got_context devinfo.json; then
	ok "ibv_devinfo -v -d $DEV: exit 0, the same traced, through libefa's context"
else
	bad "ibv_devinfo -v -d $DEV: exit $rc, traced $rc2"
	show devinfo.txt devinfo.traced
fi
grep -E 'hca_id|vendor|max_qp:|max_qp_wr|max_cqe:|state:|link_layer|active_mtu|GID\[' devinfo.txt | sed 's/^/  /'
# efa's driver data in EX_QUERY_DEVICE: max_sq_wr 512, as the stand-in has it
if grep -q 'efa_ibv_ex_query_device_resp {[^}]*max_sq_wr = 512' devinfo.json ||
   grep -q 'max_sq_wr = 512' devinfo.json; then
	ok "EX_QUERY_DEVICE: efa's driver data (max_sq_wr 512) in libefa's answer"
else
	bad "EX_QUERY_DEVICE: no efa driver data with max_sq_wr 512 in the trace"
	grep -o 'QUERY_DEVICE[^}]*}' devinfo.json | head -3
fi

# --- (c) the witness, and (e) the library's own programs --------------------

KT_EFA_SNAPSHOT="rdma resource show > $T/live.txt && rdma resource show qp > $T/live-qp.txt" \
	timeout $TMO kt_efa_witness $DEV > witness.plain 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^kt_efa_witness: PASS$' witness.plain; then
	ok "kt_efa_witness: $(grep -c '^ok ' witness.plain) steps"
else
	bad "kt_efa_witness: exit $rc"
fi
show witness.plain
# The kernel's own list while the witness's objects all existed: PD, three
# CQs, MR, the UD QP in RTS, its context (the SRD QP, type DRIVER, is left
# out of this list by the kernel, see res_line; the witness read its state
# back itself).
live=$(grep " $DEV: " live.txt 2>/dev/null)
qps=$(grep "link $DEV/" live-qp.txt 2>/dev/null)
if echo "$live" | grep -q ' pd 1 cq 3 qp 1 cm_id 0 mr 1 ctx 1' &&
   [ "$(echo "$qps" | grep -c 'type UD state RTS')" = 1 ] &&
   grep -q '^ok qp: UD QP [0-9]* and SRD QP [0-9]*' witness.plain &&
   grep -q '^ok qp: both in RTS' witness.plain; then
	ok "the kernel's objects while the witness ran: $(echo "$live" | cut -d: -f3 | sed 's/^ *//')"
else
	bad "the kernel's objects while the witness ran"
fi
show live.txt live-qp.txt 2>/dev/null
nothing_left "kt_efa_witness"

witness_traced kt_efa_witness

# --- (e) the library's efa programs -----------------------------------------
uvio_programs

# --- (h) refusals: the stand-in refuses as efa, the library says which command
refusals_reported 8 '(DEVICE\.GET_CONTEXT|CQ\.CREATE|QP\.CREATE).*(EINVAL|EOPNOTSUPP)'

# --- (g) the existing programs, with no change of command line --------------
user_programs

# --- (i) memcheck over the library's efa program ------------------------------
uvio_memcheck
hw_race

# --- (f) the traces, for the host --------------------------------------------
print_traces

echo "efa: $pass passed, $fail failed"
exit $fail
