# Sourced by the stand-in boots' guest scripts (kt_mlx5.sh, kt_mlx4.sh,
# kt_efa.sh, kt_bnxt_re.sh, kt_irdma.sh, kt_mana.sh; tests/standin/vm-standin.sh boots
# them): verdicts, the kernel's object list, and the checks of a program run
# plain and under uverbs-trace. The sourcing script sets DRV (the driver,
# for the verdicts), DEV (the stand-in's device) and TMO (seconds a program
# may run), then counts pass and fail.
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "--- PASS $DRV: $*"; }
bad() { fail=$((fail + 1)); echo "--- FAIL $DRV: $*"; }
show() { sed 's/^/  /' "$@"; }

# The summary line of DEV in `rdma resource show`.
res_line() { rdma resource show | grep " $DEV: "; }
# "pd 0 cq 0 ...": every count 0?
all_zero() { echo "$1" | awk '{ for (i = 3; i < NF; i += 2) if ($(i + 1) != 0) bad = 1 } END { exit bad }'; }
nothing_left() {	# nothing_left WHAT: the kernel holds no object of DEV
	t=0 line=$(res_line)
	while ! all_zero "$line" && [ $t -lt 20 ]; do
		sleep 0.1; t=$((t + 1)); line=$(res_line)
	done
	if [ -n "$line" ] && all_zero "$line"; then
		ok "$1: rdma resource show: nothing left on $DEV ($(echo "$line" | cut -d: -f3 | sed 's/^ *//'))"
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
