#!/bin/sh
# Install what building and testing needs on Debian 12 (run as root).
# The VM suite also fetches a kernel and guest packages at test time, into
# the build directory, with apt-get download: nothing goes into /boot.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential cmake pkg-config ca-certificates \
	libcmocka-dev libnl-3-dev libibverbs-dev ibverbs-providers libseccomp-dev \
	valgrind libc6-dbg gcovr g++ pandoc abigail-tools clang libclang-rt-14-dev \
	debhelper dpkg-dev lintian rpm rpmlint git \
	qemu-system-x86 busybox-static kmod cpio xz-utils zstd bc flex bison \
	libelf-dev libssl-dev
