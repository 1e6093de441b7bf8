#!/bin/bash
# This library's libibverbs provider against rdma-core's stock rxe provider
# across two guests of Debian 12's kernel, rxe on each one's NIC:
# ucx_perftest tag_lat and tag_bw over UCX's rc_verbs, and Open MPI's
# ping-pong (tests/kernel/mpi_check, one rank per guest, over UCX); the two
# providers interleaved in the same boots, medians and per-round ratios.
# Written to bench/RESULTS.md between its "provider2" markers (the rest of
# the file is kept). Needs Open MPI on the host (openmpi-bin,
# libopenmpi-dev): the guests take its runtime from there.
#
#   bench/provider-2guests.sh [BUILD_DIR [ROUNDS [ITERS]]]   (build/, 9, 1000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$(cd "${1:-$top/build}" && pwd)
rounds=${2:-9} iters=${3:-1000}
cmake --build "$build" -j2 > /dev/null
plugin=$build/providers/ibverbs/libuvio-rdmav34.so
mpi=$build/tests/kernel/mpi_check
[ -f "$plugin" ] || { echo "provider-2guests.sh: $plugin was not built (libibverbs 34 to 56 needed)"; exit 1; }
[ -f "$mpi" ] || { echo "provider-2guests.sh: $mpi was not built (openmpi-bin and libopenmpi-dev needed)"; exit 1; }
mkdir -p "$build/bench"
log=$build/bench/provider-2guests.log
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "provider-2guests.sh: load average $load0; two guests, $rounds rounds of $iters"
t0=$SECONDS
UVIO_VM_ARGS=$rounds,$iters UVIO_VM_MPI=$mpi UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-3600} \
	"$top/tests/vm/run-multi.sh" "$build" bookworm 2 "$here/guest-provider-2guests.sh" \
	server client -- "$top/tests/kernel/guest-lib.sh" "$top/tests/kernel/mpi-rsh.sh" \
	> "$log" 2>&1 || { tail -40 "$log"; exit 1; }
grep -q "PROV-END" "$log" || { tail -40 "$log"; echo "provider-2guests.sh: incomplete"; exit 1; }
load1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "provider-2guests.sh: VM run took $((SECONDS - t0)) s; load average $load1"
python3 "$here/provider-report.py" --two-guests "$log" "$top/bench/RESULTS.md" \
	"bench/provider-2guests.sh BUILD $rounds $iters" "$load0" "$load1" "$((SECONDS - t0))"
