#!/bin/bash
# kernel/<series>-<driver> (6.1-mlx5, 6.12-mlx5, ...): one boot of Debian's
# kernel with the stand-in module of a hardware driver (tests/standin/DRIVER)
# and Debian's ibverbs-providers in the guest, running
# tests/kernel/kt_DRIVER.sh there; the exit status is the guest script's,
# or 1 when the driver data of the library and of rdma-core's provider
# differ (tests/standin/compare-DRIVER.py).
#
#   vm-standin.sh DRIVER BUILD_DIR KERNEL WITNESS TRACER
#
# KERNEL as for tests/vm/run.sh (bookworm: 6.1, trixie: 6.12). WITNESS is
# the program that drives the stand-in through rdma-core's provider
# (kt_DRIVER_witness), TRACER uverbs-trace, both of BUILD_DIR; every
# executable kt_DRIVER_uvio* in BUILD_DIR/tests/kernel goes into the guest
# too, with examples/create_cq, tools/uverbs-info and bench/DRIVER_cq where
# they are built. The module is built against that kernel's Debian headers
# and cached (tests/standin/build.sh); the boot is tests/vm/run.sh's "run"
# mode with every provider of Debian's ibverbs-providers, its files named
# *-run-DRIVER in BUILD_DIR/vm. The traces the guest prints between
# "UVIO-FILE-BEGIN DRIVER/NAME" and "UVIO-FILE-END DRIVER/NAME" come back to
# BUILD_DIR/vm/DRIVER/NAME, and witness.json is compared with
# kt_DRIVER_uvio.json.
# Exits 77 (skip) with the reason when qemu, apt-get or busybox is missing,
# unless UVIO_REQUIRE_VM=1 (then it fails), as the other kernel tests do.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: vm-standin.sh DRIVER BUILD_DIR KERNEL WITNESS TRACER" >&2; exit 2; }
drv=$1 build=$(cd "$2" && pwd) kernel=$3 witness=$4 tracer=$5
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/../vm
case $drv in ''|*[!a-z0-9_]*) echo "vm: DRIVER must be a driver's name, not '$drv'" >&2; exit 2 ;; esac
script=$here/../kernel/kt_$drv.sh
[ -f "$script" ] || { echo "vm: FAIL: no guest script $script"; exit 1; }

. "$vm/require.sh"
for p in "$witness" "$tracer"; do
	[ -x "$p" ] || { echo "vm: FAIL: no program $p (build the project)"; exit 1; }
done

t0=$SECONDS
kdir=$("$vm/fetch.sh" "$kernel" kbuild) || skip "could not fetch $kernel and its headers"
ko=$("$here/build.sh" "$drv" "$kdir") || { echo "vm: FAIL: building the $drv stand-in"; exit 1; }
echo "vm: $drv stand-in $(basename "$ko") for $(cat "$kdir/version") ready in $((SECONDS - t0)) s"

programs="$ko $witness $tracer @USERLAND@/usr/bin/ibv_devices"
for p in "$build"/tests/kernel/kt_"$drv"_uvio* "$build"/tests/kernel/kt_hw_race "$build"/examples/create_cq \
	 "$build"/tools/uverbs-info "$build/bench/${drv}_cq"; do
	[ -f "$p" ] && [ -x "$p" ] && programs="$programs $p"
done
rc=0
# valgrind: for the guest script's callgrind counts and memcheck.
UVIO_VM_VALGRIND=1 UVIO_VM_ALL_PROVIDERS=1 UVIO_VM_WITH="$programs" UVIO_VM_TAG=$drv \
	"$vm/run.sh" "$build" "$kernel" run "$script" || rc=$?

# The traces the guest printed between its markers (run.sh's console log:
# a "run" boot on rxe, tagged with the driver).
log=$build/vm/console-$(cat "$kdir/series")-rxe-run-$drv.log
out=$build/vm/$drv
n=$("$vm/console-files.sh" "$log" "$drv" "$out")
echo "vm: $n trace file(s) in $out"
# The library's driver data against the provider's, field by field.
if [ -s "$out/witness.json" ] && [ -s "$out/kt_${drv}_uvio.json" ]; then
	python3 "$here/compare-$drv.py" "$out/witness.json" "$out/kt_${drv}_uvio.json" || rc=1
else
	echo "vm: FAIL: no traces of both kt_${drv}_witness and kt_${drv}_uvio to compare"
	rc=1
fi
exit "$rc"
