#!/bin/sh
# Install what building and testing needs on Debian 12 (as root, or through
# sudo).
# The VM suite also fetches Debian's kernels (bullseye to sid) and guest
# packages at test time, with apt-get download and a private apt
# configuration, into ~/.cache/uvio: nothing goes into /boot or the
# system's apt state.
set -eu
# As root it runs as is; otherwise through sudo, when there is one.
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "install-deps.sh: run as root (no sudo here)" >&2; exit 1; }
	exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential cmake pkg-config ca-certificates \
	libcmocka-dev libnl-3-dev libibverbs-dev ibverbs-providers libseccomp-dev \
	openmpi-bin libopenmpi-dev \
	valgrind libc6-dbg gcovr g++ pandoc abigail-tools clang libclang-rt-14-dev \
	debhelper dpkg-dev lintian rpm rpmlint git \
	qemu-system-x86 busybox-static kmod cpio xz-utils zstd bc flex bison \
	libelf-dev libssl-dev debootstrap iproute2 \
	python3 gnuplot-nox
