#!/bin/bash
# kernel/<series>-mlx5-data: one boot of Debian's kernel with the mlx5
# stand-in (tests/standin/mlx5: the verbs and the engine that moves data),
# running tests/kernel/kt_mlx5_data.sh there: Debian's pingpongs and
# perftest on the stock libmlx5, kt_mlx5_data and kt_mlx5_soak (libibverbs
# alone); then (tests/kernel/kt_mlx5_plugin.sh) the same programs and UCX's
# verbs transports through the library's libibverbs plug-in.
#
#   mlx5-data.sh BUILD_DIR KERNEL CHECKER
#
# KERNEL as for tests/vm/run.sh (bookworm: 6.1, trixie: 6.12); CHECKER is
# kt_mlx5_data of BUILD_DIR. The exit status is the guest script's.
# UVIO_VM_MPI (CMake sets it where Open MPI is installed): mpi_check, and
# with it Open MPI's runtime from the host (tests/vm/mkinitramfs.sh) for
# the MPI job over UCX on rc_mlx5; unset, the guest says SKIP for it.
# Exits 77 (skip) with the reason when qemu, apt-get or busybox is missing,
# unless UVIO_REQUIRE_VM=1 (then it fails), as the other kernel tests do.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: mlx5-data.sh BUILD_DIR KERNEL CHECKER" >&2; exit 2; }
build=$(cd "$1" && pwd) kernel=$2 checker=$3
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/../vm
. "$vm/require.sh"
[ -x "$checker" ] || { echo "vm: FAIL: no program $checker (build the project)"; exit 1; }
soak=$(dirname "$checker")/kt_mlx5_soak	# built beside it (tests/kernel/CMakeLists.txt)
[ -x "$soak" ] || { echo "vm: FAIL: no program $soak (build the project)"; exit 1; }

t0=$SECONDS
kdir=$("$vm/fetch.sh" "$kernel" kbuild) || skip "could not fetch $kernel and its headers"
ko=$("$here/../standin/build.sh" mlx5 "$kdir") || { echo "vm: FAIL: building the mlx5 stand-in"; exit 1; }
echo "vm: mlx5 stand-in $(basename "$ko") for $(cat "$kdir/version") ready in $((SECONDS - t0)) s"
programs="$ko $checker $soak @USERLAND@/usr/bin/ibv_devices"
for p in ibv_rc_pingpong ibv_uc_pingpong ibv_srq_pingpong ibv_ud_pingpong ib_send_lat ib_write_bw ib_read_lat ib_atomic_lat \
	ucx_info ucx_perftest; do
	programs="$programs @USERLAND@/usr/bin/$p"
done
# UCX's transports (UCX_MODULE_DIR in the guest: beside the programs)
programs="$programs @USERLAND@/usr/lib/x86_64-linux-gnu/ucx/libuct_*.so.0"
# The same programs through the library's libibverbs plug-in, where the
# build has it (kt_mlx5_plugin.sh, sourced by the guest script, says SKIP
# without it).
programs="$programs $here/kt_mlx5_plugin.sh"
# The kernel's connection manager over QP1 (kt_mlx5_cm.sh, sourced too):
# librdmacm's rping, and libgcc_s, which its threads' pthread_exit loads.
programs="$programs $here/kt_mlx5_cm.sh @USERLAND@/usr/bin/rping"
programs="$programs @USERLAND@/*lib/x86_64-linux-gnu/libgcc_s.so.1"
conv=$(dirname "$checker")/ibv_conventions	# built where libibverbs is
[ -x "$conv" ] && programs="$programs $conv"
plugin=$build/providers/ibverbs/libuvio-rdmav34.so
[ -f "$plugin" ] && programs="$programs $plugin"
UVIO_VM_ALL_PROVIDERS=1 UVIO_VM_WITH="$programs" UVIO_VM_TAG=mlx5-data \
	exec "$vm/run.sh" "$build" "$kernel" run "$here/kt_mlx5_data.sh"
