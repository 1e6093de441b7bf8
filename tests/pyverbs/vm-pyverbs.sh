#!/bin/bash
# kernel/SERIES-pyverbs: rdma-core's Python test suite (Debian's
# python3-pyverbs) in one boot of Debian's kernel with rxe and siw, on
# each device once with the stock provider and once with this project's
# libibverbs plug-in (tests/pyverbs/kt_pyverbs.sh in the guest). Fails when
# a test passes on stock but not on the plug-in (tests/pyverbs/compare.py).
#
#   vm-pyverbs.sh BUILD_DIR KERNEL
#
# KERNEL as for tests/vm/run.sh (bookworm: 6.1, trixie: 6.12). Every test's
# result on both, per device, is kept in BUILD_DIR/vm/pyverbs-SERIES/
# (results.tsv, and table.md: the table docs/ibverbs-provider.md quotes).
# Exits 77 (skip) as the other kernel tests do when the host cannot boot a
# guest, unless UVIO_REQUIRE_VM=1.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: vm-pyverbs.sh BUILD_DIR KERNEL" >&2; exit 2; }
build=$(cd "$1" && pwd) kernel=$2
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/../vm
cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
. "$vm/require.sh"
command -v python3 >/dev/null || skip "python3 not installed"
plugin=$build/providers/ibverbs/libuvio-rdmav34.so
[ -f "$plugin" ] || { echo "vm: FAIL: no plug-in $plugin (build the project)"; exit 1; }

py=$("$vm/guest-pyverbs.sh" "$cache") || skip "could not fetch python3-pyverbs and Python"
kdir=$("$vm/fetch.sh" "$kernel" siw) || skip "could not fetch $kernel"
series=$(cat "$kdir/series")
rc=0
# Four runs of the whole suite: an hour's bound is plenty under TCG.
UVIO_VM_TIMEOUT=${UVIO_VM_TIMEOUT:-3600} UVIO_VM_PYVERBS=$py \
UVIO_VM_WITH="$here/run_module.py $plugin" UVIO_VM_TAG=pyverbs \
	"$vm/run.sh" "$build" "$kernel" dev=rxe,siw run "$here/kt_pyverbs.sh" || rc=$?

out=$build/vm/pyverbs-$series
n=$("$vm/console-files.sh" "$build/vm/console-$series-rxe-siw-run-pyverbs.log" pyverbs "$out")
[ "$n" -ge 1 ] && [ -s "$out/results.tsv" ] ||
	{ echo "vm: FAIL: the guest printed no results"; exit 1; }
python3 "$here/compare.py" --kernel "$(cat "$kdir/version")" --table "$out/table.md" \
	"$out/results.tsv" || rc=1
exit "$rc"
