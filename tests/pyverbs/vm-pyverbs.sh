#!/bin/bash
# kernel/SERIES-pyverbs: rdma-core's Python test suite (Debian's
# python3-pyverbs) in one boot of Debian's kernel with rxe and siw, on
# each device once with the stock provider and once with this project's
# libibverbs plug-in (tests/pyverbs/kt_pyverbs.sh in the guest). Fails when
# a test passes on stock but not on the plug-in (tests/pyverbs/compare.py).
# kernel/SERIES-pyverbs-mlx5: the same on the emulated ConnectX (the mlx5
# stand-in, tests/standin/mlx5), mlx5_0 only, Debian's libmlx5 against the
# plug-in; the tests that need libmlx5 itself (mlx5dv, DEVX) are named in
# tests/pyverbs/expected-mlx5.tsv with why, and only those are let pass.
#
#   vm-pyverbs.sh BUILD_DIR KERNEL [rxe,siw|mlx5]
#
# KERNEL as for tests/vm/run.sh (bookworm: 6.1, trixie: 6.12). Every test's
# result on both, per device, is kept in BUILD_DIR/vm/pyverbs-SERIES/
# (pyverbs-mlx5-SERIES/ for mlx5; results.tsv, and table.md: the table
# docs/ibverbs-provider.md quotes).
# Exits 77 (skip) as the other kernel tests do when the host cannot boot a
# guest, unless UVIO_REQUIRE_VM=1.
set -euo pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: vm-pyverbs.sh BUILD_DIR KERNEL [rxe,siw|mlx5]" >&2; exit 2; }
build=$(cd "$1" && pwd) kernel=$2 devs=${3:-rxe,siw}
case $devs in rxe,siw|mlx5) ;; *) echo "vm-pyverbs.sh: no device set $devs (rxe,siw or mlx5)" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/../vm
cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
. "$vm/require.sh"
command -v python3 >/dev/null || skip "python3 not installed"
plugin=$build/providers/ibverbs/libuvio-rdmav34.so
[ -f "$plugin" ] || { echo "vm: FAIL: no plug-in $plugin (build the project)"; exit 1; }

py=$("$vm/guest-pyverbs.sh" "$cache") || skip "could not fetch python3-pyverbs and Python"
with="$here/run_module.py $plugin" guest_devs= expected= sub=
if [ "$devs" = mlx5 ]; then
	# The stand-in goes in as one more program (the guest's init loads it:
	# mlx5_0 and mlx5_1); every provider Debian ships, libmlx5 among them,
	# as on a real system. The suite runs on mlx5_0 alone: mlx5_1 is the
	# same device again, twice the time for nothing more.
	kdir=$("$vm/fetch.sh" "$kernel" kbuild) || skip "could not fetch $kernel and its headers"
	ko=$("$here/../standin/build.sh" mlx5 "$kdir") || { echo "vm: FAIL: building the mlx5 stand-in"; exit 1; }
	# The list goes in too: the guest runs its tests only once
	# (kt_pyverbs.sh's retry_worse), compare.py judges them by it.
	with="$with $ko $here/expected-mlx5.tsv" guest_devs=mlx5_0 sub=-mlx5
	expected="--expected $here/expected-mlx5.tsv"
	export UVIO_VM_ALL_PROVIDERS=1
else
	kdir=$("$vm/fetch.sh" "$kernel" siw) || skip "could not fetch $kernel"
fi
series=$(cat "$kdir/series")
rc=0
t0=$SECONDS
# Four runs of the whole suite on rxe and siw (two on mlx5_0): an hour's
# bound is plenty under TCG.
UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-3600} UVIO_VM_PYVERBS=$py \
UVIO_VM_WITH="$with" UVIO_VM_TAG=pyverbs \
	"$vm/run.sh" "$build" "$kernel" "dev=$devs" run "$here/kt_pyverbs.sh" $guest_devs || rc=$?
echo "vm: the boot took $((SECONDS - t0)) s"

out=$build/vm/pyverbs$sub-$series
n=$("$vm/console-files.sh" "$build/vm/console-$series-${devs/,/-}-run-pyverbs.log" pyverbs "$out")
[ "$n" -ge 1 ] && [ -s "$out/results.tsv" ] ||
	{ echo "vm: FAIL: the guest printed no results"; exit 1; }
python3 "$here/compare.py" --kernel "$(cat "$kdir/version")" --table "$out/table.md" \
	$expected "$out/results.tsv" || rc=1
exit "$rc"
