#!/bin/sh
# Run a program of yours against a real kernel's rxe or siw: Debian's kernel
# booted under qemu (about 5 s), the program copied in with the libraries it
# loads, its output streamed as the guest prints it, its exit status ours.
#
#   scripts/vm-run.sh [--kernel SUITE] [--dev rxe|siw|rxe,siw|mlx5] PROGRAM [ARGS...]
#
# SUITE: bookworm (Linux 6.1, the default), bullseye (5.10), trixie (6.12),
# sid (the newest). The devices are rxe0 and/or siw0 on a dummy netdev whose
# address is 192.0.2.1; the program runs as root in /tmp. The project is
# built first (in build/, or UVIO_BUILD), since the guest's harness comes
# from it; kernels and packages are cached in ~/.cache/uvio.
#
# --dev mlx5: the emulated ConnectX instead (tests/standin/mlx5, a test
# module built here against that kernel's headers, bookworm or trixie):
# mlx5_0 on dummy0 (192.0.2.1) and mlx5_1 on dummy1 (no address), Debian's libmlx5 in
# the guest beside the library. What it covers and where it differs from a
# ConnectX: docs/hardware.md. UVIO_VM_WITH adds programs (as for run.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${UVIO_BUILD:-$top/build}
kernel=bookworm dev=rxe
usage() {
	echo "usage: scripts/vm-run.sh [--kernel bookworm|bullseye|trixie|sid] [--dev rxe|siw|rxe,siw|mlx5] PROGRAM [ARGS...]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	--dev) [ $# -ge 2 ] || usage; dev=$2; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage
if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$top" -B "$build" > /dev/null
fi
cmake --build "$build" -j"$(nproc)" > /dev/null
if [ "$dev" = mlx5 ]; then
	# The module goes in as one more program; the guest's init loads it.
	kdir=$("$top/tests/vm/fetch.sh" "$kernel" kbuild) ||
		{ echo "vm-run: could not fetch $kernel with its headers" >&2; exit 1; }
	ko=$("$top/tests/standin/build.sh" mlx5 "$kdir") ||
		{ echo "vm-run: building the mlx5 stand-in failed" >&2; exit 1; }
	UVIO_VM_WITH="$ko ${UVIO_VM_WITH:-}" UVIO_VM_ALL_PROVIDERS=1
	export UVIO_VM_WITH UVIO_VM_ALL_PROVIDERS
fi
exec "$top/tests/vm/run.sh" "$build" "$kernel" "dev=$dev" run "$@"
