#!/bin/sh
# kernel/6.1-mlx5-dp, in the guest (tests/kernel/mlx5-dp.sh boots it): the
# library's own mlx5 data path (providers/mlx5.c: WQEs, CQEs, doorbell
# records, the UAR page) against the mlx5 stand-in's engine
# (tests/standin/mlx5/mlx5_engine.c), an emulated ConnectX. Each check
# prints "--- PASS mlx5-dp: ..." or "--- FAIL mlx5-dp: ..."; the exit
# status is the number of failures.
#  (a) the stand-in on dummy0, mlx5_0 seen, its GID 0 in place;
#  (b) kt_mlx5_dp: <uvio/dp.h> alone on mlx5_0 (every opcode the engine
#      has, the rings wrapped, unsignalled sends, arming and events, UD
#      through an AH, an SRQ, the flush, two posting threads and two
#      polling ones), every byte checked;
#  (c) examples/rc_pingpong -d mlx5_0 -g 0 against Debian's
#      ibv_rc_pingpong -d mlx5_0 -g 0 (libmlx5), each side the reference
#      once: both exit 0, the example checked every message;
#  (b2) the engine's record (debugfs mlx5_standin/record) off by default;
#      kt_mlx5_wqe_compare: the library's WQEs against the stock libmlx5's
#      for one script, field by field as the engine recorded them, and both
#      sides' completions;
#  (d) after each program nothing is left on mlx5_0; at the end the module
#      unloads, is loaded again recording from load on with 8 records at
#      most (a pingpong: 8 kept, the rest counted lost; a write clears),
#      and scatter to CQE off (scatter_cqe=0: the pingpong's 32-byte
#      messages arrive in the buffers, no recorded CQE carries data),
#      unloads with its record, and the kernel log holds no warning;
#  (e) a pair of rc_pingpong killed (SIGKILL) while their QPs are at RTS
#      and messages flow leaves nothing on mlx5_0;
#  (f) kt_mlx5_own_wqe: WQEs, doorbells and CQE reads of its own on queues
#      the library's verbs made (<uvio/mlx5.h>), every byte checked;
#  (g) kt_mlx5_dp under memcheck: no error, no definite leak.
B=/opt/uvio/bin
T=/tmp/kt_mlx5_dp
DEV=mlx5_0
TMO=90
DRV=mlx5-dp
ITERS=${KT_MLX5_DP_ITERS:-50}
. /opt/uvio/standin-lib.sh
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1
t00=$(cut -d' ' -f1 /proc/uptime)
elapsed() { awk -v a="$1" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }'; }

# --- (a) the device ---------------------------------------------------------
ko=$(ls $B/mlx5-*.ko 2>/dev/null | head -n1)
if [ -z "$ko" ] || ! insmod "$ko" netdev=dummy0; then
	bad "insmod ${ko:-(no stand-in module in $B)} netdev=dummy0"
	dmesg | tail -20
	exit 1
fi
wait_gid0 $DEV
if ibv_devices 2>&1 | grep -qw $DEV; then ok "ibv_devices sees $DEV"; else bad "no $DEV"; fi
echo "  GID 0: $(cat /sys/class/infiniband/$DEV/ports/1/gids/0) ($(cat /sys/class/infiniband/$DEV/ports/1/gid_attrs/types/0 2>/dev/null))"
dmesg > dmesg.before

# --- (b) kt_mlx5_dp ---------------------------------------------------------
t0=$(cut -d' ' -f1 /proc/uptime)
timeout $TMO kt_mlx5_dp $DEV > dp.out 2>&1; rc=$?
show dp.out
if [ $rc -eq 0 ] && ! grep -q '^not ok ' dp.out && grep -q '^ok threads' dp.out; then
	ok "kt_mlx5_dp: $(grep -c '^ok ' dp.out) parts ($(elapsed $t0) s)"
else
	bad "kt_mlx5_dp: exit $rc; failed: $(grep '^not ok ' dp.out | cut -d' ' -f3 | tr '\n' ' ')"
fi
nothing_left "kt_mlx5_dp"
new=$(dmesg | tail -n +$(($(wc -l < dmesg.before) + 1)) | grep -E 'mlx5_standin: (QP|CQ)')
[ -n "$new" ] && echo "$new" | sed 's/^/  dmesg: /'

# --- (b2) the engine's record; the library's WQEs against libmlx5's -----------
# The record (tests/standin/mlx5/mlx5_record.c) is off unless enabled: after
# kt_mlx5_dp's thousands of WQEs it is still empty. kt_mlx5_wqe_compare
# enables it, runs one script through the library and through libmlx5, and
# compares the two records field by field (and checks the record's bytes).
R=/sys/kernel/debug/mlx5_standin
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
if [ -r $R/record ] && [ "$(cat $R/enable)" = 0 ] &&
	head -n1 $R/record | grep -q '^# mlx5_standin record v1: enabled 0 records 0 lost 0 '; then
	ok "the engine's record is off by default: empty after kt_mlx5_dp ($(head -n1 $R/record))"
else
	bad "the engine's record: enable '$(cat $R/enable 2>&1)', '$(head -n1 $R/record 2>&1)'"
fi
if command -v kt_mlx5_wqe_compare >/dev/null; then
	t0=$(cut -d' ' -f1 /proc/uptime)
	# a reader of the record all along, while the engine writes it and the
	# program clears it
	( while :; do cat $R/record > /dev/null; done ) & rp=$!
	timeout $TMO kt_mlx5_wqe_compare $DEV $R > cmp.out 2>&1; rc=$?
	kill $rp; wait $rp 2>/dev/null
	show cmp.out
	if [ $rc -eq 0 ] && grep -q '^kt_mlx5_wqe_compare: PASS$' cmp.out; then
		ok "kt_mlx5_wqe_compare: $(grep '^compared:' cmp.out) ($(elapsed $t0) s)"
	else
		bad "kt_mlx5_wqe_compare: exit $rc, $(grep -c '^FAIL' cmp.out) checks failed"
	fi
	nothing_left "kt_mlx5_wqe_compare"
	if head -n1 $R/record | grep -q '^# mlx5_standin record v1: enabled 0 records 0 lost 0 '; then
		ok "the record disabled and cleared after it"
	else
		bad "the record after kt_mlx5_wqe_compare: $(head -n1 $R/record)"
	fi
else
	echo "--- SKIP $DRV: kt_mlx5_wqe_compare was not built (no libibverbs and libmlx5 to link)"
fi

# --- (c) examples/rc_pingpong against ibv_rc_pingpong -------------------------
# Is something listening on TCP port $1?
listening() {
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}
port=18700
# pp NAME SERVER CLIENT: SERVER and CLIENT are "ours" or "ref"
cmd() {
	case $1 in
	ours) echo "rc_pingpong -d $DEV -g 0 -n $ITERS -p $port" ;;
	ref) echo "ibv_rc_pingpong -d $DEV -g 0 -n $ITERS -p $port" ;;
	esac
}
pp() {
	n=$1; port=$((port + 1))
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout $TMO $(cmd $2) > $n.srv 2>&1 & sp=$!
	t=0
	until listening $port; do t=$((t + 1)); [ $t -gt 300 ] && break; sleep 0.1; done
	timeout $TMO $(cmd $3) 127.0.0.1 > $n.cli 2>&1; c=$?
	wait $sp; s=$?
	sed "s/^/  [server $2] /" $n.srv; sed "s/^/  [client $3] /" $n.cli
	ours=$n.srv; [ $3 = ours ] && ours=$n.cli
	if [ $s -eq 0 ] && [ $c -eq 0 ] && grep -q "^$ITERS iters in " $n.srv &&
		grep -q "^$ITERS iters in " $n.cli &&
		grep -q "$ITERS of $ITERS received messages checked" $ours; then
		ok "server $(cmd $2 | cut -d' ' -f1), client $(cmd $3 | cut -d' ' -f1): both exit 0, $ITERS iterations, every message checked ($(elapsed $t0) s)"
	else
		bad "server $(cmd $2 | cut -d' ' -f1) exit $s, client $(cmd $3 | cut -d' ' -f1) exit $c"
	fi
	nothing_left "$n"
}
pp ours-ref ours ref
pp ref-ours ref ours
pp ours-ours ours ours

# --- (e) a program killed mid-transfer leaves nothing ------------------------
# rc_pingpong both sides, far more iterations than it gets time for; once
# both hold a QP at RTS and messages have flowed a second, SIGKILL: the
# kernel's cleanup of the fds must free every object of theirs.
port=$((port + 1))
rc_pingpong -d $DEV -g 0 -n 100000000 -p $port > kill.srv 2>&1 & sp=$!
t=0
until listening $port; do t=$((t + 1)); [ $t -gt 300 ] && break; sleep 0.1; done
rc_pingpong -d $DEV -g 0 -n 100000000 -p $port 127.0.0.1 > kill.cli 2>&1 & cp=$!
rts() { rdma resource show qp 2>/dev/null | grep " state RTS " | grep -c " pid $1 "; }
t=0
until [ "$(rts $sp)" -ge 1 ] && [ "$(rts $cp)" -ge 1 ]; do
	t=$((t + 1)); [ $t -gt 200 ] && break; sleep 0.1
done
sleep 1
held="server $(rts $sp) QP at RTS, client $(rts $cp)"
if [ "$(rts $sp)" -ge 1 ] && [ "$(rts $cp)" -ge 1 ] && kill -KILL $sp $cp; then
	wait $sp $cp
	ok "rc_pingpong pair killed (SIGKILL) mid-transfer ($held)"
else
	bad "rc_pingpong pair not both running with a QP at RTS ($held)"
	show kill.srv kill.cli
	kill -KILL $sp $cp 2>/dev/null; wait $sp $cp
fi
nothing_left "SIGKILL mid-transfer"

# --- (f) a transport author's own WQEs on the library's queues ----------------
t0=$(cut -d' ' -f1 /proc/uptime)
timeout $TMO kt_mlx5_own_wqe $DEV > own.out 2>&1; rc=$?
show own.out
if [ $rc -eq 0 ] && ! grep -q '^not ok ' own.out && grep -q '^ok armed' own.out; then
	ok "kt_mlx5_own_wqe: $(grep -c '^ok ' own.out) parts, every byte checked ($(elapsed $t0) s)"
else
	bad "kt_mlx5_own_wqe: exit $rc; failed: $(grep '^not ok ' own.out | cut -d' ' -f3 | tr '\n' ' ')"
fi
nothing_left "kt_mlx5_own_wqe"

# --- (g) memcheck over kt_mlx5_dp --------------------------------------------
# 16-30 s under TCG on a loaded host: in every boot, not a manual step.
if command -v valgrind >/dev/null; then
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout 600 valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite kt_mlx5_dp $DEV > memcheck.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && grep -q '^ok threads' memcheck.out; then
		ok "kt_mlx5_dp under memcheck: no error, no definite leak ($(elapsed $t0) s)"
	else
		bad "kt_mlx5_dp under memcheck: exit $rc ($(elapsed $t0) s)"
		grep -E '==[0-9]+==|^not ok|^FAIL' memcheck.out | head -60
	fi
	nothing_left "kt_mlx5_dp under memcheck"
else
	bad "no valgrind in the guest"
fi

# --- (d) unload, and the kernel log ------------------------------------------
if rmmod mlx5_standin; then ok "rmmod mlx5_standin"; else bad "rmmod mlx5_standin"; fi
# The record from load on (record=1), bounded (record_max=8): a pingpong's
# first 8 records kept, the rest counted lost; a write clears it; the module
# unloads with its record allocated. Scatter to CQE off (scatter_cqe=0): the
# pingpong's 32-byte messages, which would come in the CQEs, arrive in the
# buffers (-c checks them), and no kept CQE has op_own's 0x04 or 0x08.
if insmod "$ko" netdev=dummy0 record=1 record_max=8 scatter_cqe=0; then
	wait_gid0 $DEV
	port=$((port + 1))
	timeout $TMO ibv_rc_pingpong -d $DEV -g 0 -n 5 -s 32 -c -p $port > rec.srv 2>&1 & sp=$!
	t=0
	until listening $port; do t=$((t + 1)); [ $t -gt 300 ] && break; sleep 0.1; done
	timeout $TMO ibv_rc_pingpong -d $DEV -g 0 -n 5 -s 32 -c -p $port 127.0.0.1 > rec.cli 2>&1; c=$?
	wait $sp; s=$?
	h=$(head -n1 $R/record) n=$(grep -c '^[WC] ' $R/record)
	if [ $s -eq 0 ] && [ $c -eq 0 ] && [ "$n" = 8 ] &&
		echo "$h" | grep -Eq '^# mlx5_standin record v1: enabled 1 records 8 lost [1-9][0-9]* '; then
		ok "record=1 record_max=8 at load: a pingpong's first 8 records kept, the rest counted ($h)"
	else
		bad "record=1 record_max=8: pingpong exit $s/$c, $n record lines, '$h'"
	fi
	# op_own is the last byte of a C line: 4-7 or 8-b in its low digit
	# would be data in the CQE
	sc=$(awk '$1 == "C" { n++; if (substr($NF, length($NF), 1) ~ /[4-9ab]/) d++ }
		  END { printf "%d %d", n, d }' $R/record)
	if [ $s -eq 0 ] && [ $c -eq 0 ] && ! grep -q 'invalid data' rec.srv rec.cli &&
		[ "${sc% *}" -gt 0 ] && [ "${sc#* }" = 0 ]; then
		ok "scatter_cqe=0: 32-byte messages checked in the buffers (-c), ${sc% *} kept CQEs, none with data"
	else
		bad "scatter_cqe=0: pingpong exit $s/$c, kept CQEs and those with data: $sc"
	fi
	grep '^[WC] ' $R/record | head -n 3 | cut -c1-120 | sed 's/^/  /'
	echo clear > $R/record
	if head -n1 $R/record | grep -q '^# mlx5_standin record v1: enabled 1 records 0 lost 0 '; then
		ok "a write clears the record"
	else
		bad "the record after a write: $(head -n1 $R/record)"
	fi
	if rmmod mlx5_standin; then ok "rmmod mlx5_standin with its record"; else bad "rmmod mlx5_standin with its record"; fi
else
	bad "insmod $ko netdev=dummy0 record=1 record_max=8"
fi
dmesg > dmesg.after
new=$(tail -n +$(($(wc -l < dmesg.before) + 1)) dmesg.after)
warn=$(echo "$new" | grep -E 'WARNING|BUG|Oops|general protection|refcount_t|leak|Call Trace|INFO: task' | head -20)
if [ -z "$warn" ]; then
	ok "the kernel log since insmod holds no warning ($(echo "$new" | grep -c .) lines)"
else
	bad "the kernel log warns:"
	echo "$warn" | sed 's/^/  /'
fi

echo "mlx5-dp: $pass passed, $fail failed ($(elapsed $t00) s in the guest)"
exit $fail
