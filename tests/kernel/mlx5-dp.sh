#!/bin/bash
# kernel/<series>-mlx5-dp: one boot of Debian's kernel with the mlx5 stand-in
# (tests/standin/mlx5: the verbs and the engine that moves data as a
# ConnectX does), running tests/kernel/kt_mlx5_dp.sh there: the library's
# own mlx5 data path (providers/mlx5.c) through kt_mlx5_dp and
# examples/rc_pingpong, the latter against Debian's ibv_rc_pingpong on the
# stock libmlx5, and kt_mlx5_wqe_compare (the library's WQEs against
# libmlx5's, as the engine recorded them).
#
#   mlx5-dp.sh BUILD_DIR KERNEL KT_MLX5_DP RC_PINGPONG KT_MLX5_OWN_WQE [WQE_COMPARE]
#
# WQE_COMPARE is "-" (or absent) when it was not built (no libibverbs and
# libmlx5 to link): the guest then says the comparison did not run.
# KERNEL as for tests/vm/run.sh (bookworm: 6.1, trixie: 6.12). The exit status is the
# guest script's. Exits 77 (skip) with the reason when qemu, apt-get or
# busybox is missing, unless UVIO_REQUIRE_VM=1 (then it fails), as the
# other kernel tests do.
set -euo pipefail
[ $# -eq 5 ] || [ $# -eq 6 ] ||
	{ echo "usage: mlx5-dp.sh BUILD_DIR KERNEL KT_MLX5_DP RC_PINGPONG KT_MLX5_OWN_WQE [WQE_COMPARE]" >&2; exit 2; }
build=$(cd "$1" && pwd) kernel=$2 checker=$3 example=$4 own=$5 compare=${6:--}
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/../vm
. "$vm/require.sh"
for p in "$checker" "$example" "$own"; do
	[ -x "$p" ] || { echo "vm: FAIL: no program $p (build the project)"; exit 1; }
done

t0=$SECONDS
kdir=$("$vm/fetch.sh" "$kernel" kbuild) || skip "could not fetch $kernel and its headers"
ko=$("$here/../standin/build.sh" mlx5 "$kdir") || { echo "vm: FAIL: building the mlx5 stand-in"; exit 1; }
echo "vm: mlx5 stand-in $(basename "$ko") for $(cat "$kdir/version") ready in $((SECONDS - t0)) s"
programs="$ko $checker $example $own @USERLAND@/usr/bin/ibv_devices @USERLAND@/usr/bin/ibv_rc_pingpong"
if [ "$compare" != - ]; then
	[ -x "$compare" ] || { echo "vm: FAIL: no program $compare (build the project)"; exit 1; }
	programs="$programs $compare"
fi
# valgrind: kt_mlx5_dp under memcheck (kt_mlx5_dp.sh).
UVIO_VM_VALGRIND=1 UVIO_VM_ALL_PROVIDERS=1 UVIO_VM_WITH="$programs" UVIO_VM_TAG=mlx5-dp \
	exec "$vm/run.sh" "$build" "$kernel" run "$here/kt_mlx5_dp.sh"
