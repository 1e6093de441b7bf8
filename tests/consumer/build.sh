#!/bin/sh
# Build the consumer against an installed libuverbs-ioctl: with pkg-config
# and with CMake's find_package, as C and as C++.
#   build.sh PREFIX OUTDIR [TAG]   (PREFIX: where it is installed, e.g. /usr;
#                                   TAG is appended to the program names)
set -eu
prefix=$1 out=$2 tag=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
libdir=$(dirname "$(find "$prefix" -path '*pkgconfig/libuverbs-ioctl.pc' | head -n1)")
export PKG_CONFIG_PATH="$libdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# The .pc finds its tree from where it lies (a staged install, configured
# for another prefix, needs nothing more); the rpath, spelled without the
# .pc's way through pkgconfig/..
pc=pkg-config
flags="$($pc --cflags --libs libuverbs-ioctl)"
rpath="-Wl,-rpath,$(cd "$($pc --variable=libdir libuverbs-ioctl)" && pwd)"
cc -Wall -Werror -DCONSUMER_KIND='"pkg-config C"' "$here/consumer.c" $flags $rpath \
	-o "$out/consumer-pc-c"
c++ -Wall -Werror -DCONSUMER_KIND='"pkg-config C++"' "$here/consumer.cpp" $flags $rpath \
	-o "$out/consumer-pc-cxx"
# Sized structs must reach the library clean whatever the compiler and
# level: gcc and clang, -O0 and -O2 (clang -O0 once left garbage in
# UVIO_OPTS's tail padding).
extra=
for c in gcc clang; do
	command -v "$c" >/dev/null || { echo "build.sh: $c is missing" >&2; exit 1; }
	for o in O0 O2; do
		"$c" -$o -Wall -Werror -DCONSUMER_KIND="\"pkg-config C, $c -$o\"" "$here/consumer.c" \
			$flags $rpath -o "$out/consumer-pc-c-$c-$o"
		extra="$extra $out/consumer-pc-c-$c-$o"
	done
done
# lib, lib64 or lib/<multiarch>: name the config's folder rather than rely on
# the search rules of this CMake.
cfg=$(dirname "$(find "$prefix" -path '*cmake/uverbs_ioctl/uverbs_ioctlConfig.cmake' | head -n1)")
cmake -S "$here" -B "$out/cmake" -Duverbs_ioctl_DIR="$cfg" \
	-DCMAKE_BUILD_RPATH_USE_ORIGIN=OFF -DCMAKE_INSTALL_RPATH_USE_LINK_PATH=ON >/dev/null
cmake --build "$out/cmake" >/dev/null
cp "$out/cmake/consumer-cmake-c" "$out/cmake/consumer-cmake-cxx" "$out/"
if [ -n "$tag" ]; then
	for f in "$out"/consumer-pc-c "$out"/consumer-pc-cxx "$out"/consumer-cmake-c \
		 "$out"/consumer-cmake-cxx $extra; do
		mv "$f" "$f-$tag"
	done
fi
ls "$out"/consumer-*
