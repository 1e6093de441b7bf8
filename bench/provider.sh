#!/bin/bash
# This library's libibverbs provider against rdma-core's stock rxe provider,
# side by side in one boot of Debian 12's kernel (rxe0): perftest latency
# and bandwidth, and the rate of ibv_create_qp / ibv_modify_qp to RTS /
# ibv_destroy_qp through libibverbs (bench/qp_cycle.c); rounds
# interleaved, medians. Written to bench/RESULTS.md between its "provider"
# markers (the rest of the file is kept), as "ratio ..." lines.
#
#   bench/provider.sh [BUILD_DIR [ROUNDS [ITERS [CYCLES]]]]   (build/, 15, 1000, 400)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$(cd "${1:-$top/build}" && pwd)
rounds=${2:-15} iters=${3:-1000} cycles=${4:-400}
cmake --build "$build" -j2 > /dev/null
plugin=$build/providers/ibverbs/libuvio-rdmav34.so
for f in "$plugin" "$build/bench/qp_cycle"; do
	[ -f "$f" ] || { echo "provider.sh: $f was not built (libibverbs 34 to 56 needed)"; exit 1; }
done
log=$build/bench/provider-bench.log
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "provider.sh: load average $load0; VM run: $rounds rounds"
t0=$SECONDS
UVIO_BUILD=$build UVIO_VM_VALGRIND=1 UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-3600} \
UVIO_VM_WITH="$plugin $build/bench/qp_cycle @USERLAND@/usr/bin/ib_send_lat @USERLAND@/usr/bin/ib_write_bw" \
	"$top/scripts/vm-run.sh" --dev rxe "$here/guest-provider.sh" "$rounds" "$iters" "$cycles" \
	> "$log" 2>&1 || { tail -40 "$log"; exit 1; }
grep -q "^PROV-END" "$log" || { tail -40 "$log"; echo "provider.sh: incomplete"; exit 1; }
load1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "provider.sh: VM run took $((SECONDS - t0)) s; load average $load1"
python3 "$here/provider-report.py" "$log" "$top/bench/RESULTS.md" \
	"bench/provider.sh BUILD $rounds $iters $cycles" "$load0" "$load1" "$((SECONDS - t0))"
