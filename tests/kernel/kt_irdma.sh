#!/bin/sh
# kernel/6.1-irdma and kernel/6.12-irdma, in the guest
# (tests/standin/vm-standin.sh boots it): the
# irdma stand-in (tests/standin/irdma) loaded on dummy0, and Debian's libirdma
# driving it through libibverbs. Each check prints "--- PASS irdma: ..." or
# "--- FAIL irdma: ..."; the exit status is the number of failures.
#  (a) the kernel (rdma dev) and libibverbs (ibv_devices) see irdma0, uverbs
#      ABI version 5 (IRDMA_ABI_VER), its driver irdma;
#  (b) Debian's ibv_devinfo -v -d irdma0 ends 0, describes it (Intel's vendor
#      id, Ethernet, active), and does the same under uverbs-trace; its
#      GET_CONTEXT carries irdma's request (userspace_ver 5) and is answered
#      with GEN_2's hw_rev 2 and a doorbell key;
#  (c) kt_irdma_witness passes plain, under uverbs-trace (text) and under
#      uverbs-trace --json; the kernel's object list, taken while all of the
#      witness's objects exist, holds them (libirdma's own PD beside the
#      witness's, and every CQ's two regions and every QP's one as MRs); the
#      JSON trace shows GET_CONTEXT answered, REG_MR with irdma's CQ and QP
#      requests before each CREATE_CQ and CREATE_QP, and every object it
#      created destroyed; the commands are listed in order;
#  (d) afterwards the kernel holds no object of irdma0;
#  (e) every /opt/uvio/bin/kt_irdma_uvio* the same way (plain, text, JSON,
#      nothing left), and the refusals it provokes (REG_MR's page counts past
#      what is pinned, an unknown region type, a short request; CREATE_CQ
#      without irdma's request, on a buffer or shadow area not registered;
#      CREATE_QP on queues not registered, with a short request; GET_CONTEXT
#      with userspace_ver 3 or 6, short request or answer room, libi40iw's
#      answer asked of a GEN_2 device) answered
#      with irdma's errno, and two of the library's half (a UC QP, 2^20
#      CQEs), each reported naming the command; its mmaps of the doorbell
#      key, and those irdma refuses, listed;
#  (f) the traces printed between "UVIO-FILE-BEGIN irdma/NAME" and
#      "UVIO-FILE-END irdma/NAME" lines; the host copies them to
#      BUILD_DIR/vm/irdma/NAME (and compares the driver data of the two,
#      tests/standin/compare-irdma.py);
#  (g) examples/create_cq and uverbs-info on irdma0, as a user runs them;
#  (h) kt_irdma_uvio under memcheck.
B=/opt/uvio/bin
T=/tmp/kt_irdma
DEV=irdma0
TMO=120
DRV=irdma
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1

# --- (a) the device ------------------------------------------------------
ko=$(ls $B/irdma-*.ko 2>/dev/null | head -n1)
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
if grep -q " $DEV: " rdma-dev.txt && grep -qw "$DEV" ibv-devices.txt && [ "$abi" = 5 ]; then
	ok "rdma dev and ibv_devices see $DEV, uverbs ABI version $abi"
else
	bad "$DEV not seen (uverbs ABI version '${abi}')"
fi
show rdma-dev.txt ibv-devices.txt

# --- (b) ibv_devinfo ------------------------------------------------------
timeout $TMO ibv_devinfo -v -d $DEV > devinfo.txt 2>&1; rc=$?
timeout $TMO uverbs-trace --json -o devinfo.json ibv_devinfo -v -d $DEV > devinfo.traced 2>&1; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s devinfo.txt devinfo.traced &&
   grep -q "hca_id:[[:space:]]*$DEV" devinfo.txt && grep -q 'vendor_id:[[:space:]]*0x8086' devinfo.txt &&
   grep -q 'link_layer:[[:space:]]*Ethernet' devinfo.txt && grep -q 'state:[[:space:]]*PORT_ACTIVE' devinfo.txt &&
   got_context devinfo.json; then
	ok "ibv_devinfo -v -d $DEV: exit 0, the same traced, through libirdma's context"
else
	bad "ibv_devinfo -v -d $DEV: exit $rc, traced $rc2"
	show devinfo.txt devinfo.traced
fi
grep -E 'hca_id|fw_ver|vendor|max_qp:|max_cqe:|state:|link_layer|active_mtu|GID\[' devinfo.txt | sed 's/^/  /'
# libirdma's request (userspace_ver 5: the first it tries) and irdma's
# answer for GEN_2 hardware: hw_rev 2, a doorbell key, the CQ_RESIZE and
# RTS_AE features (0x3), the raw-attributes bit in comp_mask.
ctx_line=$(grep '"name":"DEVICE.GET_CONTEXT",' devinfo.json | grep '"ret":0,' | head -n1)
if echo "$ctx_line" | grep -q 'userspace_ver = 5' && echo "$ctx_line" | grep -q 'hw_rev = 2' &&
   echo "$ctx_line" | grep -q 'feature_flags = 0x3' && echo "$ctx_line" | grep -q 'kernel_ver = 5' &&
   echo "$ctx_line" | grep -q 'db_mmap_key = 0x[0-9a-f]'; then
	ok "GET_CONTEXT: libirdma's request (userspace_ver 5), irdma's GEN_2 answer"
else
	bad "GET_CONTEXT: not libirdma's request and irdma's GEN_2 answer"
	echo "$ctx_line" | grep -o 'irdma_alloc_ucontext_[a-z]* {[^}]*}' | sed 's/^/  /'
fi
echo "$ctx_line" | grep -o 'irdma_alloc_ucontext_[a-z]* {[^}]*}' | sed 's/^/  /'

# --- (c) the witness, and (e) the library's own programs --------------------

KT_IRDMA_SNAPSHOT="rdma resource show > $T/live.txt && rdma resource show qp > $T/live-qp.txt" \
	timeout $TMO kt_irdma_witness $DEV > witness.plain 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^kt_irdma_witness: PASS$' witness.plain; then
	ok "kt_irdma_witness: $(grep -c '^ok ' witness.plain) steps"
else
	bad "kt_irdma_witness: exit $rc"
fi
show witness.plain
# The kernel's own list while the witness's objects all existed: libirdma's
# PD and the witness's, two CQs, two QPs (RC and UD in RTS), seven MRs (the
# witness's, each CQ's buffer and shadow area, each QP's queues), a context.
live=$(grep " $DEV: " live.txt 2>/dev/null)
qps=$(grep "link $DEV/" live-qp.txt 2>/dev/null)
if echo "$live" | grep -q ' pd 2 cq 2 qp 2 cm_id 0 mr 7 ctx 1' &&
   [ "$(echo "$qps" | grep -c 'type RC state RTS')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type UD state RTS')" = 1 ]; then
	ok "the kernel's objects while the witness ran: $(echo "$live" | cut -d: -f3 | sed 's/^ *//')"
else
	bad "the kernel's objects while the witness ran"
fi
show live.txt live-qp.txt 2>/dev/null
nothing_left "kt_irdma_witness"

witness_traced kt_irdma_witness
# libirdma's order: each CQ's buffer and shadow area registered (irdma's
# request, reg_type 2 = CQ), then the CQ; the MR (reg_type 0); each QP's
# queues registered (reg_type 1 = QP, sq_pages 4, rq_pages 1), then the QP.
# c, m, q: a REG_MR of a CQ, memory or QP region; C, Q: CREATE_CQ, CREATE_QP
# (every one answered 0).
order=$(grep '"ibdev":"'"$DEV"'"' witness.json | grep '"ret":0,' | awk '
	/irdma_mem_reg_req/ && /reg_type = 2/ { printf "c"; next }
	/irdma_mem_reg_req/ && /reg_type = 0/ { printf "m"; next }
	/irdma_mem_reg_req/ && /reg_type = 1/ && /sq_pages = 4/ && /rq_pages = 1/ { printf "q"; next }
	/"name":"CQ.CREATE"/ || /"name":"CQ.CREATE_EX"/ || /irdma_create_cq_req/ { printf "C"; next }
	/irdma_create_qp_req/ { printf "Q"; next }')
if [ "$order" = ccCccCmqQqQ ]; then
	ok "REG_MR with irdma's CQ and QP requests before each CREATE_CQ and CREATE_QP ($order)"
else
	bad "the witness's registrations and creations in the order '$order' (want ccCccCmqQqQ)"
	grep -o 'irdma_[a-z_]* {[^}]*}' witness.json | head -20 | sed 's/^/  /'
fi

# --- (e) the library's irdma programs ---------------------------------------
uvio_programs
# The refusals kt_irdma_uvio provokes: from the kernel (irdma's errno:
# REG_MR's page counts, region type and short request; CREATE_CQ without
# irdma's request or on regions not registered; CREATE_QP on queues not
# registered or with a short request; GET_CONTEXT with userspace_ver 3 or
# 6, a short request, short answer room, or libi40iw's answer asked of a
# GEN_2 device; on 6.12 also REREG_MR of a queue region or of a read-only
# range for write), and from the library's half, each reported naming the
# command; the program prints how many it made ("refusals: N", 16 on 6.1,
# 18 on 6.12).
if [ -f kt_irdma_uvio.out ]; then
	want=$(sed -n 's/^refusals: \([0-9]*\)$/\1/p' kt_irdma_uvio.out)
	n=$(grep -c '^  refusal: ' kt_irdma_uvio.out)
	named=$(grep '^  refusal: ' kt_irdma_uvio.out |
		grep -cE '(MR\.REG|MR\.REREG|CQ\.CREATE|QP\.CREATE|GET_CONTEXT).*(EINVAL|EPROTO|ENODATA|EOPNOTSUPP|EACCES)')
	if [ -n "$want" ] && [ "$want" -ge 16 ] && [ "$n" = "$want" ] && [ "$named" = "$want" ]; then
		ok "kt_irdma_uvio: $n refusals, each with irdma's errno and the command named"
	else
		bad "kt_irdma_uvio: $n refusal lines, $named naming the command and errno (want ${want:-?})"
	fi
	grep -E '^  (refusal:|mmap of|context answer|6\.12 ) ' kt_irdma_uvio.out
else
	bad "no output of kt_irdma_uvio"
fi
# --- (g) the existing programs, with no change of command line --------------
user_programs

# --- (h) memcheck over the library's irdma program ----------------------------
uvio_memcheck
hw_race

# --- (f) the traces, for the host --------------------------------------------
print_traces

echo "irdma: $pass passed, $fail failed"
exit $fail
