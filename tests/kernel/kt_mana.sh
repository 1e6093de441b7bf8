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
ko=$(ls $B/mana-*.ko 2>/dev/null | head -n1)
if [ -z "$ko" ] || ! insmod "$ko" netdev=dummy0; then
	bad "insmod ${ko:-(no stand-in module in $B)} netdev=dummy0"
	dmesg | tail -20
	exit 1
fi
t=0
until [ -e /sys/class/infiniband/$DEV/ports/1/gids/0 ]; do
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

if run_three witness kt_mana_witness $DEV && grep -q '^kt_mana_witness: PASS$' witness.txt.out &&
   grep -q '^kt_mana_witness: PASS$' witness.json.out; then
	ok "kt_mana_witness under uverbs-trace, as text and as JSON"
else
	bad "kt_mana_witness under uverbs-trace"
	show witness.txt.out witness.json.out
fi
echo "  the commands libmana sent for the witness, in order:"
commands witness.json
unnamed=$(grep -c '"unknown":[1-9]' witness.json)
words=$(grep -vE '^ *error ' witness.txt | grep -E 'unknown|driver \?|\?\(' | head -5)
if [ "$unnamed" = 0 ] && [ -z "$words" ]; then
	ok "the witness's traces name every command, attribute and driver-data field"
else
	bad "the witness's traces leave things unnamed: $unnamed records; $words"
fi
echo "  objects in the trace:"
json_objects witness.json | sed 's/^/    /'
if got_context witness.json && balanced witness.json; then
	ok "the JSON trace: a context, every object created destroyed"
else
	bad "the JSON trace of the witness"
fi
nothing_left "kt_mana_witness traced"

# --- (e) the library's mana programs ----------------------------------------
found=0
for p in $B/kt_mana_uvio*; do
	[ -x "$p" ] || continue
	found=1
	n=$(basename "$p")
	if run_three "$n" "$p" $DEV; then
		ok "$n: plain, under uverbs-trace, as JSON"
	else
		bad "$n"
		tail -n 30 "$n.out"; tail -n 30 "$n.json.out"
	fi
	show "$n.out"
	echo "  the commands of $n, in order:"
	commands "$n.json"
	if balanced "$n.json"; then
		ok "$n: every object it created destroyed"
	else
		bad "$n: objects not destroyed"
	fi
	nothing_left "$n"
done
if [ $found = 0 ]; then
	bad "no kt_mana_uvio program in $B"
fi

# --- (h) refusals: the stand-in refuses as mana_ib, the library says which command
if [ -f kt_mana_uvio.out ]; then
	nref=$(grep -c '^  refused: ' kt_mana_uvio.out)
	named=$(grep '^  refused: ' kt_mana_uvio.out |
		grep -c -E '(CQ\.CREATE|QP\.CREATE|WQ\.CREATE|MR\.REG).*(EINVAL|EOPNOTSUPP)')
	if [ "$nref" -ge 10 ] && [ "$named" = "$nref" ] && ! grep -q '^FAIL' kt_mana_uvio.out; then
		ok "refusals: $nref of mana's refusals reported, each naming its command and errno"
	else
		bad "refusals: $nref reported, $named naming command and errno"
	fi
	grep '^  refused: ' kt_mana_uvio.out | sed 's/^/  /'
else
	bad "refusals: no output of kt_mana_uvio"
fi

# --- (g) the existing programs, with no change of command line --------------
if [ -x $B/create_cq ]; then
	timeout $TMO create_cq $DEV > create_cq.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && grep -q '^CQ destroyed via ioctl' create_cq.out; then
		ok "create_cq $DEV: a CQ created and destroyed"
	else
		bad "create_cq $DEV: exit $rc"
	fi
	show create_cq.out
	nothing_left "create_cq"
fi
if [ -x $B/uverbs-info ]; then
	timeout $TMO uverbs-info --no-caps $DEV > info.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && grep -q '^  context: path ioctl' info.out &&
	   grep -q '^    port 1 attributes: state 4' info.out; then
		ok "uverbs-info $DEV: the context, the device and its port"
	else
		bad "uverbs-info $DEV: exit $rc"
	fi
	show info.out
fi

# --- (i) memcheck over the library's mana program -----------------------------
if [ -x $B/kt_mana_uvio ] && command -v valgrind >/dev/null; then
	timeout $TMO valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		kt_mana_uvio $DEV > memcheck.out 2>&1; rc=$?
	if [ $rc -eq 0 ]; then
		ok "kt_mana_uvio under memcheck: $(grep -o 'ERROR SUMMARY: [0-9]* errors' memcheck.out)"
	else
		bad "kt_mana_uvio under memcheck: exit $rc"
		grep -E '==[0-9]+==' memcheck.out | head -60
	fi
	nothing_left "kt_mana_uvio under memcheck"
else
	bad "no valgrind or no kt_mana_uvio in the guest for memcheck"
fi

# --- (f) the traces, for the host --------------------------------------------
for f in witness.json witness.txt kt_mana_uvio*.json kt_mana_uvio*.txt; do
	[ -f "$f" ] || continue
	echo "UVIO-FILE-BEGIN mana/$f"
	cat "$f"
	echo "UVIO-FILE-END mana/$f"
done

echo "mana: $pass passed, $fail failed"
exit $fail
