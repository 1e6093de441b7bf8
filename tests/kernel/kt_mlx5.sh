#!/bin/sh
# kernel/6.1-mlx5 and kernel/6.12-mlx5, in the guest (tests/standin/vm-standin.sh
# boots it): the mlx5 stand-in (tests/standin/mlx5) loaded on dummy0, and Debian's libmlx5
# driving it through libibverbs. Each check prints "--- PASS mlx5: ..." or
# "--- FAIL mlx5: ..."; the exit status is the number of failures.
#  (a) the kernel (rdma dev) and libibverbs (ibv_devices) see mlx5_0;
#  (b) Debian's ibv_devinfo -v -d mlx5_0 ends 0, describes it, and does the
#      same under uverbs-trace; max_qp_wr and mlx5's response_length are
#      the running kernel's (6.1 and 6.12 differ);
#  (c) kt_mlx5_witness passes plain, under uverbs-trace (text) and under
#      uverbs-trace --json; the kernel's object list, taken while all of the
#      witness's objects exist, holds them; the JSON trace shows GET_CONTEXT
#      answered and every object it created destroyed; the commands are
#      listed in order;
#  (d) afterwards the kernel holds no object of mlx5_0;
#  (e) every /opt/uvio/bin/kt_mlx5_uvio* the same way (plain, text, JSON,
#      nothing left);
#  (f) the traces printed between "UVIO-FILE-BEGIN mlx5/NAME" and
#      "UVIO-FILE-END mlx5/NAME" lines; the host copies them to
#      BUILD_DIR/vm/mlx5/NAME (and compares the driver data of the two,
#      tests/standin/compare-mlx5.py);
#  (g) examples/create_cq and uverbs-info on mlx5_0, as a user runs them;
#  (h) callgrind: a CQ created and destroyed, the library's user-space
#      instructions against libmlx5's (not more);
#  (i) kt_mlx5_uvio under memcheck;
#  (j) kt_hw_race: threads sharing the device (standin-lib.sh, hw_race).
B=/opt/uvio/bin
T=/tmp/kt_mlx5
DEV=mlx5_0
TMO=120
DRV=mlx5
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1

# --- (a) the device ------------------------------------------------------
ko=$(ls $B/mlx5-*.ko 2>/dev/null | head -n1)
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
   grep -q "hca_id:[[:space:]]*$DEV" devinfo.txt && grep -q 'vendor_id:[[:space:]]*0x02c9' devinfo.txt &&
   grep -q 'link_layer:[[:space:]]*Ethernet' devinfo.txt && grep -q 'state:[[:space:]]*PORT_ACTIVE' devinfo.txt &&
   got_context devinfo.json; then
	ok "ibv_devinfo -v -d $DEV: exit 0, the same traced, through libmlx5's context"
else
	bad "ibv_devinfo -v -d $DEV: exit $rc, traced $rc2"
	show devinfo.txt devinfo.traced
fi
grep -E 'hca_id|fw_ver|vendor|max_qp:|max_cqe:|state:|link_layer|active_mtu|GID\[' devinfo.txt | sed 's/^/  /'
# Per kernel: what differs in mlx5_ib's EX_QUERY_DEVICE between 6.1 and
# 6.12 (the stand-in follows each): max_qp_wr, the queue's basic blocks in
# 6.1 (32768), its bytes over the largest one-entry WQE in 6.12 (8192); the
# driver data's response_length in libmlx5's 104 bytes, up to
# dci_streams_caps in 6.1 (102), the reserved field counted too in 6.12 (104).
case $(uname -r) in
6.1.*) want_wr=32768 want_len=102 ;;
*) want_wr=8192 want_len=104 ;;
esac
got_wr=$(sed -n 's/^[[:space:]]*max_qp_wr:[[:space:]]*\([0-9]*\)$/\1/p' devinfo.txt | head -n1)
got_len=$(grep -o 'mlx5_query_device_resp {comp_mask = 0x0, response_length = [0-9]*' devinfo.json |
	  head -n1 | sed 's/.*= //')
if [ "$got_wr" = "$want_wr" ] && [ "$got_len" = "$want_len" ]; then
	ok "EX_QUERY_DEVICE on $(uname -r): max_qp_wr $got_wr, mlx5 response_length $got_len, as mlx5_ib answers there"
else
	bad "EX_QUERY_DEVICE on $(uname -r): max_qp_wr ${got_wr:-none} (want $want_wr), mlx5 response_length ${got_len:-none} (want $want_len)"
fi

# --- (c) the witness, and (e) the library's own programs --------------------

KT_MLX5_SNAPSHOT="rdma resource show > $T/live.txt && rdma resource show qp > $T/live-qp.txt" \
	timeout $TMO kt_mlx5_witness $DEV > witness.plain 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^kt_mlx5_witness: PASS$' witness.plain; then
	ok "kt_mlx5_witness: $(grep -c '^ok ' witness.plain) steps"
else
	bad "kt_mlx5_witness: exit $rc"
fi
show witness.plain
# The kernel's own list while the witness's objects all existed: PD, two
# CQs, MR, SRQ, four QPs (RC and UD in RTS, the RC on the SRQ and UC in
# INIT), its context; and the MAD layer's PD, CQ and QP1 (GSI, in RTS).
live=$(grep " $DEV: " live.txt 2>/dev/null)
qps=$(grep "link $DEV/" live-qp.txt 2>/dev/null)
if echo "$live" | grep -q ' pd 2 cq 3 qp 5 cm_id 0 mr 1 ctx 1 srq 1' &&
   [ "$(echo "$qps" | grep -c 'lqpn 1 type GSI state RTS')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type RC state RTS')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type RC state INIT')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type UC state INIT')" = 1 ] &&
   [ "$(echo "$qps" | grep -c 'type UD state RTS')" = 1 ]; then
	ok "the kernel's objects while the witness ran: $(echo "$live" | cut -d: -f3 | sed 's/^ *//')"
else
	bad "the kernel's objects while the witness ran"
fi
show live.txt live-qp.txt 2>/dev/null
nothing_left "kt_mlx5_witness"

witness_traced kt_mlx5_witness

# --- (e) the library's mlx5 programs ---------------------------------------
found=0
for p in $B/kt_mlx5_uvio*; do
	[ -x "$p" ] || continue
	found=1
	n=$(basename "$p")
	if run_three "$n" "$p" $DEV; then
		ok "$n: plain, under uverbs-trace, as JSON"
	else
		bad "$n"
		tail -n 30 "$n.out"; tail -n 30 "$n.json.out"
	fi
	echo "  the commands of $n, in order:"
	commands "$n.json"
	if balanced "$n.json"; then ok "$n: every object it created destroyed"; else bad "$n: objects not destroyed"; fi
	nothing_left "$n"
done
[ $found = 1 ] || echo "  (no kt_mlx5_uvio* program in this build)"

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
	   grep -q '^    mlx5 context: cqe_version 1 uar dynamic' info.out &&
	   grep -q '^    mlx5 device (EX_QUERY_DEVICE driver data): response_length [1-9]' info.out &&
	   grep -q '^    port 1 attributes: state 4' info.out; then
		ok "uverbs-info $DEV: the context, the device, its port and mlx5's answers"
	else
		bad "uverbs-info $DEV: exit $rc"
	fi
	show info.out
fi

# --- (h) instructions: a CQ created and destroyed, the library against
# libmlx5 (callgrind: user space only; 20 cycles each after one not counted)
if [ -x $B/mlx5_cq ] && command -v valgrind >/dev/null; then
	n=20
	for how in uvio ibv; do
		timeout $TMO valgrind --tool=callgrind --callgrind-out-file=cg.$how \
			--toggle-collect=run_$how mlx5_cq $how $DEV $n > cg.$how.out 2>&1
		eval "insn_$how=\$(sed -n 's/^summary: //p' cg.$how 2>/dev/null)"
	done
	if [ -n "$insn_uvio" ] && [ -n "$insn_ibv" ]; then
		echo "INSN mlx5 CQ create+destroy, per cycle: library $((insn_uvio / n)), libmlx5 $((insn_ibv / n))"
		if [ "$insn_uvio" -le "$insn_ibv" ]; then
			ok "CQ create+destroy: $((insn_uvio / n)) user-space instructions, libmlx5 $((insn_ibv / n))"
		else
			bad "CQ create+destroy: $((insn_uvio / n)) user-space instructions, more than libmlx5's $((insn_ibv / n))"
		fi
	else
		bad "callgrind of mlx5_cq"
		show cg.uvio.out cg.ibv.out
	fi
fi

# --- (i) memcheck over the library's mlx5 program -----------------------------
if [ -x $B/kt_mlx5_uvio ] && command -v valgrind >/dev/null; then
	timeout $TMO valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		kt_mlx5_uvio $DEV > memcheck.out 2>&1; rc=$?
	if [ $rc -eq 0 ]; then
		ok "kt_mlx5_uvio under memcheck: $(grep -o 'ERROR SUMMARY: [0-9]* errors' memcheck.out)"
	else
		bad "kt_mlx5_uvio under memcheck: exit $rc"
		grep -E '==[0-9]+==' memcheck.out | head -60
	fi
	nothing_left "kt_mlx5_uvio under memcheck"
fi

# --- (j) threads sharing the device ------------------------------------------
# Four threads, each creating a CQ and a QP, writing a mark into their
# buffers, asking uvio_hw_query_object() again, destroying: a handle the
# kernel frees in one thread's destroy comes back in another's create, and
# no answer may move to another queue's buffer.
hw_race 3000	# 4 x 3000 rounds: where the old order showed twice

# --- (f) the traces, for the host --------------------------------------------
print_traces

echo "mlx5: $pass passed, $fail failed"
exit $fail
