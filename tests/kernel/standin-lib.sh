# Sourced by the stand-in boots' guest scripts (kt_mlx5.sh, kt_mlx4.sh,
# kt_efa.sh, kt_bnxt_re.sh, kt_irdma.sh, kt_mana.sh; tests/standin/vm-standin.sh boots
# them): verdicts, the kernel's object list, the checks of a program run
# plain and under uverbs-trace, and the steps every boot takes (below:
# kt_mana.sh and kt_efa.sh take them all; kt_mlx4.sh, kt_bnxt_re.sh and
# kt_irdma.sh all but the device's (each waits for its own GID) and the
# refusals' count (each knows its exact number); kt_mlx5.sh some). The
# sourcing script sets DRV (the driver, for the verdicts), DEV (the
# stand-in's device) and TMO (seconds a program may run), then counts pass
# and fail.
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "--- PASS $DRV: $*"; }
bad() { fail=$((fail + 1)); echo "--- FAIL $DRV: $*"; }
show() { sed 's/^/  /' "$@"; }

# The summary line of DEV in `rdma resource show`.
res_line() { rdma resource show | grep " $DEV: "; }
# The objects the kernel holds on DEV for itself, which stay as long as the
# device (on a device with kernel verbs, the MAD layer's PD, CQ and QP1):
# "pd 1 cq 1 qp 1 ...", the lines of each type that name no process.
kernel_owned() {
	for t in pd cq qp mr srq cm_id ctx; do
		printf '%s %s ' $t "$(rdma resource show $t 2>/dev/null |
			grep -E "(dev|link) $DEV[/ ]" | grep -vc " pid ")"
	done
}
# all_zero LINE [OWN]: "pd 0 cq 0 ...", every count 0, or the kernel's
# own count OWN ("pd 1 cq 1 ...") of that type?
all_zero() {
	echo "$1|${2:-}" | awk -F'|' '{ n = split($2, k, " "); for (i = 1; i < n; i += 2) own[k[i]] = k[i + 1]
		m = split($1, f, " "); for (i = 3; i < m; i += 2) if (f[i + 1] != own[f[i]] + 0) bad = 1 }
		END { exit bad }'
}
nothing_left() {	# nothing_left WHAT: the kernel holds no object of DEV but its own
	t=0 line=$(res_line) own=$(kernel_owned)
	while ! all_zero "$line" "$own" && [ $t -lt 20 ]; do
		sleep 0.1; t=$((t + 1)); line=$(res_line) own=$(kernel_owned)
	done
	if [ -n "$line" ] && all_zero "$line" "$own"; then
		ok "$1: rdma resource show: nothing left on $DEV ($(echo "$line" | cut -d: -f3 | sed 's/^ *//')$(all_zero "$line" || echo ": the kernel's own"))"
	else
		bad "$1: objects left on $DEV: $line"
		rdma resource show qp; rdma resource show cq; rdma resource show mr
	fi
}

# got_context FILE: the JSON trace holds a GET_CONTEXT the kernel answered 0
got_context() { grep '"name":"DEVICE.GET_CONTEXT",' "$1" | grep -q '"ret":0,'; }
# json_objects FILE: "TYPE created destroyed" for each type the trace shows.
json_objects() {
	grep -o '"type":"[a-z_]*","handle":[0-9]*,"\(created\|destroyed\)"' "$1" |
		sed 's/"type":"\([a-z_]*\)","handle":[0-9]*,"\([a-z]*\)"/\1 \2/' | sort | uniq -c |
		awk '{ n[$2] = n[$2] " " $3 "=" $1 } END { for (t in n) print t n[t] }' | sort
}
# balanced FILE [FD]: every object the trace saw created, destroyed (a
# handle may come back for a later object: counted per type and handle),
# but for the context and the event files, which end with the fd, and for
# the objects of fd FD (a context closed with its objects in it)
balanced() {
	if [ -n "${2:-}" ]; then grep -v "\"fd\":$2," "$1"; else cat "$1"; fi |
		grep -o '"type":"[a-z_]*","handle":[0-9]*,"\(created\|destroyed\)"' |
		grep -v '"type":"\(ctx\|async_event\|comp_channel\)"' |
		sed 's/"type":"\([a-z_]*\)","handle":\([0-9]*\),"\([a-z]*\)"/\1 \2 \3/' |
		awk '{ k = $1 " " $2; if ($3 == "created") c[k]++; else d[k]++ }
		     END { for (k in c) if (c[k] != d[k]) { print "  not destroyed: " k; bad = 1 }
			   exit bad }'
}
# commands FILE: the commands in order, one line each, with their answers
commands() {
	sed -n 's/.*"ibdev":"'"$DEV"'","name":"\([^"]*\)","unknown":[0-9]*,"ret":\(-*[0-9]*\),\("errno":"\([A-Z0-9]*\)"\)*.*/\1 = \2 \4/p' "$1" |
		awk '{ printf "  %3d %s\n", NR, $0 }'
}
# run_three NAME PROGRAM [ARGS...]: plain, under uverbs-trace (NAME.txt) and
# under uverbs-trace --json (NAME.json); true when all three end 0
run_three() {
	n=$1; shift
	timeout $TMO "$@" > "$n.out" 2>&1; r1=$?
	timeout $TMO uverbs-trace -o "$n.txt" "$@" > "$n.txt.out" 2>&1; r2=$?
	timeout $TMO uverbs-trace --json -o "$n.json" "$@" > "$n.json.out" 2>&1; r3=$?
	echo "  $n: exit $r1 plain, $r2 traced, $r3 traced as JSON; $(wc -l < "$n.json") commands traced"
	[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ $r3 -eq 0 ]
}

# wait_gid0 DEV...: until each device's port 1 has a GID 0 other than zero
# (RoCE fills it from the netdev a moment after the device appears), 5 s
# at most each; the checks that follow say what is missing.
wait_gid0() {
	for wg_dev in "$@"; do
		wg_t=0
		until grep -qv '^0000:0000:0000:0000:0000:0000:0000:0000$' \
			/sys/class/infiniband/$wg_dev/ports/1/gids/0 2>/dev/null; do
			wg_t=$((wg_t + 1)); [ $wg_t -gt 100 ] && break
			sleep 0.05
		done
	done
}

# ---- the steps every stand-in boot takes (kt_mana.sh uses them all) ----
# The sourcing script sets B (the programs' folder) as well.

# standin_device ABI [INSMOD_ARGS...]: insmod $B/$DRV-*.ko (the boot ends
# when that fails), wait for the port's first GID, and check that the
# kernel (rdma dev) and libibverbs (ibv_devices) see $DEV with uverbs ABI
# version ABI.
standin_device() {
	want_abi=$1; shift
	ko=$(ls $B/$DRV-*.ko 2>/dev/null | head -n1)
	if [ -z "$ko" ] || ! insmod "$ko" "$@"; then
		bad "insmod ${ko:-(no stand-in module in $B)} $*"
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
	if grep -q " $DEV: " rdma-dev.txt && grep -qw "$DEV" ibv-devices.txt && [ "$abi" = "$want_abi" ]; then
		ok "rdma dev and ibv_devices see $DEV, uverbs ABI version $abi"
	else
		bad "$DEV not seen (uverbs ABI version '${abi}')"
	fi
	show rdma-dev.txt ibv-devices.txt
}

# witness_traced PROGRAM: the witness under uverbs-trace as text and as
# JSON (witness.txt, witness.json), its commands listed, every command,
# attribute and driver-data field named, every object it created
# destroyed, nothing left on $DEV.
witness_traced() {
	w=$1
	if run_three witness "$w" $DEV && grep -q "^$w: PASS\$" witness.txt.out &&
	   grep -q "^$w: PASS\$" witness.json.out; then
		ok "$w under uverbs-trace, as text and as JSON"
	else
		bad "$w under uverbs-trace"
		show witness.txt.out witness.json.out
	fi
	echo "  the commands the provider sent for the witness, in order:"
	commands witness.json
	unnamed=$(grep -c '"unknown":[1-9]' witness.json)
	words=$(grep -vE '^ *error ' witness.txt | grep -E 'unknown|driver \?|\?\(' | head -5)
	# driver data shown as bare bytes: no layout of the driver's for it
	words="$words$({ sed -n 's/^[^=]* UHW_\(IN\|OUT\) [^=]* = //p' witness.txt
		sed -n 's/^ *driver data \(in\|out\) = //p' witness.txt; } |
		grep -E '^[0-9a-f]{2}(:|$| )' | head -3)"
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
	nothing_left "$w traced"
}

# uvio_programs: every $B/kt_${DRV}_uvio* plain, traced as text and as JSON,
# its commands listed, every object it created destroyed (but those of a
# handle it says it closed with objects alive: "closed with objects: fd N"),
# nothing left on $DEV.
uvio_programs() {
	found=0
	for p in $B/kt_${DRV}_uvio*; do
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
		kept=$(sed -n 's/^  closed with objects: fd \([0-9]*\)$/\1/p' "$n.json.out" | head -n1)
		if balanced "$n.json" "$kept"; then
			ok "$n: every object it created destroyed${kept:+ (but fd $kept's, closed with its objects: the close freed them)}"
		else
			bad "$n: objects not destroyed"
		fi
		nothing_left "$n"
	done
	[ $found = 1 ] || bad "no kt_${DRV}_uvio program in $B"
}

# refusals_reported MIN REGEX: kt_${DRV}_uvio printed at least MIN
# "  refused: MESSAGE" lines, each matching REGEX (its command and errno),
# and no failure.
refusals_reported() {
	o=kt_${DRV}_uvio.out
	if [ ! -f "$o" ]; then
		bad "refusals: no output of kt_${DRV}_uvio"
		return
	fi
	nref=$(grep -c '^  refused: ' "$o")
	named=$(grep '^  refused: ' "$o" | grep -c -E "$2")
	if [ "$nref" -ge "$1" ] && [ "$named" = "$nref" ] && ! grep -q '^FAIL' "$o"; then
		ok "refusals: $nref of $DRV's refusals reported, each naming its command and errno"
	else
		bad "refusals: $nref reported, $named naming command and errno"
	fi
	grep '^  refused: ' "$o" | sed 's/^/  /'
}

# user_programs: examples/create_cq and uverbs-info on $DEV, as a user runs
# them (where they are in $B).
user_programs() {
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
}

# uvio_memcheck: kt_${DRV}_uvio under valgrind's memcheck, then nothing
# left on $DEV.
uvio_memcheck() {
	p=kt_${DRV}_uvio
	if [ -x $B/$p ] && command -v valgrind >/dev/null; then
		timeout $TMO valgrind --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite $p $DEV > memcheck.out 2>&1; rc=$?
		if [ $rc -eq 0 ]; then
			ok "$p under memcheck: $(grep -o 'ERROR SUMMARY: [0-9]* errors' memcheck.out)"
		else
			bad "$p under memcheck: exit $rc"
			grep -E '==[0-9]+==' memcheck.out | head -60
		fi
		nothing_left "$p under memcheck"
	else
		bad "no valgrind or no $p in the guest for memcheck"
	fi
}

# hw_race [ROUNDS]: kt_hw_race (1000 rounds), four threads sharing one handle of $DEV
# creating, using and destroying what the driver half keeps memory for;
# zero wrong answers, every verb done, nothing left on $DEV.
hw_race() {
	if [ ! -x $B/kt_hw_race ]; then
		bad "no kt_hw_race in the guest"
		return
	fi
	t0=$(date +%s)
	timeout $((TMO * 3)) kt_hw_race $DEV ${1:-1000} > hw_race.out 2>&1; rc=$?
	if [ $rc -eq 0 ]; then
		ok "threads sharing $DEV: $(tail -n1 hw_race.out) ($(( $(date +%s) - t0 )) s)"
	else
		bad "threads sharing $DEV: exit $rc"
		tail -n 20 hw_race.out
	fi
	nothing_left "kt_hw_race"
}

# print_traces: the traces between "UVIO-FILE-BEGIN $DRV/NAME" and
# "UVIO-FILE-END $DRV/NAME" lines, for the host (tests/standin/vm-standin.sh).
print_traces() {
	for f in witness.json witness.txt kt_${DRV}_uvio*.json kt_${DRV}_uvio*.txt; do
		[ -f "$f" ] || continue
		echo "UVIO-FILE-BEGIN $DRV/$f"
		cat "$f"
		echo "UVIO-FILE-END $DRV/$f"
	done
}
