#!/bin/bash
# The whole benchmark, written to bench/RESULTS.md (between its markers; the
# rest of the file is kept) and to the plots bench/*.png.
#
#   bench/run.sh [--clean] [BUILD_DIR]        (BUILD_DIR defaults to build/)
#
# --clean deletes BUILD_DIR first, configures it with -DUVIO_WERROR=ON and
# builds it again: `bench/run.sh --clean` reruns everything from a clean
# build. Downloaded kernels and packages stay in the VM cache
# (UVIO_CACHE, ~/.cache/uvio; see tests/vm/run.sh).
#
# On the host: instructions and time per CQ CREATE build (build-cost.sh), and
# the size of the shared object. In the VM (Debian's 6.1 kernel under qemu,
# rxe and siw; bench/guest-bench.sh): CQ throughput, every verb against the
# bare floor, QP bring-up, cold start, and user-space instructions counted by
# callgrind. UVIO_BENCH_ARGS="CQ_ROUNDS,CQ_PAIRS,VERB_ROUNDS,VERB_BATCH,
# QP_ROUNDS,QP_BATCH,COLD_ROUNDS,INSN_REPEAT" sizes the runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
clean=0
if [ "${1:-}" = --clean ]; then clean=1; shift; fi
build=${1:-$top/build}
args=${UVIO_BENCH_ARGS:-9,3000,15,100,15,40,31,10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Wall times need a quiet machine: the load before anything of ours runs.
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

[ "$clean" = 1 ] && rm -rf "$build"
mkdir -p "$build"
build=$(cd "$build" && pwd)
if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$top" -B "$build" -DUVIO_WERROR=ON > "$work/cmake.log" ||
		{ tail -20 "$work/cmake.log"; exit 1; }
fi
cmake --build "$build" -j2 > "$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
[ -x "$build/bench/uverbs_bench" ] || { echo "bench: uverbs_bench was not built"; exit 1; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench: load average $load_before"
echo "bench: host build cost"
"$here/build-cost.sh" "$build" | tee "$work/host.txt"

# The shared object: sections, and its machine instructions.
so=$(readlink -f "$build/lib/libuverbs_ioctl.so")
size -A "$so" > "$work/size.txt"
objdump -d --no-show-raw-insn -j .text "$so" | grep -cE '^ +[0-9a-f]+:' > "$work/insns.txt"
size -A "$build/lib/libuverbs_ioctl.a" > "$work/size-objects.txt"

echo "bench: VM run ($args); this takes a while"
t0=$SECONDS
UVIO_BENCH_ARGS=$args UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-7200} \
	"$top/tests/vm/run.sh" "$build" linux-image-amd64 siw bench > "$work/vm.log" 2>&1 ||
	{ tail -40 "$work/vm.log"; exit 1; }
grep -qx BENCH-END "$work/vm.log" || { tail -40 "$work/vm.log"; echo "bench: incomplete"; exit 1; }
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench: VM run took $((SECONDS - t0)) s; load average $load_after"
cp "$work/vm.log" "$build/bench/vm-bench.log"

python3 "$here/report.py" --log "$work/vm.log" --host "$work/host.txt" \
	--size "$work/size.txt" --size-objects "$work/size-objects.txt" \
	--insns "$(cat "$work/insns.txt")" --so "$(basename "$so")" --args "$args" \
	--load-start "$load_start" --load-before "$load_before" --load-after "$load_after" \
	--cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)" \
	--cores "$(nproc)" --host-kernel "$(uname -r)" \
	--qemu "$(qemu-system-x86_64 --version | head -n1)" \
	--clean "$clean" --results "$here/RESULTS.md" --plots "$here"
echo "bench: wrote $here/RESULTS.md and its plots; the guest's log is $build/bench/vm-bench.log"
