#!/bin/sh
# Run a program of yours against a real kernel's rxe or siw: Debian's kernel
# booted under qemu (about 5 s), the program copied in with the libraries it
# loads, its output streamed as the guest prints it, its exit status ours.
#
#   scripts/vm-run.sh [--kernel SUITE] [--dev rxe|siw|rxe,siw] PROGRAM [ARGS...]
#
# SUITE: bookworm (Linux 6.1, the default), bullseye (5.10), trixie (6.12),
# sid (the newest). The devices are rxe0 and/or siw0 on a dummy netdev whose
# address is 192.0.2.1; the program runs as root in /tmp. The project is
# built first (in build/, or UVIO_BUILD), since the guest's harness comes
# from it; kernels and packages are cached in ~/.cache/uvio.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${UVIO_BUILD:-$top/build}
kernel=bookworm dev=rxe
usage() {
	echo "usage: scripts/vm-run.sh [--kernel bookworm|bullseye|trixie|sid] [--dev rxe|siw|rxe,siw] PROGRAM [ARGS...]" >&2
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
exec "$top/tests/vm/run.sh" "$build" "$kernel" "dev=$dev" run "$@"
