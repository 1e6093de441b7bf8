#!/bin/sh
# Where a cold start spends its time, from the guest kernel's own clock: the
# raw_syscalls and page_fault_user tracepoints around RUNS runs of
# bench/cold_uvio (open rxe0 by name, context, PD, first CQ), after six runs
# not recorded; then, per system call in the order a run makes them, the
# median user-space time before it, its own time, and the faults before it.
#
#   bench/cold-trace.sh [BUILD_DIR [RUNS]]        (build/, 25)
#
# Under TCG the user-space time between two calls is mostly the translation
# of code the process runs for the first time.
set -eu
if [ "${1:-}" = --guest ]; then
	runs=$2 T=/sys/kernel/tracing
	cd /opt/uvio/bin
	mount -t tracefs nodev $T 2> /dev/null || true
	echo 16384 > $T/buffer_size_kb
	i=0; while [ $i -lt 6 ]; do ./cold_uvio 0 rxe0 cq > /dev/null; i=$((i + 1)); done
	echo > $T/trace
	for e in raw_syscalls exceptions/page_fault_user sched/sched_process_exec \
		 sched/sched_process_exit; do
		echo 1 > $T/events/$e/enable
	done
	i=0; while [ $i -lt "$runs" ]; do ./cold_uvio 0 rxe0 cq > /dev/null; i=$((i + 1)); done
	echo 0 > $T/events/enable
	# One line per run: "TRACE-RUN nr:gap_us:dur_us:faults ..."
	grep -v '^#' $T/trace | awk '
		/sched_process_exec/ && /filename=.\/cold_uvio/ { on = 1; last = $4; nf = 0; printf "TRACE-RUN"; next }
		!on || index($1, "cold_uvio-") != 1 { next }
		/page_fault_user/ { nf++; next }
		/sys_enter/ { t = $4; printf " %s:%.0f", $7, (t - last) * 1e6 }
		/sys_exit/ { if (t) printf ":%.0f:%d", ($4 - t) * 1e6, nf; last = $4; t = 0; nf = 0 }
		/sched_process_exit/ { printf " exit:%.0f:0:%d\n", ($4 - last) * 1e6, nf; on = 0 }'
	exit 0
fi

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
runs=${2:-25}
cmake --build "$build" -j"$(nproc)" > /dev/null
log=$build/bench/cold-trace.log
UVIO_BUILD=$build UVIO_VM_LIBPATH=$build/lib UVIO_VM_WITH="$build/bench/cold_uvio" \
	"$top/scripts/vm-run.sh" --dev rxe "$0" --guest "$runs" > "$log" 2>&1 ||
	{ tail -20 "$log"; exit 1; }
tr -d '\r' < "$log" | grep '^TRACE-RUN' | python3 -c '
import collections, statistics, sys
runs = [[tuple((x.split(":") + ["0", "0"])[:4]) for x in l.split()[1:]] for l in sys.stdin]
shape = collections.Counter(tuple(s[0] for s in r) for r in runs).most_common(1)[0][0]
runs = [r for r in runs if tuple(s[0] for s in r) == shape]
print(f"{len(runs)} runs of the commonest shape ({len(shape)} calls); medians, microseconds")
print("step syscall user before in kernel faults   total")
total, at_cq = 0, None
for i, nr in enumerate(shape):
    gap, dur, flt = (statistics.median(int(r[i][k]) for r in runs) for k in (1, 2, 3))
    total += gap + dur
    print(f"{i:4} {nr:>7} {gap:11.0f} {dur:9.0f} {flt:6.0f} {total:7.0f}")
    if nr == "228" and at_cq is None:	# clock_gettime: cold_report, the CQ exists
        at_cq = (i, total)
if at_cq:
    print(f"the first CQ (the program reads the clock, step {at_cq[0]}): {at_cq[1]:.0f} us after exec")
'
echo "cold-trace: the guest log is $log"
