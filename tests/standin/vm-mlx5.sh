#!/bin/bash
# kernel/6.1-mlx5, kernel/6.12-mlx5: one boot of Debian's kernel with the
# mlx5 stand-in module (tests/standin/mlx5) and Debian's libmlx5 in the guest, running
# tests/kernel/kt_mlx5.sh there; the exit status is the guest script's.
#
#   vm-mlx5.sh BUILD_DIR KERNEL WITNESS TRACER
#
# KERNEL as for tests/vm/run.sh (bookworm: 6.1, trixie: 6.12; the stand-in
# knows these two kernels' rules). WITNESS is kt_mlx5_witness,
# TRACER uverbs-trace, both of BUILD_DIR; every executable kt_mlx5_uvio* in
# BUILD_DIR/tests/kernel goes into the guest too, where kt_mlx5.sh runs it.
# The module is built against that kernel's Debian headers, and cached
# (tests/standin/build.sh); the boot is tests/vm/run.sh's "run" mode with
# every provider of Debian's ibverbs-providers, libmlx5 among them, its
# files named *-run-mlx5 in BUILD_DIR/vm. The traces the guest prints come
# back to BUILD_DIR/vm/mlx5/.
# Exits 77 (skip) with the reason when qemu, apt-get or busybox is missing,
# unless UVIO_REQUIRE_VM=1 (then it fails), as the other kernel tests do.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: vm-mlx5.sh BUILD_DIR KERNEL WITNESS TRACER" >&2; exit 2; }
build=$(cd "$1" && pwd) kernel=$2 witness=$3 tracer=$4
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/../vm

skip() {
	if [ "${UVIO_REQUIRE_VM:-0}" = 1 ]; then echo "vm: FAIL: $*"; exit 1; fi
	echo "vm: SKIP: $*"; exit 77
}
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
command -v apt-get >/dev/null || skip "apt-get not available to fetch Debian's kernel"
[ -x /bin/busybox ] || skip "busybox not installed (apt-get install busybox-static)"
for p in "$witness" "$tracer"; do
	[ -x "$p" ] || { echo "vm: FAIL: no program $p (build the project)"; exit 1; }
done

t0=$SECONDS
kdir=$("$vm/fetch.sh" "$kernel" kbuild) || skip "could not fetch $kernel and its headers"
ko=$("$here/build.sh" mlx5 "$kdir") || { echo "vm: FAIL: building the mlx5 stand-in"; exit 1; }
echo "vm: mlx5 stand-in $(basename "$ko") for $(cat "$kdir/version") ready in $((SECONDS - t0)) s"

programs="$ko $witness $tracer @USERLAND@/usr/bin/ibv_devices"
for p in "$build"/tests/kernel/kt_mlx5_uvio* "$build"/examples/create_cq \
	 "$build"/tools/uverbs-info "$build"/bench/mlx5_cq; do
	[ -f "$p" ] && [ -x "$p" ] && programs="$programs $p"
done
rc=0
# valgrind: callgrind's instruction counts and memcheck (kt_mlx5.sh (h), (i)).
UVIO_VM_VALGRIND=1 UVIO_VM_ALL_PROVIDERS=1 UVIO_VM_WITH="$programs" UVIO_VM_TAG=mlx5 \
	"$vm/run.sh" "$build" "$kernel" run "$here/../kernel/kt_mlx5.sh" || rc=$?

# The traces the guest printed between its markers (run.sh's console log:
# a "run" boot on rxe, tagged mlx5).
log=$build/vm/console-$(cat "$kdir/series")-rxe-run-mlx5.log
out=$build/vm/mlx5
rm -rf "$out" && mkdir -p "$out"
if [ -f "$log" ]; then
	awk -v dir="$out" '
		/^UVIO-FILE-BEGIN mlx5\// { f = dir "/" substr($2, 6); printf "" > f; next }
		/^UVIO-FILE-END / { if (f) close(f); f = ""; next }
		f { print >> f }' "$log"
fi
n=$(find "$out" -type f | wc -l)
echo "vm: $n trace file(s) in $out"
# The library's driver data against libmlx5's, field by field.
if [ -s "$out/witness.json" ] && [ -s "$out/kt_mlx5_uvio.json" ]; then
	python3 "$here/compare-mlx5.py" "$out/witness.json" "$out/kt_mlx5_uvio.json" || rc=1
else
	echo "vm: FAIL: no traces of both kt_mlx5_witness and kt_mlx5_uvio to compare"
	rc=1
fi
exit "$rc"
