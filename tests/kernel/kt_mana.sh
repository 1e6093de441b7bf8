#!/bin/sh
# kernel/6.12-mana, in the guest (tests/standin/vm-standin.sh boots it): the
# mana stand-in (tests/standin/mana) loaded on dummy0, and Debian's libmana
# driving it through libibverbs and manadv. Each check prints
# "--- PASS mana: ..." or "--- FAIL mana: ..."; the exit status is the
# number of failures.
#  (a) the kernel (rdma dev) and libibverbs (ibv_devices) see mana_0, uverbs
#      ABI version 1 (MANA_IB_UVERBS_ABI_VERSION);
#  (b) Debian's ibv_devinfo -v -d mana_0 ends 0 (Ethernet, the port
#      active), the same under uverbs-trace, through libmana's context;
#  (c) kt_mana_witness passes plain, under uverbs-trace (text) and under
#      uverbs-trace --json; the kernel's object list, taken while all of the
#      witness's objects exist, holds them; the traces name every command,
#      attribute and driver-data field; every object created destroyed;
#  (d) afterwards the kernel holds no object of mana_0;
#  (e) every /opt/uvio/bin/kt_mana_uvio* the same way (plain, text, JSON,
#      nothing left);
#  (f) the traces printed between "UVIO-FILE-BEGIN mana/NAME" and
#      "UVIO-FILE-END mana/NAME" lines; the host copies them to
#      BUILD_DIR/vm/mana/NAME and compares the driver data of the two
#      (tests/standin/compare-mana.py);
#  (g) examples/create_cq and uverbs-info on mana_0, as a user runs them;
#  (h) refusals: what mana_ib refuses, sent by kt_mana_uvio with its own
#      driver data, refused by the stand-in with mana_ib's errno, and the
#      library's message naming the command (kt_mana_uvio prints
#      "refused: ...");
#  (i) kt_mana_uvio under memcheck (the half's buffers and doorbell page
#      freed, at destroy and at close).
B=/opt/uvio/bin
T=/tmp/kt_mana
DEV=mana_0
TMO=120
DRV=mana
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1

# --- (a) the device ------------------------------------------------------
standin_device 1 netdev=dummy0

# --- (b) ibv_devinfo ------------------------------------------------------
timeout $TMO ibv_devinfo -v -d $DEV > devinfo.txt 2>&1; rc=$?
timeout $TMO uverbs-trace --json -o devinfo.json ibv_devinfo -v -d $DEV > devinfo.traced 2>&1; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s devinfo.txt devinfo.traced &&
   grep -q "hca_id:[[:space:]]*$DEV" devinfo.txt &&
   grep -q 'link_layer:[[:space:]]*Ethernet' devinfo.txt && grep -q 'state:[[:space:]]*PORT_ACTIVE' devinfo.txt &&
   got_context devinfo.json; then
	ok "ibv_devinfo -v -d $DEV: exit 0, the same traced, through libmana's context"
else
	bad "ibv_devinfo -v -d $DEV: exit $rc, traced $rc2"
	show devinfo.txt devinfo.traced
fi
grep -E 'hca_id|vendor|max_qp:|max_qp_wr|max_cqe:|state:|link_layer|active_mtu' devinfo.txt | sed 's/^/  /'

# --- (c) the witness --------------------------------------------------------
# `rdma resource show qp` answers EOPNOTSUPP on mana: its QP listing asks
# the driver's QUERY_QP, which mana_ib has not; the summary line counts.
KT_MANA_SNAPSHOT="rdma resource show > $T/live.txt; rdma resource show qp > $T/live-qp.txt 2>&1; true" \
	timeout $TMO kt_mana_witness $DEV > witness.plain 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^kt_mana_witness: PASS$' witness.plain; then
	ok "kt_mana_witness: $(grep -c '^ok ' witness.plain) steps"
else
	bad "kt_mana_witness: exit $rc"
fi
show witness.plain
# The kernel's own list while the witness's objects all existed: one PD
# (the parent domain is libmana's alone), two CQs, the MR, its context, and
# one QP for the two: mana_ib gives a RAW_PACKET QP no number (0), and the
# kernel's table, keyed by QP number, keeps the first of them only.
live=$(grep " $DEV: " live.txt 2>/dev/null)
if echo "$live" | grep -q ' pd 1 cq 2 qp 1 cm_id 0 mr 1 ctx 1'; then
	ok "the kernel's objects while the witness ran: $(echo "$live" | cut -d: -f3 | sed 's/^ *//')"
else
	bad "the kernel's objects while the witness ran: $live"
fi
show live.txt live-qp.txt 2>/dev/null
nothing_left "kt_mana_witness"

witness_traced kt_mana_witness

# --- (e) the library's mana programs ----------------------------------------
uvio_programs

# --- (h) refusals: the stand-in refuses as mana_ib, the library says which command
refusals_reported 10 '(CQ\.CREATE|QP\.CREATE|WQ\.CREATE|MR\.REG).*(EINVAL|EOPNOTSUPP)'

# --- (g) the existing programs, with no change of command line --------------
user_programs

# --- (i) memcheck over the library's mana program -----------------------------
uvio_memcheck
hw_race

# --- (f) the traces, for the host --------------------------------------------
print_traces

echo "mana: $pass passed, $fail failed"
exit $fail
