#!/bin/bash
# The data-path layer against rdma-core's rxe provider, on Debian 12's kernel
# in the VM (rxe): messages per second of a loopback RDMA WRITE stream (64
# bytes, 64 in flight, one WR per post, rounds interleaved ABBA), and the
# user-space instructions of each post and poll call (callgrind, the
# kernel's share not counted). Written to bench/RESULTS.md between its
# "dp" markers (the rest of the file is kept), as "ratio ..." lines.
#
#   bench/dp.sh [BUILD_DIR [ROUNDS [MSGS]]]     (build/, 9, 20000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$(cd "${1:-$top/build}" && pwd)
rounds=${2:-9} msgs=${3:-20000}
cmake --build "$build" -j2 > /dev/null
[ -x "$build/bench/dp_stream" ] || { echo "dp.sh: dp_stream was not built (no libibverbs?)"; exit 1; }
log=$build/bench/dp-bench.log
echo "dp.sh: load average $(cut -d' ' -f1-3 /proc/loadavg); VM run: $rounds rounds of $msgs writes"
t0=$SECONDS
UVIO_BENCH_ARGS=0,0,0,0,0,0,0,0,$rounds,$msgs UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-3600} \
	"$top/tests/vm/run.sh" "$build" linux-image-amd64 bench > "$log" 2>&1 ||
	{ tail -40 "$log"; exit 1; }
grep -qx BENCH-END "$log" || { tail -40 "$log"; echo "dp.sh: incomplete"; exit 1; }
echo "dp.sh: VM run took $((SECONDS - t0)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/dp-report.py" "$log" "$top/bench/RESULTS.md" "bench/dp.sh build $rounds $msgs"
